package solver

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
)

// Limits of the fast repair.
const (
	// fastPasses bounds the passes of the fast repair: a pass fixes every
	// violation it finds, and a fix can break an instance that held (a
	// declaration inserted before a later one of the same name), which
	// the next pass fixes.
	fastPasses = 4
	// fastMaxDelta bounds how many repetitions the fast repair adds or
	// removes to adjust a count.
	fastMaxDelta = 16
	// fastFreshTries bounds the random trees the fast repair derives for
	// a fresh name.
	fastFreshTries = 16
	// fastSamples is how many random texts of a nonterminal in a regular
	// expression (str.in_re) the fast repair makes and reuses across
	// repairs: sampling costs more than the rest of a repair.
	fastSamples = 8
	// fastMaxSize bounds the trees the fast repair derives.
	fastMaxSize = 32
)

// A fastPlan is a constraint compiled into local repair steps: what the
// fast repair knows of the formula, computed once per Repairer. The fast
// repair handles these shapes of violation, each with a step that needs no
// search:
//
//   - an existential quantifier whose body equates one of its variables
//     with a variable bound outside it (def-use: forall use, exists decl
//     with def = use): the outer node is renamed to a witness whose other
//     conditions hold; if there is none, the quantifier's match expression
//     with the outer node's text is parsed and inserted as a new
//     repetition before the outer node, in the nearest enclosing
//     repetition that can hold it (a declaration inserted before the use);
//   - an equality of two tree variables (the tags of an XML element): the
//     later node becomes a copy of the earlier;
//   - a negated equality of two tree variables (no-redef): the later node
//     gets a fresh text;
//   - a universal quantifier whose body counts (the count predicate) in
//     its own node: repetitions of that node are added or removed until
//     the body holds, or the node becomes a copy of another instance for
//     which it holds;
//   - a semantic predicate that solves itself (isla.TreeSolver, such as
//     the TAR checksum): its fixes are parsed into their nodes;
//   - str.in_re of a tree variable and a constant expression: the node
//     gets a random string of the expression of the same length.
//
// Other violations are left to the general solver, which starts from the
// fast repair's result.
type fastPlan struct {
	conjs  []isla.Compiled
	eqs    map[*isla.CompiledQuantifier][]fastEq // existential quantifier -> its equalities
	neqs   map[*isla.CompiledQuantifier]fastEq   // universal quantifier -> the equality its body negates
	rest   map[*isla.CompiledQuantifier][]isla.Compiled
	counts map[*isla.CompiledQuantifier]map[string]bool // universal quantifier -> labels counted in its node
	pairs  map[*isla.CompiledSMT][2]isla.Variable       // equality of two tree variables
	res    map[*isla.CompiledSMT]fastRegex              // str.in_re of a tree variable

	samples  map[fastSampleKey]*fastPool // texts of regular expressions
	parsers  map[string]*grammar.Parser
	parsed   map[fastParseKey]*grammar.Tree // right-hand side trees (nil: no parse)
	insTexts map[fastInsKey]fastInsText     // matchText's results
}

// fastParseKey names a text derived from a nonterminal, or the match
// text of a quantifier for the text of its outer node.
type fastParseKey struct{ name, text string }

// fastInsKey names a result of matchText: the text of match expression m
// with text for the binder of slot.
type fastInsKey struct {
	m    *isla.CompiledMatch
	slot int
	text string
}

// fastInsText is a result of matchText.
type fastInsText struct {
	text string
	ok   bool
}

// fastEq is an equality def = use in an existential quantifier's body: def
// bound by the quantifier, use outside it.
type fastEq struct{ in, out isla.Variable }

// fastRegex is a str.in_re atom of a tree variable.
type fastRegex struct {
	v  isla.Variable
	re *smtlib.Regex
}

// fastSampleKey names the random texts of a nonterminal in a regular
// expression, of a length in bytes.
type fastSampleKey struct {
	name string
	re   *smtlib.Regex
	n    int
}

// newFastPlan analyzes the formula of spec.
func newFastPlan(spec *isla.Spec) *fastPlan {
	p := &fastPlan{
		conjs:    topConjuncts(spec.Formula(), nil),
		eqs:      map[*isla.CompiledQuantifier][]fastEq{},
		neqs:     map[*isla.CompiledQuantifier]fastEq{},
		rest:     map[*isla.CompiledQuantifier][]isla.Compiled{},
		counts:   map[*isla.CompiledQuantifier]map[string]bool{},
		pairs:    map[*isla.CompiledSMT][2]isla.Variable{},
		res:      map[*isla.CompiledSMT]fastRegex{},
		samples:  map[fastSampleKey]*fastPool{},
		parsers:  map[string]*grammar.Parser{},
		parsed:   map[fastParseKey]*grammar.Tree{},
		insTexts: map[fastInsKey]fastInsText{},
	}
	tc := spec.NewTermCompiler()
	for _, c := range p.conjs {
		walkFormula(c, func(n isla.Compiled) {
			switch n := n.(type) {
			case *isla.CompiledQuantifier:
				if n.Exists {
					p.analyzeExists(n)
				} else if eq, ok := p.negatedEq(n); ok {
					p.neqs[n] = eq
				} else if n.Match == nil && selfContained(n) {
					if labels := countedLabels(n.Body, n.Slot); len(labels) > 0 {
						p.counts[n] = labels
					}
				}
			case *isla.CompiledSMT:
				p.analyzeSMT(tc, n)
			}
		})
	}
	return p
}

