package solver

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/pattern"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// Errors of the solver. ErrUnsatisfiable and ErrGaveUp are distinct
// verdicts: the first is a proof that no (further) input satisfies the
// constraint, the second says only that the solver found none within its
// limits or with its methods.
var (
	// ErrUnsatisfiable is returned when the solver has explored every
	// possibility without dropping any and found no further solution.
	ErrUnsatisfiable = errors.New("isla: the constraint is unsatisfiable")
	// ErrGaveUp is wrapped by the *GaveUpError returned when the solver
	// stops without a further solution: a budget ran out, or it dropped
	// possibilities on the way (sampled expansions, solver time-outs,
	// formulas it cannot solve).
	ErrGaveUp = errors.New("isla: the solver gave up")
	// ErrInvalidOutput is wrapped by the error returned when a solution
	// fails validation. It is a bug in the solver: every solution is
	// checked with isla.Spec.EvalTree before it is returned.
	ErrInvalidOutput = errors.New("isla: the solver produced an input that violates the constraint")
)

// Default settings of a Solver.
const (
	DefaultMaxStates = 20000
	// DefaultNonVacuous is a number of states for NonVacuous, the one
	// kfuzz isla solve uses.
	DefaultNonVacuous  = 200
	DefaultSMTTimeout  = 2 * time.Second
	DefaultModels      = 2
	DefaultExpansions  = 2
	DefaultBranches    = 4
	DefaultCSPAttempts = 12
	DefaultMaxSize     = 400
)

// Weights are the weights of the solver's cost function, the weighted
// geometric mean of six cost factors (see the package documentation of
// Solver). A zero weight switches its factor off.
type Weights struct {
	TreeClosing float64 // the estimated effort to close the tree's open leaves
	Constraint  float64 // the constraints left, existential quantifiers the most
	Depth       float64 // the number of transitions from the initial state
	KPath       float64 // the share of the grammar's k-paths the tree lacks
	GlobalKPath float64 // the share of the tree's k-paths earlier solutions had
	// Vacuity weighs the universal quantifiers whose nonterminal the tree
	// does not hold yet, so that could only hold vacuously if it never does.
	Vacuity float64
	KPathK  int // k of the k-paths
}

// DefaultWeights are the weights of ISLa's reference implementation: tree
// closing 11, constraint 3, derivation depth 5, k-path coverage 20, global
// k-path coverage 10, with k = 3. Vacuity is off (kfuzz isla solve sets
// it to 10).
var DefaultWeights = Weights{TreeClosing: 11, Constraint: 3, Depth: 5, KPath: 20, GlobalKPath: 10, KPathK: 3}

// A Option configures New.
type Option func(*config)

type config struct {
	seed       uint64
	maxStates  int
	smt        SMTSolver
	smtTimeout time.Duration
	models     int
	expansions int
	branches   int
	attempts   int
	weights    Weights
	maxSize    int
	insertion  bool
	restart    int
	stall      int
	nonVacuous int
	maxItems   int
}

// Seed seeds the solver's random choices (default 1). The same seed,
// spec and options give the same solutions in the same order.
func Seed(seed uint64) Option { return func(c *config) { c.seed = seed } }

// MaxStates bounds the states the solver processes while looking for one
// solution (default DefaultMaxStates); past it, Next returns ErrGaveUp.
func MaxStates(n int) Option { return func(c *config) { c.maxStates = n } }

// MaxItems bounds the Earley items of each parse the solver makes of a
// text it solved for (see grammar.MaxItems; default
// grammar.DefaultMaxItems). A parse that needs more stops the search: Next
// returns a GaveUpError whose Limit is LimitItems, wrapping the parser's
// error (grammar.ErrItemLimit).
func MaxItems(n int) Option { return func(c *config) { c.maxItems = n } }

// WithSMTSolver sets the SMT solver for the atoms the solver cannot solve in
// Go (package isla/solver/z3 provides Z3). Without one, such atoms make the solver
// drop the state (and eventually give up).
func WithSMTSolver(s SMTSolver) Option { return func(c *config) { c.smt = s } }

// SMTTimeout bounds each query to the SMT solver (default
// DefaultSMTTimeout).
func SMTTimeout(d time.Duration) Option { return func(c *config) { c.smtTimeout = d } }

// Models sets how many solutions of the atoms of one state the solver asks
// for, each a different input (default DefaultModels).
func Models(n int) Option { return func(c *config) { c.models = n } }

