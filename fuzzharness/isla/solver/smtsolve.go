package solver

import (
	"context"
	"errors"
	"fmt"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
	"maps"
	"slices"
	"strconv"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// Once no quantifier is left, a state holds atoms only: SMT-LIB formulas
// and predicates over the tree's open leaves and numeric constants. The
// solver solves them together (finish): first in Go (csp), by assigning
// the variables one after the other — a value given by a pin when there
// is one, otherwise a random one guided by the hints — and checking every
// atom whose variables all have values; then, if that fails, with the SMT
// solver, if there is one.

// Limits of solving atoms in Go.
const (
	choiceTries   = 8  // random values tried for one variable
	hintTries     = 24 // random derivations tried to meet a variable's hints
	maxSemSolves  = 3  // times one semantic predicate is solved in one run
	maxCSPActions = 4096
)

// finish solves the atoms of a state without quantifiers and closes the
// rest of the tree at random: in Go, up to Models times for as many
// solutions, otherwise with the SMT solver. It takes c, the evaluation
// context of st, over. It returns the first solution
// in Go and leaves the other solves to s.fin (see finishing), or all the
// solutions of the SMT solver.
func (s *Solver) finish(ctx context.Context, c *evalCtx, st *state) ([]*grammar.Tree, error) {
	f := &finishing{st: st, left: s.cfg.models, size: s.gen.MaxSize, c: c}
	outs, done := s.solveModel(f)
	if len(outs) == 0 {
		if f.c == nil { // taken by the solve
			c = s.newEvalCtx(st)
		}
		return s.finishSMT(ctx, c, st)
	}
	f.fresh = s.anyNew(outs)
	if done {
		s.finished(f)
	} else {
		s.fin = f
	}
	return outs, nil
}

// closeTree closes every open leaf at random and returns the complete
// grammar tree, and whether it closed any. If check is set (a semantic
// predicate rewrote a node derived before the atoms were solved, so the
// quantifiers were not instantiated with the nodes of its new text), it
// validates the tree and reports false for an invalid one.
func (s *Solver) closeTree(root *stree, check bool) (*grammar.Tree, bool, bool) {
	subs := map[int32]*stree{}
	for _, l := range root.openLeaves() {
		t, err := s.gen.GenerateFrom(l.g.Children[0])
		if err != nil {
			s.incomplete(LimitSize, "an open leaf could not be closed within the size limit")
			return nil, false, false
		}
		subs[l.id] = mkNode(l.id, l.g, []*stree{s.ids.fromTree(t, nil)}, "", false)
	}
	if len(subs) > 0 {
		root = root.replaceOpen(subs)
	}
	if !check {
		if t, ok := s.duplicate(root.kids[0]); ok {
			return t, len(subs) > 0, true
		}
	}
	t := root.kids[0].toTree(nil)
	if check && !s.spec.EvalTree(t).Valid {
		s.incomplete(NoLimit, "a semantic predicate rewrote a derived node, and the new text violates a quantifier")
		return nil, false, false
	}
	return t, len(subs) > 0, true
}

// parse parses the bytes text from the nonterminal of reference node g and
// returns the open leaf l derived: a node with l's id.
func (s *Solver) parseLeaf(l *stree, text string) (*stree, bool) {
	key := l.g.Name + "\x00" + text
	nodes := s.spec.Graph().Nodes
	t, ok := s.parsed[key]
	if !ok {
		p, err := s.parser(l.g.Name)
		if err != nil {
			return nil, false
		}
		f, err := p.Parse([]byte(text))
		switch {
		case err == nil:
			// The tree is packed or converted, and dropped with f.
			tree := f.TreeIn(&s.leafTrees)
			p.Recycle(f)
			if t, ok = pack(tree, text, nodes); !ok {
				// Not kept: the packed form cannot hold it.
				return mkNode(l.id, l.g, []*stree{s.ids.fromTree(tree, nil)}, "", false), true
			}
		case errors.Is(err, grammar.ErrItemLimit):
			// Not a rejection: the search stops (see Next), and the
			// text is not cached as unparsable.
			if s.itemErr == nil {
				s.itemErr = &GaveUpError{Reason: fmt.Sprintf("parsing a solved text of %d bytes from <%s> needs more Earley items than allowed", len(text), l.g.Name),
					Limit: LimitItems, Value: s.limitValue(LimitItems), Err: err}
			}
			return nil, false
		}
		if len(s.parsed) >= maxParsed {
			clear(s.parsed)
		}
		s.parsed[key] = t // nil: no parse
	}
	if t == nil {
		return nil, false
	}
	return mkNode(l.id, l.g, []*stree{s.ids.fromPacked(t, key[len(l.g.Name)+1:], nodes)}, "", false), true
}

// maxParsed bounds the parse trees parseLeaf keeps: the same values (an
// identifier, a length) are parsed again and again.
const maxParsed = 1 << 12

func (s *Solver) parser(name string) (*grammar.Parser, error) {
	if p, ok := s.parsers[name]; ok {
		return p, nil
	}
	p, err := grammar.NewParser(s.spec.Graph(), grammar.ParseFrom(name), grammar.MaxItems(s.cfg.maxItems))
	if err != nil {
		return nil, err
	}
	s.parsers[name] = p
	return p, nil
}

// cspRun is one attempt to solve the atoms of a state in Go.
type cspRun struct {
	s      *Solver
	base   *state
	items  []item
	vals   map[int32]*stree // open leaf id -> its derivation
	cur    *stree           // the tree with vals applied but for fresh
	fresh  map[int32]*stree // the values assigned since cur was made
	ints   []string
	c      *evalCtx
	dirty  bool
	solved map[string]int // semantic predicates solved, by instance
	// holds[i]: items[i] was found true on closed trees and known numbers,
	// so that no later assignment changes it (only a tree solver rewriting
	// a derived node does: then holds is cleared); check skips it.
	holds []bool
	// spare is the memory check builds the undecided atoms in: never that
	// of the undecided atoms run holds (see run).
	spare []item
	// keep is the evaluation context of the snapshot the run may go back
	// to (restore): a rebuild does not reuse its memory but other's (nil:
	// new memory), so that going back needs no rebuild.
	keep, other *evalCtx
	noBatch     bool // a batch of random values failed (see pickVar)
	// freshClosed: a key of fresh is a node that is not an open leaf of
	// cur (a tree solver rewrites it).
	freshClosed bool
	random      bool // a value was chosen at random
	rewrote     bool // a tree solver rewrote a node derived before the run
	// written: the view nodes tree solvers set in this pass of propagate.
	written []int32
	// pickBuilt: pickVar built its record of the run's atoms (pickCache);
	// pickStale: it may not use it
	pickBuilt, pickStale bool
	// watch: per atom of items that check found undecided, the id of an
	// open leaf of one of its variables (see openLeafOf), or -1
	watch    []int32
	*pickMem // the solver's: pickVar's memory
}

// pickMem is the memory of pickVar, which a solver's runs share (one at a
// time): a large state's groups and marks would otherwise grow again in
// every run.
type pickMem struct {
	walked viewMarks // the bound nodes pickVar has walked in this call
	picked viewMarks // the open leaves pickVar has taken in this call
	// groupBuf, groups, pinned: the memory of pickVar's groups
	groupBuf []int32
	groups   [][]int32
	pinned   []bool
	batch    batchScratch // the memory of pickVar's batches
	cache    pickCache    // the record of a run's atoms (see pickCache)
	// undAt: the positions in the run's atoms of those the last check
	// found undecided
	undAt []int32
}

// cspFail records why solving the atoms in Go failed; the SMT solver may
// still decide them (finishSMT), otherwise the solver gives up for this
// reason.
func (s *Solver) cspFail(l Limit, reason string) {
	s.cspLimit, s.cspWhy = l, reason
}

// cspIncomplete records that the solver dropped possibilities because it
// could not solve atoms in Go; what is the default reason.
func (s *Solver) cspIncomplete(what string) {
	if s.cspWhy != "" {
		s.incomplete(s.cspLimit, "%s: %s", what, s.cspWhy)
		return
	}
	s.incomplete(NoLimit, "%s", what)
}

// csp solves the atoms of st in Go; it returns the tree with the leaves the
// atoms depend on derived, whether a value was chosen at random, and
// whether a tree solver rewrote a node derived before (closeTree checks
// such a tree). If c is not nil, it is the evaluation context of st, which
// the first run starts from and takes over: the caller must not use it
// any more.
func (s *Solver) csp(st *state, c *evalCtx) (_ *stree, random, rewrote, ok bool) {
	s.cspWhy = ""
	for a := range s.cfg.attempts {
		// The memory of the last run's evaluation context is reused.
		r := &cspRun{s: s, base: st, items: st.forms, vals: map[int32]*stree{},
			cur: st.root, fresh: map[int32]*stree{}, c: s.spareCtx, other: s.spareCtx2,
			ints: slices.Clone(st.ints), dirty: true, solved: map[string]int{},
			holds: make([]bool, len(st.forms)), spare: s.spareItems[0][:0], pickMem: &s.pick}
		if a == 0 && c != nil {
			// The run's tree is st's: no view to build. The spare memory
			// goes to the next state's step.
			s.stepCtx = s.spareCtx
			own := *c
			own.st = &state{root: st.root, ints: r.ints}
			r.c, r.dirty = &own, false
		}
		s.spareCtx, s.spareCtx2 = nil, nil
		ok := r.run(s.spareItems[1][:0])
		s.spareCtx, s.spareCtx2 = r.c, r.other
		if r.keep != nil && r.keep != r.c {
			s.spareCtx2 = r.keep
		}
		if ok {
			return r.tree(), r.random, r.rewrote, true
		}
		if !r.random {
			return nil, false, false, false // no choice was random: trying again is futile
		}
	}
	s.cspFail(LimitAttempts, "random values for the atoms' variables did not satisfy them")
	return nil, false, false, false
}

// tree returns the base tree with the values assigned so far.
func (r *cspRun) tree() *stree {
	if len(r.fresh) > 0 {
		if r.freshClosed {
			r.cur = r.cur.replace(r.fresh)
		} else {
			r.cur = r.cur.replaceOpen(r.fresh)
		}
		clear(r.fresh)
		r.freshClosed = false
	}
	return r.cur
}

// ctx returns the evaluation context of the current tree. It reuses the
// memory of the previous one: a context is valid until the next call.
func (r *cspRun) ctx() *evalCtx {
	if r.dirty {
		mem, from := r.c, r.keep // from: an intact view of an earlier tree
		if mem == r.keep {
			mem, r.other, from = r.other, nil, r.c
		}
		r.c = r.s.reuseEvalCtxFrom(mem, from, &state{root: r.tree(), ints: r.ints})
		r.dirty = false
	}
	return r.c
}

func (r *cspRun) assignLeaf(l *stree, n *stree) {
	if n.nopen > 0 {
		r.pickStale = true // the record of pickVar lacks these leaves
	}
	r.vals[l.id] = n
	r.fresh[l.id] = n
	r.dirty = true
}

func (r *cspRun) assignInt(i int32, v string) {
	r.ints[i] = v
	r.dirty = true
}

type snapshot struct {
	vals  map[int32]*stree
	tree  *stree
	ints  []string
	holds []bool
	c     *evalCtx // the evaluation context of tree, nil if none was built
}

func (r *cspRun) snapshot() snapshot {
	sn := snapshot{maps.Clone(r.vals), r.tree(), slices.Clone(r.ints), slices.Clone(r.holds), nil}
	if !r.dirty {
		sn.c, r.keep = r.c, r.c
	}
	return sn
}

// release drops a snapshot the run will not go back to: the memory of its
// evaluation context may be reused.
func (r *cspRun) release(sn snapshot) {
	if sn.c != nil && sn.c != r.c {
		r.other = sn.c
	}
	r.keep = nil
}

func (r *cspRun) restore(sn snapshot) {
	r.vals = maps.Clone(sn.vals)
	r.cur = sn.tree
	clear(r.fresh)
	r.freshClosed = false
	r.ints = slices.Clone(sn.ints)
	copy(r.holds, sn.holds)
	r.unwatch()
	r.dirty = true
	if sn.c != nil {
		// The snapshot's view is intact (see ctx).
		if r.c != sn.c {
			r.other = r.c
		}
		r.c, r.dirty = sn.c, false
		r.c.st.ints = r.ints // its own state, made by ctx or csp
	}
}

// run assigns the variables until every atom holds; it returns false if
// it fails. und, empty, is memory for the undecided atoms; the run
// leaves the memory it used in s.spareItems.
func (r *cspRun) run(und []item) bool {
	defer func() { r.s.spareItems = [2][]item{r.spare[:0], und[:0]} }()
	und, ok := r.settle(und)
	for range maxCSPActions {
		if !ok {
			return false
		}
		if len(und) == 0 {
			return true
		}
		leaf, iv, more := r.pickVar(und)
		if leaf == nil && iv < 0 {
			r.s.cspFail(NoLimit, "atoms the solver cannot assign in Go")
			return false
		}
		sn := r.snapshot()
		if len(more) > 0 {
			// Independent leaves take their values together, on one view;
			// if that fails, the step assigns only leaf, as it would
			// without batches, and so do the next ones of the run.
			r.s.stats.Batches++
			if r.assignBatch(leaf, more, und) {
				if next, settled := r.settle(und); settled {
					und = next
					r.release(sn)
					continue
				}
			}
			r.s.stats.BatchesFailed++
			r.noBatch = true
			r.restore(sn)
		}
		success := false
		for try := range choiceTries {
			if try > 0 {
				r.restore(sn) // the first try starts from sn itself
			}
			if !r.assignFree(leaf, iv, und) {
				continue
			}
			// The atoms left undecided are those of the next step: a
			// settled run is settled until the next assignment. A failed
			// try keeps und: the next one reads its hints from it.
			if next, settled := r.settle(und); settled {
				und, success = next, true
				break
			}
		}
		if !success {
			return false
		}
		r.release(sn)
	}
	return false
}

// settle applies pins until none applies; it returns the undecided atoms,
// and false on a conflict. held is the caller's undecided atoms: if settle
// succeeds, their memory becomes the one the next check builds in (the
// caller drops them for the ones returned), otherwise it stays theirs.
func (r *cspRun) settle(held []item) ([]item, bool) {
	for range maxCSPActions {
		und, ok := r.check()
		if !ok {
			return nil, false
		}
		progress, conflict := r.propagate(und)
		if conflict {
			return nil, false
		}
		if !progress {
			r.spare = held[:0]
			return und, true
		}
	}
	return nil, false
}

// check decides the atoms: it returns the undecided ones, and false if one
// is false (unless a semantic predicate can still fix it).
func (r *cspRun) check() ([]item, bool) {
	c := r.ctx()
	und := r.spare[:0]
	if r.pickMem == nil {
		r.pickMem = &r.s.pick
	}
	r.undAt = r.undAt[:0]
	if r.watch == nil {
		r.watch = make([]int32, len(r.items))
		r.unwatch()
	}
	for i, it := range r.items {
		if r.holds[i] {
			continue
		}
		if w := r.watch[i]; w >= 0 && c.openLeaf(w) {
			und = append(und, it) // an open leaf of one of its variables is still open
			r.undAt = append(r.undAt, int32(i))
			continue
		}
		switch c.decide(it) {
		case triTrue:
			r.holds[i] = true
		case triFalse:
			if p, ok := it.n.(*isla.CompiledPred); ok && !it.neg && r.fixable(c, it, p) {
				und = append(und, it)
				r.undAt = append(r.undAt, int32(i))
				continue
			}
			r.spare = und[:0]
			return nil, false
		case triUnknown:
			und = append(und, it)
			r.undAt = append(r.undAt, int32(i))
			r.watch[i] = c.openLeafOf(it)
		}
	}
	r.spare = und[:0] // settle decides whether und is kept
	return und, true
}

// openLeaf reports whether the node with the given id is an open leaf of
// the view. check asks it of the leaves it watches, which are still open
// unless the run gave them a value (r.vals): c is the view of the tree
// with the values applied, and its index is cheaper than r.vals.
func (c *evalCtx) openLeaf(id int32) bool {
	i, ok := c.idx.get(id)
	return ok && c.isOpen(i)
}

// unwatch forgets the leaves check watches: a tree solver rewrote a node,
// or the run went back to a snapshot, whose tree may not hold them.
func (r *cspRun) unwatch() {
	for i := range r.watch {
		r.watch[i] = -1
	}
}

// openLeafOf returns the id of an open leaf of a tree variable of the
// SMT-LIB atom it, one decide found undecided, or -1 if it is not such an
// atom or has no such leaf. While no value is assigned to that leaf, the
// variable is not closed, so the atom stays undecided: check need not ask
// decide (a leaf takes a value only through assignLeaf; tree solvers that
// rewrite nodes call unwatch).
func (c *evalCtx) openLeafOf(it item) int32 {
	n, ok := it.n.(*isla.CompiledSMT)
	if !ok {
		return -1
	}
	for _, v := range n.Vars {
		if v.Kind == isla.IntVar || v.Kind == isla.LetVar {
			continue
		}
		x, ok := it.env.lookup(v.Slot)
		if !ok {
			continue
		}
		if i, ok := c.idx.get(x); ok {
			if open := c.openLeavesIn(i); len(open) > 0 {
				return c.ids[open[0]]
			}
		}
	}
	return -1
}

// fixable reports whether a false semantic predicate may still be solved:
// it is a TreeSolver whose written nodes were assigned in this run, and it
// was not solved too often.
func (r *cspRun) fixable(c *evalCtx, it item, p *isla.CompiledPred) bool {
	if _, ok := p.Impl.(isla.TreeSolver); !ok || r.solved[r.s.key(it)] >= maxSemSolves {
		return false
	}
	_, ok := r.semReady(c, it, p)
	return ok
}

// propagate applies pins: the equations that give a variable its value,
// all of them that apply on the current tree, or else one number a
// semantic predicate computes or one subtree a tree solver makes.
//
// Equations are applied together on one evaluation of the tree: a pin
// whose other variables are closed (or known numbers) computes the same
// value before and after another pin fills a different open leaf, so only
// the leaves and numbers assigned in this pass are skipped (they are
// picked up in the next pass, on the new tree). Numbers need no such care:
// the evaluation reads them from r.ints, which assignInt updates in place.
//
// Tree solvers, too, take their steps together: once one has set nodes in
// this pass, a tree solver whose tree arguments hold none of them (nor lie
// inside one) reads the same nodes as on the new tree, so it is asked on
// this view; one whose arguments do is asked in the next pass (TAR: every
// entry's size field in one pass, every header's checksum, which covers
// the size field, in the next). Equations wait for the next pass then.
func (r *cspRun) propagate(und []item) (progress, conflict bool) {
	c := r.ctx()
	r.written = r.written[:0]
	for _, it := range und {
		switch n := it.n.(type) {
		case *isla.CompiledSMT:
			if it.neg || len(r.written) > 0 {
				continue
			}
			for _, p := range r.s.atoms[n].pins {
				x, ok := it.env.lookup(p.slot)
				if !ok || !c.readyExcept(it, n.Vars, p.slot) {
					continue
				}
				if r.s.slotKind[p.slot] == isla.IntVar {
					if r.ints[x] != "" {
						continue
					}
					c.bind(it)
					v, ok := p.compute(c.e)
					if !ok || !smtlib.IsDigits(v) {
						return false, true
					}
					r.assignInt(x, v)
					progress = true
					continue
				}
				l := c.node(x)
				if l == nil || !l.open || r.vals[x] != nil {
					continue
				}
				c.bind(it)
				v, ok := p.compute(c.e)
				if !ok {
					return false, true
				}
				text, ok := smtlib.ToBytes(v)
				if !ok {
					return false, true
				}
				sub, ok := r.s.parseLeaf(l, text)
				if !ok {
					return false, true
				}
				r.assignLeaf(l, sub)
				progress = true
			}
		case *isla.CompiledPred:
			if n.Impl == nil || it.neg {
				continue
			}
			if len(r.written) > 0 {
				if ts, ok := n.Impl.(isla.TreeSolver); ok && !r.readsWritten(c, it, n) {
					if _, conflict := r.solveTree(c, it, n, ts); conflict {
						return true, true
					}
				}
				continue
			}
			if progress {
				continue
			}
			if n.Impl == isla.Count {
				if progress, conflict := r.solveCount(c, it, n); progress || conflict {
					return progress, conflict
				}
			}
			if ns, ok := n.Impl.(isla.NumSolver); ok {
				if progress, conflict := r.solveNum(c, it, n, ns); progress || conflict {
					return progress, conflict
				}
			}
			if ts, ok := n.Impl.(isla.TreeSolver); ok {
				p, conflict := r.solveTree(c, it, n, ts)
				if conflict {
					return p, conflict
				}
				progress = p
			}
		}
	}
	return progress, false
}

// solveNum computes an unknown numeric argument of a predicate whose other
// arguments are known.
func (r *cspRun) solveNum(c *evalCtx, it item, n *isla.CompiledPred, ns isla.NumSolver) (progress, conflict bool) {
	target := -1
	for i, a := range n.Args {
		if a.Kind == isla.NumParam && a.IsInt {
			if x, ok := it.env.lookup(a.Slot); ok && r.ints[x] == "" {
				if target >= 0 {
					return false, false
				}
				target = i
			}
		}
	}
	if target < 0 || !c.readyExcept(it, n.Vars, n.Args[target].Slot) {
		return false, false
	}
	c.bind(it)
	args, ok := c.predArgs(n, target)
	if !ok {
		return false, false
	}
	vals, err := ns.SolveNum(args, target)
	if err != nil || len(vals) == 0 {
		return false, true
	}
	v := vals[r.s.rng.IntN(len(vals))]
	if !smtlib.IsDigits(v) {
		return false, true
	}
	x, _ := it.env.lookup(n.Args[target].Slot)
	r.assignInt(x, v)
	return true, false
}

// predArgs builds the arguments of a predicate from the bound slots;
// argument skip (a number being solved) is left empty.
func (c *evalCtx) predArgs(n *isla.CompiledPred, skip int) ([]isla.Arg, bool) {
	args := make([]isla.Arg, len(n.Args))
	for i, a := range n.Args {
		if i == skip {
			continue
		}
		switch a.Kind {
		case isla.TreeParam:
			args[i].Node = c.v.Node(c.e.Slots[a.Slot].Node)
		case isla.StringParam:
			args[i].Str = a.Lit
		case isla.NumParam:
			s := c.e.ArgNum(a)
			if !smtlib.IsDigits(s) {
				return nil, false
			}
			args[i].Num = s
		}
	}
	return args, true
}

// semReady reports whether a tree solver can be asked: the open leaves and
// the leaves derived in this run inside its tree arguments are all inside
// nodes it writes, or (open leaves only) inside nodes another tree solver
// writes. It returns the leaves inside nodes it writes, and the tree
// arguments it writes themselves.
func (r *cspRun) semReady(c *evalCtx, it item, n *isla.CompiledPred) ([]int32, bool) {
	writes := map[int32]bool{}
	for _, w := range n.Writes {
		if id, ok := r.s.spec.Labels().IDs[w]; ok {
			writes[id] = true
		}
	}
	var targets []int32
	for _, a := range n.Args {
		if a.Kind != isla.TreeParam {
			continue
		}
		x, ok := it.env.lookup(a.Slot)
		if !ok {
			return nil, false
		}
		i := c.idx.at(x)
		if writes[c.v.Nodes[i].Label] && !c.isOpen(i) && !slices.Contains(targets, x) {
			// The predicate writes this argument itself: it may rewrite
			// it whenever it was derived (see decideSearch).
			targets = append(targets, x)
		}
		for j := i; j < c.v.Nodes[i].End; j++ {
			id := c.ids[j]
			_, derived := r.vals[id]
			if !c.isOpen(j) && !derived {
				continue
			}
			inside, other := false, false
			for k := j; k >= i && k >= 0; k = c.v.Nodes[k].Parent {
				if writes[c.v.Nodes[k].Label] {
					inside = true
					break
				}
				other = other || r.s.semWrites[c.v.Nodes[k].Label]
			}
			if !inside {
				// An open leaf that another tree solver writes does not
				// stop this one: it returns ErrNotReady if it reads it.
				if c.isOpen(j) && !other {
					return nil, false
				}
				continue
			}
			targets = append(targets, id)
		}
	}
	return targets, len(targets) > 0
}

// solveTree asks a tree solver for the texts of the nodes it writes.
func (r *cspRun) solveTree(c *evalCtx, it item, n *isla.CompiledPred, ts isla.TreeSolver) (progress, conflict bool) {
	key := r.s.key(it)
	if r.solved[key] >= maxSemSolves {
		return false, false
	}
	targets, ok := r.semReady(c, it, n)
	if !ok {
		return false, false
	}
	c.bind(it)
	args, ok := c.predArgs(n, -1)
	if !ok {
		return false, false
	}
	fixes, err := ts.Solve(args)
	if errors.Is(err, isla.ErrNotReady) || err == nil && r.inPlace(c, fixes) {
		return false, false
	}
	r.solved[key]++
	if err != nil {
		r.s.predFailed(n, isla.PredicateError(n.Src.Name, err))
	}
	if err != nil || len(fixes) == 0 {
		return false, true
	}
	for _, f := range fixes {
		i, ok := c.v.Index(f.Node)
		if !ok {
			return false, true
		}
		i, text, narrowed := r.narrow(c, i, f.Text)
		id := c.ids[i]
		node := c.node(id)
		if node == nil || node.g.Kind != grammar.KindRef || !narrowed && !slices.Contains(targets, id) && !node.open {
			return false, true
		}
		leaf := node
		if !node.open {
			leaf = mkNode(node.id, node.g, nil, "", true)
			r.rewrote = r.rewrote || r.vals[node.id] == nil
			// Atoms over the rewritten node may change: decide all again.
			clear(r.holds)
			r.unwatch()
			r.freshClosed = true
		}
		sub, ok := r.s.parseLeaf(leaf, text)
		if !ok {
			return false, true
		}
		r.assignLeaf(leaf, sub)
		r.written = append(r.written, i)
	}
	return true, false
}

// readsWritten reports whether a tree argument of a predicate instance
// holds, or lies inside, a view node a tree solver set in this pass (or
// is not in the view).
func (r *cspRun) readsWritten(c *evalCtx, it item, n *isla.CompiledPred) bool {
	nd := c.v.Nodes
	for _, a := range n.Args {
		if a.Kind != isla.TreeParam {
			continue
		}
		x, ok := it.env.lookup(a.Slot)
		if !ok {
			return true
		}
		j, ok := c.idx.get(x)
		if !ok {
			return true
		}
		for _, w := range r.written {
			if j < nd[w].End && w < nd[j].End {
				return true
			}
		}
	}
	return false
}

// inPlace reports whether a tree solver's fixes are all in the tree
// already: each names a closed node with that text. Writing them again
// would change nothing (a predicate that waits for another one's nodes,
// as tar_size waits for the checksum, is solved again after every step
// while it is undecided), so solveTree leaves the step to the next atom.
func (r *cspRun) inPlace(c *evalCtx, fixes []isla.Fix) bool {
	for _, f := range fixes {
		i, ok := c.v.Index(f.Node)
		if !ok || !c.closed(i) || f.Node.Text() != f.Text {
			return false
		}
	}
	return len(fixes) > 0
}

// narrow finds where a tree solver's text for view node i goes: the
// deepest descendant that holds every changed byte and parses the changed
// text, as ISLa's substitution of a whole subtree leaves unchanged whatever
// it does not touch. This keeps the bindings of the nodes outside the
// change, and lets a tree solver set a node that a match expression
// derived before this run (then narrowed is true). It returns i and text
// unchanged if no descendant fits.
func (r *cspRun) narrow(c *evalCtx, i int32, text string) (_ int32, _ string, narrowed bool) {
	settable := func(j int32) bool {
		n := c.node(c.ids[j])
		return n != nil && n.g.Kind == grammar.KindRef
	}
	nd := c.v.Nodes
	old := c.v.Node(i).Text()
	p := 0
	for p < len(old) && p < len(text) && old[p] == text[p] {
		p++
	}
	s := 0
	for s < len(old)-p && s < len(text)-p && old[len(old)-1-s] == text[len(text)-1-s] {
		s++
	}
	lo, hi := nd[i].Start+int32(p), nd[i].Stop-int32(s)
	// Descendants come after their ancestors in the view's pre-order.
	for j := nd[i].End - 1; j > i; j-- {
		if nd[j].Start > lo || hi > nd[j].Stop || !settable(j) {
			continue
		}
		sub := c.v.Node(j).Text()
		t := sub[:lo-nd[j].Start] + text[p:len(text)-s] + sub[hi-nd[j].Start:]
		if _, ok := r.s.parseLeaf(c.node(c.ids[j]), t); ok {
			return j, t, true
		}
	}
	return i, text, false
}

// bindsInt reports whether one of vars is bound to the number iv in it.
func (r *cspRun) bindsInt(it item, vars []isla.Variable, iv int32) bool {
	for _, v := range vars {
		if x, ok := it.env.lookup(v.Slot); ok && v.Kind == isla.IntVar && x == iv {
			return true
		}
	}
	return false
}

// maxIntLit returns the largest integer literal in t, or m if it is larger.
func maxIntLit(t isla.Term, m int64) int64 {
	switch t := t.(type) {
	case *isla.IntLit:
		if t.Value.IsInt64() {
			m = max(m, t.Value.Int64())
		}
	case *isla.App:
		for _, a := range t.Args {
			m = maxIntLit(a, m)
		}
	case *isla.Let:
		for _, b := range t.Binds {
			m = maxIntLit(b.Value, m)
		}
		m = maxIntLit(t.Body, m)
	}
	return m
}

// assignFree gives a variable a random value: a number up to 9 or up to the
// largest integer literal (plus one) of the atoms the number is bound to, or a random
// derivation of the leaf that meets the length and regular expression
// hints of the atoms the leaf is bound to.
func (r *cspRun) assignFree(l *stree, iv int32, und []item) bool {
	r.random = true
	if l == nil {
		hi := int64(9)
		for _, it := range und {
			if n, ok := it.n.(*isla.CompiledSMT); ok && r.bindsInt(it, n.Vars, iv) {
				hi = max(hi, maxIntLit(n.Src.Term, hi-1)+1)
			}
		}
		r.assignInt(iv, strconv.FormatInt(r.s.rng.Int64N(min(hi, 1<<20)+1), 10))
		return true
	}
	return r.assignLeafFree(r.ctx(), l, und)
}

// assignLeafFree gives the open leaf l a random derivation that meets the
// hints of the atoms it is bound to, read on c.
func (r *cspRun) assignLeafFree(c *evalCtx, l *stree, und []item) bool {
	r.random = true
	lo, hi := 0, -1
	var res []*smtlib.Regex
	for _, it := range und {
		n, ok := it.n.(*isla.CompiledSMT)
		if !ok || it.neg {
			continue
		}
		info := r.s.atoms[n]
		for _, h := range info.lens {
			if x, ok := it.env.lookup(h.slot); ok && x == l.id && c.readyExcept(it, n.Vars, h.slot) {
				c.bind(it)
				lo, hi = lenBounds(h.op, h.other.Eval(c.e), lo, hi)
			}
		}
		for _, h := range info.res {
			if x, ok := it.env.lookup(h.slot); ok && x == l.id {
				res = append(res, h.re)
			}
		}
	}
	if hi >= 0 && lo > hi {
		return false
	}
	sub, ok := r.s.derive(l, lo, hi, res)
	if !ok {
		return false
	}
	r.assignLeaf(l, sub)
	return true
}

// derive derives the open leaf l at random, within the length bounds (in
// characters; hi < 0: none) and in the languages of res.
func (s *Solver) derive(l *stree, lo, hi int, res []*smtlib.Regex) (*stree, bool) {
	if (lo > 0 || hi >= 0) && len(res) == 0 {
		if sub, ok := s.deriveLength(l, lo, hi); ok {
			return sub, true
		}
	}
	if len(res) > 0 {
		if sub, ok := s.deriveRegex(l, lo, hi, res); ok {
			return sub, true
		}
	}
	var m smtlib.Matcher
	for range hintTries {
		t, err := s.gen.GenerateFrom(l.g.Children[0])
		if err != nil {
			return nil, false
		}
		text := smtlib.FromBytes(string(t.Bytes()))
		if n := smtlib.RuneCount(text); n < lo || hi >= 0 && n > hi {
			continue
		}
		ok := true
		for _, re := range res {
			ok = ok && m.Matches(re, text)
		}
		if ok {
			return mkNode(l.id, l.g, []*stree{s.ids.fromTree(t, nil)}, "", false), true
		}
	}
	return nil, false
}
