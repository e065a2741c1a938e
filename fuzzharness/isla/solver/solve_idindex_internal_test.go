package solver

import (
	"math/rand/v2"
	"testing"
)

// An idIndex gives the same view indexes as a map filled in the same
// order, keeping the first index of a repeated id, and forgets the ids of
// the view before a reset, also when it shrinks or grows.
func TestIDIndexAgreesWithMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var x idIndex
	for _, n := range []int{1, 5, 300, 7, 2000, 0, 40} {
		ids := make([]int32, n)
		for i := range ids {
			ids[i] = rng.Int32N(int32(3*n + 1)) // repeats, and 0
		}
		want := map[int32]int32{}
		x.reset(n)
		for i, id := range ids {
			if _, ok := want[id]; !ok {
				want[id] = int32(i)
			}
			x.add(id, int32(i))
		}
		for id := int32(-1); id <= int32(3*n+2); id++ {
			w, wok := want[id]
			g, gok := x.get(id)
			if wok != gok || w != g || x.at(id) != w {
				t.Fatalf("n=%d: id %d: got %d %v (at %d), want %d %v", n, id, g, gok, x.at(id), w, wok)
			}
		}
	}
	var empty idIndex
	if _, ok := empty.get(3); ok {
		t.Fatal("an empty index has id 3")
	}
}
