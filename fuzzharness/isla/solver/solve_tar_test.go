package solver_test

import (
	"context"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/tarpred"
)

// The solver solves the semantic predicates that implement TreeSolver: with
// tarpred's tar_checksum and tar_size, every archive it makes under
// testdata/tar.isla has the right checksums and sizes, checked on the
// derivation tree and again on the bytes (the validator parses them and
// evaluates the predicates of the test helpers, written independently).
func TestSolveTar(t *testing.T) {
	spec := compile(t, "tar", "tar.isla", tarpred.Predicates())
	check := compile(t, "tar", "tar.isla", tarPredicates)
	s, err := solver.New(spec, solver.Seed(5))
	if err != nil {
		t.Fatal(err)
	}
	trees, err := s.Solve(context.Background(), 12)
	if err != nil {
		t.Fatalf("%d archives: %v", len(trees), err)
	}
	for _, tr := range trees {
		if r := spec.EvalTree(tr); !r.Valid {
			t.Fatalf("invalid archive: %s", r)
		}
		in := tr.Bytes()
		if len(in)%512 != 0 || len(in) < 2*512 {
			t.Errorf("an archive of %d bytes", len(in))
		}
		if r, err := check.Check(in); err != nil || !r.Valid {
			t.Errorf("the validator rejects an archive of the solver: %v %v", r, err)
		}
	}
}
