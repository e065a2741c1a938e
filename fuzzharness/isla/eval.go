package isla

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
)

// Limits of the evaluation.
const (
	// maxMatches bounds the ways one node is matched by a match expression.
	maxMatches = 4096
	// maxCandidateSteps bounds the work spent finding the candidate values
	// of one numeric quantifier.
	maxCandidateSteps = 1 << 20
	// maxCandidates bounds the candidate values of one numeric quantifier.
	maxCandidates = 1 << 12
)

// An Evaluator evaluates the compiled formulas of a spec on one view,
// under the values of the variables in its slots (slot 0, the constant,
// holds the root). The validator makes one per derivation tree; a solver
// sets the slots of a quantifier instance and evaluates the atoms whose
// variables are all derived. An Evaluator is not safe for concurrent use.
type Evaluator struct {
	s     *Spec
	View  *View       // the tree
	Slots []SlotValue // the values of the variables, by Variable.Slot
	lets  []smtlib.Value
	vals  []smtlib.Value // the argument values of the SMT-LIB applications being evaluated
	steps int            // candidate search steps left
	// The matches of match expressions computed on memoView: a universal
	// quantifier with an existential one inside (def-use) matches every
	// declaration once per use otherwise.
	memo     map[*CompiledMatch]*matchMemo
	memoView *View
	// The matches computed on memoView are slices of these arrays, which
	// a new view replaces (a caller may still hold the old view's).
	matchNodes []int32
	matchLists [][]int32
	// The matcher of regular expressions when the Spec's is in use by
	// another goroutine (see specMatcher).
	ownMatcher *smtlib.Matcher
	// Whether the next view may reuse the arrays above (ResetReusing).
	reuseMatches bool
}

// matchMemo holds the matches of a match expression on the nodes of a
// view.
type matchMemo struct {
	view   *View
	byNode [][][]int32 // per node: its matches; nil if not computed yet
	set    []int32     // the nodes whose matches byNode holds
}

// noMatches is the matches of a node that has none, computed.
var noMatches = [][]int32{}

// SlotValue is the value of a variable: a tree node, or a number's decimal
// text.
type SlotValue struct {
	Node int32  // a tree variable's node: its index in the view
	Num  string // a numeric variable's value
}

// NewEvaluator returns an evaluator of spec s's formulas on view v, with
// the constant bound to the root.
func NewEvaluator(s *Spec, v *View) *Evaluator {
	e := &Evaluator{s: s, View: v, Slots: make([]SlotValue, s.nslots), lets: make([]smtlib.Value, s.nlets)}
	e.Slots[0].Node = 0
	return e
}

// Reset makes e an evaluator on view v, as NewEvaluator makes it.
func (e *Evaluator) Reset(v *View) {
	e.View = v
	clear(e.Slots)
	clear(e.lets)
	e.steps = 0
	e.reuseMatches = false
	// v may be the memory of the last view, rebuilt (NewViewReusing):
	// the matches computed on that one are forgotten.
	e.memoView = nil
	for _, mm := range e.memo {
		mm.view = nil
	}
}

// ResetReusing is Reset for a caller that holds none of the matches the
// evaluator computed on its last view (the slices of Instances' binders'
// nodes): their memory is reused for v's.
func (e *Evaluator) ResetReusing(v *View) {
	e.Reset(v)
	e.reuseMatches = true
}

// Eval decides formula n under the current variable values.
func (e *Evaluator) Eval(n Compiled) bool {
	switch n := n.(type) {
	case *CompiledSMT:
		v := n.Term.Eval(e)
		return !v.Undef && v.Bool
	case *CompiledPred:
		ok, _ := e.Pred(n)
		return ok
	case *CompiledNot:
		return !e.Eval(n.X)
	case *CompiledBinary:
		switch n.Src.Op {
		case And:
			if n.yFirst {
				return e.Eval(n.Y) && e.Eval(n.X)
			}
			return e.Eval(n.X) && e.Eval(n.Y)
		case Or:
			if n.yFirst {
				return e.Eval(n.Y) || e.Eval(n.X)
			}
			return e.Eval(n.X) || e.Eval(n.Y)
		case Xor:
			return e.Eval(n.X) != e.Eval(n.Y)
		case Implies:
			return !e.Eval(n.X) || e.Eval(n.Y)
		case Iff:
			return e.Eval(n.X) == e.Eval(n.Y)
		}
	case *CompiledQuantifier:
		result := !n.Exists
		e.Instances(n, func() bool {
			if e.Eval(n.Body) == n.Exists {
				result = n.Exists
				return false
			}
			return true
		})
		return result
	case *CompiledIntQuantifier:
		for _, c := range e.Candidates(n) {
			e.Slots[n.Slot].Num = c
			if e.Eval(n.Body) == n.Src.Exists {
				return n.Src.Exists
			}
		}
		return !n.Src.Exists
	}
	return false
}

