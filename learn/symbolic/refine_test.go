package symbolic

import (
	"context"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/subjects/tinyc"
)

// assignOnly accepts e ::= letter "=" e | t, t ::= letter | digit | "(" e ")":
// only a single letter may be assigned to, as in TinyC, where the mined
// grammar's <test> "=" <expr> over-approximates.
func assignOnly(b []byte) bool {
	pos := 0
	var e, t func() bool
	t = func() bool {
		if pos >= len(b) {
			return false
		}
		switch c := b[pos]; {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			pos++
			return true
		case c == '(':
			pos++
			if !e() || pos >= len(b) || b[pos] != ')' {
				return false
			}
			pos++
			return true
		}
		return false
	}
	e = func() bool {
		start := pos
		if !t() {
			return false
		}
		if pos < len(b) && b[pos] == '=' {
			if pos-start != 1 || b[start] < 'a' || b[start] > 'z' {
				return false
			}
			pos++
			return e()
		}
		return true
	}
	return e() && pos == len(b)
}

func TestRefineNarrowsOverApproximation(t *testing.T) {
	over := `<start> ::= <e> ;
<e> ::= <t> "=" <e> | <t> ;
<t> ::= [a-z] | [0-9] | "(" <e> ")" ;`
	golden := `<start> ::= <e> ;
<e> ::= [a-z] "=" <e> | <t> ;
<t> ::= [a-z] | [0-9] | "(" <e> ")" ;`
	g, err := grammar.Parse("over.bnf", []byte(over))
	if err != nil {
		t.Fatal(err)
	}
	p0, r0 := accuracy(t, g, golden, assignOnly, 500)
	refined, st, err := Refine(context.Background(), g, assignOnly, RefineConfig{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	p1, r1 := accuracy(t, refined, golden, assignOnly, 500)
	t.Logf("%+v\nbefore: precision %.3f recall %.3f; after: precision %.3f recall %.3f\n%s", st, p0, r0, p1, r1, refined)
	if p1 < 0.99 || p1 <= p0 {
		t.Errorf("precision %.3f after refinement (%.3f before); want at least 0.99", p1, p0)
	}
	if r1 != 1 {
		t.Errorf("recall %.3f after refinement; want 1", r1)
	}
	again, _, err := Refine(context.Background(), g, assignOnly, RefineConfig{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if again.String() != refined.String() {
		t.Error("the same seed refined to another grammar")
	}
}

// TestRefineTinyC refines the grammar mined from TinyC (tinycMined, which
// lets keywords run into identifiers and assigns to any test) against
// tinyc.Parse: separating the tokens and narrowing the assignment's target
// to an identifier in its context, without losing recall.
func TestRefineTinyC(t *testing.T) {
	if testing.Short() {
		t.Skip("refines against 3,000 samples")
	}
	g, err := grammar.Parse("tinyc.bnf", []byte(tinycMined))
	if err != nil {
		t.Fatal(err)
	}
	refined, st, err := Refine(context.Background(), g, tinycAccept, RefineConfig{Seed: 1, Tokens: tinycTokens})
	if err != nil {
		t.Fatal(err)
	}
	p, r := accuracy(t, refined, tinyc.Golden, tinycAccept, 1000)
	t.Logf("%+v\nprecision %.3f recall %.3f\n%s", st, p, r, refined)
	if p < 0.99 || r != 1 {
		t.Errorf("precision %.3f, recall %.3f after refinement; want at least 0.99 and 1", p, r)
	}
	parser, err := grammar.NewParser(grammar.MustCompile(refined))
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]bool{
		"a=b=c=d=e=1;":            true,
		"do a=b=c=d=1; while(a);": true,
		"(a)=1;":                  false,
		"a+b=1;":                  false,
		"a<b=1;":                  false,
		"1=a;":                    false,
		"do(a)=1;while(a);":       false,
		"doa=1;while(a);":         false,
	} {
		if got := parser.Recognize([]byte(in)) == nil; got != want {
			t.Errorf("the refined grammar accepts %q: %v; want %v", in, got, want)
		}
	}
}
