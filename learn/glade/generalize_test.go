package glade

import (
	"slices"
	"testing"
)

// TestTreesContextChars: one label stands for the digit after x, where
// every digit may come, and for the one after y, where only 0-4 may; the
// characters all its contexts take are 0-4, and the split by context gives
// the first digit the others back without giving them to the second.
func TestTreesContextChars(t *testing.T) {
	ref := `<start> ::= "x" [0-9] "y" [0-4] ;`
	_, res, _ := synthRef(t, ref, []string{"x1y1"}, WithTrees(true), WithTrace(true))
	t.Logf("%d queries\n%s", res.Stats.Queries, res.Grammar)
	_, p := compileParser(t, res.Grammar)
	for _, in := range []string{"x9y3", "x0y4", "x7y0"} {
		if err := p.Recognize([]byte(in)); err != nil {
			t.Errorf("the mined grammar rejects %q: %v", in, err)
		}
	}
	for _, in := range []string{"x3y9", "x9y9"} {
		if p.Recognize([]byte(in)) == nil {
			t.Errorf("the mined grammar derives %q", in)
		}
	}
	if !slices.ContainsFunc(res.Trace, func(s Step) bool { return s.Name[0] == 'C' }) {
		t.Error("no step of splitContextChars was recorded")
	}
}

// TestTreesOptional: no seed lacks the bracketed suffix, yet the oracle
// accepts each seed without it, so its label derives the empty string too.
func TestTreesOptional(t *testing.T) {
	ref := `<start> ::= [a-z] ("(" [0-9] ")")? ;`
	_, res, accept := synthRef(t, ref, []string{"a(1)", "b(2)"}, WithTrees(true))
	t.Logf("%d queries\n%s", res.Stats.Queries, res.Grammar)
	_, p := compileParser(t, res.Grammar)
	for _, in := range []string{"a", "q", "c(7)"} {
		if err := p.Recognize([]byte(in)); err != nil {
			t.Errorf("the mined grammar rejects %q: %v", in, err)
		}
	}
	for _, in := range []string{"", "()", "a(", "a()"} {
		if p.Recognize([]byte(in)) == nil && !accept([]byte(in)) {
			t.Errorf("the mined grammar derives %q", in)
		}
	}
}