// walkFormula calls visit on every node of the formula n, children before
// their parent (a quantifier after its body).
func walkFormula(n isla.Compiled, visit func(isla.Compiled)) {
	switch m := n.(type) {
	case *isla.CompiledBinary:
		walkFormula(m.X, visit)
		walkFormula(m.Y, visit)
	case *isla.CompiledNot:
		walkFormula(m.X, visit)
	case *isla.CompiledIntQuantifier:
		walkFormula(m.Body, visit)
	case *isla.CompiledQuantifier:
		walkFormula(m.Body, visit)
	}
	visit(n)
}

// analyzeSMT records an equality of two tree variables and a str.in_re of
// a tree variable and a constant expression.
func (p *fastPlan) analyzeSMT(tc *isla.TermCompiler, n *isla.CompiledSMT) {
	app, ok := n.Src.Term.(*isla.App)
	if !ok || len(app.Args) != 2 {
		return
	}
	switch app.Op {
	case "=":
		a, okA := treeVar(app.Args[0], n.Vars)
		b, okB := treeVar(app.Args[1], n.Vars)
		if okA && okB && a.Slot != b.Slot {
			p.pairs[n] = [2]isla.Variable{a, b}
		}
	case "str.in_re", "str.in.re":
		v, ok := treeVar(app.Args[0], n.Vars)
		if !ok {
			return
		}
		ct, ok := tc.Compile(app.Args[1], n.Vars)
		if !ok || !ct.Const || ct.Sort != smtlib.SortRegLan {
			return
		}
		if re := ct.Eval(nil).Re; re != nil {
			p.res[n] = fastRegex{v: v, re: re}
		}
	}
}

// analyzeExists records the equalities of an existential quantifier's body
// between one of its variables and an outer one, and the other conjuncts.
func (p *fastPlan) analyzeExists(q *isla.CompiledQuantifier) {
	var eqs []fastEq
	var rest []isla.Compiled
	for _, c := range topConjuncts(q.Body, nil) {
		smt, ok := c.(*isla.CompiledSMT)
		if !ok {
			rest = append(rest, c)
			continue
		}
		app, ok := smt.Src.Term.(*isla.App)
		if !ok || app.Op != "=" || len(app.Args) != 2 {
			rest = append(rest, c)
			continue
		}
		a, okA := treeVar(app.Args[0], smt.Vars)
		b, okB := treeVar(app.Args[1], smt.Vars)
		inA, inB := bound(q, a), bound(q, b)
		switch {
		case okA && okB && inA && !inB:
			eqs = append(eqs, fastEq{in: a, out: b})
		case okA && okB && inB && !inA:
			eqs = append(eqs, fastEq{in: b, out: a})
		default:
			rest = append(rest, c)
		}
	}
	if len(eqs) > 0 {
		// The conjuncts are all evaluated for every candidate of a
		// failing use (fixExists), and all must hold: level, which walks
		// both ancestor paths, goes after the others (before compares
		// offsets and rules out half the candidates).
		slices.SortStableFunc(rest, func(a, b isla.Compiled) int { return costRank(a) - costRank(b) })
		p.eqs[q], p.rest[q] = eqs, rest
	}
}

// negatedEq returns the equality def = use between one of the variables
// of universal quantifier q and an outer one, if q's body holds whenever
// it is false: the body is that equality negated, or an implication whose
// conclusion it is (no-redef: forall d2: (... implies not n1 = n2)). Only
// the instances of q in which the two texts are equal can then fail.
func (p *fastPlan) negatedEq(q *isla.CompiledQuantifier) (fastEq, bool) {
	body := q.Body
	if b, ok := body.(*isla.CompiledBinary); ok && b.Src.Op == isla.Implies {
		body = b.Y
	}
	not, ok := body.(*isla.CompiledNot)
	if !ok {
		return fastEq{}, false
	}
	smt, ok := not.X.(*isla.CompiledSMT)
	if !ok {
		return fastEq{}, false
	}
	app, ok := smt.Src.Term.(*isla.App)
	if !ok || app.Op != "=" || len(app.Args) != 2 {
		return fastEq{}, false
	}
	a, okA := treeVar(app.Args[0], smt.Vars)
	b, okB := treeVar(app.Args[1], smt.Vars)
	inA, inB := bound(q, a), bound(q, b)
	switch {
	case okA && okB && inA && !inB:
		return fastEq{in: a, out: b}, true
	case okA && okB && inB && !inA:
		return fastEq{in: b, out: a}, true
	}
	return fastEq{}, false
}

// costRank orders the conjuncts of fastPlan.rest: level last.
func costRank(c isla.Compiled) int {
	if pr, ok := c.(*isla.CompiledPred); ok && pr.Impl == nil && pr.Src.Name == "level" {
		return 1
	}
	return 0
}

// treeVar returns the tree variable that term t is, if it is one.
func treeVar(t isla.Term, vars []isla.Variable) (isla.Variable, bool) {
	v, ok := t.(*isla.Var)
	if !ok {
		return isla.Variable{}, false
	}
	for _, x := range vars {
		if x.Name == v.Name {
			return x, x.Kind == isla.TreeVar
		}
	}
	return isla.Variable{}, false
}

