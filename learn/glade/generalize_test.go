package glade

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/learn/oracle"
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

// TestTreesEscapes: outside quotes a backslash and the character after it
// are one node, and an escaped bracket pairs with the same bracket escaped,
// not with an unescaped one.
func TestTreesEscapes(t *testing.T) {
	f := &forest{next: labelStart + 1, escapes: map[int]int{}}
	f.uni = f.fresh()
	f.seeds = []string{`a\(b)\)\\(c`}
	root := f.build(0)
	var yields []string
	for _, k := range root.kids {
		yields = append(yields, f.seeds[0][k.lo:k.hi])
	}
	want := []string{`a`, `\(b)\)`, `\\`, `(`, `c`}
	if !slices.Equal(yields, want) {
		t.Fatalf("root's children %q, want %q", yields, want)
	}
	g := root.kids[1]
	if len(g.kids) != 3 || len(g.kids[0].kids) != 2 || len(g.kids[2].kids) != 2 || f.seeds[0][g.kids[1].lo:g.kids[1].hi] != "b)" {
		t.Errorf(`\( b) \) is not a group of an escape node, its contents and an escape node`)
	}
	if root.kids[2].label != f.escapes['\\'] || g.kids[0].label != f.escapes['('] || g.kids[0].label == g.kids[2].label {
		t.Errorf("escape nodes are not labelled by the escaped character")
	}
}

// TestTreesEscapedGroups: on a language with \( \) groups, the tree stage
// learns the nesting from two seeds.
func TestTreesEscapedGroups(t *testing.T) {
	ref := `<start> ::= <e>+ ; <e> ::= [a-z] | "\\." | "\\(" <e>+ "\\)" ;`
	g, res, accept := synthRef(t, ref, []string{`\(ab\)c`, `\(\(a\)\.\)`}, WithTrees(true))
	t.Logf("%d queries\n%s", res.Stats.Queries, res.Grammar)
	sc := measure(t, g, res.Grammar, accept, 300)
	if sc.recall < 0.95 || sc.precision < 0.95 {
		t.Errorf("precision %.3f, recall %.3f; want both >= 0.95", sc.precision, sc.recall)
	}
}

// TestConcatRule: the repetition concatRule writes for A ::= A A | A s |
// p A | t derives the same strings as the recursive rule.
func TestConcatRule(t *testing.T) {
	rec, err := grammar.Parse("rec", []byte(`<a> ::= <a> <a> | <a> "s" | "p" <a> | "x" | "y" "z" ;`))
	if err != nil {
		t.Fatal(err)
	}
	rep := &grammar.Grammar{Start: "a", Rules: []*grammar.Rule{{Name: "a", Expr: concatRule(
		[]grammar.Expr{&grammar.Lit{S: "x"}, &grammar.Lit{S: "yz"}},
		[]grammar.Expr{&grammar.Lit{S: "p"}},
		[]grammar.Expr{&grammar.Lit{S: "s"}})}}}
	t.Logf("%s", rep)
	_, pr := compileParser(t, rec)
	_, pp := compileParser(t, rep)
	n, in := 0, 0
	var walk func(s string)
	walk = func(s string) {
		n++
		a, b := pr.Recognize([]byte(s)) == nil, pp.Recognize([]byte(s)) == nil
		if a != b {
			t.Errorf("%q: recursive rule %v, repetition %v", s, a, b)
		}
		if a {
			in++
		}
		if len(s) < 6 {
			for _, c := range "xyzsp" {
				walk(s + string(c))
			}
		}
	}
	walk("")
	if in < 100 {
		t.Errorf("only %d of %d strings in the language: the test shows little", in, n)
	}
}

// balancedEsc is balanced, with backslashes and double quotes allowed
// anywhere.
func balancedEsc(b []byte) bool {
	return balanced(slices.DeleteFunc(slices.Clone(b), func(c byte) bool { return c == '\\' || c == '"' }))
}

// FuzzTrees checks the tree stage on any pair of seeds with brackets,
// quotes and backslashes: it neither panics nor hangs, its grammar passes
// Check and derives every seed.
func FuzzTrees(f *testing.F) {
	f.Add([]byte(`\(a\)`), []byte(`"\"("`))
	f.Add([]byte(`\\(\)`), []byte(`(b\`))
	f.Fuzz(func(t *testing.T, s1, s2 []byte) {
		if len(s1) > 12 || len(s2) > 12 || !balancedEsc(s1) || !balancedEsc(s2) {
			t.Skip()
		}
		seeds := [][]byte{s1, s2}
		res, err := Synthesize(context.Background(), seeds, oracle.Func(balancedEsc, oracle.Timeout(0)),
			WithTrees(true), WithAlphabet([]byte(`ab()\"`)), WithMaxQueries(50000))
		var limit *ErrMaxQueries
		if errors.As(err, &limit) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		checkDerives(t, res.Grammar, seeds)
	})
}

// checkDerives fails t unless g passes Check and derives every seed.
func checkDerives(t *testing.T, g *grammar.Grammar, seeds [][]byte) {
	t.Helper()
	if err := g.Check(); err != nil {
		t.Fatalf("%v\n%s", err, g)
	}
	_, p := compileParser(t, g)
	for _, s := range seeds {
		if err := p.Recognize(s); err != nil {
			t.Fatalf("the grammar does not derive seed %q: %v\n%s", s, err, g)
		}
	}
}
