package solver

import (
	"container/heap"
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/isla"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/cputime"
)

// Defaults of a Repairer.
const (
	// DefaultRepairStates bounds the solver states of one repair attempt
	// with tree insertion (the MaxStates of a Repairer's solver); an
	// attempt without insertion gets a third of them.
	DefaultRepairStates = 60
	// DefaultRepairMaxSize bounds the subtrees a Repairer's solver derives
	// for an open leaf (its MaxSize): repair changes little.
	DefaultRepairMaxSize = 32
	// DefaultRepairBranches is the Branches of a Repairer's solver: one
	// way to eliminate each existential quantifier, a match if there is
	// one and otherwise an insertion, since every insertion the solver
	// tries evaluates the constraint on the whole tree. With def-use and
	// no-redef of Scriptsize-C, one branch repaired more inputs in less
	// time than two or four (BenchmarkExec of examples/scriptc).
	DefaultRepairBranches = 1
	// DefaultRepairRounds is how many times a Repairer re-solves a tree
	// before it gives up: a round can fix one violation and break another
	// (renaming a declaration breaks its uses), and the next round fixes
	// that.
	DefaultRepairRounds = 4
)

// repairWeights are the cost weights of repair: no k-path terms (repair
// wants the nearest valid tree, not diversity), and the derivation depth
// weighs more than in the search for new inputs, so that the solver prefers
// states with few transitions: small changes.
var repairWeights = Weights{TreeClosing: 11, Constraint: 3, Depth: 8}

// A Repairer turns derivation trees that violate a constraint into trees
// that satisfy it, changing as little as it can. It is the constraint hook
// of package fuzzharness (it implements fuzzharness.Constraint): the fuzzer
// decides the tree, and the repairer re-solves only the parts the
// constraint's violations depend on, so that the fuzzer's choices elsewhere
// survive.
//
// Repair works in rounds. A round evaluates the constraint on the tree and
// collects every violation: each instance of a top-level universal
// quantifier that fails, down to the smallest part of the formula that
// fails in it (an atom, a negation, an existential quantifier without a
// witness), under every instance of nested universal quantifiers. Of the
// nodes that part's variables are bound to, it picks the smallest (the
// latest in the input if several are equally small), for example the used
// identifier that has no declaration, or the second of two equal
// declarations, and turns it back into an open leaf. A failing atom on
// numbers alone opens the node of the innermost enclosing instance (the
// CSV record with the wrong number of fields), and an existential numeric
// quantifier takes the candidate value that leaves the fewest nodes to
// open (the number of fields most records have). The solver then starts
// from this partial tree, with the instances that held and do not involve an
// opened node marked as done, and derives the open leaves anew: first
// without tree insertion (the identifier becomes one that is declared,
// solved from the atoms and by matching existential quantifiers); if that
// finds nothing, with insertion and nothing opened (a declaration of the
// used name is inserted, and the fuzzer's identifiers all stay), then with
// insertion and the smallest nodes open. After an insertion the solver
// checks the whole constraint again, still skipping the instances that
// held. If none finds a solution within its budget (a third of MaxStates
// without insertion, MaxStates with it), the round tries again with the
// largest node of each violation opened instead of the smallest (the
// whole <term> rather than its <id>), which the solver derives anew, small
// (MaxSize). The solution is checked against the
// whole constraint; if it still fails (a change broke an instance that
// held, as renaming a declaration breaks its uses), the next round repairs
// the solution.
//
// Repair is deterministic: the same tree and seed give the same result. A
// Repairer is safe for concurrent use; repairs run one at a time.
type Repairer struct {
	spec   *isla.Spec
	opts   []Option
	rounds int

	mu   sync.Mutex
	base *Solver
	plan *fastPlan // the fast repair steps, and their caches
	run  *fastRun  // the fast repair's state, reused by the next repair
	// The random-tree generator of the repair rounds' solvers, reseeded
	// for each (it keeps its size table).
	gen *grammar.Generator
	// The last repairs, by tree and seed: a fuzzing worker repairs the
	// same tree with the same seed again and again.
	cache repairCache
}

