package isla

import (
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
	"sort"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// A view is the derivation tree of one input as ISLa sees it: only
// symbolic nodes (nonterminals and terminal leaves), the synthetic nodes of
// the grammar graph (alternations, concatenations, quantifiers) skipped. The
// nodes are numbered in pre-order; a node's subtree is the index range
// [i, end). Node 0 is the root, the tree of the constant.
type view struct {
	input string // the input bytes
	text  string // the input in the internal string form, if it differs; "" otherwise
	nodes []vnode
	// byLabel lists, per nonterminal label, its nodes in pre-order.
	byLabel [][]int32
	// nodes starting at byte offset p: atStart[startIdx[p]:startIdx[p+1]],
	// in pre-order (nonterminals only).
	startIdx []int32
	atStart  []int32
	lines    []int // offsets of line starts
	names    []string
	// Views built from trees other than grammar trees (a solver's) may leave
	// vnode.tree nil; the first time Node.Tree asks for one, materialize
	// sets the trees of all nodes.
	materialize func()
	// buffers index reuses when a view is rebuilt
	all, scratch, last []int32
}

// vnode is one node of a view.
type vnode struct {
	label      int32 // nonterminal label, or -1 for a terminal
	parent     int32 // -1 for the root
	end        int32 // index after the last node of the subtree
	start, stp int32 // byte span [start, stp)
	firstKid   int32 // -1 if none
	next       int32 // next sibling, -1 if none
	open       bool  // the node is an open slot (a leaf if firstKid < 0)
	tree       *grammar.Tree
}

// labels numbers the nonterminals of a graph for views.
type labels struct {
	ids   map[string]int32
	names []string
}

func newLabels(gr *grammar.Graph, extra ...string) *labels {
	l := &labels{ids: map[string]int32{}}
	add := func(n string) {
		if _, ok := l.ids[n]; !ok {
			l.ids[n] = int32(len(l.names))
			l.names = append(l.names, n)
		}
	}
	for _, n := range gr.Nonterminals() {
		add(n)
	}
	for _, n := range extra {
		add(n)
	}
	return l
}

// newView builds the view of tree t, the derivation of input. The root node
// is labeled rootLabel; if virtual is set, it is a node of its own above a
// node labeled with the rule t derives (as ISLa's <start> above the start
// symbol), otherwise it is that node.
func newView(input []byte, t *grammar.Tree, lb *labels, rootLabel string, virtual bool) *view {
	v, b := newViewBuilder(input, lb, 2*len(input)+16)
	root := b.add(lb.ids[rootLabel], -1, t.Open, t)
	if virtual {
		top := b.add(lb.ids[t.Node.Rule], root, t.Open, t)
		b.rhs(t, top)
		b.finish(top)
	} else {
		b.rhs(t, root)
	}
	b.finish(root)
	v.index(len(lb.names))
	return v
}

// newViewBuilder returns an empty view of input and its builder, with room
// for about capacity nodes (append grows it).
func newViewBuilder(input []byte, lb *labels, capacity int) (*view, *viewBuilder) {
	return reuseViewBuilder(nil, input, lb, capacity)
}

// reuseViewBuilder is newViewBuilder reusing the slices of an earlier view
// (nil: none), which must not be used any more.
func reuseViewBuilder(old *view, input []byte, lb *labels, capacity int) (*view, *viewBuilder) {
	v := &view{input: string(input), names: lb.names}
	b := &viewBuilder{v: v, lb: lb}
	if old != nil {
		v.lines = old.lines[:0]
		v.nodes = old.nodes[:0]
		v.all, v.scratch = old.all, old.scratch
		v.byLabel, v.startIdx, v.atStart = old.byLabel, old.startIdx, old.atStart
		b.last = old.last[:0]
	}
	v.lines = append(v.lines, 0)
	for i := 0; i < len(input); i++ {
		if input[i] == '\n' {
			v.lines = append(v.lines, i+1)
		}
	}
	if s := smtlib.FromBytes(v.input); s != v.input {
		v.text = s
	}
	if cap(v.nodes) < capacity {
		v.nodes = make([]vnode, 0, capacity)
	}
	if cap(b.last) < capacity {
		b.last = make([]int32, 0, capacity)
	}
	return v, b
}

type viewBuilder struct {
	v    *view
	lb   *labels
	pos  int32
	last []int32 // last child added, per node, for the sibling links
}

func (b *viewBuilder) add(label int32, parent int32, open bool, t *grammar.Tree) int32 {
	i := int32(len(b.v.nodes))
	b.v.nodes = append(b.v.nodes, vnode{label: label, parent: parent, start: b.pos, firstKid: -1, next: -1, open: open, tree: t})
	b.last = append(b.last, -1)
	if parent >= 0 {
		if l := b.last[parent]; l >= 0 {
			b.v.nodes[l].next = i
		} else {
			b.v.nodes[parent].firstKid = i
		}
		b.last[parent] = i
	}
	return i
}

func (b *viewBuilder) finish(i int32) {
	b.v.nodes[i].end = int32(len(b.v.nodes))
	b.v.nodes[i].stp = b.pos
}

// rhs adds the right-hand side tree t of a nonterminal below parent.
func (b *viewBuilder) rhs(t *grammar.Tree, parent int32) {
	if t.Node.Symbolic() {
		b.one(t, parent)
		return
	}
	for _, c := range t.Children {
		b.one(c, parent)
	}
}

// one adds tree node t below parent: a symbolic node as a child, a
// synthetic node as its symbolic descendants.
func (b *viewBuilder) one(t *grammar.Tree, parent int32) {
	switch t.Node.Kind {
	case grammar.KindRef:
		i := b.add(b.lb.ids[t.Node.Name], parent, t.Open, t)
		for _, c := range t.Children {
			b.rhs(c, i)
		}
		b.finish(i)
	case grammar.KindLit, grammar.KindClass:
		i := b.add(-1, parent, t.Open, t)
		b.pos += int32(len(t.Value))
		b.finish(i)
	default:
		for _, c := range t.Children {
			b.one(c, parent)
		}
	}
}

// index builds byLabel and the start-offset index, reusing the slices of
// an earlier index of v where they are large enough.
func (v *view) index(nlabels int) {
	perLabel := zeroed(v.scratch, nlabels)
	counts := zeroed(v.startIdx, len(v.input)+2)
	for i := range v.nodes {
		n := &v.nodes[i]
		if n.label < 0 {
			continue
		}
		perLabel[n.label]++
		counts[n.start+1]++
	}
	// one backing array for all label lists
	all := zeroed(v.all, int(counts[len(counts)-1])+len(v.nodes))[:0]
	v.all = all
	if cap(v.byLabel) >= nlabels {
		v.byLabel = v.byLabel[:nlabels]
	} else {
		v.byLabel = make([][]int32, nlabels)
	}
	for l, c := range perLabel {
		v.byLabel[l] = all[len(all) : len(all) : len(all)+int(c)]
		all = all[:len(all)+int(c)]
	}
	for i := range v.nodes {
		if l := v.nodes[i].label; l >= 0 {
			v.byLabel[l] = append(v.byLabel[l], int32(i))
		}
	}
	for p := 1; p < len(counts); p++ {
		counts[p] += counts[p-1]
	}
	v.startIdx = counts
	v.atStart = zeroed(v.atStart, int(counts[len(counts)-1]))
	fill := zeroed(perLabel, len(counts))
	v.scratch = fill
	copy(fill, counts)
	for i := range v.nodes {
		n := &v.nodes[i]
		if n.label < 0 {
			continue
		}
		v.atStart[fill[n.start]] = int32(i)
		fill[n.start]++
	}
}

// zeroed returns a slice of n zeros, s's array if it is large enough.
func zeroed(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// startingAt returns the nonterminal nodes whose text starts at byte offset
// p, in pre-order.
func (v *view) startingAt(p int32) []int32 {
	if p < 0 || int(p)+1 >= len(v.startIdx) {
		return nil
	}
	return v.atStart[v.startIdx[p]:v.startIdx[p+1]]
}

// inRange returns the nodes labeled label with index in [lo, hi), in
// pre-order.
func (v *view) inRange(label int32, lo, hi int32) []int32 {
	if label < 0 || int(label) >= len(v.byLabel) {
		return nil
	}
	s := v.byLabel[label]
	a := sort.Search(len(s), func(i int) bool { return s[i] >= lo })
	b := sort.Search(len(s), func(i int) bool { return s[i] >= hi })
	return s[a:b]
}

// bytes returns the input bytes node i derives.
func (v *view) bytes(i int32) string {
	n := &v.nodes[i]
	return v.input[n.start:n.stp]
}

// str returns the text of node i as an SMT-LIB string (internal form).
func (v *view) str(i int32) string {
	s := v.bytes(i)
	if v.text == "" {
		return s
	}
	return smtlib.FromBytes(s)
}

// label returns the name of node i's nonterminal, or "" for a terminal.
func (v *view) label(i int32) string {
	if l := v.nodes[i].label; l >= 0 {
		return v.names[l]
	}
	return ""
}

// lineCol converts a byte offset into a 1-based line and column.
func (v *view) lineCol(off int) (int, int) {
	i := sort.Search(len(v.lines), func(i int) bool { return v.lines[i] > off }) - 1
	return i + 1, off - v.lines[i] + 1
}

// isAncestor reports whether a is b or an ancestor of b.
func (v *view) isAncestor(a, b int32) bool {
	return a <= b && b < v.nodes[a].end
}

// treeAt returns the grammar tree node of view node i (see Node.Tree).
func (v *view) treeAt(i int32) *grammar.Tree {
	if v.nodes[i].tree == nil && v.materialize != nil {
		v.materialize()
		v.materialize = nil
	}
	return v.nodes[i].tree
}
