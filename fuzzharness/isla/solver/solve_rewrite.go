package solver

import "github.com/seed72891827/kfuzz/fuzzharness/isla"

// A semantic predicate that writes its own tree argument (a padding
// predicate such as ljust_crop, or octal_to_decimal) can make itself hold
// on any derivation of that argument: it rewrites the argument's text.
// The search may have derived the argument at random already, because a
// quantifier's match expression needs the nodes inside it (TAR's
// content_size_constr matches <content> to bind its <characters>, which
// content_length_constraint pads). Such a predicate, false on the random
// derivation, is not a reason to drop the state: the search keeps it
// undecided (decideSearch), and the atoms' solver rewrites the argument
// (semReady, solveTree) and checks the result.

// decideSearch is decide for the search: a false predicate that can
// rewrite its own tree argument is undecided.
func (c *evalCtx) decideSearch(it item) tri {
	t := c.decide(it)
	if t == triFalse {
		if n, ok := it.n.(*isla.CompiledPred); ok && !it.neg && c.writtenArg(it, n) >= 0 {
			return triUnknown
		}
	}
	return t
}

// writtenArg returns the view index of the first tree argument of a tree
// solver that the predicate writes itself, or -1.
func (c *evalCtx) writtenArg(it item, n *isla.CompiledPred) int32 {
	if _, ok := n.Impl.(isla.TreeSolver); !ok || len(n.Writes) == 0 {
		return -1
	}
	ids := c.s.spec.Labels().IDs
	for _, a := range n.Args {
		if a.Kind != isla.TreeParam {
			continue
		}
		x, ok := it.env.lookup(a.Slot)
		if !ok {
			continue
		}
		i, ok := c.idx.get(x)
		if !ok {
			continue
		}
		for _, w := range n.Writes {
			if id, ok := ids[w]; ok && id == c.v.Nodes[i].Label {
				return i
			}
		}
	}
	return -1
}
