package solver

import "crypto/sha256"

// outputSet is the set of the solutions a Solver returned, held as
// fingerprints: the first 128 bits of each input's SHA-256. The set has
// no pointers, so the garbage collector does not scan it, and an entry
// takes 16 bytes whatever the input's length; the set of the texts grew
// with every solution and made each collection cycle scan it all.
//
// Two different inputs share a fingerprint with probability 2^-128; among
// n solutions the odds that any two do are below n²/2^129 (under 10^-20
// for a billion solutions). Such a collision would make the solver drop
// the second input as a duplicate: it would lose one solution, never
// return an invalid one or one twice. The hash is fixed, so the same seed
// gives the same solutions.
type outputSet map[[16]byte]struct{}

// fingerprint returns the fingerprint of an input.
func fingerprint(input []byte) [16]byte {
	sum := sha256.Sum256(input)
	return [16]byte(sum[:16])
}

// has reports whether the set holds input.
func (o outputSet) has(input []byte) bool {
	_, ok := o[fingerprint(input)]
	return ok
}

// add adds input to the set, reporting false if it held it already.
func (o outputSet) add(input []byte) bool {
	f := fingerprint(input)
	if _, ok := o[f]; ok {
		return false
	}
	o[f] = struct{}{}
	return true
}
