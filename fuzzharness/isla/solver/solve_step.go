package solver

import (
	"context"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"slices"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// process applies the transition rules to one state: it returns the
// successor states and all the solutions the state led to.
func (s *Solver) process(ctx context.Context, st *state) ([]*state, []*grammar.Tree, error) {
	children, outs, err := s.step(ctx, st)
	for s.fin != nil {
		outs = append(outs, s.finishMore()...)
	}
	return children, outs, err
}

// step applies the transition rules to one state: it returns the successor
// states and the first solutions the state led to; if the state's atoms
// are to be solved again for more, s.fin holds it (see finishing).
func (s *Solver) step(ctx context.Context, st *state) ([]*state, []*grammar.Tree, error) {
	// The generator's trees of the last step were all made solver trees.
	s.gen.Recycle()
	// The memory of an earlier step's evaluation context is reused, unless
	// finish took it over.
	c := s.reuseEvalCtx(s.stepCtx, st)
	s.stepCtx = nil
	keep := true
	defer func() {
		if keep {
			s.stepCtx = c
		}
	}()
	children, ok := s.simplify(c, st)
	if !ok {
		return nil, nil, nil
	}
	if children != nil {
		return children, nil, nil
	}
	if matter := s.matterLeaves(c, st); len(matter) > 0 {
		// The expansions are samples: the state stays in the queue, a
		// step older, for more of them.
		st.steps++
		children := append(s.expand(st, matter), s.holeInsertions(c, st)...)
		return append(children, st), nil, nil
	}
	for i, it := range st.forms {
		if q, ok := it.n.(*isla.CompiledQuantifier); ok && it.exists() {
			return s.branchExists(c, st, i, q), nil, nil
		}
	}
	for _, it := range st.forms {
		if _, ok := it.n.(*isla.CompiledIntQuantifier); ok {
			s.incomplete(NoLimit, "the solver does not eliminate universal numeric quantifiers")
			return nil, nil, nil
		}
	}
	keep = false
	outs, err := s.finish(ctx, c, st)
	return nil, outs, err
}

// anyNew reports whether a solution is not one returned before.
func (s *Solver) anyNew(outs []*grammar.Tree) bool {
	for _, t := range outs {
		if !s.seen.has(t.Bytes()) {
			return true
		}
	}
	return false
}

// simplify brings the formulas of a state into the solver's normal form
// and applies the deterministic rules: deciding atoms, introducing numeric
// constants, instantiating (and eliminating) universal quantifiers, and
// reusing the witnesses of existential quantifiers eliminated before. If a
// formula splits into several disjuncts, it returns one state per
// disjunct. ok is false if the state is unsatisfiable.
func (s *Solver) simplify(c *evalCtx, st *state) (children []*state, ok bool) {
	// The formulas to process, in order: formulas a step adds come before
	// the rest (a stack of runs, so that adding costs no copy of the rest).
	queue := worklist{runs: [][]item{st.forms}}
	// keep and the instances added to the queue are built in memory
	// reused across calls (the state gets a copy of keep).
	keep, added := s.simp.keep[:0], s.simp.added[:0]
	seen := s.simp.seenSet()
	defer func() {
		s.simp.release(seen)
		clear(keep) // no pointers into states left behind
		clear(added)
		s.simp.keep, s.simp.added = keep[:0], added[:0]
	}()
	// fork returns the states for the disjuncts d of the formula at
	// position k of the queue, with done the universal quantifier's item
	// as far as it got (or nil).
	fork := func(d dnf, done *item) []*state {
		rest := queue.rest()
		var out []*state
		for _, conj := range d {
			child := st.clone()
			forms := append([]item(nil), keep...)
			if done != nil {
				forms = append(forms, *done)
			}
			forms = append(forms, rest...)
			child.forms = append(forms, conj...)
			child.steps++
			out = append(out, child)
		}
		return out
	}
	for {
		it, more := queue.next()
		if !more {
			break
		}
		switch n := it.n.(type) {
		case *isla.CompiledSMT, *isla.CompiledPred:
			if !seen.add(s, it, nil, nil) {
				continue
			}
			switch c.decideSearch(it) {
			case triFalse:
				return nil, false
			case triUnknown:
				keep = append(keep, it)
			}
		case *isla.CompiledNot, *isla.CompiledBinary:
			d := s.normalize(c, it)
			switch len(d) {
			case 0:
				return nil, false
			case 1:
				queue.push(d[0])
			default:
				return fork(d, nil), true
			}
		case *isla.CompiledIntQuantifier:
			if !it.exists() {
				keep = append(keep, it)
				continue
			}
			st.ints = append(slices.Clip(st.ints), "")
			body := item{n: n.Body, env: it.env.bind(n.Slot, int32(len(st.ints)-1)), neg: it.neg}
			queue.push([]item{body})
		case *isla.CompiledQuantifier:
			if it.exists() {
				if !seen.add(s, it, nil, nil) {
					continue
				}
				key := s.key(it)
				if inst, found := s.reuseWitness(c, st, it, n, key); found {
					d := s.normalize(c, inst)
					switch len(d) {
					case 0:
						return nil, false
					case 1:
						queue.push(d[0])
					default:
						return fork(d, nil), true
					}
					continue
				}
				keep = append(keep, it)
				continue
			}
			// A compound body without quantifiers whose free variables
			// have the values of an instance made before in this call adds
			// nothing: its atoms are those of that instance, which seen
			// would drop; it is recognized before it is made. XML's
			// no-redef binds the same two attributes in every list that
			// holds them. (A body that is an atom is left to the atoms'
			// own check.)
			dedup := s.simp.compound(n.Body)
			cover, covers := instKey{}, false
			if dedup {
				cover, covers = s.coverKey(it, n)
				if covers && seen.covered(c, it, n, cover) {
					continue
				}
			}
			ms, next, complete := s.instantiate(c, it, n)
			from := len(added) // this quantifier's instances: added[from:]
			for j, m := range ms {
				if dedup && !seen.add(s, it, n, m) {
					continue
				}
				d := s.normalize(c, instance(it, n, m))
				switch len(d) {
				case 0:
					return nil, false
				case 1:
					added = append(added, d[0]...)
				default:
					// Fork; the other instances go on in every child.
					for _, m := range ms[j+1:] {
						added = append(added, instance(it, n, m))
					}
					queue.push(added[from:len(added):len(added)])
					var cont *item
					if !complete {
						cont = &next
					}
					return fork(d, cont), true
				}
			}
			if !complete {
				keep = append(keep, next)
			} else if covers && len(it.done) == 0 {
				seen.cover(c, it, n, cover)
			}
			queue.push(added[from:len(added):len(added)])
		}
	}
	if s.contradictory(keep) {
		return nil, false
	}
	st.forms = nil
	if len(keep) > 0 {
		st.forms = append([]item(nil), keep...)
	}
	return nil, true
}

// simplifyMemo is simplify's reused memory and what it knows of the
// compiled formula.
type simplifyMemo struct {
	seen *instanceSet // the instances of one call, reused
	// keep and added: the memory of a call's kept formulas and of the
	// instances it adds to its queue
	keep, added []item
	canon       []byte // a canonical atom being built (contradictory)
	// canonSeen: contradictory's canonical atoms, reused
	canonSeen canonSet
	ms        [][]int32 // the matches instantiate returns, reused
	// matches: per quantifier, the outcomes of matchNode in the call
	// numbered call.
	matches map[*isla.CompiledQuantifier]*matchMemo
	call    uint32
	qfree   map[isla.Compiled]bool
}

// maxReused bounds the entries of a map that is cleared for reuse:
// clearing costs its capacity, which a large state's call leaves large.
const maxReused = 64

// seenSet starts a call: it returns an empty set of instances, and
// numbers the call for the match memos.
func (m *simplifyMemo) seenSet() *instanceSet {
	m.call++
	if m.call == 0 { // wrapped around: old numbers could match
		m.matches = nil
		m.call = 1
	}
	seen := m.seen
	m.seen = nil
	if seen == nil {
		seen = &instanceSet{}
	}
	return seen
}

// release takes back a set seenSet returned, empty; maps past
// maxReused entries are dropped rather than cleared.
func (m *simplifyMemo) release(seen *instanceSet) {
	seen.small.reset()
	if len(seen.big) <= maxReused {
		clear(seen.big)
	} else {
		seen.big = nil
	}
	if len(seen.covers) <= maxReused {
		clear(seen.covers)
	} else {
		seen.covers = nil
	}
	m.seen = seen
}

// An instanceSet is a set of instances, by the values of their free
// variables (as key identifies them, without a string for most).
type instanceSet struct {
	small instTable       // instances of up to maxKeySlots free variables
	big   map[string]bool // the others, by key
	// covers: for a universal quantifier and the values of its free
	// variables but the one it ranges in (see coverKey), the view node
	// of a complete instantiation in this call with no node done
	// before: every instance of its body for a node in that node's
	// tree is in the set.
	covers map[instKey]int32
}

// coverKey returns the key of covers for the universal quantifier q (item
// it) whose body is compound: q, the polarity and the values of q's free
// variables, the one it ranges in set to -1. It reports false if q ranges
// over children (a node's children are not its descendants' children), if
// its body uses the variable it ranges in, or if q has too many free
// variables for a key.
func (s *Solver) coverKey(it item, q *isla.CompiledQuantifier) (instKey, bool) {
	slots := s.freeSlots[q]
	if q.Child > 0 || len(slots) > maxKeySlots || slices.Contains(s.freeSlots[q.Body], q.In) {
		return instKey{}, false
	}
	k := instKey{node: int32(s.nodeID[q]), neg: it.neg}
	for i, slot := range slots {
		k.v[i] = -1
		if slot != q.In {
			k.v[i], _ = it.env.lookup(slot)
		}
	}
	return k, true
}

// covered reports whether instantiating the universal quantifier q (item
// it, cover key k) would add nothing: it ranges in a node inside the tree
// of a node for which the same quantifier, with the same values of the
// other free variables, was instantiated completely in this call. Its
// nodes are among that node's (the descendants of a descendant), each with
// the same matches and so the same instances, all in the set; that node
// had no node that could still match or grow, so neither has this one,
// and the quantifier is done.
func (set *instanceSet) covered(c *evalCtx, it item, q *isla.CompiledQuantifier, k instKey) bool {
	p, ok := set.covers[k]
	if !ok {
		return false
	}
	inID, _ := it.env.lookup(q.In)
	in, ok := c.idx.get(inID)
	return ok && p <= in && in < c.v.Nodes[p].End
}

// cover records that the universal quantifier q (item it, cover key k,
// no node done before) was instantiated completely: every instance of
// its body is in the set. Of two nested nodes, the outer one is kept.
func (set *instanceSet) cover(c *evalCtx, it item, q *isla.CompiledQuantifier, k instKey) {
	inID, _ := it.env.lookup(q.In)
	in, ok := c.idx.get(inID)
	if !ok {
		return
	}
	if p, had := set.covers[k]; had && p <= in && in < c.v.Nodes[p].End {
		return
	}
	if set.covers == nil {
		set.covers = map[instKey]int32{}
	}
	set.covers[k] = in
}

// maxKeySlots is the most free variables of an instance an instKey holds.
const maxKeySlots = 6

// An instKey identifies an instance of up to maxKeySlots free variables:
// the formula's number, its polarity and the values of its free
// variables, in the order of freeSlots (unused ones zero).
type instKey struct {
	node int32
	neg  bool
	v    [maxKeySlots]int32
}

// add adds the instance it, or, if q is not nil, the instance of q.Body
// that the match m of universal quantifier q (item it) makes (see
// instance), without making it; it reports whether the instance is new.
func (set *instanceSet) add(s *Solver, it item, q *isla.CompiledQuantifier, m []int32) bool {
	n := it.n
	if q != nil {
		n = q.Body
	}
	slots := s.freeSlots[n]
	value := func(slot int) int32 {
		if q != nil {
			if x, ok := boundIn(q, m, slot); ok {
				return x
			}
		}
		x, _ := it.env.lookup(slot)
		return x
	}
	if len(slots) <= maxKeySlots {
		k := instKey{node: int32(s.nodeID[n]), neg: it.neg}
		for i, v := range slots {
			k.v[i] = value(v)
		}
		return set.small.add(k)
	}
	if q != nil {
		it = instance(it, q, m) // rare: no need to spare the env
	}
	return insert(&set.big, s.key(it))
}

// insert adds k to the set *p, making the set if it is nil; it reports
// whether k is new.
func insert[K comparable](p *map[K]bool, k K) bool {
	if (*p)[k] {
		return false
	}
	if *p == nil {
		*p = map[K]bool{}
	}
	(*p)[k] = true
	return true
}

// matchOutcome is what matchNode returns.
type matchOutcome struct {
	matches [][]int32
	maybe   bool
}

// A matchMemo remembers the outcomes of matchNode for one quantifier in
// one call of simplify (its tree does not change), by view index: the
// nested quantifiers of XML's no-redef match every attribute of a list
// once per attribute in it.
type matchMemo struct {
	call []uint32 // call[y] == the call's number: out[y] is known
	out  []matchOutcome
}

// matchMemo returns the memo of quantifier q for a view of n nodes.
func (m *simplifyMemo) matchMemo(q *isla.CompiledQuantifier, n int) *matchMemo {
	mm := m.matches[q]
	if mm == nil {
		if m.matches == nil {
			m.matches = map[*isla.CompiledQuantifier]*matchMemo{}
		}
		mm = &matchMemo{}
		m.matches[q] = mm
	}
	if len(mm.call) < n {
		mm.call = append(mm.call, make([]uint32, n-len(mm.call))...)
		mm.out = append(mm.out, make([]matchOutcome, n-len(mm.out))...)
	}
	return mm
}

// matchNode is s.matchNode for view node y, remembered in mm until the end
// of the call (call is its number).
func (mm *matchMemo) matchNode(s *Solver, c *evalCtx, q *isla.CompiledQuantifier, y int32, call uint32) ([][]int32, bool) {
	if mm.call[y] == call {
		o := mm.out[y]
		return o.matches, o.maybe
	}
	ms, maybe := s.matchNode(c, q, c.ids[y])
	mm.call[y], mm.out[y] = call, matchOutcome{ms, maybe}
	return ms, maybe
}

// compound reports whether a compiled formula is a negation or a binary
// formula without quantifiers.
func (m *simplifyMemo) compound(n isla.Compiled) bool {
	switch n.(type) {
	case *isla.CompiledNot, *isla.CompiledBinary:
		return m.quantifierFree(n)
	}
	return false
}

// quantifierFree reports whether a compiled formula holds no quantifier.
func (m *simplifyMemo) quantifierFree(n isla.Compiled) bool {
	if q, ok := m.qfree[n]; ok {
		return q
	}
	q := true
	switch n := n.(type) {
	case *isla.CompiledQuantifier, *isla.CompiledIntQuantifier:
		q = false
	case *isla.CompiledNot:
		q = m.quantifierFree(n.X)
	case *isla.CompiledBinary:
		q = m.quantifierFree(n.X) && m.quantifierFree(n.Y)
	}
	if m.qfree == nil {
		m.qfree = map[isla.Compiled]bool{}
	}
	m.qfree[n] = q
	return q
}

// A worklist holds formulas to process: runs of items, the last run
// first.
type worklist struct{ runs [][]item }

// next removes and returns the first item.
func (w *worklist) next() (item, bool) {
	for len(w.runs) > 0 {
		last := len(w.runs) - 1
		if r := w.runs[last]; len(r) > 0 {
			w.runs[last] = r[1:]
			return r[0], true
		}
		w.runs = w.runs[:last]
	}
	return item{}, false
}

// push puts items before the others.
func (w *worklist) push(items []item) {
	if len(items) > 0 {
		w.runs = append(w.runs, items)
	}
}

// rest returns the items left, in order, in a new slice.
func (w *worklist) rest() []item {
	var out []item
	for i := len(w.runs) - 1; i >= 0; i-- {
		out = append(out, w.runs[i]...)
	}
	return out
}

// rangeOf returns the view nodes a quantifier ranges over in the tree of
// view node in, in pre-order, and whether more can appear: in is open.
func (c *evalCtx) rangeOf(q *isla.CompiledQuantifier, in int32) []int32 {
	if q.Child > 0 {
		if x := c.v.NthChildOf(in, q.Label, q.Child); x >= 0 {
			return []int32{x}
		}
		return nil
	}
	return c.v.InRange(q.Label, in, c.v.Nodes[in].End)
}

// matchNode matches a quantifier's match expression against the node with
// the given id: the binders of each match (the node itself first) and
// whether open leaves can still change the outcome.
func (s *Solver) matchNode(c *evalCtx, q *isla.CompiledQuantifier, id int32) (matches [][]int32, maybe bool) {
	if q.Match == nil {
		return [][]int32{{id}}, false
	}
	x := c.node(id)
	if x == nil {
		return nil, false
	}
	if x.open {
		return nil, true
	}
	nb := len(q.Match.Binders)
	for _, p := range s.patterns[q] {
		binds := make([]int32, nb+1)
		binds[0] = id
		switch matchTree(p, x.kids[0], binds[1:]) {
		case triTrue:
			dup := false
			for _, m := range matches {
				dup = dup || slices.Equal(m, binds)
			}
			if !dup {
				matches = append(matches, binds)
			}
		case triUnknown:
			maybe = true
		}
	}
	return matches, maybe
}

// bindMatch binds a quantifier's variable and binders.
func bindMatch(e *env, q *isla.CompiledQuantifier, binds []int32) *env {
	e = e.bind(q.Slot, binds[0])
	if q.Match != nil {
		for i, slot := range q.Match.Binders {
			e = e.bind(slot, binds[i+1])
		}
	}
	return e
}

// instance returns the instance of universal quantifier q (item it) with
// match m.
func instance(it item, q *isla.CompiledQuantifier, m []int32) item {
	return item{n: q.Body, env: bindMatch(it.env, q, m), neg: it.neg}
}

// boundIn returns the value of a slot that bindMatch binds with match m:
// the last binding of the slot.
func boundIn(q *isla.CompiledQuantifier, m []int32, slot int) (int32, bool) {
	if q.Match != nil {
		for i := len(q.Match.Binders) - 1; i >= 0; i-- {
			if q.Match.Binders[i] == slot {
				return m[i+1], true
			}
		}
	}
	if q.Slot == slot {
		return m[0], true
	}
	return 0, false
}

// instantiate instantiates a universal quantifier with the nodes of its
// range not done yet whose match is decided. It returns the matches of the
// instances (see instance), the quantifier with its done list extended,
// and whether the quantifier is eliminated: no node is left undecided and
// no open leaf in its range can derive its type. It runs inside simplify,
// whose call numbers its match memo (see matchMemo); the matches it
// returns are valid until its next call.
func (s *Solver) instantiate(c *evalCtx, it item, q *isla.CompiledQuantifier) (ms [][]int32, next item, complete bool) {
	ms = s.simp.ms[:0]
	defer func() { s.simp.ms = ms[:0] }()
	next = it
	inID, _ := it.env.lookup(q.In)
	in, ok := c.idx.get(inID)
	if !ok {
		return nil, it, true
	}
	complete = true
	done := slices.Clip(it.done)
	mm := s.simp.matchMemo(q, len(c.v.Nodes))
	for _, y := range c.rangeOf(q, in) {
		id := c.ids[y]
		if slices.Contains(done, id) {
			continue
		}
		if c.phantom(y) {
			complete = false // the open root's derivation is not made yet
			continue
		}
		matches, maybe := mm.matchNode(s, c, q, y, s.simp.call)
		if maybe {
			complete = false
			continue
		}
		done = append(done, id)
		ms = append(ms, matches...)
	}
	next.done = done
	if complete && c.canGrow(q, in) {
		complete = false
	}
	return ms, next, complete
}

// canGrow reports whether open leaves in the tree of view node in can
// still derive nodes of the quantifier's type.
func (c *evalCtx) canGrow(q *isla.CompiledQuantifier, in int32) bool {
	if c.closed(in) {
		return false
	}
	if q.Child > 0 {
		return c.isOpen(in) || c.growsChild(q, in)
	}
	for _, i := range c.openLeavesIn(in) {
		if c.s.reach[c.v.Nodes[i].Label][q.Label] {
			return true
		}
	}
	return false
}

// growsChild reports whether an open leaf under view node in, not inside a
// nonterminal child of it, can still add a child of the quantifier's type.
func (c *evalCtx) growsChild(q *isla.CompiledQuantifier, in int32) bool {
	for k := c.v.Nodes[in].FirstKid; k >= 0; k = c.v.Nodes[k].Next {
		if c.isOpen(k) && c.s.reach[c.v.Nodes[k].Label][q.Label] {
			return true
		}
	}
	return false
}

// reuseWitness returns the instance of an existential quantifier that an
// earlier state eliminated with a witness, if the witness still matches.
func (s *Solver) reuseWitness(c *evalCtx, st *state, it item, q *isla.CompiledQuantifier, key string) (item, bool) {
	for _, r := range st.resolved {
		if r.key != key {
			continue
		}
		inID, _ := it.env.lookup(q.In)
		in, ok := c.idx.get(inID)
		w, ok2 := c.idx.get(r.binds[0])
		if !ok || !ok2 || !c.v.IsAncestor(in, w) || !slices.Contains(c.rangeOf(q, in), w) {
			return item{}, false
		}
		matches, _ := s.matchNode(c, q, r.binds[0])
		for _, m := range matches {
			if slices.Equal(m, r.binds) {
				return item{n: q.Body, env: bindMatch(it.env, q, m), neg: it.neg}, true
			}
		}
		return item{}, false
	}
	return item{}, false
}

// matterLeaves returns the open leaves that a pending quantifier needs
// expanded: leaves in its range that can derive its type, and leaves
// inside nodes whose match depends on them.
func (s *Solver) matterLeaves(c *evalCtx, st *state) []*stree {
	mark := map[int32]bool{}
	// addTree marks the open leaves in the tree of view node in that can
	// derive label (all: every open leaf).
	addTree := func(in int32, label int32, all bool) {
		for _, i := range c.openLeavesIn(in) {
			if all || s.reach[c.v.Nodes[i].Label][label] {
				mark[c.ids[i]] = true
			}
		}
	}
	for _, it := range st.forms {
		q, ok := it.n.(*isla.CompiledQuantifier)
		if !ok {
			continue
		}
		inID, _ := it.env.lookup(q.In)
		in, ok := c.idx.get(inID)
		if !ok || c.closed(in) {
			continue
		}
		if q.Child > 0 {
			if c.isOpen(in) {
				mark[inID] = true
			}
			for k := c.v.Nodes[in].FirstKid; k >= 0; k = c.v.Nodes[k].Next {
				if c.isOpen(k) && s.reach[c.v.Nodes[k].Label][q.Label] {
					mark[c.ids[k]] = true
				}
			}
		} else {
			addTree(in, q.Label, false)
		}
		for _, y := range c.rangeOf(q, in) {
			if slices.Contains(it.done, c.ids[y]) || c.closed(y) {
				continue
			}
			if _, maybe := s.matchNode(c, q, c.ids[y]); maybe {
				addTree(y, 0, true)
			}
		}
	}
	if len(mark) == 0 {
		return nil
	}
	var out []*stree
	for _, l := range st.root.openLeaves() {
		if mark[l.id] {
			out = append(out, l)
		}
	}
	return out
}

// expand makes states in which the open leaves that matter are derived at
// random, down to the leaves the solver leaves open.
func (s *Solver) expand(st *state, leaves []*stree) []*state {
	var out []*state
	for range s.cfg.expansions {
		subs := make(map[int32]*stree, len(leaves))
		failed := false
		for _, l := range leaves {
			t, err := s.gen.GenerateFrom(l.g.Children[0])
			if err != nil {
				failed = true
				break
			}
			subs[l.id] = mkNode(l.id, l.g, []*stree{s.ids.fromTree(t, s.keep)}, "", false)
		}
		if failed {
			s.incomplete(LimitSize, "an open leaf could not be derived within the size limit")
			continue
		}
		child := st.clone()
		child.root = st.root.replace(subs)
		child.steps++
		out = append(out, child)
	}
	return out
}

// option is one way to eliminate an existential quantifier.
type option struct {
	root  *stree // the new tree, or nil if unchanged
	forms []item
	res   resolved
}

// branchExists eliminates the existential quantifier at position i of the
// state's formulas: one state per match of a node in its range and per tree
// insertion, at most Branches of them, chosen at random.
func (s *Solver) branchExists(c *evalCtx, st *state, i int, q *isla.CompiledQuantifier) []*state {
	it := st.forms[i]
	key := s.key(it)
	inID, _ := it.env.lookup(q.In)
	in := c.idx.at(inID)
	var opts []option
	for _, y := range c.rangeOf(q, in) {
		if c.phantom(y) {
			continue
		}
		matches, _ := s.matchNode(c, q, c.ids[y])
		for _, m := range matches {
			inst := item{n: q.Body, env: bindMatch(it.env, q, m), neg: it.neg}
			for _, conj := range s.normalize(c, inst) {
				opts = append(opts, option{forms: conj, res: resolved{key: key, binds: m}})
			}
		}
	}
	s.rng.Shuffle(len(opts), func(a, b int) { opts[a], opts[b] = opts[b], opts[a] })
	room := s.cfg.branches
	if s.cfg.insertion {
		room = max(s.cfg.branches-1, 1)
		if len(opts) == 0 {
			room = 0
		}
	}
	if len(opts) > room {
		s.incomplete(LimitBranches, "an existential quantifier has more matches than branches")
		opts = opts[:room]
	}
	switch {
	case !s.cfg.insertion:
	case len(opts) > 0 && !s.embeds():
		// Without NonVacuous, a quantifier with matches gets no
		// insertion: the states of insertions cost more than those of
		// matches (a larger tree, the whole constraint to check again),
		// so the search seldom took one, and building each cost as much
		// as a state (on Scriptsize-C, half the time of its slowest
		// outputs).
		s.incomplete(LimitBranches, "no tree insertion for an existential quantifier that has matches")
	default:
		opts = append(opts, s.insertions(c, st, it, q, key, s.cfg.branches-len(opts))...)
	}
	var out []*state
	for _, o := range opts {
		out = append(out, s.applyOption(st, i, o))
	}
	return out
}

// applyOption returns the state in which the existential quantifier at
// position i of the state's formulas is eliminated by option o.
func (s *Solver) applyOption(st *state, i int, o option) *state {
	child := st.clone()
	child.forms = append(append(append([]item(nil), st.forms[:i]...), st.forms[i+1:]...), o.forms...)
	child.resolved = append(slices.Clip(st.resolved), o.res)
	child.steps++
	if o.root != nil {
		child.root = o.root
		s.stats.Insertions++
		// The original constraint, again: the insertion may have
		// broken what held before. Universal quantifiers start over.
		kept := child.forms[:0]
		for _, f := range child.forms {
			if _, ok := f.n.(*isla.CompiledQuantifier); ok && !f.exists() {
				continue
			}
			kept = append(kept, f)
		}
		child.forms = append(kept, item{n: s.spec.Formula(), env: (*env)(nil).bind(0, s.constID)})
	}
	return child
}