// Expansions sets how many random expansions of the open leaves that matter
// the solver makes of one state (default DefaultExpansions).
func Expansions(n int) Option { return func(c *config) { c.expansions = n } }

// Branches bounds the alternatives the solver keeps when it eliminates an
// existential quantifier, by matching or by tree insertion (default
// DefaultBranches).
func Branches(n int) Option { return func(c *config) { c.branches = n } }

// NonVacuous makes the solver prefer solutions in which every universal
// quantifier has at least one instance (isla.Spec.Matched), as ISLa's cost
// function penalizes vacuously satisfied universals: a solution valid only
// vacuously is held back while the solver processes up to n more states
// looking for others, and returned only after them (or once the search
// runs out). The default, 0, returns every solution as found. With n > 0
// the solver also inserts new nodes beside and around existing ones and
// into open leaves to eliminate existential quantifiers (insert.go), which
// non-vacuous solutions of grammars that nest by recursion need, such as
// an XML element declaring the namespace prefix used inside it.
func NonVacuous(n int) Option { return func(c *config) { c.nonVacuous = n } }

// CostWeights sets the weights of the cost function (default
// DefaultWeights).
func CostWeights(w Weights) Option { return func(c *config) { c.weights = w } }

// MaxSize bounds the size (in tree nodes) of the subtrees the solver
// generates when it expands or closes an open leaf (default
// DefaultMaxSize).
func MaxSize(n int) Option { return func(c *config) { c.maxSize = n } }

// TreeInsertion switches the elimination of existential quantifiers by tree
// insertion on or off (default on).
func TreeInsertion(on bool) Option { return func(c *config) { c.insertion = on } }

// RestartEvery makes the solver start its search over from the initial
// state after every n solutions (default 0: never), keeping the solutions
// it returned (never returned again) and its record of covered k-paths.
// One search tends to stay with the derivations it found first; restarts,
// each drawing new random choices, spread the solutions over more of the
// grammar at the price of the work to reach a first solution again. With
// restarts, a search that runs out of MaxStates also starts over, up to
// MaxRestartsPerSolution times, before Next gives up, and so does a search
// that stalls (StallFactor).
func RestartEvery(n int) Option { return func(c *config) { c.restart = n } }

// MaxRestartsPerSolution bounds the restarts, after running out of states,
// that one call of Next makes when RestartEvery is set.
const MaxRestartsPerSolution = 8

