package isla

// Copy adds below parent (as Add adds a node, at Pos) a copy of the
// subtree of node i of the view from, which must be a view built before
// and not the one being built: its nodes in pre-order with the same
// labels, open flags and links, moved to the current position and index,
// and without trees. It advances Pos over the subtree's text (whose bytes
// the caller provides, as it does for the terminals it adds) and returns
// the index of the copy of node i, which is finished.
//
// A builder that walks a tree most of which an earlier view shows (a
// solver's tree after some open leaves took values) copies the unchanged
// subtrees rather than adding their nodes one by one; the view is the
// same.
func (b *ViewBuilder) Copy(from *View, i, parent int32) int32 {
	src := from.Nodes[i:from.Nodes[i].End]
	at := int32(len(b.v.Nodes))
	di, dp := at-i, b.Pos-src[0].Start
	for _, n := range src {
		n.Tree = nil
		n.Parent += di
		n.End += di
		n.Start += dp
		n.Stop += dp
		if n.FirstKid >= 0 {
			n.FirstKid += di
		}
		if n.Next >= 0 {
			n.Next += di
		}
		b.v.Nodes = append(b.v.Nodes, n)
		b.last = append(b.last, -1)
	}
	root := &b.v.Nodes[at]
	root.Parent, root.Next = parent, -1
	b.link(parent, at)
	b.Pos = root.Stop
	return at
}
