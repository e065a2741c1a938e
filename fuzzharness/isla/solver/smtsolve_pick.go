package solver

import (
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// pickVar chooses a variable to give a random value: an open leaf or a
// numeric constant an undecided atom depends on, preferring those no
// semantic predicate writes.
//
// If it chooses a leaf, it also returns the other leaves that may take a
// random value in the same step (assignBatch): leaves no tree solver
// writes that share no undecided atom with the chosen leaf nor with each
// other, so that the value of one cannot make the atoms of another false.
// Tree solvers do not count: they compute the nodes they write from the
// values of the others, whatever they are.
func (r *cspRun) pickVar(und []item) (leaf *stree, iv int32, more []*stree) {
	if r.pickMem == nil {
		r.pickMem = &r.s.pick
	}
	c := r.ctx()
	p := picks{groupSet: groupSet{groups: r.groups[:0], buf: r.groupBuf[:0], last: -1, pinned: r.pinned[:0]}}
	defer func() { r.groupBuf, r.groups, r.pinned = p.buf[:0], p.groups[:0], p.pinned[:0] }()
	cached := r.cached(c, und)
	if cached {
		r.pickCached(c, und, &p)
		if pickCheck != nil {
			pickCheck(r, c, und, &p)
		}
	} else {
		r.pickWalk(c, und, &p)
	}
	switch {
	case len(p.leaves) > 0:
		leaf = p.leaves[r.s.rng.IntN(len(p.leaves))]
	case len(p.ints) > 0:
		return nil, p.ints[r.s.rng.IntN(len(p.ints))], nil
	case len(p.later) > 0:
		return p.later[r.s.rng.IntN(len(p.later))], -1, nil
	default:
		return nil, -1, nil
	}
	if len(p.leaves) == 1 || r.noBatch {
		return leaf, -1, nil
	}
	if cached {
		if r.cache.tiedToAll(r, und, leaf, p.leaves) {
			return leaf, -1, nil
		}
		r.cache.groups(r, und, &p.groupSet)
	}
	return leaf, -1, r.batch.more(c, leaf, p.leaves, p.groups, p.pinned, len(r.ints))
}

// picks is what pickVar chooses from: the open leaves of the undecided
// atoms' variables, those no tree solver writes (leaves) and the others
// (later), in the order they were found; the unassigned numbers; the
// groups of the atoms.
type picks struct {
	leaves, later []*stree
	ints          []int32
	groupSet
}

// groupSet holds the variables of each group of an undecided atom (a
// predicate but a tree solver: all its variables; an SMT-LIB formula:
// those of conjuncts that share variables, see varGroups), as keys: a
// leaf's id, or -1-i for number i. The group made last grows at the end
// of one buffer (most atoms have one group); a group that grows after
// another was made moves out.
type groupSet struct {
	groups [][]int32
	buf    []int32
	last   int
	pinned []bool       // per group: its atom has pins (an equation)
	mine   []groupIndex // the groups of the current atom, by its formula's group
	pin    bool         // the current atom has pins
}

// atom starts the groups of the next atom; pin: it has pins.
func (g *groupSet) atom(pin bool) {
	g.mine, g.pin = g.mine[:0], pin
}

// add adds key to the current atom's group gi.
func (g *groupSet) add(gi int, key int32) {
	x := -1
	for _, m := range g.mine {
		if m.group == gi {
			x = m.index
			break
		}
	}
	if x < 0 {
		x = len(g.groups)
		g.mine = append(g.mine, groupIndex{gi, x})
		g.groups = append(g.groups, g.buf[len(g.buf):len(g.buf)])
		g.pinned = append(g.pinned, g.pin)
		g.last = x
	}
	switch k := g.groups[x]; {
	case contains(k, key):
	case x == g.last:
		g.buf = append(g.buf, key)
		g.groups[x] = g.buf[len(g.buf)-len(k)-1 : len(g.buf) : len(g.buf)]
	default:
		g.groups[x] = append(k[:len(k):len(k)], key)
	}
}

// pickWalk finds pickVar's picks by walking the bindings of und on the
// view c.
func (r *cspRun) pickWalk(c *evalCtx, und []item, p *picks) {
	r.walked.reset()
	r.picked.reset()
	deferred := map[int32]bool{}
	for _, it := range und {
		if p, ok := it.n.(*isla.CompiledPred); ok {
			if _, ok := p.Impl.(isla.TreeSolver); ok {
				for _, w := range p.Writes {
					if lid, ok := r.s.spec.Labels().IDs[w]; ok {
						for _, y := range c.v.ByLabel[lid] {
							deferred[c.ids[y]] = true
						}
					}
				}
			}
		}
	}
	seen := map[int32]bool{} // numbers taken (leaves: r.picked)
	var lookup idxCache      // the atoms bind the same nodes again and again
	for _, it := range und {
		var info *atomInfo
		tree := false
		switch n := it.n.(type) {
		case *isla.CompiledSMT:
			info = r.s.atoms[n]
		case *isla.CompiledPred:
			_, tree = n.Impl.(isla.TreeSolver)
		}
		p.atom(info != nil && !it.neg && len(info.pins) > 0)
		for b := it.env; b != nil; b = b.next {
			gi := -1
			switch {
			case tree:
			case info == nil:
				gi = 0
			default:
				g, ok := info.groupOf(b.slot)
				if !ok {
					break // not a variable of the formula
				}
				gi = g
			}
			if r.s.slotKind[b.slot] == isla.IntVar {
				if r.ints[b.val] == "" {
					if gi >= 0 {
						p.add(gi, -1-b.val)
					}
					if !seen[-1-b.val] {
						seen[-1-b.val] = true
						p.ints = append(p.ints, b.val)
					}
				}
				continue
			}
			i, ok := lookup.index(c, b.val)
			if !ok {
				continue
			}
			// Atoms bind the same nodes again and again (every pair of
			// attributes of a list binds the list): the leaves of a node
			// walked before are all seen.
			walked := r.walked.mark(i, len(c.v.Nodes))
			if walked && gi < 0 {
				continue
			}
			for _, j := range c.openLeavesIn(i) {
				id := c.ids[j]
				if gi >= 0 {
					p.add(gi, id)
				}
				if walked || r.picked.mark(j, len(c.v.Nodes)) {
					continue
				}
				l := c.node(id)
				if l == nil {
					continue
				}
				under := false
				if len(deferred) > 0 {
					under = deferred[id]
					for k := c.v.Nodes[j].Parent; k >= i && k >= 0 && !under; k = c.v.Nodes[k].Parent {
						under = deferred[c.ids[k]]
					}
				}
				if under {
					p.later = append(p.later, l)
				} else {
					p.leaves = append(p.leaves, l)
				}
			}
		}
	}
}

// batchScratch is the memory of a batch's choice (more), reused across
// pickVar's calls in a run. A group member is numbered densely: an open
// leaf by its rank among the view's open leaves, number i after them.
type batchScratch struct {
	start   []int32  // start[k]: where member k's groups begin in of
	of      []int32  // the groups of each member, in increasing order
	blocked []bool   // by member
	tied    []uint32 // tied[k] == call: member k is tied in this block
	call    uint32
	stack   []int32
}

// more returns the leaves of leaves that take a random value together
// with leaf, greedily in their order: a leaf joins if no group of the
// leaves taken so far has it. A leaf blocks the leaves it shares an atom
// with, and what equations tie it to blocks as it does: their values
// follow from its value (pins), so a random value of one of them could
// contradict it. groups holds the members of each group as pickVar keys
// them (a leaf's id, or -1-i for number i), pinned whether a group's atom
// has pins; ints is the number of numeric constants.
func (b *batchScratch) more(c *evalCtx, leaf *stree, leaves []*stree, groups [][]int32, pinned []bool, ints int) []*stree {
	opens := len(c.opens)
	dense := func(k int32) int32 {
		if k < 0 {
			return int32(opens) + (-1 - k)
		}
		j, _ := c.idx.get(k)
		return c.nopen[j]
	}
	n := opens + ints
	b.start = zeroed(b.start, n+1)
	for _, ks := range groups {
		for _, k := range ks {
			b.start[dense(k)+1]++
		}
	}
	for k := 1; k <= n; k++ {
		b.start[k] += b.start[k-1]
	}
	b.of = slicesGrow(b.of, int(b.start[n]))
	fill := b.stack[:0]
	fill = append(fill, b.start[:n]...)
	for g, ks := range groups {
		for _, k := range ks {
			d := dense(k)
			b.of[fill[d]] = int32(g)
			fill[d]++
		}
	}
	b.stack = fill[:0]
	b.blocked = zeroedBools(b.blocked, n)
	if len(b.tied) < n {
		b.tied = make([]uint32, n)
		b.call = 0
	}
	block := func(k int32) {
		b.call++
		if b.call == 0 {
			clear(b.tied)
			b.call = 1
		}
		b.tied[k] = b.call
		stack := append(b.stack[:0], k)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			b.blocked[x] = true
			for _, g := range b.of[b.start[x]:b.start[x+1]] {
				for _, w := range groups[g] {
					d := dense(w)
					b.blocked[d] = true
					if pinned[g] && b.tied[d] != b.call {
						b.tied[d] = b.call
						stack = append(stack, d)
					}
				}
			}
		}
		b.stack = stack[:0]
	}
	block(dense(leaf.id))
	var more []*stree
	for _, l := range leaves {
		if d := dense(l.id); !b.blocked[d] {
			more = append(more, l)
			block(d)
		}
	}
	return more
}

