package solver

import (
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"slices"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// evalCtx evaluates the formulas of one state on its tree: it builds the
// validator's view of the (possibly open) tree, so that atoms, predicates
// and quantifier ranges mean exactly what they mean to Check.
type evalCtx struct {
	s  *Solver
	st *state
	solverView
	idx   idIndex // node id -> view index
	ids   []int32 // view index -> node id
	nopen []int32 // nopen[i]: open leaves among view nodes before index i
	opens []int32 // the view indexes of the open leaves, in pre-order
	e     *isla.Evaluator
}

func (s *Solver) newEvalCtx(st *state) *evalCtx { return s.reuseEvalCtx(nil, st) }

// reuseEvalCtx is newEvalCtx reusing the memory of an earlier context
// (nil: none), which must not be used any more.
func (s *Solver) reuseEvalCtx(old *evalCtx, st *state) *evalCtx {
	return s.reuseEvalCtxFrom(old, nil, st)
}

// reuseEvalCtxFrom is reuseEvalCtx copying, from the view of context
// from (nil: none; not old), the nodes of the subtrees st's tree shares
// with from's (see solverView.build).
func (s *Solver) reuseEvalCtxFrom(old, from *evalCtx, st *state) *evalCtx {
	// The context is old itself, rebuilt (a csp run builds dozens of
	// contexts per output): old's fields are read below before they are
	// set again.
	c := old
	if c == nil {
		c = new(evalCtx)
	}
	c.s, c.st = s, st
	if st.root.open {
		// The initial state: the view of an open tree.
		// (The memory of old's view is reused: a restart would drop it
		// for this small view, and the views of the search that follows
		// would grow it again.)
		c.v = isla.NewViewReusing(c.v, nil, grammar.NewOpen(s.rhs), s.spec.Labels(), s.spec.RootLabel(), s.spec.VirtualRoot())
		c.src = slices.Grow(c.src[:0], len(c.v.Nodes))[:len(c.v.Nodes)] // its trees are made already
		clear(c.src)
		c.first = 1
		c.src[0] = st.root
		if s.spec.VirtualRoot() {
			c.first = 2
			c.src[1] = st.root
		}
	} else {
		c.buildFrom(st.root, from, s.spec.Labels(), s.spec.RootLabel(), s.spec.VirtualRoot())
	}
	n := len(c.v.Nodes)
	first := int(c.first)
	if old != nil {
		c.ids = slices.Grow(old.ids[:0], n)[:n]
		clear(c.ids)
		c.idx = old.idx
		c.nopen = slices.Grow(old.nopen[:0], n+1)[:n+1]
		clear(c.nopen)
		c.opens = old.opens[:0]
	} else {
		c.ids = make([]int32, n)
		c.nopen = make([]int32, n+1)
	}
	c.ids[0] = s.constID
	if s.spec.VirtualRoot() {
		c.ids[1] = st.root.id
	}
	for i := first; i < n; i++ {
		if x := c.src[i]; x != nil {
			c.ids[i] = x.id
		}
	}
	c.idx.reset(n)
	for i, id := range c.ids {
		c.idx.add(id, int32(i))
	}
	for i := 0; i < n; i++ {
		c.nopen[i+1] = c.nopen[i]
		open := st.root.open && i == first-1
		if vn := &c.v.Nodes[i]; i >= first && vn.Open && vn.FirstKid < 0 {
			open = true
		}
		if open {
			c.nopen[i+1]++
			c.opens = append(c.opens, int32(i))
		}
	}
	if old != nil {
		c.e = old.e
		c.e.Reset(c.v)
	} else {
		c.e = s.tc.NewEvaluator(c.v)
	}
	if viewCheck != nil && from != nil {
		viewCheck(c)
	}
	return c
}

// viewCheck, if set (by tests), is called with every context built
// copying from another.
var viewCheck func(c *evalCtx)

// phantom reports whether view node i stands for no solver node: in the
// view of the initial state's open root, the nodes of the start symbol's
// right-hand side below the root (such as <b> in <start> ::= <b>), which
// the root's expansion has not made yet.
func (c *evalCtx) phantom(i int32) bool {
	return c.st.root.open && i >= c.first && c.src[i] == nil
}

// node returns the solver's tree node with the given id, if it is a node
// of the view (nil for the virtual <start>).
func (c *evalCtx) node(id int32) *stree {
	i, ok := c.idx.get(id)
	if !ok || i < c.first-1 || c.ids[i] == 0 {
		return nil
	}
	return c.src[i]
}

// A solverView is the view of a solver tree with the solver node of every
// view node.
type solverView struct {
	v     *isla.View
	src   []*stree // view index -> solver node (for i >= first)
	first int32    // view nodes before first stand for the root
	buf   []byte   // the text of the tree
}

// build makes sv the view of a closed-rooted solver tree, as NewView builds
// it of the grammar tree root.kids[0].toTree(nil) derives, without making
// that tree: sv.src records the solver node of every view node, and the
// grammar trees are made only if a predicate asks for them. It reuses the
// memory of sv's earlier view, which must not be used any more.
func (sv *solverView) build(root *stree, lb *isla.Labels, rootLabel string, virtual bool) {
	sv.buildFrom(root, nil, lb, rootLabel, virtual)
}

// buildFrom is build copying the nodes of the subtrees of root that the
// view of context from (nil: none), whose memory is not sv's, shows too:
// a subtree whose root node is the solver node of a node of from's view
// (the same pointer: solver nodes are never changed once made) has the
// same view nodes there, so the builder copies them (ViewBuilder.Copy)
// rather than walk the subtree. A step of a Go solve gives one open leaf a
// value: the tree is new only on the path to that leaf.
func (sv *solverView) buildFrom(root *stree, from *evalCtx, lb *isla.Labels, rootLabel string, virtual bool) {
	rhs := root.kids[0]
	v, b := isla.NewViewBuilder(sv.v, nil, lb, int(rhs.size)+2)
	src := sv.src[:0]
	if cap(src) < cap(v.Nodes) {
		src = make([]*stree, 0, cap(v.Nodes))
	}
	sb := &solverViewBuilder{b: b, lb: lb, src: src, text: sv.buf[:0], from: from}
	top := sb.add(lb.IDs[rootLabel], -1, root)
	first := int32(1)
	if virtual {
		top = sb.add(lb.IDs[rhs.g.Rule], top, root)
		first = 2
	}
	sb.rhs(rhs, top)
	b.Finish(top)
	if virtual {
		b.Finish(0)
	}
	src = sb.src
	sv.buf = sb.text
	b.SetInput(sb.text)
	v.Materialize = func() {
		trees := make(map[*stree]*grammar.Tree, len(v.Nodes))
		t := src[first-1].kids[0].toGrammarTree(trees)
		for i := range v.Nodes {
			if int32(i) < first {
				v.Nodes[i].Tree = t
			} else {
				v.Nodes[i].Tree = trees[src[i]]
			}
		}
	}
	b.Done()
	sv.v, sv.src, sv.first = v, src, first
}

// solverViewBuilder builds a view of a solver tree, recording the solver
// node of every view node.
type solverViewBuilder struct {
	b    *isla.ViewBuilder
	lb   *isla.Labels
	src  []*stree
	text []byte   // the text of the terminals added so far: the input
	from *evalCtx // the context whose view subtrees are copied from, or nil
}

// minCopy is the least size of a subtree that buildFrom copies rather than
// walks.
const minCopy = 4

// add adds a view node for solver node n.
func (sb *solverViewBuilder) add(label int32, parent int32, n *stree) int32 {
	i := sb.b.Add(label, parent, n.open, nil)
	sb.src = append(sb.src, n)
	return i
}

// rhs adds the right-hand side solver tree n of a nonterminal below
// parent (as ViewBuilder.rhs does for grammar trees).
func (sb *solverViewBuilder) rhs(n *stree, parent int32) {
	if n.g.Symbolic() {
		sb.one(n, parent)
		return
	}
	for _, k := range n.kids {
		sb.one(k, parent)
	}
}

// one adds solver node n below parent (as ViewBuilder.one does for grammar
// trees).
func (sb *solverViewBuilder) one(n *stree, parent int32) {
	switch n.g.Kind {
	case grammar.KindRef:
		if f := sb.from; f != nil && n.size >= minCopy {
			if j, ok := f.idx.get(n.id); ok && j >= f.first && f.src[j] == n {
				sb.b.Copy(f.v, j, parent)
				sb.src = append(sb.src, f.src[j:f.v.Nodes[j].End]...)
				sb.text = append(sb.text, f.v.Node(j).Text()...)
				return
			}
		}
		i := sb.add(sb.lb.RefLabel(n.g), parent, n)
		for _, k := range n.kids {
			sb.rhs(k, i)
		}
		sb.b.Finish(i)
	case grammar.KindLit, grammar.KindClass:
		i := sb.add(-1, parent, n)
		sb.b.Pos += int32(len(n.val))
		sb.text = append(sb.text, n.val...)
		sb.b.Finish(i)
	default:
		for _, k := range n.kids {
			sb.one(k, parent)
		}
	}
}

// toGrammarTree converts an stree into a grammar tree, as toTree does,
// recording the tree node made for every stree node in m.
func (n *stree) toGrammarTree(m map[*stree]*grammar.Tree) *grammar.Tree {
	t := &grammar.Tree{Node: n.g, Value: n.val, Open: n.open}
	m[n] = t
	if len(n.kids) > 0 {
		t.Children = make([]*grammar.Tree, len(n.kids))
		for i, k := range n.kids {
			t.Children[i] = k.toGrammarTree(m)
		}
	}
	return t
}

// closed reports whether the subtree of view node i has no open leaves.
func (c *evalCtx) closed(i int32) bool {
	return c.nopen[c.v.Nodes[i].End] == c.nopen[i]
}

// openLeavesIn returns the view indexes of the open leaves in the subtree
// of view node i, in pre-order.
func (c *evalCtx) openLeavesIn(i int32) []int32 {
	return c.opens[c.nopen[i]:c.nopen[c.v.Nodes[i].End]]
}

// isOpen reports whether view node i is an open leaf.
func (c *evalCtx) isOpen(i int32) bool { return c.nopen[i+1] > c.nopen[i] }

// bind loads the variables of an instance into the evaluator.
func (c *evalCtx) bind(it item) {
	for b := it.env; b != nil; b = b.next {
		if c.s.slotKind[b.slot] == isla.IntVar {
			c.e.Slots[b.slot].Num = c.st.ints[b.val]
			continue
		}
		c.e.Slots[b.slot].Node = c.idx.at(b.val)
	}
}

// ready reports whether the variables of vars all have values: closed
// trees and assigned numbers.
func (c *evalCtx) ready(it item, vars []isla.Variable) bool {
	for _, v := range vars {
		if !c.hasValue(it, v) {
			return false
		}
	}
	return true
}

// readyExcept is ready for all variables but the one in slot.
func (c *evalCtx) readyExcept(it item, vars []isla.Variable, slot int) bool {
	for _, v := range vars {
		if v.Slot != slot && !c.hasValue(it, v) {
			return false
		}
	}
	return true
}

// hasValue reports whether variable v of an instance has a value: a closed
// tree or an assigned number.
func (c *evalCtx) hasValue(it item, v isla.Variable) bool {
	x, ok := it.env.lookup(v.Slot)
	if !ok {
		return false
	}
	if v.Kind == isla.IntVar {
		return c.st.ints[x] != ""
	}
	i, ok := c.idx.get(x)
	return ok && c.closed(i)
}

// decide evaluates an atom (an SMT formula or a predicate) if its value
// cannot change any more.
func (c *evalCtx) decide(it item) tri {
	switch n := it.n.(type) {
	case *isla.CompiledSMT:
		if !c.ready(it, n.Vars) {
			return triUnknown
		}
		c.bind(it)
		return triOf(c.e.Eval(n) != it.neg)
	case *isla.CompiledPred:
		if !c.predReady(it, n) {
			return triUnknown
		}
		c.bind(it)
		ok, err := c.e.Pred(n)
		if err != nil {
			c.s.predFailed(n, err)
		}
		return triOf(ok != it.neg)
	}
	return triUnknown
}

// predReady reports whether a predicate's value is determined: a semantic
// predicate needs closed trees and known numbers; a structural one is
// determined by the positions of its nodes, except nth and consecutive,
// which open leaves between the nodes can still change.
func (c *evalCtx) predReady(it item, n *isla.CompiledPred) bool {
	var nodes []int32
	for _, a := range n.Args {
		switch a.Kind {
		case isla.TreeParam:
			x, ok := it.env.lookup(a.Slot)
			if !ok {
				return false
			}
			i, ok := c.idx.get(x)
			if !ok {
				return false
			}
			if n.Impl != nil && !c.closed(i) {
				return false
			}
			nodes = append(nodes, i)
		case isla.NumParam:
			if a.Slot < 0 {
				continue
			}
			x, ok := it.env.lookup(a.Slot)
			if !ok {
				return false
			}
			if a.IsInt {
				if c.st.ints[x] == "" {
					return false
				}
			} else if i, ok := c.idx.get(x); !ok || !c.closed(i) {
				return false
			}
		}
	}
	if n.Impl != nil || len(nodes) != 2 {
		return true
	}
	a, b := nodes[0], nodes[1]
	switch n.Src.Name {
	case "nth":
		// Open leaves inside b before a may still derive nodes of a's label.
		if !c.v.IsAncestor(b, a) {
			return true
		}
		la := c.v.Nodes[a].Label
		for i := b + 1; i < a; i++ {
			if c.isOpen(i) && c.s.reach[c.v.Nodes[i].Label][la] {
				return false
			}
		}
	case "consecutive":
		if end := c.v.Nodes[a].End; end <= b {
			return c.nopen[b] == c.nopen[end]
		}
	}
	return true
}
