package solver

import (
	"math/rand/v2"
	"testing"
)

// An instTable adds the keys a map would add, reports repeats as a map
// does, and is empty after reset, across growth and many generations.
func TestInstTableAgreesWithMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var tab instTable
	for round := range 50 {
		n := rng.IntN(3000)
		want := map[instKey]bool{}
		for range n {
			k := instKey{node: rng.Int32N(4), neg: rng.IntN(2) == 0}
			for i := range rng.IntN(maxKeySlots + 1) {
				k.v[i] = rng.Int32N(int32(n/8 + 2))
			}
			isNew := !want[k]
			want[k] = true
			if got := tab.add(k); got != isNew {
				t.Fatalf("round %d: add(%v) = %v, want %v", round, k, got, isNew)
			}
		}
		if tab.n != len(want) {
			t.Fatalf("round %d: %d keys, want %d", round, tab.n, len(want))
		}
		tab.reset()
	}
	tab.gen = ^uint32(0) // the next reset wraps around
	k := instKey{node: 1}
	tab.add(k)
	tab.reset()
	if !tab.add(k) {
		t.Fatal("a key added before a wrapping reset is still in the table")
	}
}
