package jsoncheck_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/seed72891827/kfuzz/corpus"
	jsoncheck "github.com/seed72891827/kfuzz/examples/json"
	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

func TestRoundTrip(t *testing.T) {
	for _, s := range []string{
		`null`, ` [1, 2.5e3, -0, "a\u00e9\ud83d\ude00"] `, `{"a":{"b":[]},"a":1}`, `"\ud800"`, `1e400`,
		`{"Name": 1, "level": "low", "by_id": {"x": "y"}}`, `{"level": "loud"}`, `{"count": "twelve"}`, `{"small": 300}`,
		`{"nuM": ""}`, // found by FuzzJSON: a json.Number field takes only numbers
	} {
		if err := jsoncheck.RoundTrip([]byte(s)); err != nil {
			t.Errorf("RoundTrip(%q): %v", s, err)
		}
	}
	for _, s := range []string{``, `[1,]`, `{"a"}`, `01`, "\"\x01\"", `"\x"`} {
		if err := jsoncheck.RoundTrip([]byte(s)); !errors.Is(err, jsoncheck.ErrInvalid) {
			t.Errorf("RoundTrip(%q) = %v, want ErrInvalid", s, err)
		}
	}
}

func ExampleRoundTrip() {
	fmt.Println(jsoncheck.RoundTrip([]byte(`{"n": 1.50, "s": "\u0041"}`)))
	fmt.Println(jsoncheck.RoundTrip([]byte(`{"n": 1.50,}`)))
	// Output:
	// <nil>
	// jsoncheck: not valid JSON
}

var jsonGrammar = grammar.MustBuiltin("json")

// harnessOptions configure both fuzz targets' seeds: the 2-path covering
// forest of the grammar and a few examples.
var harnessOptions = []fuzzharness.Option{
	fuzzharness.WithExamples(
		`{"name": "kfuzz", "tags": ["go", "fuzz"], "stars": 1.5e3, "ok": true, "count": "12"}`,
		`{"small": -5, "unsigned": 7, "ratio": 0.5, "pair": [1, 2]}`,
		`{"by_id": {"7": "x"}, "level": "high", "items": [{"meta": {"a": "b"}}]}`,
		`{"raw": [1], "num": 1e3, "any": null}`,
		`[null, -0.25, "\u00e9\n", {"": []}]`,
	),
}

// fuzzOptions are FuzzJSON's: its seeds, and two byte edits.
var fuzzOptions = append([]fuzzharness.Option{fuzzharness.WithMaxEdits(2)}, harnessOptions...)

// FuzzJSON checks encoding/json with documents of the JSON grammar, and
// with documents up to two byte edits away from them (fuzzharness
// WithMaxEdits), so that the fuzzer reaches the scanner's syntax errors too.
// Every unedited document must be valid.
func FuzzJSON(f *testing.F) {
	fuzzharness.New(f, jsonGrammar, fuzzOptions...).Fuzz(func(t *testing.T, in fuzzharness.Input) {
		err := jsoncheck.RoundTrip(in.Bytes())
		if err != nil && !(in.Edited() && errors.Is(err, jsoncheck.ErrInvalid)) {
			t.Fatalf("RoundTrip(%q): %v", in, err)
		}
	})
}

// FuzzJSONPlain checks encoding/json with plain strings, seeded with the
// same documents as FuzzJSON. It is the baseline for kfuzz eval harness.
func FuzzJSONPlain(f *testing.F) {
	seeds, err := fuzzharness.Seeds(grammar.MustCompile(jsonGrammar), harnessOptions...)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range seeds {
		f.Add(s.String())
	}
	f.Fuzz(func(t *testing.T, s string) {
		if err := jsoncheck.RoundTrip([]byte(s)); err != nil && !errors.Is(err, jsoncheck.ErrInvalid) {
			t.Fatalf("RoundTrip(%q): %v", s, err)
		}
	})
}

// TestCorpusEntries pins what the stored corpus entries decode to: if the
// grammar or the decoding changes, stored entries change meaning, and this
// test says so.
func TestCorpusEntries(t *testing.T) {
	c, err := fuzzharness.NewCodec(grammar.MustCompile(jsonGrammar), fuzzOptions...)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"4f84280615e97035": `{"k": [1.5e3, "\u00e9"]}`,
		"b147826d81a39a03": `[true,null,"\ud834\udd1e"]`,
	}
	entries, err := corpus.ReadDir("testdata/fuzz/FuzzJSON")
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
