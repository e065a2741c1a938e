package learn

import (
	"container/heap"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// ErrUnsatisfiable is returned (wrapped) when targeted generation finds no
// input satisfying a rule within its budget or depth bound.
var ErrUnsatisfiable = errors.New("learn: no input satisfies the rule within the search budget")

// Defaults of GenerateOptions. DefaultTargetRepeat is the random
// generator's bound (grammar.DefaultMaxRepeat), so that the parts of a
// targeted input that its rule leaves open vary as in random inputs: with
// fewer repetitions, strings and numbers stay too short to reach the code
// that only longer ones do (kfuzz eval learn measured it on go-json).
const (
	DefaultTargetStates = 1000
	DefaultTargetDepth  = 16
	DefaultTargetSize   = 1000
	DefaultTargetRepeat = grammar.DefaultMaxRepeat
)

// GenerateOptions bound targeted generation. The zero value asks for the
// defaults and no time limit.
type GenerateOptions struct {
	// Seed seeds the random choices; the same seed gives the same trees.
	Seed uint64
	// MaxStates bounds, per search, how many partial trees the outer search
	// evaluates with the inner search (default DefaultTargetStates). It makes
	// the budget deterministic.
	MaxStates int
	// Timeout, if positive, bounds the wall-clock time of the whole call.
	// Results within the time are still deterministic, but how many are
	// found depends on the machine; use MaxStates where that matters.
	Timeout time.Duration
	// MaxDepth bounds the derivation depth (nested nonterminal expansions)
	// of the trees (default DefaultTargetDepth).
	MaxDepth int
	// MaxSize bounds the number of tree nodes (default DefaultTargetSize).
	MaxSize int
	// MaxRepeat is how many repetitions beyond its minimum a quantifier may
	// take (default DefaultTargetRepeat).
	MaxRepeat int
}

// withDefaults returns the options with defaults for the zero fields; o may
// be nil.
func (o *GenerateOptions) withDefaults() GenerateOptions {
	var c GenerateOptions
	if o != nil {
		c = *o
	}
	if c.MaxStates <= 0 {
		c.MaxStates = DefaultTargetStates
	}
	if c.MaxDepth <= 0 {
		c.MaxDepth = DefaultTargetDepth
	}
	if c.MaxSize <= 0 {
		c.MaxSize = DefaultTargetSize
	}
	if c.MaxRepeat <= 0 {
		c.MaxRepeat = DefaultTargetRepeat
	}
	return c
}

// Generate returns up to n different complete trees of pt's graph that
// satisfy rule r: each contains every required path and no forbidden path,
// as pt.Paths of the tree shows. Each tree comes from one run of CODEINE's
// search (Algorithm 3) with its own random stream derived from the seed:
// a best-first outer search over partial trees, ordered by how many clauses
// of the rule a greedy completion of each (the inner search) leaves
// unsatisfied. Runs stop when n trees are found, after 4n runs, when the
// time is up, or when a run proves that no tree within the depth and size
// bounds satisfies the rule.
//
// Clauses on root and count features (a model learned with RootFeatures or
// CountFeatures) are not derived toward as required paths are: they are
// checked on every candidate tree, a forbidden one pruning the candidate and
// a missing required one counting in its priority, so the search finds
// trees satisfying them only by exploring. When it finds none, the error
// says so as for any unsatisfied rule.
//
// If no tree is found the error wraps ErrUnsatisfiable. Fewer than n trees
// (but at least one) are returned without an error.
func Generate(pt *grammar.PathTable, r *Rule, n int, opts *GenerateOptions) ([]*grammar.Tree, error) {
	if r == nil {
		return nil, fmt.Errorf("learn: no rule")
	}
	o := opts.withDefaults()
	var deadline time.Time
	if o.Timeout > 0 {
		deadline = time.Now().Add(o.Timeout)
	}
	g := &generation{pt: pt, opts: o, deadline: deadline, seen: map[string]bool{}}
	if err := g.run([]*Rule{r}, n); err != nil {
		return nil, err
	}
	return g.trees, nil
}

// Generate returns up to n different trees aimed at the named function:
// trees that satisfy its rules (see the package function Generate). The
// searches go to the rules in turn, best first, each rule getting a share
// proportional to the covering training inputs at its leaf. It fails with an
// error wrapping ErrUnknownFunc if the function was not learned, and
// wrapping ErrUnsatisfiable if it has no rules or none could be satisfied.
func (m *Model) Generate(name string, n int, opts *GenerateOptions) ([]*grammar.Tree, error) {
	fn := m.byName[name]
	if fn == nil {
		return nil, m.unknown(name)
	}
	if len(fn.Rules) == 0 {
		return nil, fmt.Errorf("%w: %s has no covering rule", ErrUnsatisfiable, name)
	}
	o := opts.withDefaults()
	var deadline time.Time
	if o.Timeout > 0 {
		deadline = time.Now().Add(o.Timeout)
	}
	g := &generation{pt: m.Table, opts: o, deadline: deadline, seen: map[string]bool{}}
	if err := g.run(fn.Rules, n); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return g.trees, nil
}

// generation collects distinct trees over several searches.
type generation struct {
	pt       *grammar.PathTable
	opts     GenerateOptions
	deadline time.Time
	seen     map[string]bool
	trees    []*grammar.Tree
}

// run searches the rules in turn until n distinct trees are found.
func (g *generation) run(rules []*Rule, n int) error {
	if n <= 0 {
		return nil
	}
	for _, r := range rules {
		if err := g.checkRule(r); err != nil {
			return err
		}
	}
	// Smooth weighted round robin: each rule gets attempts in proportion to
	// the covering training inputs at its leaf, the best rules first.
	dead := make([]bool, len(rules))
	credit := make([]int, len(rules))
	live := len(rules)
	var last error
	for attempt := 0; attempt < 4*n && len(g.trees) < n && live > 0; attempt++ {
		i, total := -1, 0
		for k, r := range rules {
			if dead[k] {
				continue
			}
			credit[k] += max(r.Pos, 1)
			total += max(r.Pos, 1)
			if i < 0 || credit[k] > credit[i] {
				i = k
			}
		}
		credit[i] -= total
		s := newSearcher(g.pt, rules[i], g.opts, uint64(attempt), g.deadline)
		t, err := s.search()
		if err != nil {
			last = err
			if s.exhausted {
				dead[i] = true
				live--
			}
			if s.timedOut {
				break
			}
			continue
		}
		if key := t.String(); !g.seen[key] {
			g.seen[key] = true
			g.trees = append(g.trees, t)
		}
	}
	if len(g.trees) == 0 {
		if last == nil {
			last = ErrUnsatisfiable
		}
		return last
	}
	return nil
}

// checkRule reports an error if the rule names paths outside the table.
func (g *generation) checkRule(r *Rule) error {
	for _, id := range slices.Concat(r.Required, r.Forbidden) {
		if id < 0 || id >= g.pt.Len()+len(r.extra) {
			return fmt.Errorf("learn: rule path %d is not in the table of %d paths", id, g.pt.Len())
		}
	}
	return nil
}

// A searcher runs one outer search for one rule.
type searcher struct {
	pt   *grammar.PathTable
	gr   *grammar.Graph
	rule *Rule
	opts GenerateOptions
	rng  *rand.Rand

	required   []requiredPath            // longest first
	forbidden  map[int32][]grammar.KPath // by last symbol
	synth      map[[2]int]int            // synthDist memo
	classes    map[int][]grammar.Range   // class node ID -> members
	deadline   time.Time
	states     int
	exhausted  bool // the whole space within the bounds was searched
	timedOut   bool
	lookBudget int
}

// newSearcher prepares a search for rule r with the random stream number
// stream of the options' seed.
func newSearcher(pt *grammar.PathTable, r *Rule, o GenerateOptions, stream uint64, deadline time.Time) *searcher {
	s := &searcher{
		pt: pt, gr: pt.Graph, rule: r, opts: o,
		rng:       rand.New(rand.NewPCG(o.Seed, 0x7461726765740000^stream)),
		forbidden: map[int32][]grammar.KPath{},
		synth:     map[[2]int]int{},
		classes:   map[int][]grammar.Range{},
		deadline:  deadline,
	}
	// Root and count clauses are not derived toward: the search checks
	// them on every candidate (a forbidden one prunes, since paths from
	// the root and counts never go away as a tree grows) and counts the
	// required ones it lacks in its priority.
	for _, id := range r.Required {
		if id < pt.Len() {
			s.required = append(s.required, requiredPath{id, pt.Path(id)})
		}
	}
	slices.SortStableFunc(s.required, func(a, b requiredPath) int { return len(b.p) - len(a.p) })
	for _, id := range r.Forbidden {
		if id >= pt.Len() {
			continue
		}
		p := pt.Path(id)
		last := p[len(p)-1]
		s.forbidden[last] = append(s.forbidden[last], p)
	}
	return s
}

// requiredPath is a required path with its ID.
type requiredPath struct {
	id int
	p  grammar.KPath
}

// slotInfo is an open slot with its context: the symbols of the symbolic
// nodes above it (the nearest last, at most K-1 of them) and the number of
// references above it.
type slotInfo struct {
	t     *grammar.Tree
	ctx   []int32
	depth int
}

// openSlots returns the open slots of t in pre-order with their contexts.
func (s *searcher) openSlots(t *grammar.Tree) []slotInfo {
	var out []slotInfo
	var walk func(u *grammar.Tree, ctx []int32, depth int)
	walk = func(u *grammar.Tree, ctx []int32, depth int) {
		if u.Open {
			out = append(out, slotInfo{u, slices.Clone(ctx), depth})
			return
		}
		ctx, depth = s.below(u.Node, ctx, depth)
		for _, c := range u.Children {
			walk(c, ctx, depth)
		}
	}
	walk(t, nil, 0)
	return out
}

// below returns the context and depth of the children of a node of graph
// node n with the given context and depth.
func (s *searcher) below(n *grammar.Node, ctx []int32, depth int) ([]int32, int) {
	if !n.Symbolic() {
		return ctx, depth
	}
	if n.Kind == grammar.KindRef {
		depth++
	}
	keep := s.pt.K - 1
	if keep <= 0 {
		return nil, depth
	}
	if len(ctx) >= keep {
		ctx = ctx[len(ctx)-keep+1:]
	}
	next := make([]int32, 0, keep)
	return append(append(next, ctx...), int32(n.Sym)), depth
}

// violates reports whether placing a node of symbol sym below the context
// completes a forbidden path.
func (s *searcher) violates(ctx []int32, sym int32) bool {
	for _, q := range s.forbidden[sym] {
		pre := q[:len(q)-1]
		if len(pre) <= len(ctx) && slices.Equal(ctx[len(ctx)-len(pre):], pre) {
			return true
		}
	}
	return false
}

// commitViolates reports whether deriving graph node n below the context
// necessarily completes a forbidden path: n itself does, or every way to
// derive it does. It looks a bounded number of nodes ahead and answers
// false when the bound is reached.
func (s *searcher) commitViolates(ctx []int32, n *grammar.Node) bool {
	if len(s.forbidden) == 0 {
		return false
	}
	s.lookBudget = 256
	return s.lookahead(ctx, n)
}

// lookahead is commitViolates without resetting the budget.
func (s *searcher) lookahead(ctx []int32, n *grammar.Node) bool {
	if s.lookBudget--; s.lookBudget < 0 {
		return false
	}
	if n.Symbolic() && s.violates(ctx, int32(n.Sym)) {
		return true
	}
	switch n.Kind {
	case grammar.KindRef:
		c, _ := s.below(n, ctx, 0)
		return s.lookahead(c, n.Children[0])
	case grammar.KindSeq:
		for _, c := range n.Children {
			if s.lookahead(ctx, c) {
				return true
			}
		}
	case grammar.KindRepeat:
		return n.Min > 0 && s.lookahead(ctx, n.Children[0])
	case grammar.KindAlt:
		for _, c := range n.Children {
			if !s.lookahead(ctx, c) {
				return false
			}
		}
		return true
	}
	return false
}

// synthDist returns the number of edges from n to a node of symbol sym
// through synthetic nodes only (0 if n is one), or -1.
func (s *searcher) synthDist(n *grammar.Node, sym int32) int {
	if n.Symbolic() {
		if n.Sym == int(sym) {
			return 0
		}
		return -1
	}
	key := [2]int{n.ID, int(sym)}
	if d, ok := s.synth[key]; ok {
		return d
	}
	best := -1
	for _, c := range n.Children {
		if d := s.synthDist(c, sym); d >= 0 && (best < 0 || d+1 < best) {
			best = d + 1
		}
	}
	s.synth[key] = best
	return best
}

// fill derives one level of the open slot u: for an alternation the
// alternative with index choice, for a quantifier choice repetitions. New
// children are open.
func (s *searcher) fill(u *grammar.Tree, choice int) {
	n := u.Node
	u.Open = false
	switch n.Kind {
	case grammar.KindLit:
		u.Value = n.Lit
	case grammar.KindClass:
		u.Value = s.classChar(n)
	case grammar.KindRef, grammar.KindSeq:
		u.Children = make([]*grammar.Tree, len(n.Children))
		for i, c := range n.Children {
			u.Children[i] = grammar.NewOpen(c)
		}
	case grammar.KindAlt:
		u.Children = []*grammar.Tree{grammar.NewOpen(n.Children[choice])}
	case grammar.KindRepeat:
		u.Children = nil
		if choice > 0 {
			u.Children = make([]*grammar.Tree, choice)
			for i := range u.Children {
				u.Children[i] = grammar.NewOpen(n.Children[0])
			}
		}
	}
}

// classChar picks a member of a class: a printable ASCII one with
// probability 1/2 if there is one, otherwise any.
func (s *searcher) classChar(n *grammar.Node) string {
	set, ok := s.classes[n.ID]
	if !ok {
		set = n.Class.Set()
		s.classes[n.ID] = set
	}
	pick := func(lo, hi rune) (rune, bool) {
		total := 0
		for _, r := range set {
			if a, b := max(r.Lo, lo), min(r.Hi, hi); a <= b {
				total += int(b-a) + 1
			}
		}
		if total == 0 {
			return 0, false
		}
		i := s.rng.IntN(total)
		for _, r := range set {
			a, b := max(r.Lo, lo), min(r.Hi, hi)
			if a > b {
				continue
			}
			if w := int(b-a) + 1; i >= w {
				i -= w
				continue
			}
			return a + rune(i), true
		}
		return 0, false
	}
	r, ok := rune(0), false
	if !n.Class.Bytes && s.rng.IntN(2) == 0 {
		r, ok = pick(' ', '~')
	}
	if !ok {
		r, _ = pick(0, utf8.MaxRune)
	}
	if n.Class.Bytes {
		return string([]byte{byte(r)})
	}
	return string(r)
}

// forced reports whether an open slot of graph node n has exactly one way
// to be filled.
func forced(n *grammar.Node) bool {
	switch n.Kind {
	case grammar.KindAlt:
		return false
	case grammar.KindRepeat:
		return n.Min == n.Max
	}
	return true
}

// forceExpand fills, in place, every open slot of t that has exactly one
// filling (a class takes a random character), until only choices are open.
func (s *searcher) forceExpand(t *grammar.Tree) {
	var walk func(u *grammar.Tree)
	walk = func(u *grammar.Tree) {
		if u.Open && forced(u.Node) {
			s.fill(u, u.Node.Min)
		}
		for _, c := range u.Children {
			walk(c)
		}
	}
	walk(t)
}

// fits reports whether a subtree of graph node n below depth references
// can be completed within MaxDepth.
func (s *searcher) fits(n *grammar.Node, depth int) bool {
	return depth+n.MinDepth <= s.opts.MaxDepth
}

// inner is the greedy inner search: it completes a copy of the partial tree
// t1, first deriving toward the required paths the tree lacks, then closing
// every open slot with short derivations that avoid completing a forbidden
// path wherever some choice does.
func (s *searcher) inner(t1 *grammar.Tree) *grammar.Tree {
	t := t1.Clone()
	for range len(s.required) {
		if !s.deriveRequired(t) {
			break
		}
	}
	s.close(t)
	return t
}

// deriveRequired derives toward one required path t lacks, from the open
// slot where the least is left to derive. It reports whether it derived
// anything.
func (s *searcher) deriveRequired(t *grammar.Tree) bool {
	present := s.pt.Paths(t)
	slots := s.openSlots(t)
	type cand struct {
		p       grammar.KPath
		slot    slotInfo
		overlap int
		dist    int
	}
	var best *cand
	for _, rp := range s.required {
		p := rp.p
		if present.Has(rp.id) {
			continue
		}
		for _, sl := range slots {
			for j := min(len(p)-1, len(sl.ctx)); j >= 0; j-- {
				if !slices.Equal(sl.ctx[len(sl.ctx)-j:], p[:j]) {
					continue
				}
				var d int
				if j == 0 {
					d = s.gr.Distance(sl.t.Node, int(p[0]))
				} else {
					d = s.synthDist(sl.t.Node, p[j])
				}
				if d < 0 {
					continue
				}
				if best == nil || j > best.overlap || (j == best.overlap && d < best.dist) {
					best = &cand{p, sl, j, d}
				}
				break
			}
		}
	}
	if best == nil {
		return false
	}
	s.derive(best.slot, best.p, best.overlap)
	return true
}

// derive derives path p from the open slot sl, whose context already ends
// with p[:from]. It gives up where the derivation would pass MaxDepth.
func (s *searcher) derive(sl slotInfo, p grammar.KPath, from int) {
	cur, ctx, depth := sl.t, sl.ctx, sl.depth
	i := from
	for depth <= s.opts.MaxDepth {
		n := cur.Node
		if n.Symbolic() && n.Sym == int(p[i]) {
			i++
			if i == len(p) || n.Kind != grammar.KindRef {
				return
			}
			s.fill(cur, 0)
			ctx, depth = s.below(n, ctx, depth)
			cur = cur.Children[0]
			continue
		}
		dist := func(c *grammar.Node) int {
			if i == 0 {
				return s.gr.Distance(c, int(p[0]))
			}
			return s.synthDist(c, p[i])
		}
		switch n.Kind {
		case grammar.KindRef:
			s.fill(cur, 0)
			ctx, depth = s.below(n, ctx, depth)
			cur = cur.Children[0]
		case grammar.KindSeq:
			s.fill(cur, 0)
			k := -1
			for ci, c := range n.Children {
				if d := dist(c); d >= 0 && (k < 0 || d < dist(n.Children[k])) {
					k = ci
				}
			}
			if k < 0 {
				return
			}
			cur = cur.Children[k]
		case grammar.KindAlt:
			k := s.chooseToward(n, ctx, depth, i == 0, dist)
			if k < 0 {
				return
			}
			s.fill(cur, k)
			cur = cur.Children[0]
		case grammar.KindRepeat:
			if n.Max == 0 {
				return
			}
			count := max(n.Min, 1)
			s.fill(cur, count)
			cur = cur.Children[s.rng.IntN(count)]
		default:
			return
		}
	}
}

// chooseToward picks the alternative of n that leads to the target: among
// those with a route (dist >= 0), the ones that do not necessarily complete
// a forbidden path if there are any, then the closest, ties broken at
// random. It returns -1 if none leads there. With detour set, for variety,
// it takes a third of the time any alternative with a route that fits in
// the upper half of the depth bound instead of the closest.
func (s *searcher) chooseToward(n *grammar.Node, ctx []int32, depth int, detour bool, dist func(*grammar.Node) int) int {
	best, bestBad, bestD, ties := -1, true, 0, 0
	var others []int
	for k, c := range n.Children {
		d := dist(c)
		if d < 0 {
			continue
		}
		bad := s.commitViolates(ctx, c)
		if !bad && 2*(depth+d) <= s.opts.MaxDepth {
			others = append(others, k)
		}
		switch {
		case best < 0 || (bestBad && !bad) || (bad == bestBad && d < bestD):
			best, bestBad, bestD, ties = k, bad, d, 1
		case bad == bestBad && d == bestD:
			ties++
			if s.rng.IntN(ties) == 0 {
				best = k
			}
		}
	}
	if detour && !bestBad && len(others) > 1 && s.rng.IntN(3) == 0 {
		return others[s.rng.IntN(len(others))]
	}
	return best
}

// close fills every open slot of t, in place. Alternations choose at random
// among the alternatives that fit the depth bound and do not necessarily
// complete a forbidden path, favouring small ones (weight 1/MinSize²);
// quantifiers take their minimum half the time and otherwise up to
// MaxRepeat more.
func (s *searcher) close(t *grammar.Tree) {
	stack := s.openSlots(t)
	slices.Reverse(stack)
	for len(stack) > 0 {
		sl := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		u, n := sl.t, sl.t.Node
		choice := 0
		switch n.Kind {
		case grammar.KindAlt:
			choice = s.chooseClose(n, sl.ctx, sl.depth)
		case grammar.KindRepeat:
			choice = n.Min
			c := n.Children[0]
			if n.Max != n.Min && s.fits(c, sl.depth) && !s.commitViolates(sl.ctx, c) && s.rng.IntN(2) == 0 {
				hi := n.Min + s.opts.MaxRepeat
				if n.Max != grammar.Unbounded {
					hi = min(hi, n.Max)
				}
				choice = n.Min + s.rng.IntN(hi-n.Min+1)
			}
		}
		s.fill(u, choice)
		ctx, depth := s.below(n, sl.ctx, sl.depth)
		for i := len(u.Children) - 1; i >= 0; i-- {
			stack = append(stack, slotInfo{u.Children[i], ctx, depth})
		}
	}
}

// chooseClose picks the alternative of n to close a slot with.
func (s *searcher) chooseClose(n *grammar.Node, ctx []int32, depth int) int {
	var good, fitting []int
	least := 0
	for k, c := range n.Children {
		if c.MinDepth < n.Children[least].MinDepth {
			least = k
		}
		if !s.fits(c, depth) {
			continue
		}
		fitting = append(fitting, k)
		if !s.commitViolates(ctx, c) {
			good = append(good, k)
		}
	}
	cands := good
	if len(cands) == 0 {
		cands = fitting
	}
	if len(cands) == 0 {
		return least
	}
	total := 0.0
	for _, k := range cands {
		z := float64(n.Children[k].MinSize)
		total += 1 / (z * z)
	}
	x := s.rng.Float64() * total
	for _, k := range cands {
		z := float64(n.Children[k].MinSize)
		if x -= 1 / (z * z); x < 0 {
			return k
		}
	}
	return cands[len(cands)-1]
}

// searchItem is a partial tree in the outer search's queue.
type searchItem struct {
	t    *grammar.Tree
	prio int // clauses the inner search's completion left unsatisfied
	size int
	seq  int
}

// searchQueue orders partial trees by fewest unsatisfied clauses, then
// fewest nodes, then first queued; it implements heap.Interface.
type searchQueue []*searchItem

func (q searchQueue) Len() int { return len(q) }
func (q searchQueue) Less(i, j int) bool {
	a, b := q[i], q[j]
	if a.prio != b.prio {
		return a.prio < b.prio
	}
	if a.size != b.size {
		return a.size < b.size
	}
	return a.seq < b.seq
}
func (q searchQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *searchQueue) Push(x any)   { *q = append(*q, x.(*searchItem)) }
func (q *searchQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// search runs the outer search (CODEINE's Algorithm 3, with the last line
// pushing the filled tree t1): it takes the most promising partial tree from
// the queue, and for each way to fill its first open slot builds the filled
// tree t1, completes it greedily into t2, returns t2 if it satisfies the
// rule and otherwise queues t1 by the number of clauses t2 left unsatisfied.
// Slots with a single filling are filled at once. Partial trees that already
// contain a forbidden path, or cannot be completed within the bounds, are
// dropped.
func (s *searcher) search() (*grammar.Tree, error) {
	var q searchQueue
	seq := 0
	// consider evaluates a filled tree t1: it returns a solution, or queues
	// t1. It reports false when the state budget is spent.
	consider := func(t1 *grammar.Tree) (*grammar.Tree, bool) {
		if !s.admissible(t1) {
			return nil, true
		}
		if s.states >= s.opts.MaxStates {
			return nil, false
		}
		s.states++
		t2 := s.inner(t1)
		unsat := s.rule.unsatisfied(s.features(t2))
		if unsat == 0 {
			return t2, true
		}
		if !t1.Complete() {
			seq++
			heap.Push(&q, &searchItem{t: t1, prio: unsat, size: t1.Size(), seq: seq})
		}
		return nil, true
	}
	root := grammar.NewOpen(s.gr.Root)
	s.forceExpand(root)
	if t2, _ := consider(root); t2 != nil {
		return t2, nil
	}
	for q.Len() > 0 {
		if !s.deadline.IsZero() && time.Now().After(s.deadline) {
			s.timedOut = true
			return nil, fmt.Errorf("%w (time is up after %d states)", ErrUnsatisfiable, s.states)
		}
		n := heap.Pop(&q).(*searchItem).t
		slots := s.openSlots(n)
		for _, choice := range s.choices(slots[0]) {
			t1 := n.Clone()
			s.fill(firstOpen(t1), choice)
			s.forceExpand(t1)
			t2, more := consider(t1)
			if t2 != nil {
				return t2, nil
			}
			if !more {
				return nil, fmt.Errorf("%w (%d states searched)", ErrUnsatisfiable, s.states)
			}
		}
	}
	s.exhausted = true
	return nil, fmt.Errorf("%w (no tree within depth %d and size %d; %d states searched)", ErrUnsatisfiable, s.opts.MaxDepth, s.opts.MaxSize, s.states)
}

// choices lists the fillings of an open choice slot that fit the bounds.
func (s *searcher) choices(sl slotInfo) []int {
	n := sl.t.Node
	var out []int
	switch n.Kind {
	case grammar.KindAlt:
		for k, c := range n.Children {
			if s.fits(c, sl.depth) {
				out = append(out, k)
			}
		}
	case grammar.KindRepeat:
		hi := n.Min + s.opts.MaxRepeat
		if n.Max != grammar.Unbounded {
			hi = min(hi, n.Max)
		}
		if n.Min > 0 || s.fits(n.Children[0], sl.depth) {
			for c := n.Min; c <= hi; c++ {
				out = append(out, c)
			}
		} else {
			out = append(out, 0)
		}
	default:
		out = append(out, 0)
	}
	return out
}

// admissible reports whether a partial tree may still lead to a solution
// within the bounds: it contains no forbidden path (paths never disappear
// as a tree grows) and its smallest completion fits MaxSize and MaxDepth.
func (s *searcher) admissible(t *grammar.Tree) bool {
	ps := s.features(t)
	for _, id := range s.rule.Forbidden {
		if ps.Has(id) {
			return false
		}
	}
	size := 0
	ok := true
	for _, sl := range s.openSlots(t) {
		size += sl.t.Node.MinSize - 1
		if !s.fits(sl.t.Node, sl.depth) {
			ok = false
		}
	}
	return ok && t.Size()+size <= s.opts.MaxSize
}

// features returns the paths of t extended by the rule's root and count
// features.
func (s *searcher) features(t *grammar.Tree) grammar.PathSet {
	ps := s.pt.Paths(t)
	if len(s.rule.extra) == 0 {
		return ps
	}
	ext, _ := extendSet(s.pt, s.rule.extra, ps, NewShape(t))
	return ext
}

// firstOpen returns the first open slot of t in pre-order.
func firstOpen(t *grammar.Tree) *grammar.Tree {
	if t.Open {
		return t
	}
	for _, c := range t.Children {
		if u := firstOpen(c); u != nil {
			return u
		}
	}
	return nil
}
