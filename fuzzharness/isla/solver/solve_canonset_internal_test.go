package solver

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// A canonSet agrees with a map from strings to polarities, across growth
// and resets.
func TestCanonSetAgreesWithMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var set canonSet
	for round := range 30 {
		set.reset()
		want := map[string]bool{}
		n := rng.IntN(2000)
		for range n {
			k := fmt.Sprintf("(= %d %d)", rng.IntN(n/4+1), rng.IntN(3))
			neg := rng.IntN(2) == 0
			w, wok := want[k]
			g, gok := set.get([]byte(k))
			if w != g || wok != gok {
				t.Fatalf("round %d: get(%q) = %v %v, want %v %v", round, k, g, gok, w, wok)
			}
			want[k] = neg
			set.put([]byte(k), neg)
		}
		if set.n != len(want) {
			t.Fatalf("round %d: %d keys, want %d", round, set.n, len(want))
		}
	}
}
