package mined

import (
	"context"
	"os"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/subjects/calc"
	"github.com/seed72891827/kfuzz/internal/subjects/cgidecode"
	"github.com/seed72891827/kfuzz/internal/subjects/jsonparse"
	"github.com/seed72891827/kfuzz/internal/subjects/tinyc"
	"github.com/seed72891827/kfuzz/learn/symbolic"
)

// FuzzCalc fuzzes the calculator with the grammar mined from its code: every
// input is syntactically valid, so the only error is division by zero.
func FuzzCalc(f *testing.F) {
	g, err := grammar.Load("testdata/calc.bnf")
	if err != nil {
		f.Fatal(err)
	}
	fuzzharness.New(f, g, fuzzharness.WithKPathSeeds(2)).FuzzString(func(t *testing.T, s string) {
		if _, err := calc.Eval(s); err != nil && err.Error() != "calc: division by zero" {
			t.Fatalf("Eval(%q): %v", s, err)
		}
	})
}

// FuzzDecode fuzzes the CGI decoder with the grammar mined from its code.
func FuzzDecode(f *testing.F) {
	g, err := grammar.Load("testdata/cgidecode.bnf")
	if err != nil {
		f.Fatal(err)
	}
	fuzzharness.New(f, g, fuzzharness.WithKPathSeeds(2)).FuzzString(func(t *testing.T, s string) {
		if _, err := cgidecode.Decode([]byte(s)); err != nil {
			t.Fatalf("Decode(%q): %v", s, err)
		}
	})
}

// FuzzJSON fuzzes the JSON parser with the grammar mined from its code, whose
// every input it accepts (precision 1: docs/symbolic.md).
func FuzzJSON(f *testing.F) {
	g, err := grammar.Load("testdata/jsonparse.bnf")
	if err != nil {
		f.Fatal(err)
	}
	fuzzharness.New(f, g, fuzzharness.WithKPathSeeds(2)).FuzzString(func(t *testing.T, s string) {
		if err := jsonparse.Parse(s); err != nil {
			t.Fatalf("Parse(%q): %v", s, err)
		}
	})
}

// FuzzTinyC fuzzes the TinyC parser with the grammar mined from its code and
// lexer and refined against it (keywords separated from what follows them,
// assignments only to identifiers), whose every input it accepts
// (precision 1: docs/symbolic.md).
func FuzzTinyC(f *testing.F) {
	g, err := grammar.Load("testdata/tinyc.bnf")
	if err != nil {
		f.Fatal(err)
	}
	fuzzharness.New(f, g, fuzzharness.WithKPathSeeds(2)).FuzzString(func(t *testing.T, s string) {
		if err := tinyc.Parse(s); err != nil {
			t.Fatalf("Parse(%q): %v", s, err)
		}
	})
}

// TestMinedUpToDate mines cgidecode's grammar again and compares it with the
// committed one (calc's takes a minute; go generate refreshes both).
func TestMinedUpToDate(t *testing.T) {
	res, err := symbolic.Mine(context.Background(), symbolic.Config{Dir: "../..", Package: "./internal/subjects/cgidecode", Entry: "Decode"})
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/cgidecode.bnf")
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Grammar.String(); got != string(want) {
		t.Errorf("testdata/cgidecode.bnf is stale; run go generate:\n%s", got)
	}
}

// TestMinedAccuracy measures the committed grammars against the subjects'
// golden grammars, 1,000 inputs each way: precision is the share of inputs
// generated from the mined grammar that the parser accepts, recall the share
// of inputs generated from the golden grammar that the mined grammar parses
// (docs/symbolic.md has the table).
func TestMinedAccuracy(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	for _, s := range []struct {
		file, golden     string
		accept           func([]byte) bool
		minPrec, minRecl float64
	}{
		{"calc", calc.Golden, func(b []byte) bool { _, err := calc.Eval(string(b)); return err == nil }, 0.7, 1},
		{"cgidecode", cgidecode.Golden, func(b []byte) bool { _, err := cgidecode.Decode(b); return err == nil }, 1, 1},
		{"jsonparse", jsonparse.Golden, func(b []byte) bool { return jsonparse.Parse(string(b)) == nil }, 1, 1},
		{"tinyc", tinyc.Golden, func(b []byte) bool { return tinyc.Parse(string(b)) == nil }, 0.99, 1},
	} {
		mined, err := grammar.Load("testdata/" + s.file + ".bnf")
		if err != nil {
			t.Fatal(err)
		}
		gold, err := grammar.Parse(s.file+"/golden.bnf", []byte(s.golden))
		if err != nil {
			t.Fatal(err)
		}
		p := share(t, mined, n, 1, s.accept)
		minedParser, err := grammar.NewParser(grammar.MustCompile(mined))
		if err != nil {
			t.Fatal(err)
		}
		r := share(t, gold, n, 2, func(b []byte) bool { return minedParser.Recognize(b) == nil })
		t.Logf("%s: precision %.3f recall %.3f", s.file, p, r)
		if p < s.minPrec || r < s.minRecl {
			t.Errorf("%s: precision %.3f, recall %.3f; want at least %.3f and %.3f", s.file, p, r, s.minPrec, s.minRecl)
		}
	}
}

// share returns the share of n inputs generated from g with seed that ok takes.
func share(t *testing.T, g *grammar.Grammar, n int, seed uint64, ok func([]byte) bool) float64 {
	t.Helper()
	gen := grammar.NewGenerator(grammar.MustCompile(g), seed)
	gen.MaxSize = 200
	yes := 0
	for range n {
		tr, err := gen.Generate()
		if err != nil {
			t.Fatal(err)
		}
		if ok(tr.Bytes()) {
			yes++
		}
	}
	return float64(yes) / float64(n)
}
