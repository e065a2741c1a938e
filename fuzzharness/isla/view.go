package isla

import (
	"sort"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
)

// A View is the derivation tree of one input as ISLa sees it: only
// symbolic nodes (nonterminals and terminal leaves), the synthetic nodes of
// the grammar graph (alternations, concatenations, quantifiers) skipped. The
// nodes are numbered in pre-order; a node's subtree is the index range
// [i, end). Node 0 is the root, the tree of the constant.
type View struct {
	input string     // the input bytes
	text  string     // the input in the internal string form, if it differs; "" otherwise
	Nodes []ViewNode // in pre-order
	// ByLabel lists, per nonterminal label, its nodes in pre-order.
	ByLabel [][]int32
	// nodes starting at byte offset p: atStart[startIdx[p]:startIdx[p+1]],
	// in pre-order (nonterminals only).
	startIdx []int32
	atStart  []int32
	lines    []int // offsets of line starts
	names    []string
	// Views built from trees other than grammar trees (a solver's) may leave
	// ViewNode.Tree nil; the first time Node.Tree asks for one, Materialize
	// sets the trees of all nodes.
	Materialize func()
	// buffers index reuses when a view is rebuilt
	all, scratch, last []int32
	collected          []byte       // NewTreeView's input
	builder            *ViewBuilder // the builder of the view, reused with it
}

// ViewNode is one node of a view.
type ViewNode struct {
	Label       int32 // nonterminal label, or -1 for a terminal
	Parent      int32 // -1 for the root
	End         int32 // index after the last node of the subtree
	Start, Stop int32 // byte span [Start, Stop)
	FirstKid    int32 // -1 if none
	Next        int32 // next sibling, -1 if none
	Open        bool  // the node is an open slot (a leaf if FirstKid < 0)
	// Tree is the grammar tree node the view node stands for (see
	// Node.Tree); nil until View.Materialize sets it, if that is set.
	Tree *grammar.Tree
}

// Labels numbers the nonterminals of a graph for views.
type Labels struct {
	IDs   map[string]int32 // label by nonterminal name
	Names []string         // nonterminal name by label
	// The labels of the references of the graph they were made for, by
	// node ID (-1: not a reference): a view's builder looks a reference's
	// label up there rather than in IDs.
	graph  *grammar.Graph
	byNode []int32
}

// NewLabels numbers the nonterminals of gr and the extra names.
func NewLabels(gr *grammar.Graph, extra ...string) *Labels {
	l := &Labels{IDs: map[string]int32{}}
	add := func(n string) {
		if _, ok := l.IDs[n]; !ok {
			l.IDs[n] = int32(len(l.Names))
			l.Names = append(l.Names, n)
		}
	}
	for _, n := range gr.Nonterminals() {
		add(n)
	}
	for _, n := range extra {
		add(n)
	}
	l.graph = gr
	l.byNode = make([]int32, len(gr.Nodes))
	for i, n := range gr.Nodes {
		l.byNode[i] = -1
		if n.Kind == grammar.KindRef {
			l.byNode[i] = l.IDs[n.Name]
		}
	}
	return l
}

// RefLabel returns the label of reference node n: IDs[n.Name], read
// without a map look-up for a node of the graph the labels were made for.
func (l *Labels) RefLabel(n *grammar.Node) int32 {
	if l.graph != nil && n.ID >= 0 && n.ID < len(l.byNode) && l.graph.Nodes[n.ID] == n {
		return l.byNode[n.ID]
	}
	return l.IDs[n.Name]
}

// NewView builds the view of tree t, the derivation of input. The root node
// is labeled rootLabel; if virtual is set, it is a node of its own above a
// node labeled with the rule t derives (as ISLa's <start> above the start
// symbol), otherwise it is that node.
func NewView(input []byte, t *grammar.Tree, lb *Labels, rootLabel string, virtual bool) *View {
	return NewViewReusing(nil, input, t, lb, rootLabel, virtual)
}

// NewViewReusing is NewView reusing the memory of an earlier view old (nil:
// none), which must not be used any more: a caller that builds view after
// view, one at a time, allocates little. The view returned may be old
// itself, rebuilt: an Evaluator of old is given it with Reset.
func NewViewReusing(old *View, input []byte, t *grammar.Tree, lb *Labels, rootLabel string, virtual bool) *View {
	_, b := NewViewBuilder(old, input, lb, 2*len(input)+16)
	b.tree(t, rootLabel, virtual)
	return b.Done()
}