// bound reports whether quantifier q binds variable v.
func bound(q *isla.CompiledQuantifier, v isla.Variable) bool {
	return slices.ContainsFunc(q.Bound, func(b isla.Variable) bool { return b.Slot == v.Slot })
}

// selfContained reports whether the body of quantifier q reads no tree
// variable but q's own (the constant aside): an instance can then be
// checked on its node alone.
func selfContained(q *isla.CompiledQuantifier) bool {
	for _, v := range varsOf(q.Body) {
		if v.Kind == isla.TreeVar && v.Slot != q.Slot && v.Slot != 0 {
			return false
		}
	}
	return true
}

// varsOf returns the variables free in a compiled formula.
func varsOf(n isla.Compiled) []isla.Variable {
	switch n := n.(type) {
	case *isla.CompiledSMT:
		return n.Vars
	case *isla.CompiledPred:
		return n.Vars
	case *isla.CompiledNot:
		return n.Vars
	case *isla.CompiledBinary:
		return n.Vars
	case *isla.CompiledQuantifier:
		return n.Vars
	case *isla.CompiledIntQuantifier:
		return n.Vars
	}
	return nil
}

// countedLabels returns the nonterminals that count predicates in n count
// in the node of slot.
func countedLabels(n isla.Compiled, slot int) map[string]bool {
	out := map[string]bool{}
	walkFormula(n, func(n isla.Compiled) {
		pr, ok := n.(*isla.CompiledPred)
		if !ok || pr.Impl == nil || pr.Impl.Name() != "count" || len(pr.Args) < 2 || pr.Args[0].Slot != slot {
			return
		}
		if name, ok := strings.CutPrefix(pr.Args[1].Lit, "<"); ok {
			out[strings.TrimSuffix(name, ">")] = true
		}
	})
	return out
}

// A fastRun is one fast repair: one pass at a time, it finds the
// violations on a view of the current tree and records its edits, which
// rebuild makes into the next tree.
type fastRun struct {
	r    *Repairer
	p    *fastPlan
	seed uint64
	pcg  *rand.PCG
	rng  *rand.Rand
	v    *isla.View
	e    *isla.Evaluator
	// The edits of the pass: reference nodes replaced, and repetitions
	// inserted into quantifier nodes.
	repl  map[*grammar.Tree]*grammar.Tree
	ins   map[*grammar.Tree][]fastInsert
	added map[fastKey]bool                     // insertions made
	stuck bool                                 // a violation no fast step handles
	fails int                                  // violations found in the pass
	holds map[*isla.CompiledQuantifier][]int32 // instances that hold, per quantifier, in the pass
	gen   *grammar.Generator
	// Whether gen is seeded from this repair's seed (it is kept across
	// repairs, with its size table).
	genSeeded bool
	// The instances of the quantifiers looked up by text on the view, by
	// the text of their equated variable (see fastPlan.keyed).
	indexes map[*isla.CompiledQuantifier]*fastIndex
	// What the pass computed of numeric quantifiers (see fastIntMemo).
	ints    map[*isla.CompiledIntQuantifier]*fastIntMemo
	slotBuf []isla.SlotValue
	pathBuf []*grammar.Tree // pathTo's result, reused
	// The view nodes replaced in the pass, and the tree nodes above an
	// edit, which rebuild copies (it shares the others as they are).
	edited []int32
	above  map[*grammar.Tree]bool
	ancBuf []int32
	// The quantifiers and uses insertFor has handled in the pass.
	insDone map[fastUse]bool
}

// fastUse is a quantifier and a view node of its outer variable.
type fastUse struct {
	q   *isla.CompiledQuantifier
	use int32
}

// fastKey names an insertion: the quantifier node and the text.
type fastKey struct {
	rep  *grammar.Tree
	text string
}

// fastInsert is a repetition inserted before the at-th child of a
// quantifier node.
type fastInsert struct {
	at int
	t  *grammar.Tree
}

// fastRepair repairs t with the fast steps, in at most fastPasses passes.
// It returns the last tree it made (t itself if it made none) and whether
// that tree satisfies the constraint. It stops after the pass during which
// lim is reached.
func (r *Repairer) fastRepair(t *grammar.Tree, seed uint64, lim limit) (*grammar.Tree, bool) {
	f := r.newRun(seed)
	spec := r.spec
	cur := t
	for pass := 0; ; pass++ {
		f.v = isla.NewTreeView(f.v, cur, spec.Labels(), spec.RootLabel(), spec.VirtualRoot())
		if f.e == nil {
			f.e = isla.NewEvaluator(spec, f.v)
		} else {
			f.e.ResetReusing(f.v) // the run keeps no matches across views
		}
		f.fails = 0
		f.resetIndexes()
		f.resetIntMemos()
		for _, c := range f.p.conjs {
			if q, ok := c.(*isla.CompiledQuantifier); ok && !q.Exists && pass < fastPasses {
				f.fix(c) // counts its failing instances
			} else if !f.eval(c) {
				f.fails++
				if pass < fastPasses {
					f.fix(c)
				}
			}
		}
		if f.fails == 0 {
			return cur, true
		}
		if pass == fastPasses || len(f.repl) == 0 && len(f.ins) == 0 {
			return cur, false
		}
		cur = f.rebuild(cur)
		clear(f.repl)
		clear(f.above)
		f.edited = f.edited[:0]
		clear(f.ins)
		clear(f.added)
		clear(f.holds)
		clear(f.insDone)
		if lim.passed() {
			return cur, false
		}
	}
}