// A Solver produces inputs that satisfy a compiled constraint. It follows
// the ISLa solver (Steinhöfel and Zeller, section 4 and the appendix of
// "Input Invariants"): a priority queue of conditioned derivation trees
// (a possibly open tree with the formulas it must still satisfy), ordered by
// a cost function, to which the transition rules of the paper apply:
//
//   - formulas are kept in negation normal form, conjunctions split, and one
//     state made per disjunct; atoms whose value cannot change any more are
//     decided at once;
//   - a universal quantifier is instantiated with every node of its type
//     that matches its match expression (matching is three-valued on open
//     trees) and eliminated once no open leaf in its range can derive its
//     type;
//   - only the open leaves that can still matter to a quantifier are
//     expanded; an expansion derives such a leaf down at once, at random
//     (several expansions per state), leaving open the leaves whose text the
//     atoms constrain;
//   - an existential quantifier is eliminated by matching (one state per
//     match) or, where nothing matches (or with NonVacuous), by tree
//     insertion: a new subtree of its type, built from its
//     match expression, inserted into a repetition inside its range (and,
//     with NonVacuous, beside or around an existing node where the grammar
//     nests by recursion, or into an open leaf); after an insertion the
//     original constraint is added again and checked on the new tree;
//   - "exists int" introduces a fresh numeric constant;
//   - once no quantifier is left, the atoms (SMT-LIB formulas and semantic
//     predicates) are solved together: in Go where they are simple (a value
//     given by an equation, a length, a regular expression, a number
//     computed by a predicate, and random values checked against the rest),
//     otherwise by the SMT solver (WithSMTSolver), each variable constrained
//     to its nonterminal's language, several models per query; each value is
//     parsed back into a subtree;
//   - the leaves no formula constrains are closed with the grammar's random
//     generator.
//
// Every solution is checked with isla.Spec.EvalTree before Next returns it; a
// solution that fails is a bug, reported as an error wrapping
// ErrInvalidOutput. A Solver is not safe for concurrent use.
type Solver struct {
	spec *isla.Spec
	tc   *isla.TermCompiler // for the terms the solver compiles (pins)
	cfg  config
	rng  *rand.Rand
	gen  *grammar.Generator
	ids  idSource

	rhs     *grammar.Node // the right-hand side of the start symbol
	rootRef *grammar.Node // a reference to it, for the root of solver trees
	constID int32         // the node id of the constant

	nodeID     map[isla.Compiled]int
	freeSlots  map[isla.Compiled][]int
	slotKind   []isla.VarKind
	patterns   map[*isla.CompiledQuantifier][]*pattern.Tree
	reach      map[int32]map[int32]bool // label -> labels derivable strictly below
	keepOpen   []bool                   // per graph node id: a reference the solver leaves open
	semWrites  map[int32]bool           // labels of the nodes tree solvers write
	atoms      map[*isla.CompiledSMT]*atomInfo
	parsers    map[string]*grammar.Parser
	parsed     map[string]packedSubtree // nonterminal NUL text -> parse tree (nil: none)
	itemErr    *GaveUpError             // the first parse of the state being processed that hit MaxItems
	spareCtx   *evalCtx                 // an evaluation context whose memory is reused
	spareCtx2  *evalCtx                 // a second one, for the csp runs (cspRun.keep)
	stepCtx    *evalCtx                 // the same, for the context of the state being processed
	spareItems [2][]item                // the memory of a csp run's undecided atoms, reused
	pick       pickMem                  // the memory of the csp runs' pickVar
	simp       simplifyMemo             // simplify's reused memory
	arena      treeArena                // the memory of the trees cost reads
	dupText    []byte                   // the memory of duplicate's text
	leafTrees  grammar.TreeBuffer       // the memory of parseLeaf's trees
	closing    map[string]float64       // estimated closing cost per nonterminal
	universals []string                 // the nonterminals of the universal quantifiers

	paths      map[pathKey][]*grammar.Node
	besideWays map[besideKey][]beside // insertions beside a node (insert.go)
	lengths    map[lengthKey]*lengthTable
	regexes    map[string]regexEntry
	partitions map[string][]interval
	reMatch    smtlib.Matcher
	// regexGraphs: sampleRegex's graphs, kept (see regexGraph).
	regexGraphs map[regexGraphKey]*regexGraph
	// The view and evaluator of the last output checked (see valid).
	checkView *isla.View
	checkEval *isla.Evaluator

	queue     stateQueue
	seq       uint64
	started   bool
	pending   []*grammar.Tree
	fin       *finishing      // the state whose atoms are solved again for more solutions
	held      []*grammar.Tree // vacuous solutions held back (NonVacuous)
	heldFor   int             // states processed while a solution was held
	seen      outputSet
	reserve   reserve      // finished states whose solutions were samples
	found     int          // solutions returned since the search (re)started
	dropped   bool         // possibilities were dropped: no proof of unsatisfiability
	dropWhy   *GaveUpError // the first reason
	cur       *state       // the state being processed
	cspLimit  Limit        // why the last csp failed
	cspWhy    string
	predErr   error                    // the last error of a semantic predicate
	predSrc   *isla.Pred               // its formula
	counts    map[countKey]*countTable // count-directed derivation tables
	covered   grammar.PathSet
	pathTable *grammar.PathTable
	stall     stallDetector // restarts of stalled searches (StallFactor)

	stats Stats
}

// Stats counts what a Solver did.
type Stats struct {
	States     int // states processed
	Solutions  int // solutions returned
	Duplicates int // solutions dropped because they were returned before
	SMTQueries int // queries to the SMT solver
	GoSolved   int // atom sets solved in Go
	Insertions int // tree insertions made
	Restarts   int // searches started over (RestartEvery)
	Stalls     int // of them, stalled searches abandoned (StallFactor)
	// Batches counts the steps of a Go solve that gave several
	// independent leaves random values at once; BatchesFailed, those
	// whose values contradicted the atoms (the step went back and gave
	// one leaf a value).
	Batches, BatchesFailed int
	// Unreserved counts the states whose solutions were random samples
	// that the solver dropped, rather than keep them for more samples,
	// to bound the memory of the states it keeps (see LimitReserve).
	Unreserved int
}