// NewTreeView is NewViewReusing with the input t derives, which it
// collects while it builds the view: the caller need not walk t for it.
func NewTreeView(old *View, t *grammar.Tree, lb *Labels, rootLabel string, virtual bool) *View {
	v, b := newViewBuilder(old, lb, 0)
	if old != nil {
		b.collected = old.collected[:0]
	}
	b.collect = true
	b.tree(t, rootLabel, virtual)
	v.collected = b.collected
	v.setInput(b.collected)
	return b.Done()
}

// tree adds the nodes of tree t, the derivation of the whole input (see
// NewView).
func (b *ViewBuilder) tree(t *grammar.Tree, rootLabel string, virtual bool) {
	root := b.Add(b.lb.IDs[rootLabel], -1, t.Open, t)
	if virtual {
		top := b.Add(b.lb.IDs[t.Node.Rule], root, t.Open, t)
		b.rhs(t, top)
		b.Finish(top)
	} else {
		b.rhs(t, root)
	}
	b.Finish(root)
}

// NewViewBuilder returns an empty view of input and its builder, with room
// for about capacity nodes (append grows it). It reuses the memory of an
// earlier view old (nil: none), which must not be used any more, as
// NewViewReusing does.
func NewViewBuilder(old *View, input []byte, lb *Labels, capacity int) (*View, *ViewBuilder) {
	v, b := newViewBuilder(old, lb, capacity)
	v.setInput(input)
	return v, b
}

// newViewBuilder is NewViewBuilder without the input.
func newViewBuilder(old *View, lb *Labels, capacity int) (*View, *ViewBuilder) {
	// The view and its builder reuse old's structures too (a solver
	// builds dozens of views per output): an Evaluator tells the new
	// view from the old one by its Reset.
	v := old
	if v == nil {
		v = new(View)
	}
	*v = View{names: lb.Names, lines: v.lines[:0], Nodes: v.Nodes[:0], all: v.all, scratch: v.scratch,
		ByLabel: v.ByLabel, startIdx: v.startIdx, atStart: v.atStart, collected: v.collected, builder: v.builder}
	if v.builder == nil {
		v.builder = new(ViewBuilder)
	}
	b := v.builder
	*b = ViewBuilder{v: v, lb: lb, last: b.last[:0]}
	if cap(v.Nodes) < capacity {
		v.Nodes = make([]ViewNode, 0, capacity)
	}
	if cap(b.last) < capacity {
		b.last = make([]int32, 0, capacity)
	}
	return v, b
}

// setInput sets the input of v, with its line starts and internal form.
func (v *View) setInput(input []byte) {
	v.input = string(input)
	v.lines = append(v.lines[:0], 0)
	for i := 0; i < len(input); i++ {
		if input[i] == '\n' {
			v.lines = append(v.lines, i+1)
		}
	}
	if s := smtlib.FromBytes(v.input); s != v.input {
		v.text = s
	}
}

// A ViewBuilder builds a view node by node, in pre-order: Add a node below
// its parent, advance Pos over the text of terminals, Finish a node after
// its subtree, and Done at the end.
type ViewBuilder struct {
	v    *View
	lb   *Labels
	Pos  int32   // the byte offset of the next node's text
	last []int32 // last child added, per node, for the sibling links
	// Whether the terminals' text is appended to collected (NewTreeView).
	collect   bool
	collected []byte
}

// Add adds a node with the given label (-1 for a terminal) below parent
// (-1 for the root), starting at Pos, and returns its index. t is its
// grammar tree node, nil if the view materializes trees later.
func (b *ViewBuilder) Add(label int32, parent int32, open bool, t *grammar.Tree) int32 {
	i := int32(len(b.v.Nodes))
	b.v.Nodes = append(b.v.Nodes, ViewNode{Label: label, Parent: parent, Start: b.Pos, FirstKid: -1, Next: -1, Open: open, Tree: t})
	b.last = append(b.last, -1)
	b.link(parent, i)
	return i
}

// link makes node i the last child of parent (-1: none, i is the root).
func (b *ViewBuilder) link(parent, i int32) {
	if parent >= 0 {
		if l := b.last[parent]; l >= 0 {
			b.v.Nodes[l].Next = i
		} else {
			b.v.Nodes[parent].FirstKid = i
		}
		b.last[parent] = i
	}
}

// SetInput sets the input of the view being built, for a builder whose
// caller collects the text of the terminals as it adds them (and passed
// nil to NewViewBuilder). It must come before Done.
func (b *ViewBuilder) SetInput(input []byte) { b.v.setInput(input) }

// Done indexes the view and returns it. The builder must not be used any
// more.
func (b *ViewBuilder) Done() *View {
	b.v.last = b.last
	b.v.index(len(b.lb.Names))
	return b.v
}