// newRun returns the state of a fast repair with seed, made of the
// memory of the last one (the view, the evaluator, the maps): repairs run
// one at a time, under r.mu.
func (r *Repairer) newRun(seed uint64) *fastRun {
	f := r.run
	if f == nil {
		f = &fastRun{r: r, p: r.plan, pcg: rand.NewPCG(seed, fastStream)}
		f.rng = rand.New(f.pcg)
		r.run = f
	}
	f.seed = seed
	f.pcg.Seed(seed, fastStream)
	f.genSeeded = false // the generator is reseeded when first needed
	f.stuck, f.fails = false, 0
	clear(f.repl)
	clear(f.above)
	f.edited = f.edited[:0]
	clear(f.ins)
	clear(f.added)
	clear(f.holds)
	clear(f.insDone)
	f.resetIndexes()
	f.resetIntMemos()
	return f
}

// fastStream is the stream of the fast repair's random numbers.
const fastStream = 0x66617374

// rebuild returns t, the tree of the view, with the pass's edits applied,
// sharing the subtrees without edits.
func (f *fastRun) rebuild(t *grammar.Tree) *grammar.Tree {
	for _, x := range f.edited {
		path := f.pathTo(x)
		if len(path) == 0 || path[len(path)-1] != f.v.Nodes[x].Tree {
			// Not found: every node may be above an edit.
			t.Walk(func(u *grammar.Tree) bool {
				f.mark([]*grammar.Tree{u})
				return true
			})
			break
		}
		f.mark(path)
	}
	return f.rebuildTree(t)
}

// mark records the tree nodes of path, from the root down, as above an
// edit.
func (f *fastRun) mark(path []*grammar.Tree) {
	if f.above == nil {
		f.above = map[*grammar.Tree]bool{}
	}
	for _, t := range path {
		f.above[t] = true
	}
}

// rebuildTree is rebuild below the root: a subtree with no edit is
// returned as it is.
func (f *fastRun) rebuildTree(t *grammar.Tree) *grammar.Tree {
	if n, ok := f.repl[t]; ok {
		return n
	}
	if !f.above[t] {
		return t
	}
	var ins []fastInsert
	if len(f.ins) > 0 {
		ins = f.ins[t]
	}
	// kids stays nil until a child changes or a repetition is inserted:
	// most subtrees have no edit and are shared as they are.
	var kids []*grammar.Tree
	if len(ins) > 0 {
		kids = make([]*grammar.Tree, 0, len(t.Children)+len(ins))
	}
	for i, c := range t.Children {
		for _, in := range ins {
			if in.at == i {
				kids = append(kids, in.t)
			}
		}
		nc := f.rebuildTree(c)
		if kids == nil && nc != c {
			kids = append(make([]*grammar.Tree, 0, len(t.Children)), t.Children[:i]...)
		}
		if kids != nil {
			kids = append(kids, nc)
		}
	}
	if kids == nil {
		return t
	}
	return &grammar.Tree{Node: t.Node, Value: t.Value, Children: kids}
}

// fix records the edits for formula n, which is false under the
// evaluator's current variable values.
func (f *fastRun) fix(n isla.Compiled) {
	e := f.e
	switch n := n.(type) {
	case *isla.CompiledBinary:
		switch n.Src.Op {
		case isla.And:
			if !f.eval(n.X) {
				f.fix(n.X)
			}
			if !f.eval(n.Y) {
				f.fix(n.Y)
			}
		case isla.Implies:
			f.fix(n.Y)
		default:
			f.stuck = true
		}
	case *isla.CompiledQuantifier:
		if n.Exists {
			f.fixExists(n)
			return
		}
		f.instances(n, func() bool {
			if !f.memoBody(n) {
				f.fails++
				f.fixInstance(n)
			}
			return true
		})
	case *isla.CompiledIntQuantifier:
		f.fixInt(n)
	case *isla.CompiledSMT:
		if pair, ok := f.p.pairs[n]; ok {
			a, b := e.Slots[pair[0].Slot].Node, e.Slots[pair[1].Slot].Node
			if f.v.Nodes[a].Start > f.v.Nodes[b].Start {
				a, b = b, a
			}
			f.copyOnto(b, a)
		} else if re, ok := f.p.res[n]; ok {
			f.fixRegex(re)
		} else {
			f.stuck = true
		}
	case *isla.CompiledNot:
		smt, _ := n.X.(*isla.CompiledSMT)
		pair, ok := f.p.pairs[smt]
		if !ok {
			f.stuck = true
			return
		}
		a, b := e.Slots[pair[0].Slot].Node, e.Slots[pair[1].Slot].Node
		if f.v.Nodes[b].Start > f.v.Nodes[a].Start {
			a = b
		}
		f.rename(a) // the later
	case *isla.CompiledPred:
		f.fixPred(n)
	default:
		f.stuck = true
	}
}

