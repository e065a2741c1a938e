package jsoncheck_test

import (
	"errors"
	"fmt"
	"testing"

	jsoncheck "github.com/seed72891827/kfuzz/examples/specialize"
	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar/algebra"
)

// The shape Check processes, as patterns over the built-in JSON grammar:
// a member with an empty key (E), and no member whose value is null (N).
var (
	patternDefs = []string{
		`E=<member> is "":<element>`,
		`N=<member> is <ws><string><ws>:<ws>null<ws>`,
	}
	shape = "E and not N"
)

// specialized returns the JSON grammar specialized to the shape.
func specialized(tb testing.TB) *grammar.Grammar {
	tb.Helper()
	a, err := algebra.New(grammar.MustBuiltin("json"))
	if err != nil {
		tb.Fatal(err)
	}
	var pats []*algebra.Pattern
	for _, d := range patternDefs {
		p, err := a.ParsePatternDef(d)
		if err != nil {
			tb.Fatal(err)
		}
		pats = append(pats, p)
	}
	e, err := algebra.ParseExpr(shape)
	if err != nil {
		tb.Fatal(err)
	}
	r, err := a.Specialize(pats, e, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return r.Grammar
}

// FuzzCheck fuzzes Check with documents of the specialized grammar only:
// every one must reach the processing.
func FuzzCheck(f *testing.F) {
	fuzzharness.New(f, specialized(f), fuzzharness.WithKPathSeeds(2)).FuzzString(func(t *testing.T, s string) {
		if _, err := jsoncheck.Check([]byte(s)); err != nil {
			t.Fatalf("Check(%q): %v", s, err)
		}
	})
}

// processedShare returns the share of n inputs generated from g with the
// seed that Check processes.
func processedShare(t *testing.T, g *grammar.Grammar, seed uint64, n int) float64 {
	gen := grammar.NewGenerator(grammar.MustCompile(g), seed)
	processed := 0
	for range n {
		tr, err := gen.Generate()
		if err != nil {
			t.Fatal(err)
		}
		_, err = jsoncheck.Check(tr.Bytes())
		switch {
		case err == nil:
			processed++
		case errors.Is(err, jsoncheck.ErrInvalid):
			t.Fatalf("Check(%q): %v", tr.Bytes(), err)
		}
	}
	return float64(processed) / float64(n)
}

// TestShares measures how many inputs reach the processing: all of those
// of the specialized grammar, and under 5% of those of the base grammar.
func TestShares(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	spec := processedShare(t, specialized(t), 1, n)
	base := processedShare(t, grammar.MustBuiltin("json"), 1, n)
	t.Logf("processed: %.1f%% of %d inputs of the specialized grammar, %.1f%% of %d of the base grammar", 100*spec, n, 100*base, n)
	if spec != 1 {
		t.Errorf("%.1f%% of the specialized grammar's inputs are processed, want 100%%", 100*spec)
	}
	if base >= 0.05 {
		t.Errorf("%.1f%% of the base grammar's inputs are processed, want under 5%%", 100*base)
	}
}

func ExampleCheck() {
	for _, s := range []string{`{"": 1, "a": [null]}`, `{"a": 1}`, `{"": 1, "a": null}`} {
		fmt.Println(jsoncheck.Check([]byte(s)))
	}
	// Output:
	// {1 2 1} <nil>
	// {0 0 0} jsoncheck: one key must be empty
	// {0 0 0} jsoncheck: key value must not be null
}