// YFirst reports whether the evaluator decides conjunction or disjunction
// b by its right operand first, the cheaper one to evaluate: an evaluator
// of its own (a repair's) keeps the order.
func (b *CompiledBinary) YFirst() bool { return b.yFirst }

// Instances binds the variables of quantifier q to each of its Instances in
// turn, pre-order and match by match, calling f until it returns false.
func (e *Evaluator) Instances(q *CompiledQuantifier, f func() bool) {
	in := e.Slots[q.In].Node
	if q.Child > 0 {
		if c := e.View.NthChildOf(in, q.Label, q.Child); c >= 0 {
			e.Slots[q.Slot].Node = c
			f()
		}
		return
	}
	for _, x := range e.View.InRange(q.Label, in, e.View.Nodes[in].End) {
		e.Slots[q.Slot].Node = x
		if q.Match == nil {
			if !f() {
				return
			}
			continue
		}
		for _, m := range e.matches(q.Match, x) {
			for i, s := range q.Match.Binders {
				e.Slots[s].Node = m[i]
			}
			if !f() {
				return
			}
		}
	}
}

// matches returns the ways node x matches the match expression: the nodes
// of its binders, without repetitions.
//
// A match is a cut through x's subtree: nodes labeled with the pattern's
// nonterminals, one after the other and not nested, whose texts, with the
// pattern's literal text between them, make up x's text. That is exactly
// the condition for the tree of the match expression (parsed from x's
// nonterminal, with its nonterminals as open leaves) to be a prefix of x's
// derivation tree, as ISLa defines matching.
func (e *Evaluator) matches(m *CompiledMatch, x int32) [][]int32 {
	if e.memoView != e.View {
		e.memoView = e.View
		if e.reuseMatches {
			e.matchNodes, e.matchLists = e.matchNodes[:0], e.matchLists[:0]
		} else {
			e.matchNodes = make([]int32, 0, max(cap(e.matchNodes), 64))
			e.matchLists = make([][]int32, 0, max(cap(e.matchLists), 16))
		}
	}
	mm := e.memo[m]
	if mm == nil {
		mm = e.newMemo(m)
	}
	if mm.view != e.View {
		// Only the nodes matched on the last view are cleared: most
		// nodes never are.
		mm.view = e.View
		for _, y := range mm.set {
			mm.byNode[y] = nil
		}
		mm.set = mm.set[:0]
		if n := len(e.View.Nodes); len(mm.byNode) < n {
			mm.byNode = make([][][]int32, n)
		}
	}
	out := mm.byNode[x]
	if out == nil {
		out = e.match(m, x)
		if out == nil {
			out = noMatches
		}
		mm.byNode[x] = out
		mm.set = append(mm.set, x)
	}
	return out
}

// newMemo returns the memo of match expression m's matches: that of an
// expression seen before that matches alike (the same variants and number
// of binders, as no-redef's two declarations and def-use's), so that their
// matches are computed once, or a new one.
func (e *Evaluator) newMemo(m *CompiledMatch) *matchMemo {
	if e.memo == nil {
		e.memo = map[*CompiledMatch]*matchMemo{}
	}
	for o, mm := range e.memo {
		if len(o.Binders) == len(m.Binders) && slices.EqualFunc(o.Variants, m.Variants, slices.Equal) {
			e.memo[m] = mm
			return mm
		}
	}
	mm := new(matchMemo)
	e.memo[m] = mm
	return mm
}

