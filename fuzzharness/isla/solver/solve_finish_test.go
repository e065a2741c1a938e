package solver_test

import (
	"context"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
)

// TestOneSolvePerOutput checks that the solves of one state are spread
// over the calls of Next: a call that returns a new solution makes at most
// one successful Go solve beyond those whose solutions were duplicates, the
// second solve of a state comes in a call that processes no state, and
// the outputs are the same for the same seed.
func TestOneSolvePerOutput(t *testing.T) {
	spec := compileAll(t, "csv", []string{"csv-columns.isla"})
	n := 300
	if testing.Short() {
		n = 100
	}
	run := func() []string {
		s, err := solver.New(spec, solver.Seed(1), solver.Models(2))
		if err != nil {
			t.Fatal(err)
		}
		var outs []string
		lazy := 0
		for len(outs) < n {
			before := s.Stats()
			tr, err := s.Next(context.Background())
			if err != nil {
				t.Fatalf("after %d solutions: %v", len(outs), err)
			}
			after := s.Stats()
			solves, dups := after.GoSolved-before.GoSolved, after.Duplicates-before.Duplicates
			if solves > 1+dups {
				t.Fatalf("output %d: %d Go solves and %d duplicates in one call of Next, want at most one solve per output", len(outs), solves, dups)
			}
			if after.States == before.States && solves == 1 {
				lazy++
			}
			outs = append(outs, string(tr.Bytes()))
		}
		if lazy == 0 {
			t.Errorf("no output came from a state's second solve alone")
		}
		return outs
	}
	a, b := run(), run()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("output %d differs between two runs of the same seed: %q and %q", i, a[i], b[i])
		}
	}
}