// New returns a solver for the constraint of spec. It fails if the
// constraint uses a feature the solver does not handle (a match expression
// on the virtual <start>, or one with too many derivations).
func New(spec *isla.Spec, opts ...Option) (*Solver, error) {
	cfg := config{seed: 1, maxStates: DefaultMaxStates, smtTimeout: DefaultSMTTimeout,
		models: DefaultModels, expansions: DefaultExpansions, branches: DefaultBranches,
		attempts: DefaultCSPAttempts, weights: DefaultWeights, maxSize: DefaultMaxSize, insertion: true,
		stall: DefaultStallFactor}
	for _, o := range opts {
		o(&cfg)
	}
	cfg.models = max(cfg.models, 1)
	if cfg.maxItems <= 0 {
		cfg.maxItems = grammar.DefaultMaxItems
	}
	cfg.expansions = max(cfg.expansions, 1)
	cfg.branches = max(cfg.branches, 1)
	s := &Solver{spec: spec, cfg: cfg, seen: outputSet{},
		nodeID: map[isla.Compiled]int{}, freeSlots: map[isla.Compiled][]int{}, patterns: map[*isla.CompiledQuantifier][]*pattern.Tree{},
		atoms: map[*isla.CompiledSMT]*atomInfo{}, parsers: map[string]*grammar.Parser{},
		parsed: map[string]packedSubtree{}, counts: map[countKey]*countTable{}}
	s.tc = spec.NewTermCompiler()
	s.rng = rand.New(rand.NewPCG(cfg.seed, 0x69736c61))
	gr := spec.Graph()
	s.gen = grammar.NewGenerator(gr, cfg.seed^0x5eed)
	s.gen.MaxSize = max(cfg.maxSize, 4*gr.Root.MinSize)
	s.gen.Blocks = true // its trees become solver trees at once (fromTree; see step)
	start := spec.StartSymbol()
	s.rhs = gr.RHS(start)
	s.rootRef = &grammar.Node{ID: -1, Kind: grammar.KindRef, Name: start, Children: []*grammar.Node{s.rhs},
		Rule: start, Sym: -1, MinDepth: s.rhs.MinDepth + 1, MinSize: s.rhs.MinSize + 1, MinLen: s.rhs.MinLen}
	s.slotKind = make([]isla.VarKind, spec.Slots())
	if err := s.analyze(); err != nil {
		return nil, err
	}
	if cfg.weights.KPathK > 0 && (cfg.weights.KPath != 0 || cfg.weights.GlobalKPath != 0) {
		pt, err := gr.PathTable(cfg.weights.KPathK)
		if err == nil {
			s.pathTable = pt
			s.covered = pt.NewPathSet()
		}
	}
	s.closingCosts()
	return s, nil
}

// incomplete records that the solver dropped possibilities, the first
// time with the reason, the limit responsible, and the formulas of the
// state it was processing.
func (s *Solver) incomplete(l Limit, format string, args ...any) {
	if !s.dropped {
		s.dropped = true
		s.dropWhy = &GaveUpError{Reason: fmt.Sprintf(format, args...), Part: partOf(s.cur), Limit: l,
			Value: s.limitValue(l)}
	}
}

// limitValue returns the setting of a limit, as text.
func (s *Solver) limitValue(l Limit) string {
	switch l {
	case LimitStates:
		return fmt.Sprint(s.cfg.maxStates)
	case LimitSize:
		return fmt.Sprint(s.cfg.maxSize)
	case LimitBranches:
		return fmt.Sprint(s.cfg.branches)
	case LimitSMTTimeout:
		return s.cfg.smtTimeout.String()
	case LimitAttempts:
		return fmt.Sprintf("%d runs of %d values", s.cfg.attempts, choiceTries)
	case LimitItems:
		return fmt.Sprint(s.cfg.maxItems)
	case LimitReserve:
		return fmt.Sprint(reserveNodes, " tree nodes")
	}
	return ""
}

// head returns the cheapest state in the queue, nil if there is none.
func (s *Solver) head() *state {
	if len(s.queue) == 0 {
		return nil
	}
	return s.queue[0]
}

// deadline returns the error for a done context: the solver gave up on
// the formulas of the cheapest state left.
func (s *Solver) deadline(ctx context.Context) error {
	part := partOf(s.cur)
	if h := s.head(); h != nil {
		part = partOf(h)
	}
	return s.gaveUp(GaveUpError{Reason: "no solution before the deadline", Part: part, Limit: LimitTime, Err: ctx.Err()})
}

