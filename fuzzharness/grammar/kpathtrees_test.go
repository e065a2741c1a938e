package grammar

import (
	"fmt"
	"testing"
)

// TestKPathTreesBuiltins checks Algorithm 1 on every built-in grammar for
// k = 1..5: the trees contain every k-path, with both close-offs.
func TestKPathTreesBuiltins(t *testing.T) {
	for _, name := range BuiltinNames() {
		gr := MustCompile(MustBuiltin(name))
		for k := 1; k <= 5; k++ {
			t.Run(fmt.Sprintf("%s/k=%d", name, k), func(t *testing.T) {
				if testing.Short() && gr.CountKPaths(k) > 5000 {
					t.Skip("large; runs without -short")
				}
				gen := NewGenerator(gr, uint64(k))
				gen.MaxDepth = 40
				for _, c := range []struct {
					name string
					fn   CloseFunc
				}{{"terse", CloseTerse}, {"random", gen.Complete}} {
					forest, err := gr.KPathTrees(k, c.fn)
					if err != nil {
						t.Fatalf("%s: %v", c.name, err)
					}
					pt, _ := gr.PathTable(k)
					if covered, total := pt.Coverage(k, forest...); covered != total {
						t.Fatalf("%s: %d inputs cover %d of %d %d-paths", c.name, len(forest), covered, total, k)
					}
					for _, tr := range forest {
						if !tr.Complete() {
							t.Fatalf("%s: incomplete tree %q", c.name, tr)
						}
					}
				}
			})
		}
	}
}

// TestCoveringForestAlias checks that the deprecated CoveringForest gives
// the trees of KPathTrees.
func TestCoveringForestAlias(t *testing.T) {
	gr := MustCompile(MustBuiltin("expr"))
	want, err := gr.KPathTrees(2, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := gr.CoveringForest(2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("CoveringForest gives %d trees, KPathTrees %d", len(got), len(want))
	}
	for i := range got {
		if got[i].String() != want[i].String() {
			t.Errorf("tree %d: CoveringForest %q, KPathTrees %q", i, got[i], want[i])
		}
	}
}