// zeroed returns s resized to n zeros, reusing its memory.
func zeroed(s []int32, n int) []int32 {
	s = slicesGrow(s, n)
	clear(s)
	return s
}

// zeroedBools is zeroed for a slice of bools.
func zeroedBools(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// slicesGrow returns s resized to n, reusing its memory (the contents are
// not kept).
func slicesGrow(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// idxCache remembers the view indexes of node ids one evalCtx's idx gave,
// direct-mapped by the id's low bits; the zero value is empty.
type idxCache struct {
	id [256]int32 // the id + 1 of the entry, 0 if none
	i  [256]int32
}

// index returns c.idx.get(id).
func (m *idxCache) index(c *evalCtx, id int32) (int32, bool) {
	h := uint8(id)
	if m.id[h] == id+1 {
		return m.i[h], true
	}
	i, ok := c.idx.get(id)
	if ok {
		m.id[h], m.i[h] = id+1, i
	}
	return i, ok
}

// viewMarks is a set of view indexes (or other small numbers) that
// empties in constant time.
type viewMarks struct {
	gen []uint32 // gen[i] == cur: i is in the set
	cur uint32
}

// reset empties the set.
func (m *viewMarks) reset() {
	m.cur++
	if m.cur == 0 { // wrapped around: old marks could match
		clear(m.gen)
		m.cur = 1
	}
}

// has reports whether i is in the set.
func (m *viewMarks) has(i int32) bool { return int(i) < len(m.gen) && m.gen[i] == m.cur }

// mark adds view index i of a view of n nodes to the set and reports
// whether it was in it.
func (m *viewMarks) mark(i int32, n int) bool {
	if len(m.gen) < n {
		m.gen = append(m.gen, make([]uint32, n-len(m.gen))...)
	}
	if m.gen[i] == m.cur {
		return true
	}
	m.gen[i] = m.cur
	return false
}

// groupIndex maps a group of an atom's formula (see varGroups) to its
// index in pickVar's groups.
type groupIndex struct{ group, index int }

func contains(s []int32, k int32) bool {
	for _, x := range s {
		if x == k {
			return true
		}
	}
	return false
}

// assignBatch gives the leaf and the leaves more random values, all with
// hints read on the same evaluation context (the leaves share no atom, see
// pickVar).
func (r *cspRun) assignBatch(leaf *stree, more []*stree, und []item) bool {
	c := r.ctx()
	if !r.assignLeafFree(c, leaf, und) {
		return false
	}
	for _, l := range more {
		if !r.assignLeafFree(c, l, und) {
			return false
		}
	}
	return true
}
