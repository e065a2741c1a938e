package solver

import (
	"context"
	"os"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// TestReserveDropsCostliest checks that the reserve stays within
// reserveNodes by dropping its costliest states, the newest of equal cost,
// and keeps the state added last even when it alone exceeds the bound.
func TestReserveDropsCostliest(t *testing.T) {
	var r reserve
	var seq uint64
	mk := func(size int32, cost float64) *state {
		seq++
		return &state{root: &stree{size: size}, cost: cost, seq: seq}
	}
	part := int32(reserveNodes / 3)
	for _, c := range []float64{1, 3, 2} {
		if n := r.add(mk(part, c)); n != 0 {
			t.Fatalf("dropped %d states within the bound", n)
		}
	}
	if n := r.add(mk(part, 0)); n != 1 {
		t.Fatalf("dropped %d states past the bound, want 1", n)
	}
	costs := func() []float64 {
		var cs []float64
		for _, st := range r.states {
			cs = append(cs, st.cost)
		}
		return cs
	}
	if got := costs(); len(got) != 3 || got[0] != 1 || got[1] != 2 || got[2] != 0 {
		t.Fatalf("costs %v kept, want [1 2 0] (the costliest, 3, dropped)", got)
	}
	if r.nodes != 3*int(part) {
		t.Fatalf("%d nodes counted, want %d", r.nodes, 3*part)
	}
	// Of equal costs, the newest goes.
	r.reset()
	a, b := mk(part, 5), mk(part, 5)
	r.add(a)
	r.add(b)
	r.add(mk(part, 5))
	if n := r.add(mk(part, 4)); n != 1 || r.states[0] != a || r.states[1] != b {
		t.Fatalf("dropped %d; kept %v, want the two oldest of cost 5 and the new one", n, costs())
	}
	big := mk(reserveNodes+1, 0)
	if n := r.add(big); n != 3 || len(r.states) != 1 || r.states[0] != big {
		t.Fatalf("a state larger than the bound: dropped %d, kept %d states, want 3 and the new one", n, len(r.states))
	}
	r.reset()
	if len(r.states) != 0 || r.nodes != 0 {
		t.Fatalf("reset left %d states, %d nodes", len(r.states), r.nodes)
	}
}

// TestReserveBoundOnASearch checks the bound on a search whose reserve
// outgrows it (reST titles: most solutions are random samples), and that
// the search then counts itself incomplete, so that it never claims
// unsatisfiability.
func TestReserveBoundOnASearch(t *testing.T) {
	src, err := os.ReadFile("../testdata/rest-title.isla")
	if err != nil {
		t.Fatal(err)
	}
	c, err := isla.Parse("rest-title.isla", src)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := isla.Compile(c, grammar.MustCompile(grammar.MustBuiltin("rest")))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(spec, Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	for range 1000 {
		if _, err := s.Next(context.Background()); err != nil {
			t.Fatal(err)
		}
		if s.reserve.nodes > reserveNodes {
			t.Fatalf("the reserve holds %d tree nodes, bound %d", s.reserve.nodes, reserveNodes)
		}
	}
	if s.Stats().Unreserved == 0 {
		t.Fatal("no state dropped from the reserve in 1,000 solutions: the test no longer exercises the bound")
	}
	if !s.dropped {
		t.Fatal("states were dropped from the reserve but the search counts itself complete")
	}
}
