package grammar

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// compareExpanded checks a fresh forest of in against the forest expanded
// whole (as Trees and ForestPaths use it): Count and Infinite, which skip
// the expansion when every scanned token is unambiguous, must equal the
// count of the expanded forest, and Tree, which expands only the spans of
// the first derivation, must equal the first of Trees. It reports whether
// Count used the forest unexpanded.
func compareExpanded(p *Parser, in []byte) (unexpanded bool, err error) {
	f, err := p.Parse(in)
	if err != nil {
		return false, err
	}
	n, exact := f.Count()
	inf := f.Infinite()
	unexpanded = len(f.toks) > 0 && f.exp.Load() == nil
	tree := f.Tree()
	g, err := p.Parse(in)
	if err != nil {
		return false, err
	}
	wn, winf := g.expanded().countTrees()
	if n != wn || inf != winf || exact != (wn < 1<<64-1) {
		return unexpanded, fmt.Errorf("Count() = %d, %v, Infinite() = %v; the expanded forest's count %d, infinite %v", n, exact, inf, wn, winf)
	}
	if trees := g.Trees(1); len(trees) != 1 || !trees[0].Equal(tree) {
		return unexpanded, fmt.Errorf("Tree() of the forest expanded for it differs from Trees(1)")
	}
	return unexpanded, nil
}

// TestCountUnexpandedBuiltins compares Count and Tree of unexpanded forests
// with those of expanded ones on generated inputs of every built-in
// grammar, and checks that Count skips the expansion of the forests whose
// tokens are all unambiguous (all of them, for grammars such as json).
func TestCountUnexpandedBuiltins(t *testing.T) {
	inputs := 60
	if testing.Short() {
		inputs = 15
	}
	for _, name := range BuiltinNames() {
		t.Run(name, func(t *testing.T) {
			gr := MustCompile(MustBuiltin(name))
			p, err := NewParser(gr)
			if err != nil {
				t.Fatal(err)
			}
			gen := NewGenerator(gr, 7)
			fast, scanned := 0, 0
			for i := range inputs {
				tr, err := gen.Generate()
				if err != nil {
					t.Fatal(err)
				}
				unexpanded, err := compareExpanded(p, tr.Bytes())
				if err != nil {
					t.Fatalf("input %d %q: %v", i, tr.Bytes(), err)
				}
				if unexpanded {
					fast++
				}
				if f, err := p.Parse(tr.Bytes()); err == nil && len(f.toks) > 0 {
					scanned++
				}
			}
			t.Logf("%d of %d inputs with scanned spans counted without expansion", fast, scanned)
			if name != "expr" && fast != scanned {
				t.Errorf("%d of %d inputs with scanned spans counted without expansion, want all", fast, scanned)
			}
		})
	}
}

