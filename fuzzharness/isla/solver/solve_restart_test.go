package solver_test

import (
	"context"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
)

// TestRestartEvery checks that a solver with restarts returns valid,
// distinct solutions, the same ones for the same seed, starts over as
// often as asked, and covers more of the reST grammar's 4-paths than one
// search does.
func TestRestartEvery(t *testing.T) {
	spec := compileAll(t, "rest", []string{"rest-title.isla", "rest-references.isla", "rest-numbering.isla"})
	n, every := 600, 100
	if testing.Short() {
		n, every = 200, 50
	}
	run := func(opts ...solver.Option) ([][]byte, solver.Stats) {
		s, err := solver.New(spec, append([]solver.Option{solver.Seed(1)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		trees, err := s.Solve(context.Background(), n)
		if err != nil {
			t.Fatalf("after %d solutions: %v", len(trees), err)
		}
		var out [][]byte
		for _, tr := range trees {
			out = append(out, tr.Bytes())
		}
		return out, s.Stats()
	}
	a, stats := run(solver.RestartEvery(every))
	if want := n/every - 1; stats.Restarts < want {
		t.Errorf("%d restarts, want at least %d", stats.Restarts, want)
	}
	seen := map[string]bool{}
	for _, in := range a {
		if seen[string(in)] {
			t.Fatalf("solution %q returned twice", in)
		}
		seen[string(in)] = true
		if r, err := spec.Check(in); err != nil || !r.Valid {
			t.Fatalf("solution %q does not check: %v %v", in, err, r)
		}
	}
	b, _ := run(solver.RestartEvery(every))
	for i := range a {
		if string(a[i]) != string(b[i]) {
			t.Fatalf("solution %d differs for the same seed: %q and %q", i, a[i], b[i])
		}
	}
	one, _ := run()
	_, cov4 := pathCoverage(t, "rest", a)
	_, one4 := pathCoverage(t, "rest", one)
	t.Logf("4-path coverage of %d solutions: %.1f%% with restarts every %d, %.1f%% without", n, cov4, every, one4)
	if cov4 <= one4 {
		t.Errorf("restarts cover %.1f%% of the 4-paths, one search %.1f%%", cov4, one4)
	}
}
