package algebra

import (
	"errors"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// A fixture is a base grammar with named patterns and expressions over
// them.
type fixture struct {
	grammar  string
	patterns []string // NAME=<nonterminal> is TEXT
	exprs    []string
}

var fixtures = []fixture{
	{"json", []string{`E=<member> is "":<element>`, `N=<value> is null`, `A=<array> is [<element>]`},
		[]string{"E and not N", "A or N", "not (E or A)", "E and A and not N"}},
	{"csv", []string{`Q=<escaped> is """"`, `R=<record> is <field>,<field>`},
		[]string{"R and not Q", "Q or R"}},
	{"rest", []string{"T=<bullet-item> is - <reference>\n", `L=<element> is <target>`},
		[]string{"T and not L", "L or T"}},
	{"url", []string{`S=<scheme> is https`, `P=<pct-encoded> is %20`},
		[]string{"S and not P", "P or not S"}},
}

func (f fixture) load(t testing.TB) (*Algebra, []*Pattern) {
	t.Helper()
	a, err := New(grammar.MustBuiltin(f.grammar))
	if err != nil {
		t.Fatal(err)
	}
	var pats []*Pattern
	for _, d := range f.patterns {
		p, err := a.ParsePatternDef(d)
		if err != nil {
			t.Fatal(err)
		}
		pats = append(pats, p)
	}
	return a, pats
}

// TestGeneratedSatisfy generates 10,000 inputs (600 with -short) from the
// specialized grammars of twelve expressions over four grammars and checks
// with the direct matcher that every one satisfies its expression.
func TestGeneratedSatisfy(t *testing.T) {
	total := 10000
	if testing.Short() {
		total = 600
	}
	var exprs int
	for _, f := range fixtures {
		exprs += len(f.exprs)
	}
	checked := 0
	for fi, f := range fixtures {
		a, pats := f.load(t)
		o := newOracle(t, a)
		for xi, src := range f.exprs {
			n := total / exprs
			if fi == len(fixtures)-1 && xi == len(f.exprs)-1 {
				n = total - checked
			}
			r := specialize(t, a, pats, src, nil)
			e, _ := ParseExpr(src)
			for i, w := range generate(t, r.Grammar, uint64(100*fi+xi), n, inputSize[f.grammar]) {
				h, ok := o.holds(t, pats, e, w)
				if !ok {
					t.Fatalf("%s: input %d %q has more than %d trees", src, i, w, maxTrees)
				}
				if !h {
					t.Fatalf("%s: generated input %d %q does not satisfy the expression", src, i, w)
				}
				checked++
			}
		}
	}
	if checked != total {
		t.Fatalf("checked %d inputs, want %d", checked, total)
	}
}

// TestKPathSeedsSatisfy checks that the inputs covering every 2-path of a
// specialized grammar (the harness's seeds) all satisfy the expression.
func TestKPathSeedsSatisfy(t *testing.T) {
	for _, f := range fixtures {
		a, pats := f.load(t)
		o := newOracle(t, a)
		for _, src := range f.exprs {
			r := specialize(t, a, pats, src, nil)
			gr, err := grammar.Compile(r.Grammar)
			if err != nil {
				t.Fatal(err)
			}
			trees, err := gr.CoveringForest(2, nil)
			if err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			e, _ := ParseExpr(src)
			for _, tr := range trees {
				if h, ok := o.holds(t, pats, e, tr.Bytes()); !ok || !h {
					t.Errorf("%s %s: seed %q does not satisfy it", f.grammar, src, tr.Bytes())
				}
			}
		}
	}
}

// TestNotNot checks that not not X gives X's grammar, and so X's language,
// and that both agree with X's on random inputs of the base grammar and of
// both grammars.
func TestNotNot(t *testing.T) {
	for fi, f := range fixtures {
		a, pats := f.load(t)
		for xi, src := range f.exprs {
			r := specialize(t, a, pats, src, nil)
			rr := specialize(t, a, pats, "not not ("+src+")", nil)
			if r.Grammar.String() != rr.Grammar.String() {
				t.Errorf("%s: not not X differs from X:\n%s\n---\n%s", src, rr.Grammar, r.Grammar)
			}
			p, pp := mustParser(t, r.Grammar), mustParser(t, rr.Grammar)
			seed := uint64(10*fi + xi)
			ws := generate(t, a.Grammar(), seed, 50, 200)
			ws = append(ws, generate(t, r.Grammar, seed, 20, 200)...)
			ws = append(ws, generate(t, rr.Grammar, seed+1, 20, 200)...)
			for _, w := range ws {
				if (p.Recognize(w) == nil) != (pp.Recognize(w) == nil) {
					t.Errorf("%s: X and not not X disagree on %q", src, w)
				}
			}
		}
	}
}

func TestUnsatisfiable(t *testing.T) {
	a, err := New(grammar.MustBuiltin("json"))
	if err != nil {
		t.Fatal(err)
	}
	def := func(s string) *Pattern {
		p, err := a.ParsePatternDef(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	v := def(`V=<element> is <ws><value><ws>`)
	n := def(`N=<value> is null`)
	z := def(`Z=<member> is "":null`)
	s := def(`S=<string> is "a"`)
	for _, tc := range []struct {
		expr string
		want []string
	}{
		{"not V", []string{"not V is unsatisfiable: every <JSON-text> contains pattern V (<element> is <ws><value><ws>), but not V forbids it"}},
		{"Z and not N", []string{"every <JSON-text> that contains Z (<member> is \"\":null) also contains N (<value> is null), but N is forbidden"}},
		{"S and not S", []string{"is false whatever the input"}},
		{"(Z and not N) or not V", []string{"also contains N", "every <JSON-text> contains pattern V"}},
	} {
		e, err := ParseExpr(tc.expr)
		if err != nil {
			t.Fatal(err)
		}
		_, err = a.Specialize([]*Pattern{v, n, z, s}, e, nil)
		var ue *UnsatisfiableError
		if !errors.As(err, &ue) {
			t.Errorf("%s: got %v, want an UnsatisfiableError", tc.expr, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", tc.expr, err, w)
			}
		}
	}
}

func TestPatternErrors(t *testing.T) {
	a, err := New(grammar.MustBuiltin("expr"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ nt, text, want string }{
		{"UnaryExpr", "(x+", "pattern P: 1:4: <UnaryExpr> cannot derive the text: unexpected EOF"},
		{"UnaryExpr", "x*y", "1:2: <UnaryExpr> cannot derive the text: unexpected '*'"},
		{"UnaryExpr", "(<Identifier>*)", "1:15: <UnaryExpr> cannot derive the text"},
		{"Nope", "x", "<Nope> is not a nonterminal"},
		{"UnaryExpr", "++x", "pattern P is ambiguous: <UnaryExpr> derives \"++x\" in more than one way, for example\n\t<UnaryExpr>{\"++\" <UnaryExpr>{<Identifier>{\"x\"}}}\n\t<UnaryExpr>{\"+\" <UnaryExpr>{\"+\" <UnaryExpr>{<Identifier>{\"x\"}}}}"},
	} {
		_, err := a.ParsePattern("P", tc.nt, tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParsePattern(<%s> is %s) = %v, want %q", tc.nt, tc.text, err, tc.want)
		}
	}
	for _, tc := range []struct{ def, want string }{
		{"P <UnaryExpr> is x", "want NAME=<nonterminal> is TEXT"},
		{"and=<UnaryExpr> is x", "bad pattern name"},
		{"P=UnaryExpr is x", "1:3: pattern P: expected <nonterminal>"},
		{"P=<UnaryExpr> x", "1:14: pattern P: expected \" is \""},
	} {
		_, err := a.ParsePatternDef(tc.def)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParsePatternDef(%q) = %v, want %q", tc.def, err, tc.want)
		}
	}
	// An escaped '<' is text, and <x> of a name that is no nonterminal is
	// text too.
	xa, err := New(grammar.MustBuiltin("xml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := xa.ParsePattern("P", "xml-open-tag", `\<a>`); err != nil {
		t.Errorf("escaped '<': %v", err)
	}
}
