package grammar

import "testing"

// TestGeneratorBlocks checks that a generator that allocates in blocks
// draws the same trees as one that does not, on every built-in grammar,
// and that the trees it made before stay intact while it makes more (a
// block is shared by consecutive trees, never reused).
func TestGeneratorBlocks(t *testing.T) {
	for _, name := range BuiltinNames() {
		gr := MustCompile(MustBuiltin(name))
		plain, blocks := NewGenerator(gr, 7), NewGenerator(gr, 7)
		blocks.Blocks = true
		var made, want []*Tree
		for i := range 200 {
			a, errA := plain.Generate()
			b, errB := blocks.Generate()
			if (errA == nil) != (errB == nil) {
				t.Fatalf("%s, tree %d: errors %v and %v", name, i, errA, errB)
			}
			if errA != nil {
				continue
			}
			if !a.Equal(b) {
				t.Fatalf("%s, tree %d: with blocks %q, without %q", name, i, b, a)
			}
			made, want = append(made, b), append(want, a)
		}
		for i := range made {
			if !made[i].Equal(want[i]) {
				t.Fatalf("%s: tree %d changed after later trees", name, i)
			}
		}
	}
}

// TestGeneratorRecycle checks that a generator that recycles its blocks
// after every tree draws the same trees as one that allocates them, and
// allocates far less.
func TestGeneratorRecycle(t *testing.T) {
	for _, name := range BuiltinNames() {
		gr := MustCompile(MustBuiltin(name))
		plain, recycling := NewGenerator(gr, 11), NewGenerator(gr, 11)
		recycling.Blocks = true
		for i := range 300 {
			recycling.Recycle()
			a, errA := plain.Generate()
			b, errB := recycling.Generate()
			if (errA == nil) != (errB == nil) {
				t.Fatalf("%s, tree %d: errors %v and %v", name, i, errA, errB)
			}
			if errA == nil && !a.Equal(b) {
				t.Fatalf("%s, tree %d: recycled %q, new %q", name, i, b, a)
			}
		}
	}
	gr := MustCompile(MustBuiltin("json"))
	allocs := func(g *Generator) float64 {
		return testing.AllocsPerRun(200, func() {
			g.Recycle()
			if _, err := g.Generate(); err != nil {
				t.Fatal(err)
			}
		})
	}
	plain, recycling := NewGenerator(gr, 3), NewGenerator(gr, 3)
	recycling.Blocks = true
	if a, b := allocs(plain), allocs(recycling); b > a/4 {
		t.Errorf("allocations per tree: %.1f recycling, %.1f without blocks", b, a)
	}
}