// match computes the matches of m on node x (see matches).
func (e *Evaluator) match(m *CompiledMatch, x int32) [][]int32 {
	var outBuf [4][]int32
	out := outBuf[:0]
	var seen map[string]bool // the keys of out, once it has more than a few
	cur := make([]int32, len(m.Binders))
	var key []byte
	node := &e.View.Nodes[x]
	input := e.View.input
	var pat []MatchPart
	var rec func(k int, pos, minIdx int32) bool
	rec = func(k int, pos, minIdx int32) bool {
		if k == len(pat) {
			if pos != node.Stop {
				return true
			}
			if !seenMatch(out, seen, cur) {
				at := len(e.matchNodes)
				e.matchNodes = append(e.matchNodes, cur...)
				out = append(out, e.matchNodes[at:len(e.matchNodes):len(e.matchNodes)])
				if seen == nil && len(out) > fewMatches {
					seen = map[string]bool{}
					for _, o := range out {
						key = matchKeyOf(key, o)
						seen[string(key)] = true
					}
				} else if seen != nil {
					key = matchKeyOf(key, cur)
					seen[string(key)] = true
				}
			}
			// Without binders, one match says all.
			return len(cur) > 0 && len(out) < maxMatches
		}
		p := pat[k]
		if p.Label < 0 {
			end := int(pos) + len(p.Lit)
			if end <= int(node.Stop) && input[pos:end] == p.Lit {
				return rec(k+1, int32(end), minIdx)
			}
			return true
		}
		for _, c := range e.View.startingAt(pos) {
			if c < minIdx {
				continue
			}
			if c >= node.End {
				break
			}
			if e.View.Nodes[c].Label != p.Label {
				continue
			}
			if p.Bind >= 0 {
				cur[p.Bind] = c
			}
			if !rec(k+1, e.View.Nodes[c].Stop, e.View.Nodes[c].End) {
				return false
			}
		}
		return true
	}
	for _, pat = range m.Variants {
		if !rec(0, node.Start, x) {
			break
		}
	}
	if len(out) == 0 {
		return nil
	}
	// The list itself goes to the arena too: matches are computed one at
	// a time.
	at := len(e.matchLists)
	e.matchLists = append(e.matchLists, out...)
	return e.matchLists[at:len(e.matchLists):len(e.matchLists)]
}

// fewMatches is how many matches of a node match compares one by one,
// before it indexes them in a map.
const fewMatches = 8

// seenMatch reports whether the binders' nodes cur are a match in out,
// looked up in seen, the keys of out, if it is not nil.
func seenMatch(out [][]int32, seen map[string]bool, cur []int32) bool {
	if seen != nil {
		var buf [64]byte
		return seen[string(matchKeyOf(buf[:0], cur))]
	}
	for _, o := range out {
		if slices.Equal(o, cur) {
			return true
		}
	}
	return false
}

// matchKeyOf packs the binders' nodes cur into bytes, reusing key: a map
// key cheaper than formatting them.
func matchKeyOf(key []byte, cur []int32) []byte {
	key = key[:0]
	for _, c := range cur {
		key = binary.LittleEndian.AppendUint32(key, uint32(c))
	}
	return key
}

// Pred evaluates a predicate formula; the error says why it failed, if it
// did for a reason other than being false.
func (e *Evaluator) Pred(n *CompiledPred) (bool, error) {
	if n.Impl == nil {
		var a, b int32
		var num int64
		k := 0
		for i, ca := range n.Args {
			switch ca.Kind {
			case TreeParam:
				if k == 0 {
					a = e.Slots[ca.Slot].Node
				} else {
					b = e.Slots[ca.Slot].Node
				}
				k++
			case NumParam:
				s := e.ArgNum(ca)
				v, err := strconv.ParseInt(s, 10, 64)
				if err != nil {
					return false, fmt.Errorf("argument %d of %s is not a number: %s", i+1, n.Src.Name, smtlib.QuoteBytes(s))
				}
				num = v
			}
		}
		return e.View.structuralHolds(n.Src.Name, a, b, num, n.level, n.label), nil
	}
	if builtinCount(n) {
		return e.evalCount(n)
	}
	args := make([]Arg, len(n.Args))
	for i, ca := range n.Args {
		switch ca.Kind {
		case TreeParam:
			args[i].Node = Node{e.View, e.Slots[ca.Slot].Node}
		case StringParam:
			args[i].Str = ca.Lit
		case NumParam:
			s := e.ArgNum(ca)
			if !smtlib.IsDigits(s) {
				return false, fmt.Errorf("argument %d of %s is not a number: %s", i+1, n.Src.Name, smtlib.QuoteBytes(s))
			}
			args[i].Num = s
		}
	}
	ok, err := n.Impl.Eval(args)
	if err != nil {
		return false, PredicateError(n.Src.Name, err)
	}
	return ok, nil
}

