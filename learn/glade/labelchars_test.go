package glade

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTreesOneWayAllPairs: with at most bubbleSamples pairs, the checks of
// one direction put every string in every context, the first two differing
// in both where they can (an earlier order put a single string in its first
// context only, twice).
func TestTreesOneWayAllPairs(t *testing.T) {
	f := &forest{rng: rand.New(rand.NewPCG(1, 2))}
	for _, tc := range []struct{ strs, ctxs int }{{1, 2}, {1, 5}, {2, 3}, {3, 2}, {4, 4}, {5, 10}} {
		var strs []string
		var ctxs [][2]string
		for i := range tc.strs {
			strs = append(strs, string(rune('a'+i)))
		}
		var want []string
		for j := range tc.ctxs {
			c := [2]string{string(rune('0' + j)), "|"}
			ctxs = append(ctxs, c)
			for _, s := range strs {
				want = append(want, c[0]+s+c[1])
			}
		}
		got := f.oneWay(strs, ctxs)
		if len(got) != len(want) {
			t.Errorf("%d strings in %d contexts: %d checks %q, want all %d", tc.strs, tc.ctxs, len(got), got, len(want))
			continue
		}
		if s, w := slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want)); !slices.Equal(s, w) {
			t.Errorf("%d strings in %d contexts: checks %q, want %q", tc.strs, tc.ctxs, s, w)
		}
		if tc.strs > 1 && tc.ctxs > 1 && (got[0][0] == got[1][0] || got[0][1] == got[1][1]) {
			t.Errorf("%d strings in %d contexts: the first two checks %q and %q share a string or a context", tc.strs, tc.ctxs, got[0], got[1])
		}
	}
}

// TestTreesOptionalParts: every seed number has a fraction and an
// exponent, but the language lets both be left out; the tree stage learns
// the numbers without them and still derives none with an empty fraction
// or exponent.
func TestTreesOptionalParts(t *testing.T) {
	ref := `<start> ::= <n> ("," <n>)* ; <n> ::= "-"? [1-9] [0-9]* ("." [0-9]+)? ("e" [0-9]+)? ;`
	seeds := []string{"12.5e3", "-7.25e10,3.5e7"}
	g, res, accept := synthRef(t, ref, seeds, WithTrees(true))
	t.Logf("%d queries\n%s", res.Stats.Queries, res.Grammar)
	_, p := compileParser(t, res.Grammar)
	for _, in := range []string{"12.5", "12e3", "12", "-7"} {
		if err := p.Recognize([]byte(in)); err != nil {
			t.Errorf("the mined grammar rejects %q: %v", in, err)
		}
	}
	for _, in := range []string{"12.e3", "12.5e", "1,", ""} {
		if p.Recognize([]byte(in)) == nil {
			t.Errorf("the mined grammar accepts %q", in)
		}
	}
	if sc := measure(t, g, res.Grammar, accept, 300); sc.precision < 0.95 {
		t.Errorf("precision %.3f, want at least 0.95", sc.precision)
	}
}

// TestTreesStringContents: the seeds' strings hold escapes only; each
// escape is one node, and the label of the strings' contents, a sequence,
// tries single characters in its contexts, so the grammar derives strings
// of any letters and digits, and none with a character outside the
// language.
func TestTreesStringContents(t *testing.T) {
	ref := `<start> ::= "\"" <c>* "\"" ; <c> ::= [a-z0-9 ] | "\\" ["n\\] ;`
	seeds := []string{`"\n\\"`, `"\\\n\n"`, `"\\"`, `"\n\n\n"`}
	_, res, _ := synthRef(t, ref, seeds, WithTrees(true))
	t.Logf("%d queries\n%s", res.Stats.Queries, res.Grammar)
	_, p := compileParser(t, res.Grammar)
	for _, in := range []string{`"x"`, `"hello world"`, `"a\nb9"`, `""`} {
		if err := p.Recognize([]byte(in)); err != nil {
			t.Errorf("the mined grammar rejects %q: %v", in, err)
		}
	}
	for _, in := range []string{`"A"`, `"a-b"`, `"é"`} {
		if p.Recognize([]byte(in)) == nil {
			t.Errorf("the mined grammar accepts %q", in)
		}
	}
}

// TestTreesInnerNodes: a variable is a letter and digits, a number may not
// begin with 0, and no seed shows a 0 after a letter. The digits after a
// variable's letter are inner nodes of the digits' label, so they get a
// label that takes 0 as well, and the numbers still do not.
func TestTreesInnerNodes(t *testing.T) {
	ref := `<start> ::= <a> (";" <a>)* ; <a> ::= <v> "=" <e> ; <e> ::= <v> | "0" | [1-9] [0-9]* ; <v> ::= [a-z] [0-9]* ;`
	seeds := []string{"x12=345", "y=0;z7=q", "a3=b56;c=98"}
	g, res, accept := synthRef(t, ref, seeds, WithTrees(true))
	t.Logf("%d queries\n%s", res.Stats.Queries, res.Grammar)
	_, p := compileParser(t, res.Grammar)
	for _, in := range []string{"x0=1", "a=b07", "k109=20"} {
		if err := p.Recognize([]byte(in)); err != nil {
			t.Errorf("the mined grammar rejects %q: %v", in, err)
		}
	}
	for _, in := range []string{"x=01", "x=0a", "1=2"} {
		if p.Recognize([]byte(in)) == nil {
			t.Errorf("the mined grammar accepts %q", in)
		}
	}
	if sc := measure(t, g, res.Grammar, accept, 300); sc.precision < 0.95 {
		t.Errorf("precision %.3f, want at least 0.95", sc.precision)
	}
}
