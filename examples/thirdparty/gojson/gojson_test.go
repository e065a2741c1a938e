package gojsoncheck_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/seed72891827/kfuzz/examples/thirdparty/gojson"
	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

var jsonGraph = grammar.MustCompile(grammar.MustBuiltin("json"))

// examples are JSON texts added as seeds: documents that fill a Document,
// and values of every kind.
var examples = []string{
	`{"name": "kfuzz", "tags": ["go", "fuzz"], "score": 1.5e3, "ok": true, "count": "12"}`,
	`{"small": -5, "big": 9007199254740993, "ratio": 0.5, "pair": [1, 2]}`,
	`{"by_id": {"7": "x"}, "meta": {"a": "b"}, "items": [{"name": "n"}, null]}`,
	`{"raw": [1, {}], "num": 1e3, "any": {"k": [true]}, "inner": {"A": 1, "b": 2}}`,
	`[null, -0.25, "\u00e9\n\ud83d\ude00", {"": []}, 1E+2]`,
	`{"a":1,"a":2,"NAME":"x"}`,
}

// FuzzGoJSON compares go-json with encoding/json on texts of the JSON
// grammar.
func FuzzGoJSON(f *testing.F) {
	fuzzharness.New(f, grammar.MustBuiltin("json"), fuzzharness.WithKPathSeeds(2), fuzzharness.WithExamples(examples...)).
		Fuzz(func(t *testing.T, in fuzzharness.Input) {
			if err := gojsoncheck.Check(in.Bytes()); err != nil {
				t.Fatalf("Check(%q): %v", in, err)
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
		if err := gojsoncheck.Check(tree.Bytes()); err != nil {
			if bad++; bad <= 10 {
				t.Errorf("Check(%q): %v", tree, err)
			}
		}
	}
}

// TestCheckInvalid checks that the packages agree on texts that are not
// valid JSON.
func TestCheckInvalid(t *testing.T) {
	for _, s := range []string{``, `[1,]`, `{"a"}`, `01`, "\"\x01\"", `"\x"`, `{"a":1}}`, `nul`, `[1e]`, `{"a":[}`} {
		if err := gojsoncheck.Check([]byte(s)); err != nil {
			t.Errorf("Check(%q): %v", s, err)
		}
	}
}

func ExampleCheck() {
	fmt.Println(gojsoncheck.Check([]byte(`{"name": "kfuzz", "tags": ["go"], "count": "3"}`)))
	// Output: <nil>
}
