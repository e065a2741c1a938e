package solver

import (
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// pickVar reads, for every undecided atom, the open leaves and numbers of
// its variables: a walk of the atom's bindings, its formula's groups and
// the view. On a large state (an XML attribute list of k attributes has
// k(k-1) no-redef atoms, and a solve takes about k steps) that walk is
// most of a step. What it finds changes little from step to step: a run
// only closes open leaves (a leaf takes a closed derivation) and assigns
// numbers, and going back to a snapshot reopens only leaves closed since.
// So the first pickVar of a run records, per atom, what the walk finds on
// that view (pickCache), and the later calls of the run read the record,
// skipping the leaves closed and the numbers assigned since: the same
// leaves, groups and numbers, in the same order, as the walk would find.
//
// The record is not used (pickVar walks the view) if the run has a tree
// solver's atom (pickVar defers the leaves it writes, and it rewrites
// closed nodes), once an assignment leaves open leaves in the tree, or on
// a small state (fewer than minRecord undecided atoms at the first call).

// pickCheck, if set (by tests), is called with the picks pickCached found.
var pickCheck func(r *cspRun, c *evalCtx, und []item, got *picks)

// minRecord is the least number of undecided atoms for which pickVar
// records a run's atoms.
const minRecord = 32

// pickCache is the record of one run's atoms (see above).
type pickCache struct {
	// per atom i of the run (cspRun.items): its bindings are
	// binds[start[i]:start[i+1]], in the order of its environment
	start []int32
	binds []pickBind
	// per bound node, by its number: the dense numbers of the open leaves
	// in its tree, in pre-order, leafOf[nodeAt[n]:nodeAt[n+1]]
	nodeAt []int32
	leafOf []int32
	// per open leaf, by its dense number: its node id
	leafID []int32
	// the dense numbers of node ids: of bound nodes and of open leaves
	nodeNum, leafNum map[int32]int32
	pinned           []bool // per atom: an SMT-LIB atom with pins (see pickVar's groups)
	// by dense number, for the current call: the open leaves, the leaves
	// taken and the nodes walked; the leaves tiedToAll found in a group
	// with the chosen one
	open, picked, walked, tied viewMarks
}

// pickBind is one binding of an atom as pickVar reads it: a number, or a
// tree node and the group of its variable.
type pickBind struct {
	gi   int32 // the group of the variable in the atom's formula, -1: none
	num  int32 // a number's index, or -1 for a tree node
	node int32 // a tree node's dense number
}

// build records the atoms of r on c, the view of r's first pickVar call;
// it reports false if pickVar cannot use a record for r (a tree solver's
// atom).
func (pc *pickCache) build(r *cspRun, c *evalCtx) bool {
	for _, it := range r.items {
		if p, ok := it.n.(*isla.CompiledPred); ok {
			if _, ok := p.Impl.(isla.TreeSolver); ok {
				return false
			}
		}
	}
	pc.start = append(pc.start[:0], 0)
	pc.binds, pc.pinned = pc.binds[:0], pc.pinned[:0]
	pc.nodeAt, pc.leafOf, pc.leafID = append(pc.nodeAt[:0], 0), pc.leafOf[:0], pc.leafID[:0]
	// (A map past maxReused entries is dropped: clearing costs its
	// capacity, in every later run.)
	if pc.nodeNum == nil || len(pc.nodeNum) > maxReused || len(pc.leafNum) > maxReused {
		pc.nodeNum, pc.leafNum = map[int32]int32{}, map[int32]int32{}
	}
	clear(pc.nodeNum)
	clear(pc.leafNum)
	for _, it := range r.items {
		var info *atomInfo
		if n, ok := it.n.(*isla.CompiledSMT); ok {
			info = r.s.atoms[n]
		}
		pc.pinned = append(pc.pinned, info != nil && !it.neg && len(info.pins) > 0)
		for b := it.env; b != nil; b = b.next {
			gi := int32(-1)
			switch {
			case info == nil:
				gi = 0
			default:
				if g, ok := info.groupOf(b.slot); ok {
					gi = int32(g)
				}
			}
			if r.s.slotKind[b.slot] == isla.IntVar {
				pc.binds = append(pc.binds, pickBind{gi: gi, num: b.val})
				continue
			}
			i, ok := c.idx.get(b.val)
			if !ok {
				continue
			}
			n, ok := pc.nodeNum[b.val]
			if !ok {
				n = int32(len(pc.nodeAt) - 1)
				pc.nodeNum[b.val] = n
				for _, j := range c.openLeavesIn(i) {
					id := c.ids[j]
					d, ok := pc.leafNum[id]
					if !ok {
						d = int32(len(pc.leafID))
						pc.leafNum[id] = d
						pc.leafID = append(pc.leafID, id)
					}
					pc.leafOf = append(pc.leafOf, d)
				}
				pc.nodeAt = append(pc.nodeAt, int32(len(pc.leafOf)))
			}
			pc.binds = append(pc.binds, pickBind{gi: gi, num: -1, node: n})
		}
		pc.start = append(pc.start, int32(len(pc.binds)))
	}
	return true
}

// next starts a call on c: it marks the recorded leaves that are open in c.
func (pc *pickCache) next(c *evalCtx) {
	pc.open.reset()
	pc.picked.reset()
	pc.walked.reset()
	for _, j := range c.opens {
		if d, ok := pc.leafNum[c.ids[j]]; ok {
			pc.open.mark(d, len(pc.leafID))
		}
	}
}

// cached reports whether pickVar may read the record for und: it is built
// (building it on the first call of the run), the run has left no open
// leaves in its assignments, and und are the atoms the run's last check
// found undecided (check records their positions in r.items).
func (r *cspRun) cached(c *evalCtx, und []item) bool {
	if r.pickStale {
		return false
	}
	if !r.pickBuilt {
		if len(und) < minRecord {
			return false // a small state: the walk is as cheap (und only shrinks in a run)
		}
		r.pickBuilt = true
		if !r.cache.build(r, c) {
			r.pickStale = true
			return false
		}
	}
	if len(r.undAt) != len(und) {
		return false
	}
	for k, it := range und {
		if i := r.undAt[k]; int(i) >= len(r.items) || r.items[i].env != it.env || r.items[i].n != it.n || r.items[i].neg != it.neg {
			return false
		}
	}
	return true
}

// pickCached is pickWalk reading the record (see cached), but for the
// groups: the same leaves in the same order and the same numbers. The
// groups matter only for a batch (see pickVar): tiedToAll tells when
// there is none, and groups makes them otherwise.
func (r *cspRun) pickCached(c *evalCtx, und []item, p *picks) {
	pc := &r.cache
	pc.next(c)
	seen := map[int32]bool{} // numbers taken
	for k := range und {
		i := r.undAt[k]
		for _, b := range pc.binds[pc.start[i]:pc.start[i+1]] {
			if b.num >= 0 {
				if r.ints[b.num] == "" && !seen[-1-b.num] {
					seen[-1-b.num] = true
					p.ints = append(p.ints, b.num)
				}
				continue
			}
			if pc.walked.mark(b.node, len(pc.nodeAt)-1) {
				continue // its leaves are all seen
			}
			for _, d := range pc.leafOf[pc.nodeAt[b.node]:pc.nodeAt[b.node+1]] {
				if !pc.open.has(d) || pc.picked.mark(d, len(pc.leafID)) {
					continue // closed since the record, or seen
				}
				if l := c.node(pc.leafID[d]); l != nil {
					p.leaves = append(p.leaves, l)
				}
			}
		}
	}
}

// groups makes the groups of und as pickWalk does, reading the record on
// the view of the last pickCached call.
func (pc *pickCache) groups(r *cspRun, und []item, g *groupSet) {
	for k := range und {
		i := r.undAt[k]
		g.atom(pc.pinned[i])
		for _, b := range pc.binds[pc.start[i]:pc.start[i+1]] {
			if b.gi < 0 {
				continue
			}
			if b.num >= 0 {
				if r.ints[b.num] == "" {
					g.add(int(b.gi), -1-b.num)
				}
				continue
			}
			for _, d := range pc.leafOf[pc.nodeAt[b.node]:pc.nodeAt[b.node+1]] {
				if pc.open.has(d) {
					g.add(int(b.gi), pc.leafID[d])
				}
			}
		}
	}
}

// tiedToAll reports whether every leaf of leaves but leaf shares a group
// of an atom of und with leaf (on the view of the last pickCached call):
// then no leaf can join leaf in a batch (batchScratch.more blocks them
// all), and the groups need not be made. It may report false when that
// holds (an atom of more than 64 groups).
func (pc *pickCache) tiedToAll(r *cspRun, und []item, leaf *stree, leaves []*stree) bool {
	me, ok := pc.leafNum[leaf.id]
	if !ok {
		return false
	}
	pc.tied.reset()
	for k := range und {
		i := r.undAt[k]
		binds := pc.binds[pc.start[i]:pc.start[i+1]]
		var mine uint64 // the groups of the atom that hold leaf
		for _, b := range binds {
			if b.gi < 0 || b.num >= 0 {
				continue
			}
			for _, d := range pc.leafOf[pc.nodeAt[b.node]:pc.nodeAt[b.node+1]] {
				if d == me && pc.open.has(d) {
					if b.gi >= 64 {
						return false
					}
					mine |= 1 << b.gi
				}
			}
		}
		if mine == 0 {
			continue
		}
		for _, b := range binds {
			if b.gi < 0 || b.gi >= 64 || b.num >= 0 || mine&(1<<b.gi) == 0 {
				continue
			}
			for _, d := range pc.leafOf[pc.nodeAt[b.node]:pc.nodeAt[b.node+1]] {
				if pc.open.has(d) {
					pc.tied.mark(d, len(pc.leafID))
				}
			}
		}
	}
	for _, l := range leaves {
		if d, ok := pc.leafNum[l.id]; !ok || d != me && !pc.tied.has(d) {
			return false
		}
	}
	return true
}