// Index returns the index of node n in v, or false if n is not a node of
// v.
func (v *View) Index(n Node) (int32, bool) {
	if n.v != v {
		return 0, false
	}
	return n.i, true
}

// Node returns view node i as a Node, as semantic predicates see it.
func (v *View) Node(i int32) Node { return Node{v, i} }

// Finish ends node i: its subtree and text end here.
func (b *ViewBuilder) Finish(i int32) {
	b.v.Nodes[i].End = int32(len(b.v.Nodes))
	b.v.Nodes[i].Stop = b.Pos
}

// rhs adds the right-hand side tree t of a nonterminal below parent.
func (b *ViewBuilder) rhs(t *grammar.Tree, parent int32) {
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
func (b *ViewBuilder) one(t *grammar.Tree, parent int32) {
	switch t.Node.Kind {
	case grammar.KindRef:
		i := b.Add(b.lb.RefLabel(t.Node), parent, t.Open, t)
		for _, c := range t.Children {
			b.rhs(c, i)
		}
		b.Finish(i)
	case grammar.KindLit, grammar.KindClass:
		i := b.Add(-1, parent, t.Open, t)
		b.Pos += int32(len(t.Value))
		if b.collect {
			b.collected = append(b.collected, t.Value...)
		}
		b.Finish(i)
	default:
		for _, c := range t.Children {
			b.one(c, parent)
		}
	}
}

// index builds byLabel and the start-offset index, reusing the slices of
// an earlier index of v where they are large enough.
func (v *View) index(nlabels int) {
	perLabel := zeroed(v.scratch, nlabels)
	counts := zeroed(v.startIdx, len(v.input)+2)
	for i := range v.Nodes {
		n := &v.Nodes[i]
		if n.Label < 0 {
			continue
		}
		perLabel[n.Label]++
		counts[n.Start+1]++
	}
	// one backing array for all label lists
	all := zeroed(v.all, int(counts[len(counts)-1])+len(v.Nodes))[:0]
	v.all = all
	if cap(v.ByLabel) >= nlabels {
		v.ByLabel = v.ByLabel[:nlabels]
	} else {
		v.ByLabel = make([][]int32, nlabels)
	}
	for l, c := range perLabel {
		v.ByLabel[l] = all[len(all) : len(all) : len(all)+int(c)]
		all = all[:len(all)+int(c)]
	}
	for i := range v.Nodes {
		if l := v.Nodes[i].Label; l >= 0 {
			v.ByLabel[l] = append(v.ByLabel[l], int32(i))
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
	for i := range v.Nodes {
		n := &v.Nodes[i]
		if n.Label < 0 {
			continue
		}
		v.atStart[fill[n.Start]] = int32(i)
		fill[n.Start]++
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
func (v *View) startingAt(p int32) []int32 {
	if p < 0 || int(p)+1 >= len(v.startIdx) {
		return nil
	}
	return v.atStart[v.startIdx[p]:v.startIdx[p+1]]
}

// InRange returns the nodes labeled label with index in [lo, hi), in
// pre-order.
func (v *View) InRange(label int32, lo, hi int32) []int32 {
	if label < 0 || int(label) >= len(v.ByLabel) {
		return nil
	}
	s := v.ByLabel[label]
	a := sort.Search(len(s), func(i int) bool { return s[i] >= lo })
	b := sort.Search(len(s), func(i int) bool { return s[i] >= hi })
	return s[a:b]
}

// bytes returns the input bytes node i derives.
func (v *View) bytes(i int32) string {
	n := &v.Nodes[i]
	return v.input[n.Start:n.Stop]
}

// str returns the text of node i as an SMT-LIB string (internal form).
func (v *View) str(i int32) string {
	s := v.bytes(i)
	if v.text == "" {
		return s
	}
	return smtlib.FromBytes(s)
}

// label returns the name of node i's nonterminal, or "" for a terminal.
func (v *View) label(i int32) string {
	if l := v.Nodes[i].Label; l >= 0 {
		return v.names[l]
	}
	return ""
}

// lineCol converts a byte offset into a 1-based line and column.
func (v *View) lineCol(off int) (int, int) {
	i := sort.Search(len(v.lines), func(i int) bool { return v.lines[i] > off }) - 1
	return i + 1, off - v.lines[i] + 1
}

// IsAncestor reports whether a is b or an ancestor of b.
func (v *View) IsAncestor(a, b int32) bool {
	return a <= b && b < v.Nodes[a].End
}

// treeAt returns the grammar tree node of view node i (see Node.Tree).
func (v *View) treeAt(i int32) *grammar.Tree {
	if v.Nodes[i].Tree == nil && v.Materialize != nil {
		v.Materialize()
		v.Materialize = nil
	}
	return v.Nodes[i].Tree
}
