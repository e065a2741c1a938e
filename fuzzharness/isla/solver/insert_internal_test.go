package solver

import (
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// wrapSetup compiles a grammar and a constraint of one universal
// quantifier over an existential one, parses text as the solver's tree,
// instantiates the universal quantifier on it and returns the solver, the
// state and the existential quantifier's instance.
func wrapSetup(t *testing.T, bnf, constraint, text string) (*Solver, *evalCtx, *state, item) {
	t.Helper()
	g, err := grammar.Parse("test.bnf", []byte(bnf))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := isla.Compile(isla.MustParse(constraint), grammar.MustCompile(g))
	if err != nil {
		t.Fatal(err)
	}
	s, c, st, i := existsSetup(t, spec, text, Seed(3), NonVacuous(1))
	return s, c, st, st.forms[i]
}

// existsSetup parses text as the tree of a solver of spec with options
// opts, instantiates the universal quantifiers on it and returns the
// solver, the state and the position of its first existential quantifier.
func existsSetup(t *testing.T, spec *isla.Spec, text string, opts ...Option) (*Solver, *evalCtx, *state, int) {
	t.Helper()
	s, err := New(spec, opts...)
	if err != nil {
		t.Fatal(err)
	}
	root, ok := s.parseLeaf(s.ids.openLeaf(s.rootRef), text)
	if !ok {
		t.Fatalf("%q does not parse", text)
	}
	s.constID = root.id
	st := &state{root: root, forms: []item{{n: spec.Formula(), env: (*env)(nil).bind(0, root.id)}}}
	c := s.newEvalCtx(st)
	if children, ok := s.simplify(c, st); !ok || children != nil {
		t.Fatalf("simplify: %d children, ok %v", len(children), ok)
	}
	for i, it := range st.forms {
		if _, ok := it.n.(*isla.CompiledQuantifier); ok && it.exists() {
			return s, c, st, i
		}
	}
	t.Fatalf("no existential quantifier among %d formulas", len(st.forms))
	return nil, nil, nil, 0
}

// idOf returns the id of the first node of the tree labeled name.
func idOf(root *stree, name string) int32 {
	var id int32
	root.walk(func(u *stree) bool {
		if id == 0 && u.label() == name {
			id = u.id
		}
		return id == 0
	})
	return id
}

// wrapOnce parses text, inserts with wraps for the existential quantifier
// of the constraint and checks that there is one way, giving the tree want,
// in which the first node labeled kept keeps its id and its text.
func wrapOnce(t *testing.T, bnf, constraint, text, kept, want string) option {
	t.Helper()
	s, c, st, it := wrapSetup(t, bnf, constraint, text)
	k := st.root.find(idOf(st.root, kept))
	opts := s.wraps(c, st, it, it.n.(*isla.CompiledQuantifier), s.key(it), 4)
	if len(opts) != 1 {
		t.Fatalf("%d options, want 1", len(opts))
	}
	o := opts[0]
	if got := o.root.text(); got != want {
		t.Errorf("tree %q, want %q", got, want)
	}
	if u := o.root.find(k.id); u == nil || u.text() != k.text() {
		t.Errorf("the <%s> node lost its id or its text: %v", kept, u)
	}
	return o
}

// An existential quantifier over an enclosing node, where the tree has
// none: the only way is a new node around the existing one.
func TestWrapsAround(t *testing.T) {
	const bnf = `
<start> ::= <node> ;
<node> ::= "(" <def> " " <nodes> ")" | <use> ;
<nodes> ::= <node> " " <nodes> | <node> ;
<def> ::= "d" <var> ;
<use> ::= "u" <var> ;
<var> ::= [a-z] ;`
	const constraint = `
forall <use> u="u{<var> x}":
  exists <node> n="(d{<var> y} <nodes>)":
    (inside(u, n) and x = y)`
	// The open leaf of y derives no text yet.
	o := wrapOnce(t, bnf, constraint, "ua", "use", "(d ua)")
	n := o.root.find(o.res.binds[0])
	if n == nil || n.label() != "node" || n.text() != "(d ua)" {
		t.Fatalf("the witness is not the new enclosing <node>: %v", n)
	}
	if y := o.root.find(o.res.binds[1]); y == nil || !y.open || y.label() != "var" {
		t.Errorf("the binder y is not the new open <var>: %v", y)
	}
	// What is left to solve: x = y (inside holds).
	if len(o.forms) != 1 {
		t.Errorf("%d formulas left, want 1 (x = y)", len(o.forms))
	}
}

// An existential quantifier whose witness can only be a new sibling, on a
// recursive rule (<list> ::= <item> "," <list>).
func TestWrapsBeside(t *testing.T) {
	const bnf = `
<start> ::= <list> ;
<list> ::= <item> | <item> "," <list> ;
<item> ::= "u" <var> | "d" <var> ;
<var> ::= [a-z] ;`
	const constraint = `
forall <item> u="u{<var> x}":
  exists <item> d="d{<var> y}":
    x = y`
	o := wrapOnce(t, bnf, constraint, "ua", "item", "d,ua")
	if d := o.root.find(o.res.binds[0]); d == nil || d.label() != "item" || d.text() != "d" {
		t.Errorf("the witness is not the new <item>: %v", d)
	}
}

// Insertion beside the quantifier's range itself: the range keeps its id
// and grows by the new node, so the new node is in range.
func TestWrapsBesideRange(t *testing.T) {
	const bnf = `
<start> ::= <group> ;
<group> ::= "(" <list> ")" ;
<list> ::= <item> | <item> "," <list> ;
<item> ::= "u" <var> | "d" <var> ;
<var> ::= [a-z] ;`
	const constraint = `
forall <group> g="({<list> l})":
  exists <item> d="d{<var> y}" in l:
    y = "b"`
	s, c, st, it := wrapSetup(t, bnf, constraint, "(ua)")
	l := idOf(st.root, "list")
	q := it.n.(*isla.CompiledQuantifier)
	opts := s.wraps(c, st, it, q, s.key(it), 4)
	if len(opts) == 0 {
		t.Fatal("no options")
	}
	for _, o := range opts {
		got := o.root.text()
		if got != "(d,ua)" {
			t.Errorf("tree %q, want (d,ua)", got)
		}
		lst := o.root.find(l)
		d := o.root.find(o.res.binds[0])
		if lst == nil || d == nil || lst.find(d.id) == nil {
			t.Errorf("%q: the new <item> is not inside the range <list>", got)
		}
	}
}