// Stats returns the solver's counts so far.
func (s *Solver) Stats() Stats { return s.stats }

// Next returns the next solution: a complete derivation tree rooted at the
// right-hand side of the spec's StartSymbol (as isla.Spec.EvalTree takes them)
// whose input satisfies the constraint and differs from every earlier
// solution. When there is none, it returns ErrUnsatisfiable, if it proved
// that, or a *GaveUpError (wrapping ErrGaveUp) that says what it could not
// satisfy and which limit stopped it; when the context is done, a
// *GaveUpError with Limit LimitTime that also wraps the context's error.
func (s *Solver) Next(ctx context.Context) (*grammar.Tree, error) {
	if !s.started {
		s.started = true
		s.push(s.initial())
	}
	if s.cfg.restart > 0 && s.found >= s.cfg.restart && len(s.pending) == 0 && s.fin == nil {
		s.restart()
	}
	budget := s.cfg.maxStates
	restarts := 0
	for {
		if len(s.pending) > 0 {
			t := s.pending[0]
			s.pending = s.pending[1:]
			s.stats.Solutions++
			s.found++
			return t, nil
		}
		if s.fin != nil {
			// The next solve of the state processed last: its solution
			// is this output's work.
			outs := s.finishMore()
			if e := s.itemErr; e != nil {
				s.itemErr = nil
				e.Part = partOf(s.cur)
				return nil, s.gaveUp(*e)
			}
			for _, t := range outs {
				if err := s.emit(t); err != nil {
					return nil, err
				}
			}
			continue
		}
		if len(s.held) > 0 && (s.heldFor >= s.cfg.nonVacuous || budget == 0 ||
			s.queue.Len() == 0 && len(s.reserve.states) == 0 || ctx.Err() != nil) {
			t := s.held[0]
			s.held = s.held[1:]
			s.heldFor = 0
			s.stats.Solutions++
			s.found++
			return t, nil
		}
		if ctx.Err() != nil {
			return nil, s.deadline(ctx)
		}
		if s.queue.Len() == 0 && len(s.reserve.states) > 0 {
			// More samples of the states finished at random.
			for _, st := range s.reserve.states {
				st.steps++
				s.push(st)
			}
			s.reserve.reset()
		}
		if s.queue.Len() == 0 {
			if s.dropped {
				return nil, s.gaveUp(*s.dropWhy)
			}
			return nil, ErrUnsatisfiable
		}
		if budget == 0 {
			if s.cfg.restart > 0 && restarts < MaxRestartsPerSolution {
				restarts++
				s.restart()
				budget = s.cfg.maxStates
				continue
			}
			reason := fmt.Sprintf("no solution within %d states", s.cfg.maxStates)
			if s.cfg.restart > 0 {
				reason += fmt.Sprintf(", %d times", restarts+1)
			}
			return nil, s.gaveUp(GaveUpError{Reason: reason, Part: partOf(s.head()), Limit: LimitStates,
				Value: s.limitValue(LimitStates)})
		}
		if s.stalled() {
			s.restartStalled()
		}
		budget--
		s.stall.since++
		if len(s.held) > 0 {
			s.heldFor++
		}
		st := heap.Pop(&s.queue).(*state)
		s.stats.States++
		s.cur = st
		children, outs, err := s.step(ctx, st)
		if err != nil {
			if ctx.Err() != nil {
				return nil, s.deadline(ctx)
			}
			return nil, err
		}
		if e := s.itemErr; e != nil {
			s.itemErr = nil
			e.Part = partOf(st)
			return nil, s.gaveUp(*e)
		}
		s.pushChildren(st, children)
		for _, t := range outs {
			if err := s.emit(t); err != nil {
				return nil, err
			}
		}
	}
}

// restart starts the search over from the initial state.
func (s *Solver) restart() {
	clear(s.queue)
	s.queue = s.queue[:0]
	s.reserve.reset()
	s.fin = nil
	s.push(s.initial())
	s.found = 0
	s.stall.since = 0
	s.stats.Restarts++
}

// Solve returns up to n solutions. It stops early, returning the solutions
// found and the error, when Next fails.
func (s *Solver) Solve(ctx context.Context, n int) ([]*grammar.Tree, error) {
	var out []*grammar.Tree
	for len(out) < n {
		t, err := s.Next(ctx)
		if err != nil {
			return out, err
		}
		out = append(out, t)
	}
	return out, nil
}

