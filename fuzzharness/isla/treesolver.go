package isla

import "errors"

// ErrNotReady is returned by TreeSolver.Solve when the nodes the predicate
// reads are not all derived yet; the solver asks again later.
var ErrNotReady = errors.New("isla: the predicate cannot be solved yet")

// A TreeSolver is a semantic predicate that can make itself hold by setting
// the text of some nodes, such as a checksum field computed from the rest
// of a header. The solver asks it once every node of its tree arguments is
// derived except the nodes labeled with the nonterminals it writes (which
// may be open or derived already) and those that other tree solvers write,
// and parses each returned text into the node from its nonterminal. It then
// checks the predicate with Eval.
//
// When several predicates write nodes that others read, the solver asks
// each one when it may be ready, so a predicate must return ErrNotReady
// while a node it reads is not complete (Node.Complete).
type TreeSolver interface {
	Predicate
	// Writes names the nonterminals (without angle brackets) whose nodes
	// Solve may set. The solver leaves such nodes open while it expands
	// trees.
	Writes() []string
	// Solve returns the texts for nodes, each a node of a written
	// nonterminal inside a tree argument, that make the predicate hold;
	// ErrNotReady if a node it reads is not complete; another error if the
	// predicate cannot hold.
	Solve(args []Arg) ([]Fix, error)
}

// A Fix sets the text of a node.
type Fix struct {
	Node Node
	Text string // bytes, parsed from the node's nonterminal
}

// Complete reports whether the node's subtree is fully derived. Nodes of
// the inputs the validator checks are always complete; while solving, a
// node may still have open leaves, which derive no text yet.
func (n Node) Complete() bool {
	for i := n.i; i < n.v.Nodes[n.i].End; i++ {
		if n.v.Nodes[i].Open && n.v.Nodes[i].FirstKid < 0 {
			return false
		}
	}
	return true
}