// NewRepairer returns a repairer for the constraint of spec. The options
// configure its solver, after the repair defaults (MaxStates of
// DefaultRepairStates per attempt, MaxSize of DefaultRepairMaxSize,
// Branches of DefaultRepairBranches, cost weights without k-path terms);
// Seed is
// ignored, since every repair takes its own seed. Seeds uses the options
// without the repair defaults.
func NewRepairer(spec *isla.Spec, opts ...Option) (*Repairer, error) {
	all := append([]Option{MaxStates(DefaultRepairStates), CostWeights(repairWeights), MaxSize(DefaultRepairMaxSize),
		Branches(DefaultRepairBranches)}, opts...)
	base, err := New(spec, all...)
	if err != nil {
		return nil, err
	}
	return &Repairer{spec: spec, opts: opts, rounds: DefaultRepairRounds, base: base, plan: newFastPlan(spec)}, nil
}

// Spec returns the repairer's compiled constraint.
func (r *Repairer) Spec() *isla.Spec { return r.spec }

// Valid reports whether the complete tree t (rooted at the right-hand side
// of the spec's StartSymbol) satisfies the constraint.
func (r *Repairer) Valid(t *grammar.Tree) bool { return r.spec.Holds(t) }

// Repair returns a tree that satisfies the constraint and keeps as much of
// t as it can, and true; or nil and false if it found none within its
// budget. t must be a complete tree of the spec's graph rooted at the
// right-hand side of its StartSymbol, as isla.Spec.EvalTree takes them. A
// tree that satisfies the constraint already is returned as it is. t is
// not modified; the result may share the subtrees it keeps with t, so
// neither may be modified afterwards. The seed drives the random choices:
// the same t and seed give the same result.
//
// Repair first tries the fast repair steps compiled from the constraint
// (a use renamed to a declared name or a declaration inserted, a
// redefinition renamed, a count adjusted, a checksum recomputed; see
// RepairBy), and falls back to the solver from their result.
func (r *Repairer) Repair(t *grammar.Tree, seed uint64) (*grammar.Tree, bool) {
	return r.RepairBy(t, seed, time.Time{})
}

// RepairBy is Repair with a deadline (the zero time: none): once the
// deadline passes, it stops and returns nil and false. (Package
// fuzzharness calls RepairWithin, with the harness's repair budget, so
// that one hard input does not stall a fuzzing worker.)
//
// Most violations are local and need no search. The constraint is
// compiled once, when the Repairer is made, into repair steps for the
// shapes that allow them: an existential quantifier whose body equates
// its variable with an outer one (def-use: the use is renamed to a
// declared name, or a declaration is inserted before it), an equality of
// two tree variables (the closing tag of an XML element copies the
// opening one), a negated one (no-redef: the later declaration gets a
// fresh name), a count predicate on a universal quantifier's node
// (repetitions added or removed: the fields of a CSV record), a semantic
// predicate that solves itself (isla.TreeSolver: a TAR checksum) and
// str.in_re of a node (a random string of the expression). The fast steps
// run in passes (a fix can break an instance that held, which the next
// pass fixes); what they cannot fix goes to the solver, starting from
// their result. The parsers and parse trees the steps need are cached
// across calls, for as long as the Repairer lives (in a fuzzing worker:
// the whole run), and so are the last few hundred repairs, by tree and
// seed: a tree repaired before with the same seed gets the same result
// again at once, whatever the deadline.
func (r *Repairer) RepairBy(t *grammar.Tree, seed uint64, deadline time.Time) (*grammar.Tree, bool) {
	return r.repair(t, seed, limit{deadline: deadline})
}

// RepairWithin is Repair with a budget of CPU time (0: none): once the
// calling goroutine has worked for budget on the repair, it stops and
// returns nil and false. Time spent waiting for a core does not count, so
// on a loaded machine the budget bounds the work a repair does, not the
// scheduler's delays. The goroutine is locked to its OS thread during the
// repair, whose CPU clock measures it (where the system has no thread CPU
// clock, the budget is wall-clock time, as with RepairBy). Package
// fuzzharness calls it with the harness's repair budget
// (fuzzharness.WithRepairBudget).
func (r *Repairer) RepairWithin(t *grammar.Tree, seed uint64, budget time.Duration) (*grammar.Tree, bool) {
	if budget <= 0 {
		return r.repair(t, seed, limit{})
	}
	timer := cputime.Start()
	defer timer.Release()
	return r.repair(t, seed, limit{timer: timer, budget: budget})
}

// A limit says when a repair stops: never (the zero limit), at a
// wall-clock deadline, or once a CPU timer reaches a budget.
type limit struct {
	deadline time.Time
	timer    *cputime.Timer
	budget   time.Duration
}

// passed reports whether the limit has been reached.
func (l limit) passed() bool {
	switch {
	case l.timer != nil:
		return l.timer.Exceeded(l.budget)
	case !l.deadline.IsZero():
		return time.Now().After(l.deadline)
	}
	return false
}

