package gjsoncheck_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/seed72891827/kfuzz/corpus"
	gjsoncheck "github.com/seed72891827/kfuzz/examples/thirdparty/gjson"
	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

var jsonGraph = grammar.MustCompile(grammar.MustBuiltin("json"))

// examples are JSON texts added as seeds, with names that need escaping in
// paths, duplicate names, and numbers out of float64's range.
var examples = []string{
	`{"user": {"first.name": "Janet", "tags": ["a", "b"], "age": 37}}`,
	`{"a*b": 1, "c?d": [2, {"@e": 3}], "#": {"f|g": null}, "h\\i": true}`,
	`[{"k": 1, "k": 2}, 1e400, -0.0, "\u00e9\ud83d\ude00", false]`,
	`{"": [[]], "x": {}, "y": [{"z": "\"q\""}]}`,
}

// FuzzGJSON compares gjson with encoding/json on texts of the JSON grammar.
func FuzzGJSON(f *testing.F) {
	fuzzharness.NewGraph(f, jsonGraph, fuzzharness.WithKPathSeeds(2), fuzzharness.WithExamples(examples...)).
		FuzzString(func(t *testing.T, s string) {
			if err := gjsoncheck.Check(s); err != nil {
				t.Fatalf("Check(%q): %v", s, err)
			}
		})
}

// TestGenerated runs Check over random texts of the grammar.
func TestGenerated(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	gen := grammar.NewGenerator(jsonGraph, 1)
	codec, err := fuzzharness.NewCodec(jsonGraph)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(2, 3))
	bad := 0
	for i := range n {
		var tree *grammar.Tree
		if i%2 == 0 {
			if tree, err = gen.Generate(); err != nil {
				t.Fatal(err)
			}
		} else {
			data := make([]byte, rng.IntN(300))
			for j := range data {
				data[j] = byte(rng.Uint32())
			}
			tree = codec.Decode(data).Tree()
		}
		if err := gjsoncheck.Check(tree.String()); err != nil {
			if bad++; bad <= 10 {
				t.Errorf("Check(%q): %v", tree, err)
			}
		}
	}
}

func TestCheckInvalid(t *testing.T) {
	for _, s := range []string{``, `[1,]`, `{"a"}`, `01`, "\"\x01\"", `"\x"`, `{"a":1}}`, `nul`} {
		if err := gjsoncheck.Check(s); err != nil {
			t.Errorf("Check(%q): %v", s, err)
		}
	}
}

// TestCorpusEntries pins what the stored corpus entries decode to: if the
// grammar or the decoding changes, stored entries change meaning.
func TestCorpusEntries(t *testing.T) {
	c, err := fuzzharness.NewCodec(jsonGraph)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"38be0f930339d399": `{"":{"":{"":null}}}`,                    // a path over JSON Lines
		"fca6ae57a1915881": `{"\b\uDB44\u4444           ":null}`,     // gjson's surrogate rule
		"36ef9a5f9656afe4": "{\"\":\t{\t\t\t\t\t\t\t\t\"\"\t:\t[]}}", // a count over JSON Lines
	}
	entries, err := corpus.ReadDir("testdata/fuzz/FuzzGJSON")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(want) {
		t.Errorf("%d entries, want %d", len(entries), len(want))
	}
	for _, e := range entries {
		data, ok := e.Values[0].([]byte)
		if got := c.Decode(data).String(); !ok || len(e.Values) != 1 || got != want[e.Name] {
			t.Errorf("%s decodes to %q, want %q", e.Path, got, want[e.Name])
		}
	}
}

func ExampleCheck() {
	fmt.Println(gjsoncheck.Check(`{"user": {"first.name": "Janet", "tags": ["a", "b"]}}`))
	// Output: <nil>
}
