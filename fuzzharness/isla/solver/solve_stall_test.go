package solver_test

import (
	"context"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
)

// TestStallFactor checks that a solver with restarts abandons the searches
// that stall on Scriptsize-C: no output takes more than a few dozen states
// (one search without the detection takes hundreds for some), the outputs
// are valid and distinct, and the same seed gives the same outputs, as the
// detection counts states, not time.
func TestStallFactor(t *testing.T) {
	spec := compileAll(t, "scriptsizec", []string{"scriptsizec-def-use.isla", "scriptsizec-no-redef.isla"})
	// Seed 3: since equal-cost matches are taken one after the other
	// (pushChildren), the first 300 programs of seed 1 no longer include
	// a search that takes long without the detection.
	n := 300
	run := func(opts ...solver.Option) (outs []string, maxStates int, stats solver.Stats) {
		opts = append([]solver.Option{solver.Seed(3), solver.RestartEvery(1500), solver.MaxStates(1000)}, opts...)
		s, err := solver.New(spec, opts...)
		if err != nil {
			t.Fatal(err)
		}
		prev := 0
		for len(outs) < n {
			tr, err := s.Next(context.Background())
			if err != nil {
				t.Fatalf("after %d solutions: %v", len(outs), err)
			}
			st := s.Stats()
			maxStates = max(maxStates, st.States-prev)
			prev = st.States
			outs = append(outs, string(tr.Bytes()))
		}
		return outs, maxStates, s.Stats()
	}
	a, most, stats := run()
	_, mostOff, statsOff := run(solver.StallFactor(0))
	t.Logf("most states for one output: %d with stall detection (%d stalls, %d states in all), %d without (%d states)",
		most, stats.Stalls, stats.States, mostOff, statsOff.States)
	if stats.Stalls == 0 || statsOff.Stalls != 0 {
		t.Errorf("%d stalls with the detection, %d without; want some and none", stats.Stalls, statsOff.Stalls)
	}
	if most > 150 || mostOff < 2*most {
		t.Errorf("most states for one output: %d with the detection (want at most 150), %d without (want twice as many)", most, mostOff)
	}
	seen := map[string]bool{}
	for _, in := range a {
		if seen[in] {
			t.Fatalf("solution %q returned twice", in)
		}
		seen[in] = true
		if r, err := spec.Check([]byte(in)); err != nil || !r.Valid {
			t.Fatalf("solution %q does not check: %v %v", in, err, r)
		}
	}
	b, _, _ := run()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("solution %d differs for the same seed: %q and %q", i, a[i], b[i])
		}
	}
}
