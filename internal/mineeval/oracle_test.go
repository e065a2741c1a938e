package mineeval

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOraclesAcceptReference checks that every oracle accepts all inputs
// generated from its subject's reference grammar: the oracle's language
// contains the grammar's.
func TestOraclesAcceptReference(t *testing.T) {
	n := testN()
	for _, s := range Subjects() {
		t.Run(s.Name, func(t *testing.T) {
			gr, _ := referenceParser(t, s)
			inputs, err := Sample(gr, n, 1, DefaultMaxSize)
			if err != nil {
				t.Fatal(err)
			}
			rejected := 0
			total := 0
			for _, in := range inputs {
				total += len(in)
				if !s.Oracle(in) {
					if rejected++; rejected <= 5 {
						t.Errorf("oracle rejects %q, generated from the reference grammar", in)
					}
				}
			}
			if rejected > 0 {
				t.Errorf("oracle rejects %d of %d inputs of the reference grammar", rejected, n)
			}
			t.Logf("%d inputs, mean length %.1f", n, float64(total)/float64(n))
		})
	}
}

// TestOraclesAgreeWithReference checks the other direction on inputs near
// the language: inputs generated from the reference grammar with one to
// three random byte edits are accepted by the oracle exactly when the
// reference grammar's Earley parser accepts them. The edits insert or
// replace bytes drawn from the input itself and from the subject's
// delimiters, so that most edited inputs are invalid but some are not.
func TestOraclesAgreeWithReference(t *testing.T) {
	n := testN()
	for _, s := range Subjects() {
		t.Run(s.Name, func(t *testing.T) {
			gr, p := referenceParser(t, s)
			inputs, err := Sample(gr, n, 2, DefaultMaxSize)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(3, 4))
			valid, disagree := 0, 0
			for _, in := range inputs {
				ed := mutate(rng, in)
				want := p.Recognize(ed) == nil
				if want {
					valid++
				}
				if got := s.Oracle(ed); got != want {
					if disagree++; disagree <= 5 {
						t.Errorf("oracle says %v, reference grammar %v: %q", got, want, ed)
					}
				}
			}
			t.Logf("%d edited inputs, %d valid, %d disagreements", n, valid, disagree)
		})
	}
}

// mutate returns in with one to three random byte edits.
func mutate(rng *rand.Rand, in []byte) []byte {
	out := bytes.Clone(in)
	const special = "()[]{}<>\"'\\/:;,.=&#%@?*+-| ^$!_~0a"
	pick := func() byte {
		if len(out) > 0 && rng.IntN(2) == 0 {
			return out[rng.IntN(len(out))]
		}
		return special[rng.IntN(len(special))]
	}
	for range 1 + rng.IntN(3) {
		pos := rng.IntN(len(out) + 1)
		switch op := rng.IntN(3); {
		case op == 0 || len(out) == 0 || pos == len(out):
			out = slices.Insert(out, pos, pick())
		case op == 1:
			out = slices.Delete(out, pos, pos+1)
		default:
			out[pos] = pick()
		}
	}
	return out
}