// PredicateError returns the error of the predicate named name, prefixed
// with the name unless it starts with it.
func PredicateError(name string, err error) error {
	if strings.HasPrefix(err.Error(), name+": ") {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// ArgNum returns the text of a numeric argument.
func (e *Evaluator) ArgNum(ca CompiledArg) string {
	switch {
	case ca.Slot < 0:
		return ca.Lit
	case ca.IsInt:
		return e.Slots[ca.Slot].Num
	}
	return e.View.bytes(e.Slots[ca.Slot].Node)
}

// Candidates returns the values a numeric quantifier's variable is tried
// with: the values semantic predicates compute for it (count) and the
// values equations (= n t) or (= (str.to_int n) t) give it, anywhere in the
// body and under every instance of the quantifiers there, in the order
// found. A numeric quantifier is thus decided exactly when every value that
// can make its body true (exists) or false (forall) is among them, as when
// the body pins the variable with count or an equation.
func (e *Evaluator) Candidates(q *CompiledIntQuantifier) []string {
	var c candidates
	e.steps = maxCandidateSteps
	e.collect(q.Body, q.Slot, c.add)
	return c.list
}

// candidates is a list of distinct values, at most maxCandidates.
type candidates struct {
	list []string
	seen map[string]bool // the values of list, once it is long
}

// add appends s to the list unless it is there or the list is full.
func (c *candidates) add(s string) {
	if len(c.list) >= maxCandidates {
		return
	}
	if c.seen == nil {
		// Few values, as most quantifiers have: a scan costs less than a
		// map.
		if slices.Contains(c.list, s) {
			return
		}
		if len(c.list) >= 8 {
			c.seen = make(map[string]bool, 2*len(c.list))
			for _, x := range c.list {
				c.seen[x] = true
			}
		}
	} else if c.seen[s] {
		return
	}
	if c.seen != nil {
		c.seen[s] = true
	}
	c.list = append(c.list, s)
}

func (e *Evaluator) collect(n Compiled, slot int, add func(string)) {
	e.steps--
	if e.steps < 0 {
		return
	}
	switch n := n.(type) {
	case *CompiledSMT:
		if n.pin == nil || n.pin.slot != slot {
			return
		}
		v := n.pin.other.Eval(e)
		switch {
		case v.Undef:
		case n.pin.viaInt:
			if v.Int.Sign() >= 0 {
				add(v.Int.String())
			}
		case smtlib.IsDigits(v.Str):
			add(v.Str)
		}
	case *CompiledPred:
		if builtinCount(n) {
			e.collectCount(n, slot, add)
			return
		}
		solver, ok := n.Impl.(NumSolver)
		if !ok {
			return
		}
		for i, ca := range n.Args {
			if ca.Kind != NumParam || !ca.IsInt || ca.Slot != slot {
				continue
			}
			args := make([]Arg, len(n.Args))
			usable := true
			for j, cb := range n.Args {
				switch {
				case j == i:
				case cb.Kind == TreeParam:
					args[j].Node = Node{e.View, e.Slots[cb.Slot].Node}
				case cb.Kind == StringParam:
					args[j].Str = cb.Lit
				default:
					s := e.ArgNum(cb)
					usable = usable && smtlib.IsDigits(s)
					args[j].Num = s
				}
			}
			if !usable {
				continue
			}
			vals, err := solver.SolveNum(args, i)
			if err != nil {
				continue
			}
			for _, v := range vals {
				if smtlib.IsDigits(v) {
					add(v)
				}
			}
		}
	case *CompiledNot:
		e.collect(n.X, slot, add)
	case *CompiledBinary:
		e.collect(n.X, slot, add)
		e.collect(n.Y, slot, add)
	case *CompiledQuantifier:
		e.Instances(n, func() bool {
			e.collect(n.Body, slot, add)
			return e.steps > 0
		})
	case *CompiledIntQuantifier:
		var inner candidates
		e.collect(n.Body, n.Slot, inner.add)
		for _, c := range inner.list {
			e.Slots[n.Slot].Num = c
			e.collect(n.Body, slot, add)
		}
	}
}

// A Failure explains why a derivation tree does not satisfy a constraint:
// the quantifier instances that lead to the part of the formula that fails,
// and that part, with the values of its variables.
type Failure struct {
	// Path lists the quantifier instances from the outermost in: the
	// universal quantifiers (and numeric ones) whose instance fails.
	Path []Instance
	// Formula is the smallest part of the formula shown to fail: an atom, a
	// negation, a disjunction, or an existential quantifier without a
	// satisfying instance.
	Formula Formula
	// Reason says how Formula fails.
	Reason string
	// Bindings are the values of Formula's free variables.
	Bindings []Binding
}

// An Instance is one instance of a quantifier: the values of the variables
// it binds.
type Instance struct {
	Quantifier Formula // a *Quantifier or an *IntQuantifier
	Bindings   []Binding
}

// A Binding is the value of a variable: a node of the derivation tree, shown
// by its nonterminal, text and place in the input, or a number.
type Binding struct {
	Var  string
	Type string // the nonterminal without brackets, or "int" for a number
	Text string // the node's text (bytes), or the number in decimal
	Span Span   // the node's place in the input; zero for a number
}

// A Span is a range of the input: byte offsets [Start, End) and the line and
// column (1-based, counting bytes) of both ends.
type Span struct {
	Start, End      int
	Line, Col       int
	EndLine, EndCol int
}

// String formats the span as line:col-line:col.
func (s Span) String() string {
	if s.Line == 0 {
		return ""
	}
	if s.EndLine == s.Line {
		return fmt.Sprintf("%d:%d-%d", s.Line, s.Col, s.EndCol)
	}
	return fmt.Sprintf("%d:%d-%d:%d", s.Line, s.Col, s.EndLine, s.EndCol)
}

// String formats the binding as name = "text" (<type> at line:col-col,
// bytes start-end).
func (b Binding) String() string {
	if b.Type == "int" {
		return b.Var + " = " + b.Text
	}
	return fmt.Sprintf("%s = %s (<%s> at %s, bytes %d-%d)", b.Var, smtlib.QuoteBytes(shortenText(b.Text)), b.Type, b.Span, b.Span.Start, b.Span.End)
}

func shortenText(s string) string {
	if len(s) > 80 {
		return s[:60] + "..." + s[len(s)-17:]
	}
	return s
}

// String describes the failure on several lines: each quantifier instance
// with its bindings, then the failing formula, the reason and its bindings.
func (f *Failure) String() string {
	var b strings.Builder
	for _, in := range f.Path {
		b.WriteString("in ")
		b.WriteString(headOf(in.Quantifier))
		b.WriteByte('\n')
		for _, x := range in.Bindings {
			b.WriteString("  " + x.String() + "\n")
		}
	}
	b.WriteString("fails: ")
	b.WriteString(shortenFormula(FormatFormula(f.Formula)))
	b.WriteString("\n  " + f.Reason + "\n")
	for _, x := range f.Bindings {
		b.WriteString("  where " + x.String() + "\n")
	}
	return b.String()
}

// headOf returns a quantifier without its body.
func headOf(f Formula) string {
	switch q := f.(type) {
	case *Quantifier:
		h := *q
		h.Body = &SMT{Term: &BoolLit{Value: true}}
		s := FormatFormula(&h)
		return strings.TrimSuffix(s, " true")
	case *IntQuantifier:
		if q.Exists {
			return "exists int " + q.Var + ":"
		}
		return "forall int " + q.Var + ":"
	}
	return FormatFormula(f)
}

func shortenFormula(s string) string {
	if len(s) > 300 {
		return s[:280] + " ..."
	}
	return s
}

func (e *Evaluator) binding(v Variable) Binding {
	if v.Kind == IntVar {
		return Binding{Var: v.Name, Type: "int", Text: e.Slots[v.Slot].Num}
	}
	x := e.Slots[v.Slot].Node
	n := &e.View.Nodes[x]
	typ := v.Type
	if l := e.View.label(x); l != "" {
		typ = l
	}
	sp := Span{Start: int(n.Start), End: int(n.Stop)}
	sp.Line, sp.Col = e.View.lineCol(sp.Start)
	sp.EndLine, sp.EndCol = e.View.lineCol(sp.End)
	return Binding{Var: v.Name, Type: typ, Text: e.View.bytes(x), Span: sp}
}

func (e *Evaluator) bindings(vs []Variable) []Binding {
	out := make([]Binding, 0, len(vs))
	for _, v := range vs {
		out = append(out, e.binding(v))
	}
	return out
}

// explain describes why n, which evaluates to false, fails.
func (e *Evaluator) explain(n Compiled, path []Instance) *Failure {
	stop := func(reason string, vars []Variable) *Failure {
		return &Failure{Path: path, Formula: n.source(), Reason: reason, Bindings: e.bindings(vars)}
	}
	switch n := n.(type) {
	case *CompiledSMT:
		if v := n.Term.Eval(e); v.Undef {
			return stop("its value depends on a division by zero, which SMT-LIB leaves unspecified, so it does not hold", n.Vars)
		}
		return stop("this SMT-LIB formula is false", n.Vars)
	case *CompiledPred:
		if _, err := e.Pred(n); err != nil {
			return stop(err.Error(), n.Vars)
		}
		return stop("the predicate does not hold", n.Vars)
	case *CompiledNot:
		return stop("the negated formula holds", n.Vars)
	case *CompiledBinary:
		switch n.Src.Op {
		case And:
			if !e.Eval(n.X) {
				return e.explain(n.X, path)
			}
			return e.explain(n.Y, path)
		case Implies:
			return e.explain(n.Y, path)
		case Or:
			return stop("neither side holds", n.Vars)
		case Xor:
			if e.Eval(n.X) {
				return stop("both sides hold", n.Vars)
			}
			return stop("neither side holds", n.Vars)
		case Iff:
			return stop("one side holds and the other does not", n.Vars)
		}
	case *CompiledQuantifier:
		if n.Exists {
			return stop(e.noInstance(n), n.Vars)
		}
		var f *Failure
		e.Instances(n, func() bool {
			if e.Eval(n.Body) {
				return true
			}
			in := Instance{Quantifier: n.Src, Bindings: e.bindings(n.Bound)}
			f = e.explain(n.Body, append(append([]Instance(nil), path...), in))
			return false
		})
		if f != nil {
			return f
		}
	case *CompiledIntQuantifier:
		cands := e.Candidates(n)
		v := Variable{Name: n.Src.Var, Kind: IntVar, Slot: n.Slot}
		if n.Src.Exists {
			if len(cands) == 0 {
				return stop("no candidate value for "+n.Src.Var+" was found (values come from count and from equations with "+n.Src.Var+")", n.Vars)
			}
			return stop(fmt.Sprintf("no candidate value of %s satisfies the formula (tried %s)", n.Src.Var, strings.Join(cands, ", ")), n.Vars)
		}
		for _, c := range cands {
			e.Slots[n.Slot].Num = c
			if !e.Eval(n.Body) {
				in := Instance{Quantifier: n.Src, Bindings: []Binding{e.binding(v)}}
				return e.explain(n.Body, append(append([]Instance(nil), path...), in))
			}
		}
	}
	return stop("the formula does not hold", nil)
}

// noInstance describes why an existential quantifier has no satisfying
// instance.
func (e *Evaluator) noInstance(q *CompiledQuantifier) string {
	in := e.Slots[q.In].Node
	where := fmt.Sprintf("in %s", q.Src.In)
	if q.Child > 0 {
		if e.View.NthChildOf(in, q.Label, q.Child) < 0 {
			return fmt.Sprintf("%s has no child <%s> number %d", q.Src.In, q.Src.Type, q.Child)
		}
		return fmt.Sprintf("child <%s> number %d of %s does not satisfy the formula", q.Src.Type, q.Child, q.Src.In)
	}
	nodes := e.View.InRange(q.Label, in, e.View.Nodes[in].End)
	if len(nodes) == 0 {
		return fmt.Sprintf("there is no <%s> %s", q.Src.Type, where)
	}
	if q.Match == nil {
		return fmt.Sprintf("none of the %d <%s> %s satisfies the formula", len(nodes), q.Src.Type, where)
	}
	matched := 0
	for _, x := range nodes {
		if len(e.matches(q.Match, x)) > 0 {
			matched++
		}
	}
	if matched == 0 {
		return fmt.Sprintf("none of the %d <%s> %s matches the match expression", len(nodes), q.Src.Type, where)
	}
	return fmt.Sprintf("none of the %d <%s> %s that match the match expression satisfies the formula", matched, q.Src.Type, where)
}
