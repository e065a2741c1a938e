package solver

import (
	"container/heap"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// defUseSetup parses text as a Scriptsize-C program for a solver of the
// def-use constraint (see existsSetup).
func defUseSetup(t *testing.T, text string, opts ...Option) (*Solver, *evalCtx, *state, int) {
	t.Helper()
	spec, err := isla.Compile(isla.MustParse(`
forall <term> use_ctx="{<id> use}":
  exists <declaration> decl="int {<id> def}[ = <expr>];":
    (level("GE", "<block>", decl, use_ctx) and before(decl, use_ctx) and def = use)`),
		grammar.MustCompile(grammar.MustBuiltin("scriptsizec")))
	if err != nil {
		t.Fatal(err)
	}
	return existsSetup(t, spec, text, append([]Option{Seed(3)}, opts...)...)
}

// TestNoInsertionBesideMatches checks that an existential quantifier with
// a match is eliminated by matching only (the solver then records that it
// dropped possibilities), one without by tree insertion, and that with
// NonVacuous a quantifier with a match gets insertions too.
func TestNoInsertionBesideMatches(t *testing.T) {
	for _, tc := range []struct {
		text       string
		opts       []Option
		insertions bool
	}{
		{"int a;int b = a;", nil, false},
		{"int b = a;", nil, true},
		{"int a;int b = a;", []Option{NonVacuous(1)}, true},
	} {
		s, c, st, i := defUseSetup(t, tc.text, tc.opts...)
		children := s.branchExists(c, st, i, st.forms[i].n.(*isla.CompiledQuantifier))
		inserted := 0
		for _, ch := range children {
			if ch.root != st.root {
				inserted++
			}
		}
		if got := inserted > 0; got != tc.insertions || len(children) == 0 {
			t.Errorf("%q %d options: %d children, %d by insertion; want insertions %v", tc.text, len(tc.opts), len(children), inserted, tc.insertions)
		}
		if !tc.insertions && !s.dropped {
			t.Errorf("%q: the insertions left out are not recorded as dropped", tc.text)
		}
	}
}

// TestSiblingPenalty checks that the successors of an existential
// quantifier's elimination with equal costs are queued with the cost
// raised by siblingPenalty per earlier equal sibling, and that other
// successors keep their cost.
func TestSiblingPenalty(t *testing.T) {
	s, _, st, _ := defUseSetup(t, "int a;int b = a;")
	base := s.cost(st)
	elim := func() *state {
		c := st.clone()
		c.resolved = append(c.resolved, resolved{key: "k"})
		return c
	}
	a, b, fork, d := elim(), elim(), st.clone(), elim()
	s.pushChildren(st, []*state{a, b, fork, d})
	for _, tc := range []struct {
		name string
		st   *state
		want float64
	}{{"first", a, base}, {"second", b, base + siblingPenalty}, {"fork", fork, base}, {"third", d, base + 2*siblingPenalty}} {
		if tc.st.cost != tc.want {
			t.Errorf("%s successor: cost %v, want %v", tc.name, tc.st.cost, tc.want)
		}
	}
	var order []*state
	for s.queue.Len() > 0 {
		order = append(order, heap.Pop(&s.queue).(*state))
	}
	if len(order) != 4 || order[0] != a || order[1] != fork || order[2] != b || order[3] != d {
		t.Errorf("queue order wrong: %v", order)
	}
}