// TestCountUnexpandedAmbiguous compares Count and Tree of unexpanded and
// expanded forests on grammars whose tokens are ambiguous, have several
// ε-derivations, derive themselves (infinitely many derivations) or are
// unambiguous inside an ambiguous grammar, and checks the tokens'
// classification and some counts.
func TestCountUnexpandedAmbiguous(t *testing.T) {
	for _, c := range []struct {
		grammar string
		token   string // the token's rule
		unamb   bool
		input   string
		count   uint64 // 0: infinite
	}{
		{`<s> ::= "<" <t> ">" ; <t> ::= ("a" | "aa")+ ;`, "t", false, "<aaaa>", 5},
		{`<s> ::= "<" <t> ">" ; <t> ::= ("a" | "b")+ ;`, "t", true, "<abba>", 1},
		{`<s> ::= "<" <t> ">" ; <t> ::= "a" <e> "b" ; <e> ::= "" | <f> ; <f> ::= "" ;`, "t", false, "<ab>", 2},
		{`<s> ::= "<" <t> ">" ; <t> ::= "a"* "a"* ;`, "t", false, "<aaa>", 4},
		{`<s> ::= "<" <t> ">" ; <t> ::= "a" "b"? | "a" "b" ;`, "t", false, "<ab>", 2},
		{`<s> ::= "<" <t> ">" ; <t> ::= "a" "b"? | "a" "c" ;`, "t", true, "<ac>", 1},
		{`<s> ::= "<" <t> ">" ; <t> ::= <t> | "a" ;`, "t", false, "<a>", 0},
		{`<s> ::= <s> <s> | <t> ; <t> ::= [a-z] [0-9]* ;`, "t", true, "a1b2c3", 2},
		{`<s> ::= <s> <s> | <t> ; <t> ::= [a-z]+ ;`, "t", true, "abcd", 15},
	} {
		t.Run(c.grammar, func(t *testing.T) {
			p := earleyParser(t, c.grammar)
			a := -1
			for i, d := range p.g.tok {
				if d != nil {
					if a >= 0 {
						t.Fatalf("more than one token")
					}
					a = i
				}
			}
			if a < 0 {
				t.Fatalf("no token")
			}
			if got := p.g.tok[a].unambiguous; got != c.unamb {
				t.Errorf("token %s: unambiguous %v, want %v", c.token, got, c.unamb)
			}
			if _, err := compareExpanded(p, []byte(c.input)); err != nil {
				t.Fatal(err)
			}
			f, err := p.Parse([]byte(c.input))
			if err != nil {
				t.Fatal(err)
			}
			n, _ := f.Count()
			if c.count == 0 && !f.Infinite() || c.count > 0 && n != c.count {
				t.Errorf("Count() = %d, Infinite() = %v; want %d (0: infinite)", n, f.Infinite(), c.count)
			}
		})
	}
}

// TestCountUnexpandedRandom compares unexpanded and expanded forests of
// random grammars on generated and random inputs.
func TestCountUnexpandedRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	grammars := 300
	if testing.Short() {
		grammars = 100
	}
	tested, fast := 0, 0
	for gi := 0; gi < grammars*4 && tested < grammars; gi++ {
		gr, err := Compile(randomGrammar(rng))
		if err != nil {
			continue
		}
		p, err := NewParser(gr, MaxItems(1<<18))
		if err != nil {
			t.Fatal(err)
		}
		tested++
		for _, in := range randomInputs(rng, gr, uint64(gi), 60, 4, 40, 12) {
			unexpanded, err := compareExpanded(p, []byte(in))
			if err == nil && unexpanded {
				fast++
			}
			if err != nil && !isSyntaxOrLimit(err) {
				t.Errorf("grammar %d input %q: %v", gi, in, err)
			}
		}
	}
	if fast < tested {
		t.Errorf("only %d inputs of %d grammars counted without expansion", fast, tested)
	}
}

// isSyntaxOrLimit reports whether err is a parse's syntax error or item
// limit.
func isSyntaxOrLimit(err error) bool {
	var se *SyntaxError
	return errors.As(err, &se) || errors.Is(err, ErrItemLimit)
}

// FuzzCountUnexpanded compares Count, Infinite and Tree of unexpanded
// forests with those of expanded ones (see compareExpanded) for arbitrary
// grammars and inputs, beyond the sizes brute-force counting can check.
func FuzzCountUnexpanded(f *testing.F) {
	f.Add(`<s> ::= "<" <t> ">" ; <t> ::= ("a" | "aa")+ ;`, []byte("<aaaa>"))
	f.Add(`<s> ::= <s> <s> | <t> ; <t> ::= [a-z] [0-9]* ;`, []byte("a1b22c3"))
	f.Add(`<s> ::= "<" <t> ">" ; <t> ::= "a" <e> "b" ; <e> ::= "" | <f> ; <f> ::= "" ;`, []byte("<ab>"))
	f.Add(`<s> ::= "(" <s>* ")" | <t> ; <t> ::= ("x" | "y"){1,3} "é"? ;`, []byte("(xy(yé)xxx)"))
	src, err := BuiltinSource("xml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(src), []byte(`<a b="c">d e<f/>g</a>`))
	f.Fuzz(func(t *testing.T, grammar string, input []byte) {
		p := fuzzParser(grammar, input)
		if p == nil {
			return
		}
		if _, err := compareExpanded(p, input); err != nil && !isSyntaxOrLimit(err) {
			t.Fatalf("%q: %v", input, err)
		}
	})
}