// emit validates a solution and queues it unless it was seen before.
func (s *Solver) emit(t *grammar.Tree) error {
	input := t.Bytes()
	if !s.seen.add(input) {
		s.stats.Duplicates++
		return nil
	}
	if !s.valid(t, input) {
		return fmt.Errorf("%w: %q\n%s", ErrInvalidOutput, input, s.spec.EvalTree(t))
	}
	if s.pathTable != nil {
		s.pathTable.AddPaths(s.covered, t)
		if lo, hi := s.pathTable.Range(s.pathTable.K); s.covered.CountRange(lo, hi) == hi-lo {
			s.covered = s.pathTable.NewPathSet()
		}
	}
	s.solvedNew()
	if s.cfg.nonVacuous > 0 && slices.Contains(s.spec.Matched(t), false) {
		s.held = append(s.held, t)
		return nil
	}
	s.pending = append(s.pending, t)
	return nil
}

// duplicate returns, if n derives an input returned before, a stand-in for
// its tree that emit drops as a duplicate: one leaf that derives that
// input, which costs a fraction of the tree (reST's searches make about
// one duplicate per three solutions). Only the stand-in's text is read:
// emit drops it, and anyNew finds it seen.
func (s *Solver) duplicate(n *stree) (*grammar.Tree, bool) {
	s.dupText = n.appendText(s.dupText[:0])
	if !s.seen.has(s.dupText) {
		return nil, false
	}
	return &grammar.Tree{Node: n.g, Value: string(s.dupText)}, true
}

// siblingPenalty raises the cost of a state for each earlier successor of
// the same state with the same cost (see pushChildren).
const siblingPenalty = 0.2

// pushChildren queues the successors of state st. Where st eliminated an
// existential quantifier, a successor whose cost equals that of an earlier
// one costs siblingPenalty more per such sibling: they are mostly matches
// of the quantifier that leave trees of the same shape, and as the cost
// grows a little with each step, a search would otherwise take every
// combination of them, level by level, before completing one (on
// Scriptsize-C's def-use constraint, with a quantifier per variable use, a
// search stalled on them now and then). With the penalty, the search
// completes the first one before it tries the others.
func (s *Solver) pushChildren(st *state, children []*state) {
	var buf [8]float64
	costs := buf[:0]
	for _, c := range children {
		cost := s.cost(c)
		if len(c.resolved) > len(st.resolved) {
			same := 0
			for _, b := range costs {
				if b == cost {
					same++
				}
			}
			costs = append(costs, cost)
			cost += float64(same) * siblingPenalty
		}
		s.pushAt(c, cost)
	}
}

func (s *Solver) push(st *state) { s.pushAt(st, s.cost(st)) }

// pushAt queues a state with the given cost.
func (s *Solver) pushAt(st *state, cost float64) {
	s.seq++
	st.seq = s.seq
	st.cost = cost
	heap.Push(&s.queue, st)
}

// state is a conditioned derivation tree.
type state struct {
	root     *stree
	forms    []item
	ints     []string   // values of the numeric constants; "" while unknown
	resolved []resolved // existential quantifiers eliminated by matching
	steps    int
	holed    bool // holeInsertions made its states
	cost     float64
	seq      uint64
}

// resolved records the witness an existential quantifier was eliminated
// with, so that after a tree insertion the same instance is eliminated the
// same way if the witness still matches.
type resolved struct {
	key   string
	binds []int32 // the witness and the match expression's binders
}

func (st *state) clone() *state {
	c := *st
	c.forms = append([]item(nil), st.forms...)
	return &c
}

func (s *Solver) initial() *state {
	root := s.ids.openLeaf(s.rootRef)
	if s.spec.VirtualRoot() {
		s.constID = 0
	} else {
		s.constID = root.id
	}
	st := &state{root: root}
	st.forms = []item{{n: s.spec.Formula(), env: (*env)(nil).bind(0, s.constID)}}
	return st
}

// stateQueue is a priority queue of states, cheapest first, then oldest.
type stateQueue []*state

func (q stateQueue) Len() int { return len(q) }
func (q stateQueue) Less(i, j int) bool {
	if q[i].cost != q[j].cost {
		return q[i].cost < q[j].cost
	}
	return q[i].seq < q[j].seq
}
func (q stateQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *stateQueue) Push(x any)   { *q = append(*q, x.(*state)) }
func (q *stateQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}
