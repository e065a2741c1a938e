package solver

import (
	"slices"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// The solver's derivation trees. A stree node is immutable: a change to a
// tree copies the path from the root to the changed node and shares
// everything else, so the states of the search share most of their trees.
// Every node has an id that survives such copies; the formulas of a state
// refer to nodes by id. Open nodes are references (KindRef) whose rule has
// not been derived yet: an open leaf of the nonterminal Node.Name.

type stree struct {
	g     *grammar.Node
	kids  []*stree
	val   string // a literal's or class's text
	id    int32
	nopen int32 // open nodes in the subtree
	size  int32 // nodes in the subtree
	open  bool
	// The fields are ordered to fit 64 bytes (72 with id first), the
	// size class below 80: the trees of the states in the queue are
	// most of the solver's live memory.
}

// idSource hands out node ids.
type idSource struct{ next int32 }

func (s *idSource) id() int32 {
	s.next++
	return s.next
}

// mkNode makes a node, computing its derived fields.
func mkNode(id int32, g *grammar.Node, kids []*stree, val string, open bool) *stree {
	n := new(stree)
	n.set(id, g, kids, val, open)
	return n
}

// set sets the fields of node n, computing its derived fields.
func (n *stree) set(id int32, g *grammar.Node, kids []*stree, val string, open bool) {
	*n = stree{id: id, g: g, kids: kids, val: val, open: open, size: 1}
	if open {
		n.nopen = 1
	}
	for _, k := range kids {
		n.nopen += k.nopen
		n.size += k.size
	}
}

// openLeaf returns a new open leaf for the reference node g.
func (s *idSource) openLeaf(g *grammar.Node) *stree {
	return mkNode(s.id(), g, nil, "", true)
}

// fromTree converts a grammar tree into an stree with fresh ids. Complete
// references whose graph node keepOpen selects (nil: none) become open
// leaves, as do open references; open synthetic slots are an error of the
// caller and are closed with their shortest derivation.
//
// The nodes and child lists come from two blocks sized by a count of the
// tree's nodes (a tree's nodes are made together and mostly dropped
// together).
func (s *idSource) fromTree(t *grammar.Tree, keepOpen func(*grammar.Node) bool) *stree {
	nodes, kids := countTree(t, keepOpen)
	b := streeBlocks{nodes: make([]stree, nodes), kids: make([]*stree, kids)}
	return s.fromTreeIn(&b, t, keepOpen)
}

func (s *idSource) fromTreeIn(b *streeBlocks, t *grammar.Tree, keepOpen func(*grammar.Node) bool) *stree {
	if t.Node.Kind == grammar.KindRef && (t.Open || keepOpen != nil && keepOpen(t.Node)) {
		n := b.node()
		n.set(s.id(), t.Node, nil, "", true)
		return n
	}
	if t.Open {
		t = t.Clone()
		grammar.CloseShortest(t)
	}
	var kids []*stree
	if len(t.Children) > 0 {
		kids = b.list(len(t.Children))
		for i, c := range t.Children {
			kids[i] = s.fromTreeIn(b, c, keepOpen)
		}
	}
	n := b.node()
	n.set(s.id(), t.Node, kids, t.Value, false)
	return n
}

// countTree returns the nodes and the children of all nodes fromTree
// makes of t, not counting subtrees it closes first (open synthetic
// slots).
func countTree(t *grammar.Tree, keepOpen func(*grammar.Node) bool) (nodes, kids int) {
	if t.Node.Kind == grammar.KindRef && (t.Open || keepOpen != nil && keepOpen(t.Node)) {
		return 1, 0
	}
	if t.Open {
		return 0, 0
	}
	nodes, kids = 1, len(t.Children)
	for _, c := range t.Children {
		n, k := countTree(c, keepOpen)
		nodes, kids = nodes+n, kids+k
	}
	return nodes, kids
}

// streeBlocks hands out the nodes and child lists of fromTree; past the
// end of a block it allocates one at a time.
type streeBlocks struct {
	nodes []stree
	kids  []*stree
}

func (b *streeBlocks) node() *stree {
	if len(b.nodes) == 0 {
		return new(stree)
	}
	n := &b.nodes[0]
	b.nodes = b.nodes[1:]
	return n
}

// list returns a list of k children.
func (b *streeBlocks) list(k int) []*stree {
	if len(b.kids) < k {
		return make([]*stree, k)
	}
	l := b.kids[:k:k]
	b.kids = b.kids[k:]
	return l
}

// toTree converts an stree into a grammar tree. Open leaves become open
// reference slots. If ids is not nil, it records the id of every tree node
// made for a symbolic stree node.
func (n *stree) toTree(ids map[*grammar.Tree]int32) *grammar.Tree {
	// The nodes and the child lists come from two blocks sized by the
	// subtree's node count (a TAR archive has thousands of nodes).
	b := treeBlocks{nodes: make([]grammar.Tree, n.size), kids: make([]*grammar.Tree, n.size)}
	return b.tree(n, ids)
}

// treeBlocks hands out the nodes and child lists of toTree; past the end
// of a block it allocates one at a time.
type treeBlocks struct {
	nodes []grammar.Tree
	kids  []*grammar.Tree
}

func (b *treeBlocks) tree(n *stree, ids map[*grammar.Tree]int32) *grammar.Tree {
	var t *grammar.Tree
	if len(b.nodes) > 0 {
		t, b.nodes = &b.nodes[0], b.nodes[1:]
	} else {
		t = new(grammar.Tree)
	}
	t.Node, t.Value, t.Open = n.g, n.val, n.open
	if ids != nil && n.g.Symbolic() {
		ids[t] = n.id
	}
	if k := len(n.kids); k > 0 {
		var kids []*grammar.Tree
		if len(b.kids) >= k {
			kids, b.kids = b.kids[:k:k], b.kids[k:]
		} else {
			kids = make([]*grammar.Tree, k)
		}
		t.Children = kids
		for i, kid := range n.kids {
			kids[i] = b.tree(kid, ids)
		}
	}
	return t
}

// appendText appends the text the tree derives; open leaves derive nothing.
func (n *stree) appendText(b []byte) []byte {
	if len(n.kids) == 0 {
		return append(b, n.val...)
	}
	for _, k := range n.kids {
		b = k.appendText(b)
	}
	return b
}

// text returns the text the tree derives.
func (n *stree) text() string { return string(n.appendText(nil)) }

// walk calls f in pre-order; f returns false to skip a node's children.
func (n *stree) walk(f func(*stree) bool) {
	if !f(n) {
		return
	}
	for _, k := range n.kids {
		k.walk(f)
	}
}

// find returns the node with the given id, or nil.
func (n *stree) find(id int32) *stree {
	if n.id == id {
		return n
	}
	for _, k := range n.kids {
		if r := k.find(id); r != nil {
			return r
		}
	}
	return nil
}

// path returns the nodes from n down to the node with the given id, both
// included, or nil if there is none.
func (n *stree) path(id int32) []*stree {
	if n.id == id {
		return []*stree{n}
	}
	for _, k := range n.kids {
		if p := k.path(id); p != nil {
			return append([]*stree{n}, p...)
		}
	}
	return nil
}

// replace returns the tree with the nodes whose ids are keys of subs
// replaced by their values. Nodes on the paths to replaced nodes are
// copied with their ids; everything else is shared.
func (n *stree) replace(subs map[int32]*stree) *stree { return n.replaceIn(subs, false) }

// replaceOpen is replace for subs whose keys are all ids of open leaves:
// it does not descend into subtrees without open leaves.
func (n *stree) replaceOpen(subs map[int32]*stree) *stree { return n.replaceIn(subs, true) }

func (n *stree) replaceIn(subs map[int32]*stree, openOnly bool) *stree {
	if openOnly && n.nopen == 0 {
		return n
	}
	if r, ok := subs[n.id]; ok {
		return r
	}
	if len(n.kids) == 0 {
		return n
	}
	var kids []*stree
	for i, k := range n.kids {
		r := k.replaceIn(subs, openOnly)
		if r != k && kids == nil {
			kids = make([]*stree, len(n.kids))
			copy(kids, n.kids[:i])
		}
		if kids != nil {
			kids[i] = r
		}
	}
	if kids == nil {
		return n
	}
	return mkNode(n.id, n.g, kids, n.val, n.open)
}

// openLeaves returns the open leaves of the tree in pre-order.
func (n *stree) openLeaves() []*stree {
	var out []*stree
	n.walk(func(u *stree) bool {
		if u.open {
			out = append(out, u)
		}
		return u.nopen > 0
	})
	return out
}

// label returns the nonterminal of a reference node, or "".
func (n *stree) label() string {
	if n.g.Kind == grammar.KindRef {
		return n.g.Name
	}
	return ""
}

// A packedSubtree is a complete derivation tree without pointers, the form
// of the parse trees the solver keeps (Solver.parsed): per node, in
// pre-order, its graph node's id, its number of children and, for a
// leaf, the length of its text; the leaves' texts are the bytes of the
// parsed text in order. It takes 12 bytes a node, where a parse's
// grammar.Tree takes 90 or more in the blocks it is built in, and the
// garbage collector does not scan it: the solver keeps thousands of
// parses, and as trees they were most of its live memory on XML.
type packedSubtree []packedNode

type packedNode struct{ node, kids, len int32 }

// pack returns the packed form of t, a complete tree of the graph nodes
// nodes that derives text; ok is false if t does not fit the form (an
// open node, a node not in nodes, a leaf text that is not the next bytes
// of text, or text of an inner node).
func pack(t *grammar.Tree, text string, nodes []*grammar.Node) (p packedSubtree, ok bool) {
	pos := 0
	var walk func(t *grammar.Tree) bool
	walk = func(t *grammar.Tree) bool {
		id := t.Node.ID
		if t.Open || id < 0 || id >= len(nodes) || nodes[id] != t.Node {
			return false
		}
		n := packedNode{node: int32(id), kids: int32(len(t.Children))}
		if len(t.Children) == 0 {
			if !strings.HasPrefix(text[pos:], t.Value) {
				return false
			}
			n.len = int32(len(t.Value))
			pos += len(t.Value)
		} else if t.Value != "" {
			return false
		}
		p = append(p, n)
		for _, c := range t.Children {
			if !walk(c) {
				return false
			}
		}
		return true
	}
	if !walk(t) || pos != len(text) {
		return nil, false
	}
	return slices.Clip(p), true
}

// fromPacked is fromTree, without keepOpen, of the tree p packs: the
// same nodes with fresh ids given in the same order. The leaves' texts
// are substrings of text.
func (s *idSource) fromPacked(p packedSubtree, text string, nodes []*grammar.Node) *stree {
	i, pos := 0, 0
	var build func() *stree
	build = func() *stree {
		n := p[i]
		i++
		var kids []*stree
		val := ""
		if n.kids > 0 {
			kids = make([]*stree, n.kids)
			for k := range kids {
				kids[k] = build()
			}
		} else {
			val = text[pos : pos+int(n.len)]
			pos += int(n.len)
		}
		return mkNode(s.id(), nodes[n.node], kids, val, false)
	}
	return build()
}
