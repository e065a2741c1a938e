package grammar

import "testing"

// TestGeneratorReseed checks that a reseeded generator draws what a new
// generator with the same seed and bounds draws, whatever it drew before
// and whether or not it failed on its last tree.
func TestGeneratorReseed(t *testing.T) {
	gr := mustGraph(t, exprSrc)
	g := NewGenerator(gr, 99)
	g.MaxSize = 60
	for seed := range uint64(20) {
		if seed%5 == 4 {
			// A failed tree leaves g's queue as it was when it failed.
			g.MaxSize = 1
			if _, err := g.Generate(); err == nil {
				t.Fatal("size 1: no error")
			}
			g.MaxSize = 60
		}
		g.Reseed(seed)
		fresh := NewGenerator(gr, seed)
		fresh.MaxSize = 60
		for i := range 20 {
			a, err := g.Generate()
			if err != nil {
				t.Fatal(err)
			}
			b, err := fresh.Generate()
			if err != nil {
				t.Fatal(err)
			}
			if !a.Equal(b) {
				t.Fatalf("seed %d, tree %d: reseeded %q, new %q", seed, i, a, b)
			}
		}
	}
}