// ref returns the grammar tree of view node x, a reference node, or nil
// if it has one already replaced in this pass or is no reference.
func (f *fastRun) ref(x int32) *grammar.Tree {
	if x < 0 || int(x) >= len(f.v.Nodes) {
		return nil
	}
	t := f.v.Nodes[x].Tree
	if t == nil || t.Node.Kind != grammar.KindRef {
		return nil
	}
	if _, done := f.repl[t]; done {
		return nil
	}
	return t
}

// replace records that reference node t, the tree of view node x, becomes
// a reference to the same graph node deriving rhs.
func (f *fastRun) replace(x int32, t, rhs *grammar.Tree) {
	f.edited = append(f.edited, x)
	if f.repl == nil {
		f.repl = map[*grammar.Tree]*grammar.Tree{}
	}
	f.repl[t] = &grammar.Tree{Node: t.Node, Children: []*grammar.Tree{rhs}}
}

// copyOnto makes view node dst derive the text of view node src, both of
// the same nonterminal and neither inside the other.
func (f *fastRun) copyOnto(dst, src int32) {
	d, s := f.ref(dst), f.v.Nodes[src].Tree
	if d == nil || s == nil || s.Node.Kind != grammar.KindRef || d.Node.Name != s.Node.Name ||
		f.v.IsAncestor(dst, src) || f.v.IsAncestor(src, dst) || len(s.Children) != 1 {
		f.stuck = true
		return
	}
	f.replace(dst, d, s.Children[0].Clone())
}

// rename gives view node x a text that no node of its nonterminal has.
func (f *fastRun) rename(x int32) {
	t := f.ref(x)
	if t == nil {
		return // renamed already in this pass
	}
	used := map[string]bool{}
	for _, y := range f.v.ByLabel[f.v.Nodes[x].Label] {
		used[f.v.Node(y).Text()] = true
	}
	old := f.v.Node(x).Text()
	var fallback *grammar.Tree
	for range fastFreshTries {
		rhs, err := f.generator().GenerateFrom(t.Node.Children[0])
		if err != nil {
			break
		}
		text := rhs.String()
		if !used[text] {
			f.replace(x, t, rhs)
			return
		}
		if fallback == nil && text != old {
			fallback = rhs
		}
	}
	if fallback == nil {
		f.stuck = true
		return
	}
	f.replace(x, t, fallback)
}

// generator returns the run's generator of small random trees.
func (f *fastRun) generator() *grammar.Generator {
	if f.gen == nil {
		f.gen = grammar.NewGenerator(f.r.spec.Graph(), f.seed^0x66726573)
		f.gen.MaxSize = fastMaxSize
	} else if !f.genSeeded {
		f.gen.Reseed(f.seed ^ 0x66726573)
	}
	f.genSeeded = true
	return f.gen
}

// fixExists repairs an existential quantifier without a witness whose body
// equates one of its variables with an outer one: the outer node is
// renamed to a witness for which the body's other conditions hold, or, if
// there is none, a match of the quantifier with the outer node's text is
// inserted before it.
func (f *fastRun) fixExists(q *isla.CompiledQuantifier) {
	eqs := f.p.eqs[q]
	if len(eqs) != 1 {
		f.stuck = true
		return
	}
	eq, e := eqs[0], f.e
	use := e.Slots[eq.out.Slot].Node
	var cands []int32
	e.Instances(q, func() bool {
		for _, c := range f.p.rest[q] {
			if !e.Eval(c) {
				return true
			}
		}
		cands = append(cands, e.Slots[eq.in.Slot].Node)
		return true
	})
	if len(cands) > 0 {
		f.copyOnto(use, cands[f.rng.IntN(len(cands))])
		return
	}
	f.insertFor(q, eq, use)
}

// insertFor inserts a match of quantifier q whose variable eq.in has the
// text of view node use, as a new repetition of the innermost quantifier
// node above use that can hold it, before the repetition holding use.
//
// A use that fails under several instances of the outer quantifiers (an
// identifier in nested expressions) gets one insertion per pass: insertFor
// does the work once per quantifier and use, since the later calls would
// find the same node and text, inserted already.
func (f *fastRun) insertFor(q *isla.CompiledQuantifier, eq fastEq, use int32) {
	done := fastUse{q, use}
	if f.insDone[done] {
		return
	}
	if f.insDone == nil {
		f.insDone = map[fastUse]bool{}
	}
	f.insDone[done] = true
	text, ok := f.matchText(q.Match, eq.in.Slot, f.v.Node(use).Text())
	if !ok {
		f.stuck = true
		return
	}
	path := f.pathTo(use)
	for k := len(path) - 2; k >= 0; k-- {
		rep := path[k]
		elem := rep.Node
		if elem.Kind != grammar.KindRepeat || elem.Children[0].Kind != grammar.KindRef ||
			elem.Max != grammar.Unbounded && len(rep.Children) >= elem.Max {
			continue
		}
		key := fastKey{rep, text}
		if f.added[key] {
			return // inserted for another use of the same name
		}
		rhs := f.parse(elem.Children[0].Name, text)
		if rhs == nil {
			continue
		}
		at := slices.Index(rep.Children, path[k+1])
		if f.ins == nil {
			f.ins = map[*grammar.Tree][]fastInsert{}
			f.added = map[fastKey]bool{}
		}
		f.ins[rep] = append(f.ins[rep], fastInsert{at: at, t: &grammar.Tree{Node: elem.Children[0], Children: []*grammar.Tree{rhs}}})
		f.mark(path[:k+1])
		f.added[key] = true
		return
	}
	f.stuck = true
}