// repair is RepairBy and RepairWithin, stopping at lim.
func (r *Repairer) repair(t *grammar.Tree, seed uint64, lim limit) (*grammar.Tree, bool) {
	if t == nil || t.Node != r.base.rhs {
		return nil, false // not a tree of the spec's graph
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	key, complete := r.cache.key(t, seed)
	if !complete {
		return nil, false
	}
	if out, ok := r.cache.get(key, t, seed); ok {
		return out, true
	}
	out, ok := r.repairUncached(t, seed, lim)
	if ok {
		r.cache.put(key, t, seed, out)
	}
	return out, ok
}

// repairUncached is repair without the cache, under r.mu.
func (r *Repairer) repairUncached(t *grammar.Tree, seed uint64, lim limit) (*grammar.Tree, bool) {
	// The fast repair's first pass checks t: a tree that satisfies the
	// constraint is returned as it is.
	cur, ok := r.fastRepair(t, seed, lim)
	if ok {
		return cur, true
	}
	for round := range r.rounds {
		if lim.passed() {
			return nil, false
		}
		var out *grammar.Tree
		ok := false
		for k, a := range repairAttempts {
			if a.insert && !r.base.cfg.insertion {
				continue
			}
			s := r.fresh(seed + uint64(round*len(repairAttempts)+k)*0x9e3779b97f4a7c15)
			budget := max(r.base.cfg.maxStates/3, 1)
			if a.insert {
				budget = r.base.cfg.maxStates
			}
			if out, ok = s.repairRound(cur, a.open, a.insert, budget, lim); ok || lim.passed() {
				break
			}
		}
		if !ok {
			return nil, false
		}
		if r.spec.Holds(out) {
			return out, true
		}
		cur = out
	}
	return nil, false
}

// What a repair attempt opens of each violation.
const (
	openSmallest = iota // the smallest node
	openNothing         // nothing: only tree insertion can help
	openLargest         // the largest node
)

// repairAttempts are the ways a round tries to repair a tree, in order:
// the smallest node of each violation opened and solved without tree
// insertion (a use gets a declared name); nothing opened, with insertion
// (a declaration of the used name is inserted); the smallest node opened,
// with insertion (a declaration is inserted, and the use gets its name);
// then the largest node opened, without and with insertion.
var repairAttempts = []struct {
	open   int
	insert bool
}{
	{openSmallest, false}, {openNothing, true}, {openSmallest, true}, {openLargest, false}, {openLargest, true},
}

// Seeds returns up to n inputs that satisfy the constraint, made by a
// solver with the repairer's options and seed 1 (see New and
// Solver.Solve): seeds for a fuzzer. It returns fewer if the solver finds
// no more.
func (r *Repairer) Seeds(n int) []*grammar.Tree {
	s, err := New(r.spec, r.opts...)
	if err != nil {
		return nil // NewRepairer made a solver with these options
	}
	out, _ := s.Solve(context.Background(), n)
	return out
}

// fresh returns a solver for one repair round: the base solver's analysis
// and caches, with its own random sources and an empty search.
func (r *Repairer) fresh(seed uint64) *Solver {
	s := *r.base
	s.rng = rand.New(rand.NewPCG(seed, 0x72657061))
	if r.gen == nil {
		r.gen = grammar.NewGenerator(r.spec.Graph(), seed^0x5eed)
	} else {
		r.gen.Reseed(seed ^ 0x5eed)
	}
	s.gen = r.gen
	s.gen.MaxSize = r.base.gen.MaxSize
	s.ids = idSource{}
	s.queue, s.seq, s.started, s.pending = nil, 0, true, nil
	s.seen = outputSet{}
	s.dropped, s.dropWhy, s.cur, s.reserve = false, nil, nil, reserve{}
	s.predErr, s.predSrc = nil, nil
	s.stats = Stats{}
	return &s
}

// repairRound opens the nodes that the violations of the constraint on t
// depend on and solves from there. It returns the first solution the
// solver reaches, valid or not, and false if it reaches none.
func (s *Solver) repairRound(t *grammar.Tree, open int, insert bool, budget int, lim limit) (*grammar.Tree, bool) {
	spec := s.spec
	v := isla.NewView(t.Bytes(), t, spec.Labels(), spec.RootLabel(), spec.VirtualRoot())
	e := isla.NewEvaluator(spec, v)
	first := int32(1) // view nodes before it are the root(s), never opened
	if spec.VirtualRoot() {
		first = 2
	}
	f := failFinder{e: e, first: first, largest: open == openLargest, open: map[int32]bool{}}

	// The top-level conjuncts; for universal quantifiers over the whole
	// input, the nodes whose instances hold.
	conjs := topConjuncts(spec.Formula(), nil)
	held := make([][]int32, len(conjs))
	for i, n := range conjs {
		q, ok := n.(*isla.CompiledQuantifier)
		if !ok || q.Exists || q.In != 0 {
			if !e.Eval(n) {
				f.find(n)
			}
			continue
		}
		failed := map[int32]bool{}
		var nodes []int32
		e.Instances(q, func() bool {
			x := e.Slots[q.Slot].Node
			if len(nodes) == 0 || nodes[len(nodes)-1] != x {
				nodes = append(nodes, x)
			}
			if !e.Eval(q.Body) {
				failed[x] = true
				f.within(q.Bound, q.Body)
			}
			return true
		})
		for _, x := range nodes {
			if !failed[x] {
				held[i] = append(held[i], x)
			}
		}
	}
	if len(f.open) == 0 {
		return nil, false // no violation found a node to open: nothing to solve
	}
	if open == openNothing {
		clear(f.open)
	}

	// The partial tree: the input with the chosen nodes open.
	openTrees := make(map[*grammar.Tree]bool, len(f.open))
	for x := range f.open {
		openTrees[v.Nodes[x].Tree] = true
	}
	ids := map[*grammar.Tree]int32{}
	rootID := s.ids.id()
	root := mkNode(rootID, s.rootRef, []*stree{s.ids.fromTreeOpen(t, openTrees, ids)}, "", false)
	if spec.VirtualRoot() {
		s.constID = 0
	} else {
		s.constID = rootID
	}
	var forms []item
	env := (*env)(nil).bind(0, s.constID)
	for i, n := range conjs {
		it := item{n: n, env: env}
		for _, x := range held[i] {
			if !f.containsOpen(x) {
				it.done = append(it.done, ids[v.Nodes[x].Tree])
			}
		}
		forms = append(forms, it)
	}
	s.cfg.insertion = insert
	return s.searchFrom(&state{root: root, forms: slices.Clone(forms)}, forms, budget, lim)
}

// searchFrom runs the solver from state st and returns the first solution
// it reaches. When a tree insertion makes the solver check the whole
// constraint again, the check starts from forms, whose universal
// quantifiers skip the instances that held in the input: the nodes keep
// their ids through insertions, and the final check of Repair catches an
// instance that the insertion broke. It gives up once lim is reached.
func (s *Solver) searchFrom(st *state, forms []item, budget int, lim limit) (*grammar.Tree, bool) {
	s.queue, s.seq = nil, 0
	s.push(st)
	ctx := context.Background()
	for budget := budget; budget > 0 && s.queue.Len() > 0; budget-- {
		if lim.passed() {
			return nil, false
		}
		st := heap.Pop(&s.queue).(*state)
		children, outs, err := s.process(ctx, st)
		if err != nil || s.itemErr != nil { // a parse past MaxItems stops the repair, as it stops Next
			s.itemErr = nil
			return nil, false
		}
		if len(outs) > 0 {
			return outs[0], true
		}
		for _, c := range children {
			for k, it := range c.forms {
				if it.n == s.spec.Formula() {
					c.forms = append(append(c.forms[:k:k], forms...), c.forms[k+1:]...)
					break
				}
			}
			s.push(c)
		}
	}
	return nil, false
}

// topConjuncts appends the conjuncts of a formula's top-level conjunction.
func topConjuncts(n isla.Compiled, out []isla.Compiled) []isla.Compiled {
	if b, ok := n.(*isla.CompiledBinary); ok && b.Src.Op == isla.And {
		return topConjuncts(b.Y, topConjuncts(b.X, out))
	}
	return append(out, n)
}

// failFinder collects the nodes to open for the violations of a formula.
type failFinder struct {
	e       *isla.Evaluator
	first   int32
	largest bool
	open    map[int32]bool    // view nodes to open
	ctx     [][]isla.Variable // the variables bound by the enclosing instances
}

// maxIntCandidates bounds the values of a numeric quantifier that find
// compares.
const maxIntCandidates = 16

// within finds the nodes to open for formula n inside an instance of a
// quantifier that binds the variables bound.
func (f *failFinder) within(bound []isla.Variable, n isla.Compiled) {
	f.ctx = append(f.ctx, bound)
	f.find(n)
	f.ctx = f.ctx[:len(f.ctx)-1]
}

// find records the nodes to open for formula n, which evaluates to false
// under the evaluator's current variable values: it descends as
// evaluator.explain does, but into every failing conjunct and every failing
// instance of universal quantifiers. An existential numeric quantifier
// takes the candidate value that leaves the fewest nodes to open (the
// number of columns most records of a CSV file have).
func (f *failFinder) find(n isla.Compiled) {
	e := f.e
	switch n := n.(type) {
	case *isla.CompiledBinary:
		switch n.Src.Op {
		case isla.And:
			if !e.Eval(n.X) {
				f.find(n.X)
			}
			if !e.Eval(n.Y) {
				f.find(n.Y)
			}
			return
		case isla.Implies:
			f.find(n.Y)
			return
		}
		f.pick(n.Vars)
	case *isla.CompiledQuantifier:
		if n.Exists {
			f.pick(n.Vars)
			return
		}
		e.Instances(n, func() bool {
			if !e.Eval(n.Body) {
				f.within(n.Bound, n.Body)
			}
			return true
		})
	case *isla.CompiledIntQuantifier:
		if !n.Src.Exists {
			f.pick(n.Vars)
			return
		}
		best, bestN := "", -1
		cands := e.Candidates(n)
		for _, c := range cands[:min(len(cands), maxIntCandidates)] {
			e.Slots[n.Slot].Num = c
			if e.Eval(n.Body) {
				continue
			}
			sub := &failFinder{e: e, first: f.first, largest: f.largest, open: map[int32]bool{}, ctx: f.ctx}
			sub.find(n.Body)
			if bestN < 0 || len(sub.open) < bestN {
				best, bestN = c, len(sub.open)
			}
		}
		if bestN < 0 {
			f.pick(n.Vars)
			return
		}
		e.Slots[n.Slot].Num = best
		f.find(n.Body)
	case *isla.CompiledSMT:
		f.pick(n.Vars)
	case *isla.CompiledPred:
		f.pick(n.Vars)
	case *isla.CompiledNot:
		f.pick(n.Vars)
	}
}

// pick chooses, of the nodes bound to the tree variables vars, the smallest
// (or with largest set, the largest), the latest in the input among equals,
// and records it to be opened. If vars has no tree variable (an atom on
// numbers), it chooses among the variables of the innermost enclosing
// instance that has one, for example the CSV record whose field count is
// wrong.
func (f *failFinder) pick(vars []isla.Variable) {
	for k := len(f.ctx); k >= 0; k-- {
		if best := f.choose(vars); best >= 0 {
			f.open[best] = true
			return
		}
		if k > 0 {
			vars = f.ctx[k-1]
		}
	}
}

// choose returns the node pick chooses among the tree variables vars, or
// -1.
func (f *failFinder) choose(vars []isla.Variable) int32 {
	v := f.e.View
	best := int32(-1)
	for _, x := range vars {
		if x.Kind != isla.TreeVar {
			continue
		}
		i := f.e.Slots[x.Slot].Node
		if i < f.first || int(i) >= len(v.Nodes) || v.Nodes[i].Label < 0 {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		size, bsize := v.Nodes[i].End-i, v.Nodes[best].End-best
		better := size < bsize
		if f.largest {
			better = size > bsize
		}
		if better || size == bsize && v.Nodes[i].Start > v.Nodes[best].Start {
			best = i
		}
	}
	return best
}

// containsOpen reports whether the subtree of view node x holds a node to
// open.
func (f *failFinder) containsOpen(x int32) bool {
	end := f.e.View.Nodes[x].End
	for i := range f.open {
		if i >= x && i < end {
			return true
		}
	}
	return false
}

// fromTreeOpen converts a complete grammar tree into an stree with fresh
// ids, turning the reference nodes in open into open leaves, and records
// the id of every reference node made in ids.
func (s *idSource) fromTreeOpen(t *grammar.Tree, open map[*grammar.Tree]bool, ids map[*grammar.Tree]int32) *stree {
	if t.Node.Kind == grammar.KindRef && open[t] {
		n := s.openLeaf(t.Node)
		ids[t] = n.id
		return n
	}
	id := s.id()
	if t.Node.Kind == grammar.KindRef {
		ids[t] = id
	}
	var kids []*stree
	if len(t.Children) > 0 {
		kids = make([]*stree, len(t.Children))
		for i, c := range t.Children {
			kids[i] = s.fromTreeOpen(c, open, ids)
		}
	}
	return mkNode(id, t.Node, kids, t.Value, false)
}
