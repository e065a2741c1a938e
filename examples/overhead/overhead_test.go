package overhead

import (
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// sink keeps the targets' reads from being optimized away.
var sink int

// seedOptions are the seeds of examples/calc and examples/json: the
// 2-path covering forest of the grammar and a few examples.
var seedOptions = map[string][]fuzzharness.Option{
	"expr": {fuzzharness.WithExamples("1+2*3", "(x-1)/y%3", "--z+-x")},
	"json": {fuzzharness.WithExamples(
		`{"name": "kfuzz", "tags": ["go", "fuzz"], "stars": 1.5e3, "ok": true, "count": "12"}`,
		`{"small": -5, "unsigned": 7, "ratio": 0.5, "pair": [1, 2]}`,
		`{"by_id": {"7": "x"}, "level": "high", "items": [{"meta": {"a": "b"}}]}`,
		`{"raw": [1], "num": 1e3, "any": null}`,
		`[null, -0.25, "\u00e9\n", {"": []}]`,
	)},
}

// harness fuzzes with inputs of the builtin grammar name and two byte
// edits, as FuzzCalc and FuzzJSON do.
func harness(f *testing.F, name string) {
	opts := append([]fuzzharness.Option{fuzzharness.WithMaxEdits(2)}, seedOptions[name]...)
	fuzzharness.New(f, grammar.MustBuiltin(name), opts...).FuzzString(func(t *testing.T, s string) {
		sink += Sum(s)
	})
}

// plain fuzzes plain strings with the same seeds, as FuzzCalcPlain and
// FuzzJSONPlain do.
func plain(f *testing.F, name string) {
	seeds, err := fuzzharness.Seeds(grammar.MustCompile(grammar.MustBuiltin(name)), seedOptions[name]...)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range seeds {
		f.Add(s.String())
	}
	f.Fuzz(func(t *testing.T, s string) {
		sink += Sum(s)
	})
}

// FuzzCalc is the harness half of the calc pair.
func FuzzCalc(f *testing.F) { harness(f, "expr") }

// FuzzCalcPlain is the plain half of the calc pair.
func FuzzCalcPlain(f *testing.F) { plain(f, "expr") }

// FuzzJSON is the harness half of the json pair.
func FuzzJSON(f *testing.F) { harness(f, "json") }

// FuzzJSONPlain is the plain half of the json pair.
func FuzzJSONPlain(f *testing.F) { plain(f, "json") }

// TestSum checks Sum.
func TestSum(t *testing.T) {
	if got := Sum("\x01\x02a"); got != 3+'a' {
		t.Errorf("Sum = %d, want %d", got, 3+'a')
	}
}