// matchText is the function matchText, its results cached in the plan.
func (f *fastRun) matchText(m *isla.CompiledMatch, slot int, text string) (string, bool) {
	key := fastInsKey{m, slot, text}
	if r, ok := f.p.insTexts[key]; ok {
		return r.text, r.ok
	}
	out, ok := matchText(m, slot, text)
	if len(f.p.insTexts) >= maxParsed {
		clear(f.p.insTexts)
	}
	f.p.insTexts[key] = fastInsText{out, ok}
	return out, ok
}

// matchText returns the text of the shortest variant of match expression m
// whose only nonterminal is bound to slot, with text for it.
func matchText(m *isla.CompiledMatch, slot int, text string) (string, bool) {
	if m == nil {
		return "", false
	}
	best, found := "", false
	for _, parts := range m.Variants {
		var b strings.Builder
		ok := true
		for _, p := range parts {
			switch {
			case p.Label < 0:
				b.WriteString(p.Lit)
			case p.Bind >= 0 && m.Binders[p.Bind] == slot:
				b.WriteString(text)
			default:
				ok = false
			}
		}
		if ok && (!found || b.Len() < len(best)) {
			best, found = b.String(), true
		}
	}
	return best, found
}

// pathTo returns the path of grammar tree nodes from the root of the
// view's tree to the tree of view node x, both included, as treePath does,
// but searching only the subtrees between x's view ancestors. The slice is
// reused by the next call.
func (f *fastRun) pathTo(x int32) []*grammar.Tree {
	anc := f.ancBuf[:0]
	for y := x; y >= 0; y = f.v.Nodes[y].Parent {
		anc = append(anc, y)
	}
	f.ancBuf = anc
	path := append(f.pathBuf[:0], f.v.Nodes[anc[len(anc)-1]].Tree)
	for i := len(anc) - 2; i >= 0; i-- {
		from, to := path[len(path)-1], f.v.Nodes[anc[i]].Tree
		if from == to {
			continue // the virtual root and the tree's root
		}
		p := treePath(from, to, path[:len(path)-1], false)
		if p == nil {
			return treePath(f.v.Nodes[0].Tree, f.v.Nodes[x].Tree, nil, true)
		}
		path = p
	}
	f.pathBuf = path
	return path
}

// treePath appends the path from t to the node target, both included, to
// path; nil if target is not in t. Unless refs is set, the path passes no
// reference node but t and target (target's view parent is t), and
// treePath does not search below the others.
func treePath(t, target *grammar.Tree, path []*grammar.Tree, refs bool) []*grammar.Tree {
	path = append(path, t)
	if t == target {
		return path
	}
	for _, c := range t.Children {
		if !refs && c != target && c.Node.Kind == grammar.KindRef {
			continue
		}
		if p := treePath(c, target, path, refs); p != nil {
			return p
		}
	}
	return nil
}

// parse returns the right-hand side tree of nonterminal name deriving
// text, or nil. Parsers and parse trees are cached in the plan: the same
// names and checksums come again and again. The tree returned is a copy,
// so that no two places of a result, nor two results, share a node.
func (f *fastRun) parse(name, text string) *grammar.Tree {
	if t := f.parseCached(name, text); t != nil {
		return cloneTree(t)
	}
	return nil
}

// cloneTree returns a copy of t as grammar.Tree.Clone makes it, its nodes
// in one array and their children in another: two allocations instead of
// two a node.
func cloneTree(t *grammar.Tree) *grammar.Tree {
	var c treeCopier
	nodes, kids := treeCounts(t)
	c.nodes, c.kids = make([]grammar.Tree, nodes), make([]*grammar.Tree, kids)
	return c.copy(t)
}

// treeCounts returns the nodes of t and their children.
func treeCounts(t *grammar.Tree) (nodes, kids int) {
	nodes, kids = 1, len(t.Children)
	for _, c := range t.Children {
		n, k := treeCounts(c)
		nodes, kids = nodes+n, kids+k
	}
	return nodes, kids
}

// A treeCopier copies a tree into arrays large enough for it.
type treeCopier struct {
	nodes []grammar.Tree
	kids  []*grammar.Tree
}

// copy copies t, taking its nodes and children from the copier's arrays.
func (c *treeCopier) copy(t *grammar.Tree) *grammar.Tree {
	n := &c.nodes[0]
	c.nodes = c.nodes[1:]
	*n = grammar.Tree{Node: t.Node, Value: t.Value, Open: t.Open}
	if t.Children != nil {
		k := len(t.Children)
		n.Children = c.kids[:k:k]
		if k == 0 {
			n.Children = []*grammar.Tree{}
		}
		c.kids = c.kids[k:]
		for i, ch := range t.Children {
			n.Children[i] = c.copy(ch)
		}
	}
	return n
}

