package grammar

import "fmt"

// A CloseFunc completes every open slot of a partial tree, in place. Two
// close-offs come with the package: CloseShortest (wrapped by CloseTerse) for
// terse inputs, and a Generator's Complete for bounded random ones.
type CloseFunc func(*Tree) error

// CloseTerse is a CloseFunc that completes trees with CloseShortest.
func CloseTerse(t *Tree) error {
	CloseShortest(t)
	return nil
}

// KPathTrees returns a set of complete trees that together contain every
// k-path of the graph (TRIBBLE's "covering forest"), built by TRIBBLE's
// Algorithm 1: for each k-path not yet contained it derives a partial tree
// along that path, completes the tree with close (CloseTerse if nil), and
// then drops every k-path the new tree contains ("accidental" coverage) from
// the agenda. The agenda is the k-paths in PathTable order (by symbol IDs).
// On the way to the first symbol of a path the derivation follows a shortest
// graph path from the root; between two symbols of the path it passes
// synthetic nodes only, so the path really is derived. Every tree is checked
// to contain its target path, and the trees to contain all k-paths; a
// failure is an error.
func (gr *Graph) KPathTrees(k int, close CloseFunc) ([]*Tree, error) {
	if close == nil {
		close = CloseTerse
	}
	pt, err := gr.PathTable(k)
	if err != nil {
		return nil, err
	}
	covered := pt.NewPathSet()
	lo, hi := pt.Range(k)
	var forest []*Tree
	for id := lo; id < hi; id++ {
		if covered.Has(id) {
			continue
		}
		p := pt.Path(id)
		t, err := gr.derivePath(p)
		if err != nil {
			return nil, err
		}
		if err := close(t); err != nil {
			return nil, fmt.Errorf("grammar: closing the tree for %s: %w", p.Format(gr), err)
		}
		pt.AddPaths(covered, t)
		if !covered.Has(id) {
			return nil, fmt.Errorf("grammar: internal error: the tree %q does not contain its target path %s", t, p.Format(gr))
		}
		forest = append(forest, t)
	}
	if n := covered.CountRange(lo, hi); n != hi-lo {
		return nil, fmt.Errorf("grammar: internal error: the forest covers %d of %d %d-paths", n, hi-lo, k)
	}
	return forest, nil
}

// CoveringForest returns gr.KPathTrees(k, close).
//
// Deprecated: Use [Graph.KPathTrees]; CoveringForest goes away in the next
// release.
func (gr *Graph) CoveringForest(k int, close CloseFunc) ([]*Tree, error) {
	return gr.KPathTrees(k, close)
}

// derivePath returns a partial tree rooted at the graph's root that contains
// path p, with open slots wherever the path does not lead.
func (gr *Graph) derivePath(p KPath) (*Tree, error) {
	root := NewOpen(gr.Root)
	s := root
	// Reach the first symbol along a shortest graph path.
	for !(s.Node.Symbolic() && s.Node.Sym == int(p[0])) {
		next := expandToward(s, func(c *Node) int { return gr.Distance(c, int(p[0])) })
		if next == nil {
			return nil, fmt.Errorf("grammar: %s is not reachable from the root", gr.Symbols[p[0]])
		}
		s = next
	}
	expandToward(s, nil)
	// Then each next symbol through synthetic nodes only.
	for _, sym := range p[1:] {
		if len(s.Children) != 1 {
			return nil, fmt.Errorf("grammar: %s has no successor %s", s.Node, gr.Symbols[sym])
		}
		s = s.Children[0]
		for !(s.Node.Symbolic() && s.Node.Sym == int(sym)) {
			if s.Node.Symbolic() {
				return nil, fmt.Errorf("grammar: internal error: path step to %s reached %s", gr.Symbols[sym], s.Node)
			}
			next := expandToward(s, func(c *Node) int { return syntheticDistance(c, int(sym)) })
			if next == nil {
				return nil, fmt.Errorf("grammar: %s does not lead to %s", s.Node, gr.Symbols[sym])
			}
			s = next
		}
		expandToward(s, nil)
	}
	return root, nil
}

// expandToward fills the open slot s with one level of derivation and returns
// the child slot whose node has the least non-negative dist (the first on
// ties), or nil if none has one. An alternation derives only that child; a
// quantifier derives max(Min, 1) repetitions; literals and classes are closed
// (a class with its first member). With dist nil it only expands s.
func expandToward(s *Tree, dist func(*Node) int) *Tree {
	n := s.Node
	best, bestD := -1, -1
	if dist != nil {
		for i, c := range n.Children {
			if d := dist(c); d >= 0 && (bestD < 0 || d < bestD) {
				best, bestD = i, d
			}
		}
	}
	s.Open = false
	switch n.Kind {
	case KindLit:
		s.Value = n.Lit
	case KindClass:
		s.Value = classChar(n, 0)
	case KindRef, KindSeq:
		s.Children = make([]*Tree, len(n.Children))
		for i, c := range n.Children {
			s.Children[i] = NewOpen(c)
		}
	case KindAlt:
		if best < 0 {
			s.Open = true // nothing to choose yet: leave it to the close-off
			return nil
		}
		s.Children = []*Tree{NewOpen(n.Children[best])}
		best = 0
	case KindRepeat:
		count := max(n.Min, 1)
		if n.Max == 0 {
			return nil // {0}: the element is never derived
		}
		s.Children = make([]*Tree, count)
		for i := range s.Children {
			s.Children[i] = NewOpen(n.Children[0])
		}
	}
	if best < 0 {
		return nil
	}
	return s.Children[best]
}

// syntheticDistance is the number of edges from n to a node of symbol sym
// through synthetic nodes only, or -1.
func syntheticDistance(n *Node, sym int) int {
	if n.Symbolic() {
		if n.Sym == sym {
			return 0
		}
		return -1
	}
	best := -1
	for _, c := range n.Children {
		if d := syntheticDistance(c, sym); d >= 0 && (best < 0 || d+1 < best) {
			best = d + 1
		}
	}
	return best
}
