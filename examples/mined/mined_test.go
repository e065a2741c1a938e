package mined

import (
	"context"
	"os"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/subjects/calc"
	"github.com/seed72891827/kfuzz/internal/subjects/cgidecode"
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