// parseCached is parse without the copy.
func (f *fastRun) parseCached(name, text string) *grammar.Tree {
	p := f.p
	key := fastParseKey{name, text}
	if t, ok := p.parsed[key]; ok {
		return t
	}
	ps, ok := p.parsers[name]
	if !ok {
		var err error
		if ps, err = grammar.NewParser(f.r.spec.Graph(), grammar.ParseFrom(name)); err != nil {
			ps = nil
		}
		p.parsers[name] = ps
	}
	var t *grammar.Tree
	if ps != nil {
		if forest, err := ps.Parse([]byte(text)); err == nil {
			t = forest.Tree()
		}
	}
	if len(p.parsed) >= maxParsed {
		clear(p.parsed)
	}
	p.parsed[key] = t
	return t
}

// fixInstance repairs a failing instance of universal quantifier q: a body
// that counts in q's node is fixed by adding or removing repetitions, or
// by copying an instance for which it holds; other bodies by their parts.
func (f *fastRun) fixInstance(q *isla.CompiledQuantifier) {
	labels, ok := f.p.counts[q]
	if !ok {
		f.fix(q.Body)
		return
	}
	x := f.e.Slots[q.Slot].Node
	cands := f.holding(q)
	// The count of an instance that holds is the likeliest one to make
	// this one hold: try it first.
	want := -1
	for _, y := range cands {
		if y != x && !f.v.IsAncestor(y, x) && !f.v.IsAncestor(x, y) {
			want = f.countIn(y, labels)
			break
		}
	}
	if f.adjustCount(q, x, labels, want) {
		return
	}
	// Another instance for which the body holds.
	var others []int32
	for _, y := range cands {
		if y != x && !f.v.IsAncestor(y, x) && !f.v.IsAncestor(x, y) {
			others = append(others, y)
		}
	}
	if len(others) == 0 {
		f.stuck = true
		return
	}
	f.copyOnto(x, others[f.rng.IntN(len(others))])
}

// holding returns the instances of universal quantifier q (under the
// current values of the outer variables) for which its body holds,
// computed once per pass.
func (f *fastRun) holding(q *isla.CompiledQuantifier) []int32 {
	if hs, ok := f.holds[q]; ok {
		return hs
	}
	e := f.e
	x := e.Slots[q.Slot].Node
	in := e.Slots[q.In].Node
	var hs []int32
	for _, y := range f.v.InRange(q.Label, in, f.v.Nodes[in].End) {
		e.Slots[q.Slot].Node = y
		if f.memoBody(q) {
			hs = append(hs, y)
		}
	}
	e.Slots[q.Slot].Node = x
	if f.holds == nil {
		f.holds = map[*isla.CompiledQuantifier][]int32{}
	}
	f.holds[q] = hs
	return hs
}

// countIn returns the nodes in view node y's subtree labeled with one of
// the nonterminals in labels.
func (f *fastRun) countIn(y int32, labels map[string]bool) int {
	n := 0
	for name := range labels {
		if l, ok := f.r.spec.Labels().IDs[name]; ok {
			n += len(f.v.InRange(l, y, f.v.Nodes[y].End))
		}
	}
	return n
}

// adjustCount adds or removes repetitions of a quantifier node in view
// node x (not below another reference) whose repetitions derive a counted
// nonterminal, the fewest that make the body of q hold on x.
//
// It tries first the change that makes the count of the labels in x want
// (if not negative), then changes of 1, 2, ... up to fastMaxDelta.
func (f *fastRun) adjustCount(q *isla.CompiledQuantifier, x int32, labels map[string]bool, want int) bool {
	ref := f.ref(x)
	if ref == nil || len(ref.Children) != 1 {
		return false
	}
	var reps []*grammar.Tree
	var find func(t *grammar.Tree)
	find = func(t *grammar.Tree) {
		if t.Node.Kind == grammar.KindRef {
			return
		}
		if t.Node.Kind == grammar.KindRepeat && derives(t.Node.Children[0], labels) {
			reps = append(reps, t)
		}
		for _, c := range t.Children {
			find(c)
		}
	}
	find(ref.Children[0])
	if len(reps) == 0 {
		return false
	}
	e := f.e
	mini := isla.NewEvaluator(f.r.spec, f.v)
	first := 0
	if want >= 0 {
		first = want - f.countIn(x, labels)
	}
	for d := 0; d <= fastMaxDelta; d++ {
		tried := false
		deltas := []int{d, -d}
		if d == 0 {
			deltas = []int{first}
		}
		for _, delta := range deltas {
			if delta == 0 || d > 0 && delta == first {
				continue
			}
			for _, rep := range reps {
				n := len(rep.Children) + delta
				if n < rep.Node.Min || rep.Node.Max != grammar.Unbounded && n > rep.Node.Max || len(rep.Children) == 0 {
					continue
				}
				tried = true
				kids := slices.Clone(rep.Children[:min(n, len(rep.Children))])
				for len(kids) < n {
					kids = append(kids, rep.Children[len(rep.Children)-1].Clone())
				}
				nrep := &grammar.Tree{Node: rep.Node, Children: kids}
				rhs := replaceTree(ref.Children[0], rep, nrep)
				v := isla.NewView([]byte(rhs.String()), rhs, f.r.spec.Labels(), ref.Node.Name, false)
				mini.Reset(v)
				copy(mini.Slots, e.Slots)
				mini.Slots[0].Node, mini.Slots[q.Slot].Node = 0, 0
				if mini.Eval(q.Body) {
					f.replace(x, ref, rhs)
					return true
				}
			}
		}
		if !tried {
			return false
		}
	}
	return false
}

