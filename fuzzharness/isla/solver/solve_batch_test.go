package solver_test

import (
	"context"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
)

// TestBatchesHold checks that the leaves given random values together are
// independent on Scriptsize-C, where equations tie a declaration's name to
// several uses: most batches hold (when two uses of one declaration could
// share a batch, nearly all of them failed).
func TestBatchesHold(t *testing.T) {
	spec := compileAll(t, "scriptsizec", []string{"scriptsizec-def-use.isla", "scriptsizec-no-redef.isla"})
	n := 300
	if testing.Short() {
		n = 100
	}
	s, err := solver.New(spec, solver.Seed(1), solver.RestartEvery(1500), solver.MaxStates(1000))
	if err != nil {
		t.Fatal(err)
	}
	if trees, err := s.Solve(context.Background(), n); err != nil {
		t.Fatalf("after %d solutions: %v", len(trees), err)
	}
	st := s.Stats()
	t.Logf("%d batches, %d failed", st.Batches, st.BatchesFailed)
	if st.Batches < n/2 {
		t.Fatalf("%d batches for %d solutions, want at least %d", st.Batches, n, n/2)
	}
	if st.BatchesFailed*3 > st.Batches {
		t.Errorf("%d of %d batches failed, want at most a third", st.BatchesFailed, st.Batches)
	}
}
