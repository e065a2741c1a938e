package learn

import (
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// occurrence returns the nth (from 0) symbolic node of the graph with the
// label that stands in the right-hand side of rule.
func occurrence(t testing.TB, gr *grammar.Graph, rule, label string, nth int) *grammar.Node {
	t.Helper()
	for _, n := range gr.Nodes {
		if n.Symbolic() && n.Rule == rule && n.Label() == label {
			if nth == 0 {
				return n
			}
			nth--
		}
	}
	t.Fatalf("no occurrence of %s in <%s>", label, rule)
	return nil
}

// kpath returns the path of the given nodes' symbols.
func kpath(nodes ...*grammar.Node) grammar.KPath {
	p := make(grammar.KPath, len(nodes))
	for i, n := range nodes {
		p[i] = int32(n.Sym)
	}
	return p
}

// Named occurrences of the expression grammar, with the node IDs of the
// paper's Fig. 3 in their names.
type exprNodes struct {
	unary15, add36, minus11, mult2, add5, mult13, unary8, mult7, plus10, digits, digit, three *grammar.Node
}

func exprOccurrences(t testing.TB, gr *grammar.Graph) exprNodes {
	return exprNodes{
		unary15: occurrence(t, gr, "MultExpr", "<UnaryExpr>", 1),
		add36:   occurrence(t, gr, "UnaryExpr", "<AddExpr>", 0),
		minus11: occurrence(t, gr, "AddExpr", `"-"`, 0),
		mult2:   occurrence(t, gr, "AddExpr", "<MultExpr>", 0),
		add5:    occurrence(t, gr, "AddExpr", "<AddExpr>", 0),
		mult7:   occurrence(t, gr, "AddExpr", "<MultExpr>", 1),
		plus10:  occurrence(t, gr, "AddExpr", `"+"`, 0),
		mult13:  occurrence(t, gr, "MultExpr", "<MultExpr>", 0),
		unary8:  occurrence(t, gr, "MultExpr", "<UnaryExpr>", 0),
		digits:  occurrence(t, gr, "UnaryExpr", "<DecDigits>", 0),
		digit:   occurrence(t, gr, "DecDigits", "<DecDigit>", 0),
		three:   occurrence(t, gr, "DecDigit", `"3"`, 0),
	}
}

func TestPatternPaperExample(t *testing.T) {
	gr, _ := exprSetup(t)
	x := exprOccurrences(t, gr)
	for _, tc := range []struct {
		path []*grammar.Node
		rule string
		want string
	}{
		// TRIBBLE section 5.2, step by step.
		{[]*grammar.Node{x.unary15}, "MultExpr", `<MultExpr> ("*" | "/" | "%") <UnaryExpr>`},
		{[]*grammar.Node{x.unary15, x.add36}, "MultExpr", `<MultExpr> ("*" | "/" | "%") "(" <AddExpr> ")"`},
		{[]*grammar.Node{x.unary15, x.add36, x.add5}, "MultExpr", `<MultExpr> ("*" | "/" | "%") "(" <AddExpr> ("+" | "-") <MultExpr> ")"`},
		{[]*grammar.Node{x.unary15, x.add36, x.minus11}, "MultExpr", `<MultExpr> ("*" | "/" | "%") "(" <AddExpr> "-" <MultExpr> ")"`},
		// Fig. 8's forbidden path: the parenthesised expression is a mere product.
		{[]*grammar.Node{x.unary15, x.add36, x.mult2}, "MultExpr", `<MultExpr> ("*" | "/" | "%") "(" <MultExpr> ")"`},
		// The left factor.
		{[]*grammar.Node{x.mult13, x.unary8, x.add36}, "MultExpr", `"(" <AddExpr> ")" ("*" | "/" | "%") <UnaryExpr>`},
		// A quantifier on the way: one repetition takes the path.
		{[]*grammar.Node{x.digits, x.digit}, "UnaryExpr", `<DecDigit>+`},
		{[]*grammar.Node{x.digits, x.digit, x.three}, "UnaryExpr", `<DecDigit>* "3" <DecDigit>*`},
		{[]*grammar.Node{x.digit, x.three}, "DecDigits", `<DecDigit>* "3" <DecDigit>*`},
		// The root stands in the start rule.
		{[]*grammar.Node{gr.Root, x.mult7}, "Expr", `<AddExpr> ("+" | "-") <MultExpr>`},
	} {
		p := kpath(tc.path...)
		pat, err := NewPattern(gr, p)
		if err != nil {
			t.Errorf("%s: %v", PathLabel(gr, p), err)
			continue
		}
		if pat.String() != tc.want || pat.Rule != tc.rule {
			t.Errorf("%s:\ngot  <%s> %s\nwant <%s> %s", PathLabel(gr, p), pat.Rule, pat, tc.rule, tc.want)
		}
	}
}

func TestPatternByNonterminal(t *testing.T) {
	gr := grammar.MustCompile(grammar.MustBuiltin("expr"), grammar.WithIdentity(grammar.ByNonterminal))
	sym := func(n *grammar.Node) int32 { return int32(n.Sym) }
	unary := occurrence(t, gr, "MultExpr", "<UnaryExpr>", 1)
	add := occurrence(t, gr, "UnaryExpr", "<AddExpr>", 0)
	minus := occurrence(t, gr, "AddExpr", `"-"`, 0)
	pat, err := NewPattern(gr, grammar.KPath{sym(unary), sym(add), sym(minus)})
	if err != nil {
		t.Fatal(err)
	}
	// <UnaryExpr> stands for all its references: the pattern describes a
	// <UnaryExpr> itself.
	if want := `"(" <AddExpr> "-" <MultExpr> ")"`; pat.Rule != "UnaryExpr" || pat.String() != want {
		t.Errorf("got <%s> %s, want <UnaryExpr> %s", pat.Rule, pat, want)
	}
	if got, want := PathLabel(gr, grammar.KPath{sym(unary), sym(add), sym(minus)}), `<UnaryExpr> -> <AddExpr> -> "-"#52`; got != want {
		t.Errorf("label %s, want %s", got, want)
	}
}

func TestPatternErrors(t *testing.T) {
	gr, _ := exprSetup(t)
	x := exprOccurrences(t, gr)
	for _, p := range []grammar.KPath{
		{},
		{int32(len(gr.Symbols))},
		{-1},
		kpath(x.minus11, x.add5),    // a literal has no successors
		kpath(x.unary15, x.minus11), // "-"#11 is not in <UnaryExpr>'s right-hand side
	} {
		if pat, err := NewPattern(gr, p); err == nil {
			t.Errorf("%v: no error, pattern %s", p, pat)
		}
	}
}

func TestPatternQuantifiers(t *testing.T) {
	g, err := grammar.Parse("q.bnf", []byte(`<n> ::= "-"? <d>* "."? ; <d> ::= "0" | "1" ;`))
	if err != nil {
		t.Fatal(err)
	}
	gr := grammar.MustCompile(g)
	minus := occurrence(t, gr, "n", `"-"`, 0)
	d := occurrence(t, gr, "n", "<d>", 0)
	one := occurrence(t, gr, "d", `"1"`, 0)
	for _, tc := range []struct {
		path []*grammar.Node
		want string
	}{
		{[]*grammar.Node{minus}, `"-" <d>* "."?`},            // the option is taken
		{[]*grammar.Node{d}, `"-"? <d>+ "."?`},               // at least one <d>
		{[]*grammar.Node{d, one}, `"-"? <d>* "1" <d>* "."?`}, // one of them is "1"
	} {
		pat, err := NewPattern(gr, kpath(tc.path...))
		if err != nil {
			t.Fatal(err)
		}
		if pat.String() != tc.want || pat.Rule != "n" {
			t.Errorf("%s: <%s> %s, want <n> %s", PathLabel(gr, kpath(tc.path...)), pat.Rule, pat, tc.want)
		}
	}
}
