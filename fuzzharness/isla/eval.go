package isla

import (
	"fmt"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
	"strconv"
	"strings"
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

// evaluator evaluates a compiled constraint on one view.
type evaluator struct {
	s     *Spec
	v     *view
	slots []slotVal
	lets  []smtlib.Value
	steps int // candidate search steps left
}

// slotVal is the value of a variable: a tree node, or a number's decimal
// text.
type slotVal struct {
	node int32
	num  string
}

func newEvaluator(s *Spec, v *view) *evaluator {
	e := &evaluator{s: s, v: v, slots: make([]slotVal, s.nslots), lets: make([]smtlib.Value, s.nlets)}
	e.slots[0].node = 0
	return e
}

// reset makes e an evaluator on view v, as newEvaluator makes it.
func (e *evaluator) reset(v *view) {
	e.v = v
	clear(e.slots)
	clear(e.lets)
	e.steps = 0
}

// eval decides formula n under the current variable values.
func (e *evaluator) eval(n cnode) bool {
	switch n := n.(type) {
	case *cSMT:
		v := n.t.eval(e)
		return !v.Undef && v.Bool
	case *cPred:
		ok, _ := e.pred(n)
		return ok
	case *cNot:
		return !e.eval(n.x)
	case *cBin:
		switch n.src.Op {
		case And:
			return e.eval(n.x) && e.eval(n.y)
		case Or:
			return e.eval(n.x) || e.eval(n.y)
		case Xor:
			return e.eval(n.x) != e.eval(n.y)
		case Implies:
			return !e.eval(n.x) || e.eval(n.y)
		case Iff:
			return e.eval(n.x) == e.eval(n.y)
		}
	case *cQuant:
		result := !n.exists
		e.instances(n, func() bool {
			if e.eval(n.body) == n.exists {
				result = n.exists
				return false
			}
			return true
		})
		return result
	case *cIntQ:
		for _, c := range e.candidates(n) {
			e.slots[n.slot].num = c
			if e.eval(n.body) == n.src.Exists {
				return n.src.Exists
			}
		}
		return !n.src.Exists
	}
	return false
}

// instances binds the variables of quantifier q to each of its instances in
// turn, pre-order and match by match, calling f until it returns false.
func (e *evaluator) instances(q *cQuant, f func() bool) {
	in := e.slots[q.in].node
	if q.child > 0 {
		if c := e.v.nthChildOf(in, q.label, q.child); c >= 0 {
			e.slots[q.slot].node = c
			f()
		}
		return
	}
	for _, x := range e.v.inRange(q.label, in, e.v.nodes[in].end) {
		e.slots[q.slot].node = x
		if q.match == nil {
			if !f() {
				return
			}
			continue
		}
		for _, m := range e.matches(q.match, x) {
			for i, s := range q.match.binders {
				e.slots[s].node = m[i]
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
func (e *evaluator) matches(m *cmatch, x int32) [][]int32 {
	var out [][]int32
	seen := map[string]bool{}
	cur := make([]int32, len(m.binders))
	node := &e.v.nodes[x]
	input := e.v.input
	var pat []pelem
	var rec func(k int, pos, minIdx int32) bool
	rec = func(k int, pos, minIdx int32) bool {
		if k == len(pat) {
			if pos != node.stp {
				return true
			}
			key := fmt.Sprint(cur)
			if !seen[key] {
				seen[key] = true
				out = append(out, append([]int32(nil), cur...))
			}
			// Without binders, one match says all.
			return len(cur) > 0 && len(out) < maxMatches
		}
		p := pat[k]
		if p.label < 0 {
			end := int(pos) + len(p.lit)
			if end <= int(node.stp) && input[pos:end] == p.lit {
				return rec(k+1, int32(end), minIdx)
			}
			return true
		}
		for _, c := range e.v.startingAt(pos) {
			if c < minIdx {
				continue
			}
			if c >= node.end {
				break
			}
			if e.v.nodes[c].label != p.label {
				continue
			}
			if p.bind >= 0 {
				cur[p.bind] = c
			}
			if !rec(k+1, e.v.nodes[c].stp, e.v.nodes[c].end) {
				return false
			}
		}
		return true
	}
	for _, pat = range m.variants {
		if !rec(0, node.start, x) {
			break
		}
	}
	return out
}

// pred evaluates a predicate formula; the error says why it failed, if it
// did for a reason other than being false.
func (e *evaluator) pred(n *cPred) (bool, error) {
	if n.impl == nil {
		var a, b int32
		var num int64
		k := 0
		for i, ca := range n.args {
			switch ca.kind {
			case TreeParam:
				if k == 0 {
					a = e.slots[ca.slot].node
				} else {
					b = e.slots[ca.slot].node
				}
				k++
			case NumParam:
				s := e.argNum(ca)
				v, err := strconv.ParseInt(s, 10, 64)
				if err != nil {
					return false, fmt.Errorf("argument %d of %s is not a number: %s", i+1, n.src.Name, smtlib.QuoteBytes(s))
				}
				num = v
			}
		}
		return e.v.structuralHolds(n.src.Name, a, b, num, n.level, n.label), nil
	}
	args := make([]Arg, len(n.args))
	for i, ca := range n.args {
		switch ca.kind {
		case TreeParam:
			args[i].Node = Node{e.v, e.slots[ca.slot].node}
		case StringParam:
			args[i].Str = ca.lit
		case NumParam:
			s := e.argNum(ca)
			if !isDigits(s) {
				return false, fmt.Errorf("argument %d of %s is not a number: %s", i+1, n.src.Name, smtlib.QuoteBytes(s))
			}
			args[i].Num = s
		}
	}
	ok, err := n.impl.Eval(args)
	if err != nil {
		return false, fmt.Errorf("%s: %w", n.src.Name, err)
	}
	return ok, nil
}

// argNum returns the text of a numeric argument.
func (e *evaluator) argNum(ca carg) string {
	switch {
	case ca.slot < 0:
		return ca.lit
	case ca.isInt:
		return e.slots[ca.slot].num
	}
	return e.v.bytes(e.slots[ca.slot].node)
}

// candidates returns the values a numeric quantifier's variable is tried
// with: the values semantic predicates compute for it (count) and the
// values equations (= n t) or (= (str.to_int n) t) give it, anywhere in the
// body and under every instance of the quantifiers there, in the order
// found. A numeric quantifier is thus decided exactly when every value that
// can make its body true (exists) or false (forall) is among them, as when
// the body pins the variable with count or an equation.
func (e *evaluator) candidates(q *cIntQ) []string {
	var out []string
	seen := map[string]bool{}
	e.steps = maxCandidateSteps
	e.collect(q.body, q.slot, func(s string) {
		if !seen[s] && len(out) < maxCandidates {
			seen[s] = true
			out = append(out, s)
		}
	})
	return out
}

func (e *evaluator) collect(n cnode, slot int, add func(string)) {
	e.steps--
	if e.steps < 0 {
		return
	}
	switch n := n.(type) {
	case *cSMT:
		if n.pin == nil || n.pin.slot != slot {
			return
		}
		v := n.pin.other.eval(e)
		switch {
		case v.Undef:
		case n.pin.viaInt:
			if v.Int.Sign() >= 0 {
				add(v.Int.String())
			}
		case isDigits(v.Str):
			add(v.Str)
		}
	case *cPred:
		solver, ok := n.impl.(NumSolver)
		if !ok {
			return
		}
		for i, ca := range n.args {
			if ca.kind != NumParam || !ca.isInt || ca.slot != slot {
				continue
			}
			args := make([]Arg, len(n.args))
			usable := true
			for j, cb := range n.args {
				switch {
				case j == i:
				case cb.kind == TreeParam:
					args[j].Node = Node{e.v, e.slots[cb.slot].node}
				case cb.kind == StringParam:
					args[j].Str = cb.lit
				default:
					s := e.argNum(cb)
					usable = usable && isDigits(s)
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
				if isDigits(v) {
					add(v)
				}
			}
		}
	case *cNot:
		e.collect(n.x, slot, add)
	case *cBin:
		e.collect(n.x, slot, add)
		e.collect(n.y, slot, add)
	case *cQuant:
		e.instances(n, func() bool {
			e.collect(n.body, slot, add)
			return e.steps > 0
		})
	case *cIntQ:
		var inner []string
		seen := map[string]bool{}
		e.collect(n.body, n.slot, func(s string) {
			if !seen[s] && len(inner) < maxCandidates {
				seen[s] = true
				inner = append(inner, s)
			}
		})
		for _, c := range inner {
			e.slots[n.slot].num = c
			e.collect(n.body, slot, add)
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

func (e *evaluator) binding(v varInfo) Binding {
	if v.kind == vInt {
		return Binding{Var: v.name, Type: "int", Text: e.slots[v.slot].num}
	}
	x := e.slots[v.slot].node
	n := &e.v.nodes[x]
	typ := v.typ
	if l := e.v.label(x); l != "" {
		typ = l
	}
	sp := Span{Start: int(n.start), End: int(n.stp)}
	sp.Line, sp.Col = e.v.lineCol(sp.Start)
	sp.EndLine, sp.EndCol = e.v.lineCol(sp.End)
	return Binding{Var: v.name, Type: typ, Text: e.v.bytes(x), Span: sp}
}

func (e *evaluator) bindings(vs []varInfo) []Binding {
	out := make([]Binding, 0, len(vs))
	for _, v := range vs {
		out = append(out, e.binding(v))
	}
	return out
}

// explain describes why n, which evaluates to false, fails.
func (e *evaluator) explain(n cnode, path []Instance) *Failure {
	stop := func(reason string, vars []varInfo) *Failure {
		return &Failure{Path: path, Formula: n.source(), Reason: reason, Bindings: e.bindings(vars)}
	}
	switch n := n.(type) {
	case *cSMT:
		if v := n.t.eval(e); v.Undef {
			return stop("its value depends on a division by zero, which SMT-LIB leaves unspecified, so it does not hold", n.vars)
		}
		return stop("this SMT-LIB formula is false", n.vars)
	case *cPred:
		if _, err := e.pred(n); err != nil {
			return stop(err.Error(), n.vars)
		}
		return stop("the predicate does not hold", n.vars)
	case *cNot:
		return stop("the negated formula holds", n.vars)
	case *cBin:
		switch n.src.Op {
		case And:
			if !e.eval(n.x) {
				return e.explain(n.x, path)
			}
			return e.explain(n.y, path)
		case Implies:
			return e.explain(n.y, path)
		case Or:
			return stop("neither side holds", n.vars)
		case Xor:
			if e.eval(n.x) {
				return stop("both sides hold", n.vars)
			}
			return stop("neither side holds", n.vars)
		case Iff:
			return stop("one side holds and the other does not", n.vars)
		}
	case *cQuant:
		if n.exists {
			return stop(e.noInstance(n), n.vars)
		}
		var f *Failure
		e.instances(n, func() bool {
			if e.eval(n.body) {
				return true
			}
			in := Instance{Quantifier: n.src, Bindings: e.bindings(n.bound)}
			f = e.explain(n.body, append(append([]Instance(nil), path...), in))
			return false
		})
		if f != nil {
			return f
		}
	case *cIntQ:
		cands := e.candidates(n)
		v := varInfo{name: n.src.Var, kind: vInt, slot: n.slot}
		if n.src.Exists {
			if len(cands) == 0 {
				return stop("no candidate value for "+n.src.Var+" was found (values come from count and from equations with "+n.src.Var+")", n.vars)
			}
			return stop(fmt.Sprintf("no candidate value of %s satisfies the formula (tried %s)", n.src.Var, strings.Join(cands, ", ")), n.vars)
		}
		for _, c := range cands {
			e.slots[n.slot].num = c
			if !e.eval(n.body) {
				in := Instance{Quantifier: n.src, Bindings: []Binding{e.binding(v)}}
				return e.explain(n.body, append(append([]Instance(nil), path...), in))
			}
		}
	}
	return stop("the formula does not hold", nil)
}

// noInstance describes why an existential quantifier has no satisfying
// instance.
func (e *evaluator) noInstance(q *cQuant) string {
	in := e.slots[q.in].node
	where := fmt.Sprintf("in %s", q.src.In)
	if q.child > 0 {
		if e.v.nthChildOf(in, q.label, q.child) < 0 {
			return fmt.Sprintf("%s has no child <%s> number %d", q.src.In, q.src.Type, q.child)
		}
		return fmt.Sprintf("child <%s> number %d of %s does not satisfy the formula", q.src.Type, q.child, q.src.In)
	}
	nodes := e.v.inRange(q.label, in, e.v.nodes[in].end)
	if len(nodes) == 0 {
		return fmt.Sprintf("there is no <%s> %s", q.src.Type, where)
	}
	if q.match == nil {
		return fmt.Sprintf("none of the %d <%s> %s satisfies the formula", len(nodes), q.src.Type, where)
	}
	matched := 0
	for _, x := range nodes {
		if len(e.matches(q.match, x)) > 0 {
			matched++
		}
	}
	if matched == 0 {
		return fmt.Sprintf("none of the %d <%s> %s matches the match expression", len(nodes), q.src.Type, where)
	}
	return fmt.Sprintf("none of the %d <%s> %s that match the match expression satisfies the formula", matched, q.src.Type, where)
}