// derives reports whether graph node n derives a reference to one of the
// nonterminals in labels without passing through another reference.
func derives(n *grammar.Node, labels map[string]bool) bool {
	if n.Kind == grammar.KindRef {
		return labels[n.Name]
	}
	for _, c := range n.Children {
		if derives(c, labels) {
			return true
		}
	}
	return false
}

// replaceTree returns t with its node old replaced by new, sharing the
// other subtrees.
func replaceTree(t, old, new *grammar.Tree) *grammar.Tree {
	if t == old {
		return new
	}
	for i, c := range t.Children {
		if nc := replaceTree(c, old, new); nc != c {
			kids := slices.Clone(t.Children)
			kids[i] = nc
			return &grammar.Tree{Node: t.Node, Value: t.Value, Children: kids}
		}
	}
	return t
}

// fixInt repairs an existential numeric quantifier: it takes the
// candidate value under which the fewest instances of its body fail (the
// number of fields most CSV records have) and repairs the body under it.
func (f *fastRun) fixInt(n *isla.CompiledIntQuantifier) {
	e := f.e
	if !n.Src.Exists {
		f.stuck = true
		return
	}
	m := f.intMemo(n)
	var cands []string
	if m != nil {
		cands = m.cands
	} else {
		cands = e.Candidates(n)
	}
	best, bestN := "", -1
	for ci, c := range cands[:min(len(cands), maxIntCandidates)] {
		e.Slots[n.Slot].Num = c
		fails := 0
		if m != nil {
			for i := range m.nodes {
				if !f.bodyAt(m, ci, i) {
					fails++
				}
			}
		} else if q, ok := n.Body.(*isla.CompiledQuantifier); ok && !q.Exists {
			e.Instances(q, func() bool {
				if !e.Eval(q.Body) {
					fails++
				}
				return true
			})
		} else if !e.Eval(n.Body) {
			fails = 1
		}
		if bestN < 0 || fails < bestN {
			best, bestN = c, fails
		}
	}
	if bestN < 0 {
		f.stuck = true
		return
	}
	e.Slots[n.Slot].Num = best
	f.fix(n.Body)
}

// fixPred repairs a semantic predicate that solves itself (a checksum): it
// parses each of the predicate's fixes into its node.
func (f *fastRun) fixPred(n *isla.CompiledPred) {
	ts, ok := n.Impl.(isla.TreeSolver)
	if !ok {
		f.stuck = true
		return
	}
	e := f.e
	args := make([]isla.Arg, len(n.Args))
	for i, ca := range n.Args {
		switch ca.Kind {
		case isla.TreeParam:
			args[i].Node = f.v.Node(e.Slots[ca.Slot].Node)
		case isla.StringParam:
			args[i].Str = ca.Lit
		case isla.NumParam:
			args[i].Num = e.ArgNum(ca)
		}
	}
	fixes, err := ts.Solve(args)
	if err != nil {
		f.stuck = true
		return
	}
	for _, fx := range fixes {
		i, ok := f.v.Index(fx.Node)
		if !ok {
			f.stuck = true
			continue
		}
		t := f.ref(i)
		if t == nil {
			continue
		}
		rhs := f.parse(t.Node.Name, fx.Text)
		if rhs == nil {
			f.stuck = true
			continue
		}
		f.replace(i, t, rhs)
	}
}

// fixRegex gives the node of a str.in_re atom a random string of the
// regular expression and of its nonterminal, of the node's length.
func (f *fastRun) fixRegex(re fastRegex) {
	x := f.e.Slots[re.v.Slot].Node
	t := f.ref(x)
	if t == nil {
		return
	}
	// The length in bytes: the fields such atoms constrain have a fixed
	// size in bytes, and the expressions are mostly ASCII, one byte a
	// character.
	key := fastSampleKey{t.Node.Name, re.re, len(f.v.Node(x).Text())}
	pool := f.p.samples[key]
	if pool == nil {
		pool = new(fastPool)
		f.p.samples[key] = pool
	}
	i := f.rng.IntN(fastSamples)
	if !pool.made[i] {
		pool.trees[i], pool.made[i] = f.sampleRegex(key, i), true
	}
	if pool.trees[i] == nil {
		f.stuck = true
		return
	}
	f.replace(x, t, pool.trees[i].Clone())
}

// fastPool holds the random texts of a fastSampleKey, made when first
// needed.
type fastPool struct {
	trees [fastSamples]*grammar.Tree // nil: none found
	made  [fastSamples]bool
}

// sampleRegex returns the right-hand side tree of the i-th random text of
// the nonterminal and the expression of key, of its length; nil if it
// finds none. The text depends on the key and i alone, so that a repair
// does not depend on the repairs before it.
func (f *fastRun) sampleRegex(key fastSampleKey, i int) *grammar.Tree {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%d\x00%d", key.name, key.n, i)
	s := f.r.fresh(h.Sum64())
	g, ok := s.grammarRE(key.name)
	if !ok {
		return nil
	}
	r := smtlib.Inter(g, key.re)
	for range 2 {
		text, ok := s.sampleRegex(r, key.n, key.n)
		if !ok {
			return nil
		}
		b, ok := smtlib.ToBytes(text)
		if !ok {
			continue
		}
		if rhs := f.parseCached(key.name, b); rhs != nil {
			return rhs
		}
	}
	return nil
}
