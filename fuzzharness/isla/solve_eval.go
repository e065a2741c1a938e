package isla

import (
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// evalCtx evaluates the formulas of one state on its tree: it builds the
// validator's view of the (possibly open) tree, so that atoms, predicates
// and quantifier ranges mean exactly what they mean to Check.
type evalCtx struct {
	s     *Solver
	st    *state
	v     *view
	idx   map[int32]int32  // node id -> view index
	ids   []int32          // view index -> node id
	nodes map[int32]*stree // node id -> node
	nopen []int32          // nopen[i]: open leaves among view nodes before index i
	e     *evaluator
}

func (s *Solver) newEvalCtx(st *state) *evalCtx {
	c := &evalCtx{s: s, st: st, nodes: make(map[int32]*stree, st.root.size)}
	st.root.walk(func(n *stree) bool {
		c.nodes[n.id] = n
		return true
	})
	treeIDs := make(map[*grammar.Tree]int32, st.root.size)
	var t *grammar.Tree
	if st.root.open {
		t = grammar.NewOpen(s.rhs)
	} else {
		t = st.root.kids[0].toTree(treeIDs)
	}
	input := t.Bytes()
	c.v = newView(input, t, s.spec.lb, s.spec.rootLabel, s.spec.virtual)
	n := len(c.v.nodes)
	c.ids = make([]int32, n)
	c.idx = make(map[int32]int32, n)
	first := 1
	c.ids[0] = s.constID
	if s.spec.virtual {
		c.ids[1] = st.root.id
		first = 2
	}
	for i := first; i < n; i++ {
		c.ids[i] = treeIDs[c.v.nodes[i].tree]
	}
	for i := n - 1; i >= 0; i-- {
		c.idx[c.ids[i]] = int32(i)
	}
	c.nopen = make([]int32, n+1)
	for i := 0; i < n; i++ {
		c.nopen[i+1] = c.nopen[i]
		open := st.root.open && i == first-1
		if tr := c.v.nodes[i].tree; i >= first && tr.Open && c.v.nodes[i].firstKid < 0 {
			open = true
		}
		if open {
			c.nopen[i+1]++
		}
	}
	c.e = newEvaluator(s.sp, c.v)
	return c
}

// closed reports whether the subtree of view node i has no open leaves.
func (c *evalCtx) closed(i int32) bool {
	return c.nopen[c.v.nodes[i].end] == c.nopen[i]
}

// isOpen reports whether view node i is an open leaf.
func (c *evalCtx) isOpen(i int32) bool { return c.nopen[i+1] > c.nopen[i] }

// bind loads the variables of an instance into the evaluator.
func (c *evalCtx) bind(it item) {
	for b := it.env; b != nil; b = b.next {
		if c.s.slotKind[b.slot] == vInt {
			c.e.slots[b.slot].num = c.st.ints[b.val]
			continue
		}
		c.e.slots[b.slot].node = c.idx[b.val]
	}
}

// ready reports whether the variables of vars all have values: closed
// trees and assigned numbers.
func (c *evalCtx) ready(it item, vars []varInfo) bool {
	for _, v := range vars {
		x, ok := it.env.lookup(v.slot)
		if !ok {
			return false
		}
		if v.kind == vInt {
			if c.st.ints[x] == "" {
				return false
			}
			continue
		}
		i, ok := c.idx[x]
		if !ok || !c.closed(i) {
			return false
		}
	}
	return true
}

// decide evaluates an atom (an SMT formula or a predicate) if its value
// cannot change any more.
func (c *evalCtx) decide(it item) tri {
	switch n := it.n.(type) {
	case *cSMT:
		if !c.ready(it, n.vars) {
			return triUnknown
		}
		c.bind(it)
		return triOf(c.e.eval(n) != it.neg)
	case *cPred:
		if !c.predReady(it, n) {
			return triUnknown
		}
		c.bind(it)
		ok, _ := c.e.pred(n)
		return triOf(ok != it.neg)
	}
	return triUnknown
}

// predReady reports whether a predicate's value is determined: a semantic
// predicate needs closed trees and known numbers; a structural one is
// determined by the positions of its nodes, except nth and consecutive,
// which open leaves between the nodes can still change.
func (c *evalCtx) predReady(it item, n *cPred) bool {
	var nodes []int32
	for _, a := range n.args {
		switch a.kind {
		case TreeParam:
			x, ok := it.env.lookup(a.slot)
			if !ok {
				return false
			}
			i, ok := c.idx[x]
			if !ok {
				return false
			}
			if n.impl != nil && !c.closed(i) {
				return false
			}
			nodes = append(nodes, i)
		case NumParam:
			if a.slot < 0 {
				continue
			}
			x, ok := it.env.lookup(a.slot)
			if !ok {
				return false
			}
			if a.isInt {
				if c.st.ints[x] == "" {
					return false
				}
			} else if i, ok := c.idx[x]; !ok || !c.closed(i) {
				return false
			}
		}
	}
	if n.impl != nil || len(nodes) != 2 {
		return true
	}
	a, b := nodes[0], nodes[1]
	switch n.src.Name {
	case "nth":
		// Open leaves inside b before a may still derive nodes of a's label.
		if !c.v.isAncestor(b, a) {
			return true
		}
		la := c.v.nodes[a].label
		for i := b + 1; i < a; i++ {
			if c.isOpen(i) && c.s.reach[c.v.nodes[i].label][la] {
				return false
			}
		}
	case "consecutive":
		if end := c.v.nodes[a].end; end <= b {
			return c.nopen[b] == c.nopen[end]
		}
	}
	return true
}
