package grammar

import "iter"

// Refs returns the references to nonterminals in e, in the order they are
// written (depth first, left to right). A nonterminal referred to twice is
// yielded twice; the references are e's own, so a caller may rename them.
func Refs(e Expr) iter.Seq[*Ref] {
	return func(yield func(*Ref) bool) { eachRef(e, yield) }
}

// eachRef calls yield on every reference in e and reports whether the walk
// ran to the end (yield never returned false).
func eachRef(e Expr, yield func(*Ref) bool) bool {
	switch e := e.(type) {
	case *Ref:
		return yield(e)
	case *Alt:
		for _, x := range e.X {
			if !eachRef(x, yield) {
				return false
			}
		}
	case *Seq:
		for _, x := range e.X {
			if !eachRef(x, yield) {
				return false
			}
		}
	case *Repeat:
		return eachRef(e.X, yield)
	}
	return true
}
