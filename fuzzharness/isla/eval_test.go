package isla_test

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

func graphOf(t *testing.T, src string) *grammar.Graph {
	t.Helper()
	g, err := grammar.Parse("g.bnf", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return grammar.MustCompile(g)
}

func mustCheck(t *testing.T, gr *grammar.Graph, src, input string, opts ...isla.Option) *isla.Result {
	t.Helper()
	c, err := isla.Parse("c.isla", []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	r, err := isla.Check(gr, c, []byte(input), opts...)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return r
}

// listGrammar derives nested lists such as a1,(b,c),d.
const listGrammar = `
<start> ::= <list> ;
<list> ::= <item> ("," <item>)* ;
<item> ::= <word> <num>? | "(" <list> ")" ;
<word> ::= [a-z]+ ;
<num> ::= [0-9]+ ;
`

// The tree of a1,(b,c),d:
//
//	<start> <list> <item>(<word>a <num>1) "," <item>("(" <list>(<item>(<word>b) "," <item>(<word>c)) ")") "," <item>(<word>d)
func TestQuantifiersAndPredicates(t *testing.T) {
	gr := graphOf(t, listGrammar)
	const in = "a1,(b,c),d"
	w := func(x, body string) string { // binds the word x to a variable named x
		return `forall <word> ` + x + `="` + x + `": ` + body
	}
	for _, tc := range []struct {
		f    string
		want bool
	}{
		// the node searched belongs to the range, as in ISLa
		{`exists <list> l: (= l "a1,(b,c),d")`, true},
		{`forall <list> l: exists <list> m in l: same_position(l, m)`, true},
		{`forall <start> s in start: (= s "a1,(b,c),d")`, true},
		{`exists <list> l: (= l "b,c")`, true},
		{`forall <word> x: (str.len(x) = 1)`, true},
		// before: ordered and not nested; after, as in ISLa: not before
		// and not an ancestor, so a node is after the nodes around it
		{w("a", w("b", `before(a, b)`)), true},
		{w("b", w("a", `before(b, a)`)), false},
		{w("d", w("b", `after(d, b)`)), true},
		{w("b", w("d", `after(b, d)`)), false},
		{`forall <item> i="(<list>)": ` + w("b", `before(i, b)`), false},
		{`forall <item> i="(<list>)": ` + w("b", `after(b, i)`), true},
		{`forall <item> i="(<list>)": ` + w("b", `after(i, b)`), false},
		{w("b", `after(b, b)`), false},
		// inside, direct_child, same and different positions
		{`forall <item> i="(<list>)": ` + w("b", `inside(b, i)`), true},
		{`forall <item> i="(<list>)": ` + w("a", `inside(a, i)`), false},
		{w("b", `inside(b, b)`), true},
		{`forall <item> i="b": ` + w("b", `direct_child(b, i)`), true},
		{`forall <list> l="b,c": ` + w("b", `direct_child(b, l)`), false},
		{w("a", w("b", `(different_position(a, b) and not same_position(a, b))`)), true},
		// consecutive: no leaf between
		{w("a", `forall <num> n: consecutive(a, n)`), true},
		{w("a", w("b", `consecutive(a, b)`)), false},
		// nth: the n-th of its nonterminal in pre-order below the second node
		{`forall <list> l="b,c": ` + w("c", `nth(2, c, l)`), true},
		{w("b", `nth(2, b, start)`), true},
		{w("b", `nth(1, b, start)`), false},
		{w("b", `nth("2", b, start)`), true},
		// nth_child: the n-th direct child of its nonterminal
		{`forall <list> l="<item>,<item>,<item>": forall <item> i="(<list>)": nth_child(2, i, l)`, true},
		{`forall <list> l="<item>,<item>,<item>": forall <item> i="(<list>)": nth_child(1, i, l)`, false},
		// level, relative to <list> scopes
		{w("a", w("d", `level("EQ", "<list>", a, d)`)), true},
		{w("a", w("b", `level("EQ", "<list>", a, b)`)), false},
		{w("a", w("b", `level("GE", "<list>", a, b)`)), true},
		{w("a", w("b", `level("GT", "<list>", a, b)`)), true},
		{w("a", w("b", `level("LT", "<list>", a, b)`)), false},
		{w("b", w("a", `level("LE", "<list>", b, a)`)), true},
		{w("b", w("a", `level("LT", "<list>", b, a)`)), true},
		// count, with literals and numeric variables
		{`count(start, "<word>", 4)`, true},
		{`count(start, "<word>", "4")`, true},
		{`count(start, "<word>", "04")`, true},
		{`count(start, "<list>", 3)`, false},
		{`forall <num> n: count(start, "<item>", n)`, false},
		{`exists int n: (count(start, "<word>", n) and str.to_int(n) = 4)`, true},
		{`exists int n: (count(start, "<word>", n) and str.to_int(n) = 3)`, false},
		{`forall int n: (count(start, "<word>", n) implies str.to_int(n) > 3)`, true},
		{`forall int n: (count(start, "<word>", n) implies str.to_int(n) > 5)`, false},
		{`exists int n: (n = "7" and str.to_int(n) > 6)`, true},
		{`exists int n: (str.to_int(n) = str.len(start) and count(start, "<item>", 1))`, false},
		{`exists int n: exists int m: (count(start, "<word>", n) and count(start, "<item>", m) and str.to_int(n) + 1 = str.to_int(m))`, true},
		// simplified syntax on this grammar
		{`<item>.<word> = "a" or <item>.<word> = "b" or str.len(<item>.<word>) = 1`, true},
		{`str.len(<list>..<word>) = 1`, true},
		{`exists <item> i: i.<num> = "1"`, true},
		{`exists <item> i: i.<num> = "2"`, false},
	} {
		if got := mustCheck(t, gr, tc.f, in); got.Valid != tc.want {
			t.Errorf("%s: got %v, want %v\n%s", tc.f, got.Valid, tc.want, got)
		}
	}
}

// Instances are visited in pre-order: a failure reports the first one.
func TestFailureReport(t *testing.T) {
	gr := graphOf(t, listGrammar)
	for _, tc := range []struct {
		f, reason string
		path      []string // texts of the first binding of each instance
		formula   string
		bindings  []string // formatted bindings of the failing formula
	}{
		{f: `forall <word> x: (= x "a")`, path: []string{"b"}, formula: `(= x "a")`,
			reason: "SMT-LIB formula is false", bindings: []string{`x = "b" (<word> at 1:5-6, bytes 4-5)`}},
		{f: `forall <item> i: exists <word> x in i: (= x "d")`, path: []string{"a1"},
			formula: `exists <word> x in i: (= x "d")`, reason: "none of the 1 <word> in i satisfies the formula"},
		{f: `forall <item> i: (i = "a1" or i = "d")`, path: []string{"(b,c)"}, reason: "neither side holds"},
		{f: `forall <word> x: not x = "c"`, path: []string{"c"}, reason: "the negated formula holds"},
		{f: `forall <word> x: str.to_int(x) div 0 = 1`, path: []string{"a"}, reason: "division by zero"},
		{f: `forall <word> x: (str.len(x) = 1 implies x = "a")`, path: []string{"b"}, formula: `(= x "a")`},
		{f: `forall <list> l="b,c": forall <word> x in l: nth(2, x, l)`, path: []string{"b,c", "b"}, reason: "predicate does not hold"},
		{f: `forall int n: (count(start, "<word>", n) implies str.to_int(n) > 5)`, path: []string{"4"}, formula: `(> (str.to_int n) 5)`},
		{f: `exists int n: true`, reason: "no candidate value for n was found"},
		{f: `exists <item> i: i.<num> = "2"`, reason: "none of the 5 <item> in start satisfies the formula"},
		{f: `exists <list> l="x": true`, reason: "none of the 2 <list> in start matches the match expression"},
		{f: `forall <item> i: count(i, "<word>", i)`, path: []string{"a1"}, reason: `argument 3 of count is not a number: "a1"`},
	} {
		r := mustCheck(t, gr, tc.f, "a1,(b,c),d")
		if r.Valid {
			t.Errorf("%s: valid", tc.f)
			continue
		}
		f := r.Failure
		var path []string
		for _, in := range f.Path {
			path = append(path, in.Bindings[0].Text)
		}
		if strings.Join(path, "|") != strings.Join(tc.path, "|") {
			t.Errorf("%s: path %q, want %q\n%s", tc.f, path, tc.path, r)
		}
		if tc.formula != "" && isla.FormatFormula(f.Formula) != tc.formula {
			t.Errorf("%s: failing formula %s, want %s", tc.f, isla.FormatFormula(f.Formula), tc.formula)
		}
		if !strings.Contains(f.Reason, tc.reason) {
			t.Errorf("%s: reason %q, want it to contain %q", tc.f, f.Reason, tc.reason)
		}
		for i, b := range tc.bindings {
			if i >= len(f.Bindings) || f.Bindings[i].String() != b {
				t.Errorf("%s: bindings %v, want %v", tc.f, f.Bindings, tc.bindings)
				break
			}
		}
	}
}

func TestMatchExpressions(t *testing.T) {
	// Two nodes of <e> derive "" at offset 0: "{<e> m}x" matches twice. (A
	// match expression no <p> has the form of, such as "xx", is a compile
	// error: see TestCompileErrors.)
	gr := graphOf(t, `<p> ::= <e> <e> "x" ; <e> ::= "" ;`)
	for _, tc := range []struct {
		f    string
		want bool
	}{
		{`forall <p> q="{<e> m}x": nth(1, m, q)`, false},
		{`exists <p> q="{<e> m}x": nth(2, m, q)`, true},
		{`exists <p> q="{<e> m}{<e> n}x": (before(m, n) and nth(1, m, q))`, true},
		{`exists <p> q="x": true`, true},
		{`exists <p> q="<e>[<e>]x": true`, true},
		{`forall <p> q="{<p> r}": same_position(q, r)`, true},
	} {
		if got := mustCheck(t, gr, tc.f, "x"); got.Valid != tc.want {
			t.Errorf("%s: got %v, want %v\n%s", tc.f, got.Valid, tc.want, got)
		}
	}
	// Optional parts: both variants match their elements.
	xml := loadGraph(t, "xml")
	for _, in := range []string{`<a>t</a>`, `<a b="c">t</a>`} {
		r := mustCheck(t, xml, `exists <xml-tree> t="<{<id> o}[ <xml-attribute>]><inner-xml-tree></<id>>": o = "a"`, in)
		if !r.Valid {
			t.Errorf("%s: optional attribute not matched:\n%s", in, r)
		}
	}
	// Literal text matches across nonterminals.
	if r := mustCheck(t, xml, `exists <xml-tree> t="<a b=\"c\">t\\</a>": true`, `<a b="c">t</a>`); !r.Valid {
		t.Errorf("literal match expression: %s", r)
	}
}

// An ambiguous input is valid if some derivation satisfies the constraint.
func TestAmbiguity(t *testing.T) {
	gr := graphOf(t, `<s> ::= <x> <x> ; <x> ::= "a"* ;`)
	valid := 0
	for _, p := range []string{"", "a", "aa"} {
		f := `forall <s> s="{<x> p}<x>": p = "` + p + `"`
		r := mustCheck(t, gr, f, "aa")
		if !r.Valid || r.Total != 3 || r.Infinite {
			t.Errorf("%s: want valid with 3 derivations, got %+v\n%s", f, r, r)
		}
		if mustCheck(t, gr, f, "aa", isla.MaxDerivations(1)).Valid {
			valid++
		}
	}
	if valid != 1 {
		t.Errorf("with one derivation evaluated, %d of the 3 constraints hold, want 1", valid)
	}
	r := mustCheck(t, gr, `forall <s> s="{<x> p}<x>": p = "b"`, "aa")
	if r.Valid || r.Derivations != 3 || !strings.Contains(r.String(), "none of the 3 derivations") {
		t.Errorf("want invalid after 3 derivations, got %d\n%s", r.Derivations, r)
	}
	r = mustCheck(t, gr, `forall <s> s="{<x> p}<x>": p = "b"`, "aa", isla.MaxDerivations(2))
	if r.Valid || r.Derivations != 2 || !strings.Contains(r.String(), "none of 2 of 3 derivations") {
		t.Errorf("want invalid after 2 of 3 derivations, got %d\n%s", r.Derivations, r)
	}
}

// failing is a semantic predicate that always fails with an error.
type failing struct{}

func (failing) Name() string { return "failing" }
func (failing) Params() []isla.Param {
	return []isla.Param{isla.TreeParam, isla.StringParam, isla.NumParam}
}
func (failing) Eval([]isla.Arg) (bool, error) { return false, errors.New("broken") }

// args records the arguments it is called with.
type args struct {
	mu   sync.Mutex
	seen []string
}

func (*args) Name() string { return "args" }
func (*args) Params() []isla.Param {
	return []isla.Param{isla.TreeParam, isla.StringParam, isla.NumParam}
}
func (a *args) Eval(x []isla.Arg) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := x[0].Node
	a.seen = append(a.seen, n.String()+"|"+x[1].Str+"|"+x[2].Num+"|"+n.Parent().Nonterminal()+"|"+
		strings.Join(func() []string {
			var s []string
			for _, c := range n.Children() {
				s = append(s, c.String())
			}
			return s
		}(), " "))
	return true, nil
}

func TestSemanticPredicates(t *testing.T) {
	gr := graphOf(t, listGrammar)
	r := mustCheck(t, gr, `forall <word> x: failing(x, "s", 1)`, "a", isla.WithPredicates(failing{}))
	if r.Valid || !strings.Contains(r.Failure.Reason, "failing: broken") {
		t.Errorf("want the predicate's error reported, got\n%s", r)
	}
	a := &args{}
	r = mustCheck(t, gr, `forall <item> i: args(i, "\x00s", "7")`, "a1,b", isla.WithPredicates(a))
	if !r.Valid {
		t.Fatal(r)
	}
	want := []string{
		"<item> \"a1\"|\x00s|7|list|<word> \"a\" <num> \"1\"",
		"<item> \"b\"|\x00s|7|list|<word> \"b\"",
	}
	if strings.Join(a.seen, "\n") != strings.Join(want, "\n") {
		t.Errorf("arguments:\n%s\nwant\n%s", strings.Join(a.seen, "\n"), strings.Join(want, "\n"))
	}
}

func TestConstDeclaration(t *testing.T) {
	xml := loadGraph(t, "xml")
	// The constant's type is the nonterminal inputs are parsed from.
	c := isla.MustParse(`const tag: <xml-open-tag>; forall <id> i in tag: i = "a"`)
	s, err := isla.Compile(c, xml)
	if err != nil {
		t.Fatal(err)
	}
	if s.StartSymbol() != "xml-open-tag" {
		t.Errorf("start symbol %s", s.StartSymbol())
	}
	for in, want := range map[string]bool{`<a>`: true, `<b>`: false, `<a a="1">`: true, `<a b="1">`: false} {
		r, err := s.Check([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if r.Valid != want {
			t.Errorf("%s: got %v", in, r)
		}
	}
	if _, err := s.Check([]byte(`<a>x</a>`)); err == nil {
		t.Errorf("an element parsed as an opening tag")
	}
	// Without a declaration, start stands for a virtual <start> above the
	// start symbol <xml-tree>, so the whole document is an <xml-tree> in it.
	r := mustCheck(t, xml, `exists <xml-tree> t in start: same_position(t, start)`, `<a/>`)
	if r.Valid {
		t.Errorf("start is the virtual <start>, not the <xml-tree>")
	}
	r = mustCheck(t, xml, `forall <xml-tree> t in start: direct_child(t, start)`, `<a/>`)
	if !r.Valid {
		t.Errorf("the document's <xml-tree> is the child of start: %s", r)
	}
}

func TestEvalTree(t *testing.T) {
	s := compile(t, "xml", "xml-balance.isla")
	gen := grammar.NewGenerator(loadGraph(t, "xml"), 3)
	for i := 0; i < 50; i++ {
		tr, err := gen.Generate()
		if err != nil {
			t.Fatal(err)
		}
		r1 := s.EvalTree(tr)
		r2, err := s.Check(tr.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if r1.Valid != r2.Valid {
			t.Errorf("%q: EvalTree says %v, Check %v", tr.Bytes(), r1.Valid, r2.Valid)
		}
	}
}

// Check reuses its memory from one input to the next (the tree, the view,
// the evaluator): inputs checked one after the other, valid and invalid,
// large and small, get the verdicts and failures of a new spec's, and a
// valid input checked again allocates less than the first time.
func TestCheckReusesMemory(t *testing.T) {
	s := compile(t, "xml", "xml-balance.isla")
	inputs := []string{`<a><b>x</b><c/></a>`, `<a><b>x</c></a>`, `<x/>`, `<a><b><c><d>y</d></c></b>z</a>`, `<a>t</b>`, `<a><b>x</b><c/></a>`}
	for _, in := range inputs {
		got, err := s.Check([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		want, err := compile(t, "xml", "xml-balance.isla").Check([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s: after other inputs %v, alone %v", in, got, want)
		}
	}
	in := []byte(`<a><b><c><d>y</d></c></b>z</a>`)
	first := testing.AllocsPerRun(1, func() { compile(t, "xml", "xml-balance.isla").Check(in) }) -
		testing.AllocsPerRun(1, func() { compile(t, "xml", "xml-balance.isla") })
	again := testing.AllocsPerRun(20, func() { s.Check(in) })
	if again > first/2 {
		t.Errorf("Check allocates %v times on an input checked before, %v the first time", again, first)
	}
}

// A view rebuilt in the memory of the last one (NewViewReusing, which
// reuses the View itself) and given to an evaluator with Reset gets the
// verdicts of a new view and evaluator: the matches computed on the last
// view are not taken for the new one's.
func TestEvaluatorResetOnRebuiltView(t *testing.T) {
	for _, file := range []string{"xml-namespace.isla", "xml-balance.isla"} {
		s := compile(t, "xml", file)
		gen := grammar.NewGenerator(loadGraph(t, "xml"), 11)
		var v *isla.View
		var e *isla.Evaluator
		for i := range 300 {
			tr, err := gen.Generate()
			if err != nil {
				t.Fatal(err)
			}
			in := tr.Bytes()
			old := v
			v = isla.NewViewReusing(v, in, tr, s.Labels(), s.RootLabel(), s.VirtualRoot())
			if old != nil && v != old {
				t.Fatalf("%q: the view was not rebuilt in the last one's memory", in)
			}
			if e == nil {
				e = isla.NewEvaluator(s, v)
			} else {
				e.Reset(v)
			}
			want := isla.NewEvaluator(s, isla.NewView(in, tr, s.Labels(), s.RootLabel(), s.VirtualRoot())).Eval(s.Formula())
			if got := e.Eval(s.Formula()); got != want {
				t.Fatalf("%s %d %q: %v on the rebuilt view, %v on a new one", file, i, in, got, want)
			}
		}
	}
}

// A Spec is safe for concurrent use.
func TestConcurrentCheck(t *testing.T) {
	s := compile(t, "xml", "xml-namespace.isla")
	inputs := map[string]bool{`<a xmlns:p="u" p:x="1">t</a>`: true, `<a p:x="1">t</a>`: false}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				for in, want := range inputs {
					r, err := s.Check([]byte(in))
					if err != nil || r.Valid != want {
						t.Errorf("%s: %v %v", in, r, err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

func TestSyntaxErrorOfInput(t *testing.T) {
	s := compile(t, "xml", "xml-balance.isla")
	_, err := s.Check([]byte(`<a>x</a`))
	var se *grammar.SyntaxError
	if !errors.As(err, &se) || se.Line != 1 || se.Col != 8 {
		t.Errorf("want a syntax error at 1:8, got %v", err)
	}
}

// FuzzCheck compiles arbitrary constraints against the XML grammar and
// evaluates them on arbitrary documents: nothing panics, Check gives a
// document the same result after it checked another one, and evaluating
// the parsed tree agrees with Check on unambiguous documents.
func FuzzCheck(f *testing.F) {
	for _, tc := range parseCases {
		f.Add(tc.src, `<a x="1">t<b/></a>`)
	}
	for _, c := range []string{"xml-balance.isla", "xml-balance-simplified.isla", "xml-namespace.isla", "xml-no-redef.isla"} {
		f.Add(loadConstraint(f, c).String(), `<a xmlns:p="u"><b p:x="1">t</b></a>`)
	}
	f.Add(`exists int n: (count(start, "<id>", n) and str.to_int(n) > 1)`, `<a><b/></a>`)
	f.Add(`forall <id> i: (str.in_re(i, re.+(re.range("a", "z"))) and str.replace_re_all(i, re.*(re.allchar), "x") = "x")`, `<ab/>`)
	gr := loadGraph(f, "xml")
	p, err := grammar.NewParser(gr)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src, doc string) {
		if len(src) > 2000 || len(doc) > 300 {
			return
		}
		c, err := isla.Parse("fuzz", []byte(src))
		if err != nil {
			return
		}
		s, err := isla.Compile(c, gr, isla.MaxDerivations(4))
		if err != nil {
			return
		}
		r, err := s.Check([]byte(doc))
		if err != nil {
			return
		}
		// Check reuses the memory of the one before: the same document
		// gets the same result after another one.
		s.Check([]byte(`<x p:y="1" z="2"><w>t</w><v/></x>`))
		if again, err := s.Check([]byte(doc)); err != nil || again.String() != r.String() {
			t.Fatalf("Check after another document: %v, %v; before: %v", again, err, r)
		}
		if forest, err := p.Parse([]byte(doc)); err == nil && !forest.Ambiguous() {
			if s.EvalTree(forest.Tree()).Valid != r.Valid {
				t.Fatalf("EvalTree and Check disagree")
			}
		}
	})
}

// The running example of the ISLa language specification, in its core and
// simplified forms: every variable on a right-hand side is assigned before.
func TestISLaSpecificationExample(t *testing.T) {
	gr := graphOf(t, `
<start> ::= <stmt> ;
<stmt> ::= <assgn> | <assgn> " ; " <stmt> ;
<assgn> ::= <var> " := " <rhs> ;
<rhs> ::= <var> | <digit> ;
<var> ::= [a-z] ;
<digit> ::= [0-9] ;
`)
	forms := []string{
		`forall <assgn> assgn="<var> := {<var> rhs}" in start:
		   exists <assgn> decl="{<var> lhs} := <rhs>" in start: (before(decl, assgn) and (= lhs rhs))`,
		`forall <assgn> assgn="<var> := {<var> rhs}":
		   exists <assgn> decl="{<var> lhs} := <rhs>": (before(decl, assgn) and lhs = rhs)`,
		`forall <assgn> assgn:
		   exists <assgn> decl: (before(decl, assgn) and assgn.<rhs>.<var> = decl.<var>)`,
		`exists <assgn> decl: (before(decl, <assgn>) and <assgn>.<rhs>.<var> = decl.<var>)`,
	}
	for in, want := range map[string]bool{
		"x := 1":                   true,
		"x := 1 ; y := x":          true,
		"x := 1 ; y := 2 ; z := y": true,
		"x := 1 ; y := z":          false,
		"x := x":                   false,
		"y := x ; x := 1":          false,
		"a := 1 ; b := a ; c := d": false,
	} {
		for _, f := range forms {
			if r := mustCheck(t, gr, f, in); r.Valid != want {
				t.Errorf("%q: got %v for\n%s\n%s", in, r.Valid, f, r)
			}
		}
	}
}

// failingPred is a semantic predicate whose Eval fails with err.
type failingPred struct{ err error }

func (failingPred) Name() string                    { return "broken" }
func (failingPred) Params() []isla.Param            { return []isla.Param{isla.TreeParam} }
func (p failingPred) Eval([]isla.Arg) (bool, error) { return false, p.err }

// The reason of a failing predicate names it once, whether or not its
// error starts with its name.
func TestPredicateErrorPrefix(t *testing.T) {
	gr := graphOf(t, `<p> ::= "x" ;`)
	for _, msg := range []string{"the tree is too short", "broken: the tree is too short"} {
		r := mustCheck(t, gr, `forall <p> q: broken(q)`, "x", isla.WithPredicates(failingPred{errors.New(msg)}))
		if r.Valid || r.Failure == nil || r.Failure.Reason != "broken: the tree is too short" {
			t.Errorf("error %q: result %v", msg, r)
		}
	}
}
