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
