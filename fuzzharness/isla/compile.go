package isla

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/pattern"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
)

// DefaultMaxDerivations is the default number of derivations of an
// ambiguous input that Check evaluates (see MaxDerivations).
const DefaultMaxDerivations = 16

// maxMatchVariants bounds the match expressions a pattern with optional
// parts flattens into (2 to the number of optionals).
const maxMatchVariants = 1 << 10

// A Spec is a constraint compiled against a grammar graph: checked, and
// ready to evaluate derivation trees (EvalTree) and inputs (Check). A Spec
// is safe for concurrent use.
type Spec struct {
	constraint *Constraint
	graph      *grammar.Graph
	lb         *Labels
	rootLabel  string // the label of the constant's node
	virtual    bool   // the root is a virtual <start> above the start symbol
	parseFrom  string // the nonterminal inputs are parsed from; "" for the start symbol
	parser     *grammar.Parser

	root   Compiled
	nslots int
	nlets  int

	maxDerivations int
	preds          map[string]Predicate
	matcher        *specMatcher // str.in_re's matcher, shared by the evaluators
	checks         *checkSpare  // Check's memory for the next input
}

// An Option configures Compile.
type Option func(*config)

type config struct {
	preds          []Predicate
	maxDerivations int
	parserOpts     []grammar.ParserOption
}

// WithPredicates makes semantic predicates available to the constraint, in
// addition to the built-in count and ISLa's library (see Predicate). A
// predicate named like one of the library replaces it.
func WithPredicates(ps ...Predicate) Option {
	return func(c *config) { c.preds = append(c.preds, ps...) }
}

// MaxDerivations bounds the number of derivations of an ambiguous input that
// Check evaluates (default DefaultMaxDerivations). An input is valid if one
// of them satisfies the constraint.
func MaxDerivations(n int) Option {
	return func(c *config) { c.maxDerivations = n }
}

// WithParserOptions passes options to the Earley parser Check uses, such as
// grammar.MaxItems.
func WithParserOptions(opts ...grammar.ParserOption) Option {
	return func(c *config) { c.parserOpts = append(c.parserOpts, opts...) }
}

// Constraint returns the constraint the spec was compiled from.
func (s *Spec) Constraint() *Constraint { return s.constraint }

// Graph returns the grammar graph the spec was compiled against.
func (s *Spec) Graph() *grammar.Graph { return s.graph }

// StartSymbol returns the nonterminal the inputs of Check are parsed from:
// the grammar's start symbol, or the type of the constant if the constraint
// declares one.
func (s *Spec) StartSymbol() string {
	if s.parseFrom != "" {
		return s.parseFrom
	}
	return s.graph.Root.Rule
}

// Formula returns the compiled formula: the root of the constraint's
// formula tree, whose variables live in the slots of an Evaluator. Slot 0
// holds the constant, the root of the tree (view node 0).
func (s *Spec) Formula() Compiled { return s.root }

// Slots returns the number of variable slots of the compiled formula.
func (s *Spec) Slots() int { return s.nslots }

// Labels returns the numbering of the nonterminals that views of the
// spec's trees use (ViewNode.Label).
func (s *Spec) Labels() *Labels { return s.lb }

// RootLabel returns the nonterminal of the root of the tree a constraint is
// evaluated on: the constant's type, or "start".
func (s *Spec) RootLabel() string { return s.rootLabel }

// VirtualRoot reports whether the root of the evaluated tree is a node
// <start> of its own, above the node of the grammar's start symbol (as in
// ISLa, where grammars start with <start> ::= <...>); view node 1 is then
// that node.
func (s *Spec) VirtualRoot() bool { return s.virtual }

// A TermCompiler compiles SMT-LIB terms in the scope of the variables of a
// compiled formula, for solvers that evaluate terms of their own, such as
// the inverse of an equation. It works on its own copy of the spec, so
// that compiling does not change the spec: evaluate its terms with the
// Evaluators of its NewEvaluator. A TermCompiler is not safe for
// concurrent use.
type TermCompiler struct{ s *Spec }

// NewTermCompiler returns a term compiler for the spec's formula.
func (s *Spec) NewTermCompiler() *TermCompiler {
	cp := *s
	cp.checks = new(checkSpare) // its Checks evaluate with cp
	return &TermCompiler{s: &cp}
}

// Compile compiles the term t, whose variables are among vars (the
// variables of the compiled formula t comes from, such as
// CompiledSMT.Vars). It reports false if t has a sort error or a variable
// not in vars.
func (tc *TermCompiler) Compile(t Term, vars []Variable) (CompiledTerm, bool) {
	cp := &compiler{s: tc.s, scope: map[string][]Variable{}, reach: map[string]map[string]bool{}, direct: map[string]map[string]bool{}}
	cp.push(vars...)
	return cp.term(t)
}

// NewEvaluator returns an evaluator of the spec's formula and of the terms
// tc compiled, on view v.
func (tc *TermCompiler) NewEvaluator(v *View) *Evaluator { return NewEvaluator(tc.s, v) }

// VarKind is the kind of a variable.
type VarKind uint8

const (
	TreeVar VarKind = iota // bound to a tree node
	IntVar                 // a numeric quantifier's variable
	LetVar                 // bound by let to an SMT-LIB value
)

// A Variable is a variable of a compiled formula: its name, its kind, and
// the slot of an Evaluator that holds its value.
type Variable struct {
	Name string
	Kind VarKind
	Slot int         // index into Evaluator.Slots
	Type string      // TreeVar: the nonterminal
	Sort smtlib.Sort // LetVar: the sort
}

// A Compiled is a compiled formula, checked against the grammar: one of
// *CompiledSMT, *CompiledPred, *CompiledNot, *CompiledBinary,
// *CompiledQuantifier and *CompiledIntQuantifier. Spec.Formula returns the
// root. Compiled formulas are read-only and shared by all users of a Spec.
// Every compiled formula keeps its source formula (Src) and the variables
// free in it (Vars).
type Compiled interface{ source() Formula }

// A CompiledSMT is a compiled SMT-LIB formula.
type CompiledSMT struct {
	Src  *SMT
	Term CompiledTerm // of sort Bool
	Vars []Variable
	pin  *pin
}

// pin records that an SMT formula (= n t) or (= (str.to_int n) t) fixes the
// value of the numeric variable in slot.
type pin struct {
	slot   int
	viaInt bool
	other  CompiledTerm
}

// A CompiledPred is a compiled predicate formula.
type CompiledPred struct {
	Src  *Pred
	Impl Predicate     // nil for a structural predicate
	Args []CompiledArg // one per argument of Src
	Vars []Variable
	// Writes names the nonterminals whose nodes the predicate, a
	// TreeSolver, may set: those of TreeSolver.Writes and, for the padding
	// predicates and octal_to_decimal of ISLa's library, that of the tree
	// argument they set.
	Writes []string
	level  string // level: the relation
	label  int32  // level: the nonterminal
	numArg int    // index of the numeric argument, or -1
}

// CompiledArg is a compiled predicate argument: a variable's slot, or a literal.
type CompiledArg struct {
	Kind  Param
	Slot  int    // -1 for a literal
	IsInt bool   // the slot holds a numeric variable (SlotValue.Num)
	Lit   string // the literal's text
}

// A CompiledNot is a compiled negation.
type CompiledNot struct {
	Src  *Not
	X    Compiled
	Vars []Variable
}

// A CompiledBinary is a compiled binary connective (Src.Op).
type CompiledBinary struct {
	Src  *Binary
	X, Y Compiled
	Vars []Variable
	// yFirst: the Evaluator decides a conjunction or disjunction by Y
	// first, which is cheaper to evaluate than X (evalCost).
	yFirst bool
}

// A CompiledQuantifier is a compiled quantifier over tree nodes.
type CompiledQuantifier struct {
	Src    *Quantifier
	Exists bool
	Label  int32          // the nonterminal, as Labels numbers it
	In     int            // slot of the in-variable
	Slot   int            // slot of the bound variable
	Match  *CompiledMatch // nil without a match expression
	Child  int            // > 0: only the child-th direct child (an XPath step)
	Body   Compiled
	Vars   []Variable
	Bound  []Variable // the variable and the match expression's binders
	inType string
}

// A CompiledIntQuantifier is a compiled numeric quantifier.
type CompiledIntQuantifier struct {
	Src  *IntQuantifier
	Slot int // slot of the bound variable
	Body Compiled
	Vars []Variable
}

func (n *CompiledSMT) source() Formula           { return n.Src }
func (n *CompiledPred) source() Formula          { return n.Src }
func (n *CompiledNot) source() Formula           { return n.Src }
func (n *CompiledBinary) source() Formula        { return n.Src }
func (n *CompiledQuantifier) source() Formula    { return n.Src }
func (n *CompiledIntQuantifier) source() Formula { return n.Src }

// CompiledMatch is a compiled match expression: its flattened variants.
type CompiledMatch struct {
	Variants [][]MatchPart // one per choice of the optional parts
	Binders  []int         // slots of the binders, in order
}

// MatchPart is an element of a flattened match expression: literal bytes, or a
// nonterminal (Label), possibly bound (Bind indexes CompiledMatch.Binders).
type MatchPart struct {
	Lit   string // the literal bytes
	Label int32  // -1 for a literal
	Bind  int    // -1 if not bound
}

type compiler struct {
	s      *Spec
	errs   grammar.ErrorList
	scope  map[string][]Variable
	reach  map[string]map[string]bool
	direct map[string]map[string]bool
}

// Compile checks the constraint against the grammar graph and prepares it
// for evaluation. It reports, as a grammar.ErrorList with positions:
// nonterminals the grammar does not define; quantifiers over a nonterminal
// that cannot occur inside the tree searched; match expressions with
// nonterminals that cannot occur inside the quantified one; XPath steps to a
// nonterminal that is never such a direct child; unbound variables; unknown
// predicates and functions; match expressions that can never match their
// nonterminal; arguments of the wrong kind or number; and
// SMT-LIB terms of the wrong sort.
func Compile(c *Constraint, gr *grammar.Graph, opts ...Option) (*Spec, error) {
	cfg := config{maxDerivations: DefaultMaxDerivations}
	for _, o := range opts {
		o(&cfg)
	}
	s := &Spec{constraint: c, graph: gr, maxDerivations: max(cfg.maxDerivations, 1),
		preds: map[string]Predicate{Count.Name(): Count}, matcher: new(specMatcher), checks: new(checkSpare)}
	for _, p := range library {
		s.preds[p.Name()] = p
	}
	cp := &compiler{s: s, scope: map[string][]Variable{},
		reach: map[string]map[string]bool{}, direct: map[string]map[string]bool{}}
	for _, p := range cfg.preds {
		name := p.Name()
		switch {
		case structural[name] != nil || smtFuncs[name] || keywords[name]:
			cp.errs.Add(Pos{}, fmt.Sprintf("predicate %s: the name is taken by a built-in", name))
		case name == Count.Name():
			cp.errs.Add(Pos{}, "predicate count: the name is taken by the built-in count")
		default:
			s.preds[name] = p // a user's predicate replaces one of the library
		}
	}
	start := gr.Root.Rule
	switch ct := c.ConstType; {
	case ct == "" || ct == "start" && gr.RHS("start") == nil:
		s.rootLabel = "start"
		s.virtual = start != "start"
	case ct == start:
		s.rootLabel = start
	case gr.RHS(ct) != nil:
		s.rootLabel, s.parseFrom = ct, ct
	default:
		cp.errs.Add(c.ConstPos, fmt.Sprintf("the constant's type <%s> is not a nonterminal of the grammar", ct))
	}
	s.lb = NewLabels(gr, "start")
	if len(cp.errs) == 0 {
		konst := Variable{Name: c.Const, Kind: TreeVar, Slot: 0, Type: s.rootLabel}
		s.nslots = 1
		cp.push(konst)
		s.root = cp.formula(c.Formula)
	}
	if len(cp.errs) > 0 {
		cp.errs.Sort()
		return nil, cp.errs
	}
	var popts []grammar.ParserOption
	if s.parseFrom != "" {
		popts = append(popts, grammar.ParseFrom(s.parseFrom))
	}
	p, err := grammar.NewParser(gr, append(popts, cfg.parserOpts...)...)
	if err != nil {
		return nil, err
	}
	s.parser = p
	return s, nil
}

func (cp *compiler) errorf(pos Pos, format string, args ...any) {
	cp.errs.Add(pos, fmt.Sprintf(format, args...))
}

func (cp *compiler) push(vs ...Variable) {
	for _, v := range vs {
		cp.scope[v.Name] = append(cp.scope[v.Name], v)
	}
}

func (cp *compiler) pop(vs ...Variable) {
	for _, v := range vs {
		s := cp.scope[v.Name]
		cp.scope[v.Name] = s[:len(s)-1]
	}
}

func (cp *compiler) lookup(name string) (Variable, bool) {
	if s := cp.scope[name]; len(s) > 0 {
		return s[len(s)-1], true
	}
	return Variable{}, false
}

func (cp *compiler) newSlot() int {
	cp.s.nslots++
	return cp.s.nslots - 1
}

// freeInfo returns the variables free in f, as currently bound.
func (cp *compiler) freeInfo(f Formula) []Variable {
	var out []Variable
	for _, n := range FreeVars(f) {
		if v, ok := cp.lookup(n); ok && v.Kind != LetVar {
			out = append(out, v)
		}
	}
	return out
}

// isNonterminal reports whether name is a label the spec knows: a
// nonterminal of the graph, or the virtual start.
func (cp *compiler) isNonterminal(name string) bool {
	if cp.s.graph.RHS(name) != nil {
		return true
	}
	return name == "start" && cp.s.virtual
}

// reachable returns the nonterminals that can occur strictly below a node
// labeled nt.
func (cp *compiler) reachable(nt string) map[string]bool {
	if r, ok := cp.reach[nt]; ok {
		return r
	}
	r := map[string]bool{}
	cp.reach[nt] = r
	gr := cp.s.graph
	var todo []*grammar.Node
	if nt == "start" && cp.s.virtual {
		r[gr.Root.Rule] = true
		todo = append(todo, gr.Root)
	} else if rhs := gr.RHS(nt); rhs != nil {
		todo = append(todo, rhs)
	}
	seen := map[*grammar.Node]bool{}
	for len(todo) > 0 {
		n := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		if n.Kind == grammar.KindRef {
			r[n.Name] = true
		}
		todo = append(todo, n.Children...)
	}
	return r
}

// directKids returns the nonterminals that can be direct children of a node
// labeled nt.
func (cp *compiler) directKids(nt string) map[string]bool {
	if r, ok := cp.direct[nt]; ok {
		return r
	}
	r := map[string]bool{}
	cp.direct[nt] = r
	gr := cp.s.graph
	if nt == "start" && cp.s.virtual {
		r[gr.Root.Rule] = true
		return r
	}
	var walk func(n *grammar.Node)
	seen := map[*grammar.Node]bool{}
	walk = func(n *grammar.Node) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		if n.Kind == grammar.KindRef {
			r[n.Name] = true
			return
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(gr.RHS(nt))
	return r
}

func (cp *compiler) canContain(outer, inner string) bool {
	return outer == inner || cp.reachable(outer)[inner]
}

func (cp *compiler) formula(f Formula) Compiled {
	switch f := f.(type) {
	case *SMT:
		t, ok := cp.term(f.Term)
		if !ok {
			return nil
		}
		if t.Sort != smtlib.SortBool {
			cp.errorf(f.Position(), "formula %s is of sort %s, not Bool", FormatTerm(f.Term), t.Sort)
			return nil
		}
		n := &CompiledSMT{Src: f, Term: t, Vars: cp.freeInfo(f)}
		n.pin = cp.pinOf(f.Term)
		return n
	case *Pred:
		return cp.pred(f)
	case *Not:
		x := cp.formula(f.X)
		return &CompiledNot{Src: f, X: x, Vars: cp.freeInfo(f)}
	case *Binary:
		x, y := cp.formula(f.X), cp.formula(f.Y)
		yFirst := (f.Op == And || f.Op == Or) && evalCost(y) < evalCost(x)
		return &CompiledBinary{Src: f, X: x, Y: y, Vars: cp.freeInfo(f), yFirst: yFirst}
	case *Quantifier:
		return cp.quantifier(f)
	case *IntQuantifier:
		v := Variable{Name: f.Var, Kind: IntVar, Slot: cp.newSlot()}
		vars := cp.freeInfo(f)
		cp.push(v)
		body := cp.formula(f.Body)
		cp.pop(v)
		return &CompiledIntQuantifier{Src: f, Slot: v.Slot, Body: body, Vars: vars}
	case nil:
		cp.errorf(Pos{}, "missing formula")
		return nil
	}
	cp.errorf(f.Position(), "unknown formula type %T", f)
	return nil
}

func (cp *compiler) quantifier(f *Quantifier) Compiled {
	n := &CompiledQuantifier{Src: f, Exists: f.Exists, Vars: cp.freeInfo(f), Child: 0}
	in, ok := cp.lookup(f.In)
	switch {
	case !ok:
		cp.errorf(f.P, "undefined variable %s", f.In)
	case in.Kind != TreeVar:
		cp.errorf(f.P, "%s is not bound to a tree, so a quantifier cannot search it", f.In)
		ok = false
	}
	if !cp.isNonterminal(f.Type) {
		cp.errorf(f.P, "unknown nonterminal <%s>", f.Type)
		ok = false
	} else if ok && !cp.canContain(in.Type, f.Type) {
		cp.errorf(f.P, "<%s> cannot occur in <%s> (the tree of %s)", f.Type, in.Type, f.In)
	}
	n.In, n.inType = in.Slot, in.Type
	n.Label = cp.s.lb.IDs[f.Type]
	v := Variable{Name: f.Var, Kind: TreeVar, Slot: cp.newSlot(), Type: f.Type}
	n.Slot = v.Slot
	n.Bound = []Variable{v}
	if f.Match != nil {
		n.Match = cp.match(f.Match, f.Type, f.Var)
		if n.Match != nil {
			for i, e := range binders(f.Match) {
				n.Bound = append(n.Bound, Variable{Name: e.Var, Kind: TreeVar, Slot: n.Match.Binders[i], Type: e.Type})
			}
		}
	}
	// An XPath child step: the body is "nth_child(k, var, in) implies/and ...".
	if b, ok2 := f.Body.(*Binary); ok2 && f.Match == nil && (b.Op == Implies && !f.Exists || b.Op == And && f.Exists) {
		if p, ok3 := b.X.(*Pred); ok3 && p.Name == nthChild && len(p.Args) == 3 {
			k, _ := p.Args[0].(*IntLit)
			x, _ := p.Args[1].(*Var)
			y, _ := p.Args[2].(*Var)
			if k != nil && x != nil && y != nil && x.Name == f.Var && y.Name == f.In && k.Value.IsInt64() && k.Value.Int64() >= 1 && k.Value.Int64() <= 1<<20 {
				n.Child = int(k.Value.Int64())
				if ok && cp.isNonterminal(f.Type) && !cp.directKids(in.Type)[f.Type] {
					cp.errorf(p.P, "<%s> is never a direct child of <%s>", f.Type, in.Type)
				}
			}
		}
	}
	cp.push(n.Bound...)
	n.Body = cp.formula(f.Body)
	cp.pop(n.Bound...)
	return n
}

func binders(m *MatchExpr) []MatchElem {
	var out []MatchElem
	for _, e := range m.Elems {
		if e.Kind == MatchBind {
			out = append(out, e)
		}
	}
	return out
}

// match compiles a match expression for a quantifier over typ.
func (cp *compiler) match(m *MatchExpr, typ, qvar string) *CompiledMatch {
	cm := &CompiledMatch{}
	ok := true
	seen := map[string]bool{qvar: true}
	nvariants := 1
	check := func(e MatchElem) {
		if !cp.isNonterminal(e.Type) {
			cp.errorf(e.P, "unknown nonterminal <%s> in match expression (for a literal '<', write \\<)", e.Type)
			ok = false
		} else if cp.isNonterminal(typ) && !cp.canContain(typ, e.Type) {
			cp.errorf(e.P, "<%s> cannot occur in <%s>", e.Type, typ)
			ok = false
		}
	}
	for _, e := range m.Elems {
		switch e.Kind {
		case MatchBind:
			check(e)
			if seen[e.Var] {
				cp.errorf(e.P, "variable %s bound twice", e.Var)
				ok = false
			}
			seen[e.Var] = true
			cm.Binders = append(cm.Binders, cp.newSlot())
		case MatchHole:
			check(e)
		case MatchOptional:
			for _, o := range e.Opt {
				if o.Kind == MatchHole {
					check(o)
				}
			}
			nvariants *= 2
			if nvariants > maxMatchVariants {
				cp.errorf(e.P, "too many optional parts in match expression (at most %d)", 10)
				return nil
			}
		}
	}
	if !ok {
		return nil
	}
	for mask := 0; mask < nvariants; mask++ {
		var pat []MatchPart
		addText := func(t string) {
			if l := len(pat); l > 0 && pat[l-1].Label < 0 {
				pat[l-1].Lit += t
			} else {
				pat = append(pat, MatchPart{Lit: t, Label: -1, Bind: -1})
			}
		}
		bit, nb := 0, 0
		for _, e := range m.Elems {
			switch e.Kind {
			case MatchText:
				addText(e.Text)
			case MatchHole:
				pat = append(pat, MatchPart{Label: cp.s.lb.IDs[e.Type], Bind: -1})
			case MatchBind:
				pat = append(pat, MatchPart{Label: cp.s.lb.IDs[e.Type], Bind: nb})
				nb++
			case MatchOptional:
				if mask&(1<<bit) != 0 {
					for _, o := range e.Opt {
						if o.Kind == MatchText {
							addText(o.Text)
						} else {
							pat = append(pat, MatchPart{Label: cp.s.lb.IDs[o.Type], Bind: -1})
						}
					}
				}
				bit++
			}
		}
		cm.Variants = append(cm.Variants, pat)
	}
	if !cp.canMatch(cm, typ) {
		cp.errorf(m.P, "match expression %s can never match <%s>: no derivation of <%s> has that form",
			quoteMatchBytes(formatMatch(m.Elems, false)), typ, typ)
		return nil
	}
	return cm
}

// canMatch reports whether some variant of a match expression is a
// sentential form of the nonterminal typ (true if typ is the virtual
// start, which the grammar does not define).
func (cp *compiler) canMatch(cm *CompiledMatch, typ string) bool {
	rhs := cp.s.graph.RHS(typ)
	if rhs == nil {
		return true
	}
	for _, variant := range cm.Variants {
		if len(variant) == 1 && variant[0].Label >= 0 && cp.s.lb.Names[variant[0].Label] == typ {
			return true // the node itself
		}
		var toks []pattern.Token
		for _, e := range variant {
			if e.Label < 0 {
				toks = pattern.AppendText(toks, e.Lit)
				continue
			}
			toks = append(toks, pattern.Token{Hole: true, Label: cp.s.lb.Names[e.Label], Bind: e.Bind})
		}
		if pattern.NewParser(cp.s.graph, rhs, toks).Reaches(rhs, 0, len(toks)) {
			return true
		}
	}
	return false
}

// pinOf recognizes (= n t), (= t n), (= (str.to_int n) t) and (= t
// (str.to_int n)) for a numeric variable n not occurring in t.
func (cp *compiler) pinOf(t Term) *pin {
	app, ok := t.(*App)
	if !ok || app.Op != "=" || len(app.Args) != 2 {
		return nil
	}
	for side := 0; side < 2; side++ {
		x := app.Args[side]
		viaInt := false
		if a, ok := x.(*App); ok && (a.Op == "str.to_int" || a.Op == "str.to.int") && len(a.Args) == 1 {
			x, viaInt = a.Args[0], true
		}
		v, ok := x.(*Var)
		if !ok {
			continue
		}
		info, ok := cp.lookup(v.Name)
		if !ok || info.Kind != IntVar {
			continue
		}
		other := app.Args[1-side]
		uses := false
		freeVarsTerm(other, map[string]int{}, func(n string) { uses = uses || n == v.Name })
		if uses {
			continue
		}
		ct, ok := cp.term(other)
		if !ok {
			return nil
		}
		return &pin{slot: info.Slot, viaInt: viaInt, other: ct}
	}
	return nil
}

var levelRelations = []string{"EQ", "GE", "LE", "GT", "LT"}

func (cp *compiler) pred(f *Pred) Compiled {
	n := &CompiledPred{Src: f, Vars: cp.freeInfo(f), numArg: -1, label: -1}
	params, isStructural := structural[f.Name]
	if !isStructural {
		p, ok := cp.s.preds[f.Name]
		if !ok {
			known := []string{}
			for k := range structural {
				known = append(known, k)
			}
			for k := range cp.s.preds {
				known = append(known, k)
			}
			sort.Strings(known)
			cp.errorf(f.P, "unknown predicate %s (known: %s)", f.Name, strings.Join(known, ", "))
			return nil
		}
		n.Impl = p
		params = p.Params()
		if ts, ok := p.(TreeSolver); ok {
			n.Writes = append(n.Writes, ts.Writes()...)
		}
	}
	if len(f.Args) != len(params) {
		cp.errorf(f.P, "%s takes %d arguments, not %d", f.Name, len(params), len(f.Args))
		return nil
	}
	ok := true
	for i, a := range f.Args {
		ca := CompiledArg{Kind: params[i], Slot: -1}
		switch params[i] {
		case TreeParam:
			v, isVar := a.(*Var)
			if !isVar {
				cp.errorf(a.Position(), "argument %d of %s must be a variable bound to a tree", i+1, f.Name)
				ok = false
				break
			}
			info, found := cp.lookup(v.Name)
			switch {
			case !found:
				cp.errorf(v.P, "undefined variable %s", v.Name)
				ok = false
			case info.Kind != TreeVar:
				cp.errorf(v.P, "argument %d of %s must be bound to a tree; %s is a number", i+1, f.Name, v.Name)
				ok = false
			}
			ca.Slot = info.Slot
			if aw, ok := n.Impl.(argWriter); ok && found && slices.Contains(aw.writesArgs(), i) && !slices.Contains(n.Writes, info.Type) {
				n.Writes = append(n.Writes, info.Type)
			}
		case StringParam:
			s, isStr := a.(*StrLit)
			if !isStr {
				cp.errorf(a.Position(), "argument %d of %s must be a string literal", i+1, f.Name)
				ok = false
				break
			}
			b, _ := smtlib.ToBytes(s.Value)
			ca.Lit = b
		case NumParam:
			n.numArg = i
			switch a := a.(type) {
			case *IntLit:
				ca.Lit = a.Value.String()
			case *StrLit:
				if !smtlib.IsDigits(a.Value) {
					cp.errorf(a.P, "argument %d of %s must be a number, not %s", i+1, f.Name, smtlib.QuoteString(a.Value))
					ok = false
				}
				ca.Lit = a.Value
			case *Var:
				info, found := cp.lookup(a.Name)
				if !found || info.Kind == LetVar {
					cp.errorf(a.P, "undefined variable %s", a.Name)
					ok = false
				}
				ca.Slot, ca.IsInt = info.Slot, info.Kind == IntVar
			default:
				cp.errorf(a.Position(), "argument %d of %s must be a number or a variable", i+1, f.Name)
				ok = false
			}
		}
		n.Args = append(n.Args, ca)
	}
	if !ok {
		return nil
	}
	switch {
	case f.Name == "level":
		rel := n.Args[0].Lit
		if !slices.Contains(levelRelations, rel) {
			cp.errorf(f.Args[0].Position(), "level: relation %q must be one of %s", rel, strings.Join(levelRelations, ", "))
			return nil
		}
		nt, isNT := cutNonterminal(n.Args[1].Lit)
		if !isNT || !cp.isNonterminal(nt) {
			cp.errorf(f.Args[1].Position(), "level: %q is not a nonterminal of the grammar", n.Args[1].Lit)
			return nil
		}
		n.level, n.label = rel, cp.s.lb.IDs[nt]
	case n.Impl == Count:
		nt, isNT := cutNonterminal(n.Args[1].Lit)
		if !isNT || !cp.isNonterminal(nt) {
			cp.errorf(f.Args[1].Position(), "count: %q is not a nonterminal of the grammar", n.Args[1].Lit)
			return nil
		}
	}
	return n
}

func cutNonterminal(s string) (string, bool) {
	if len(s) > 2 && s[0] == '<' && s[len(s)-1] == '>' {
		return s[1 : len(s)-1], true
	}
	return "", false
}

// term compiles an SMT-LIB term, checking sorts.
func (cp *compiler) term(t Term) (CompiledTerm, bool) {
	switch t := t.(type) {
	case *Var:
		info, ok := cp.lookup(t.Name)
		if !ok {
			cp.errorf(t.P, "undefined variable %s", t.Name)
			return CompiledTerm{}, false
		}
		slot := info.Slot
		switch info.Kind {
		case TreeVar:
			return CompiledTerm{Sort: smtlib.SortString, Eval: func(e *Evaluator) smtlib.Value {
				return smtlib.Value{Str: e.View.str(e.Slots[slot].Node)}
			}}, true
		case IntVar:
			return CompiledTerm{Sort: smtlib.SortString, Eval: func(e *Evaluator) smtlib.Value {
				return smtlib.Value{Str: e.Slots[slot].Num}
			}}, true
		default:
			return CompiledTerm{Sort: info.Sort, Eval: func(e *Evaluator) smtlib.Value { return e.lets[slot] }}, true
		}
	case *StrLit:
		v := smtlib.Value{Str: t.Value}
		return CompiledTerm{Sort: smtlib.SortString, Const: true, Eval: func(*Evaluator) smtlib.Value { return v }}, true
	case *IntLit:
		v := smtlib.Value{Int: smtlib.FromBig(t.Value)}
		return CompiledTerm{Sort: smtlib.SortInt, Const: true, Eval: func(*Evaluator) smtlib.Value { return v }}, true
	case *BoolLit:
		v := smtlib.Value{Bool: t.Value}
		return CompiledTerm{Sort: smtlib.SortBool, Const: true, Eval: func(*Evaluator) smtlib.Value { return v }}, true
	case *App:
		return cp.app(t)
	case *Let:
		var binds []CompiledTerm
		ok := true
		for _, b := range t.Binds {
			ct, bok := cp.term(b.Value)
			ok = ok && bok
			binds = append(binds, ct)
		}
		if !ok {
			return CompiledTerm{}, false
		}
		var vs []Variable
		var slots []int
		for i, b := range t.Binds {
			v := Variable{Name: b.Name, Kind: LetVar, Slot: cp.s.nlets, Sort: binds[i].Sort}
			cp.s.nlets++
			vs = append(vs, v)
			slots = append(slots, v.Slot)
		}
		cp.push(vs...)
		body, ok := cp.term(t.Body)
		cp.pop(vs...)
		if !ok {
			return CompiledTerm{}, false
		}
		return CompiledTerm{Sort: body.Sort, Eval: func(e *Evaluator) smtlib.Value {
			vals := make([]smtlib.Value, len(binds))
			for i, b := range binds {
				vals[i] = b.Eval(e)
			}
			for i, s := range slots {
				e.lets[s] = vals[i]
			}
			return body.Eval(e)
		}}, true
	}
	cp.errorf(t.Position(), "unexpected term %s", FormatTerm(t))
	return CompiledTerm{}, false
}

func (cp *compiler) app(t *App) (CompiledTerm, bool) {
	var args []CompiledTerm
	ok := true
	for _, a := range t.Args {
		ct, aok := cp.term(a)
		ok = ok && aok
		args = append(args, ct)
	}
	if !ok {
		return CompiledTerm{}, false
	}
	name := FormatTerm(t)
	bad := func(format string, a ...any) (CompiledTerm, bool) {
		cp.errorf(t.P, "%s: %s", shorten(name), fmt.Sprintf(format, a...))
		return CompiledTerm{}, false
	}
	var result smtlib.Sort
	switch t.Op {
	case "=", "distinct":
		if len(args) < 2 {
			return bad("%s needs at least two arguments", t.Op)
		}
		for i, a := range args {
			if a.Sort != args[0].Sort {
				return bad("argument %d is of sort %s, argument 1 of sort %s", i+1, a.Sort, args[0].Sort)
			}
		}
		if args[0].Sort == smtlib.SortRegLan {
			return bad("comparing regular expressions is not supported")
		}
		result = smtlib.SortBool
	case "ite":
		if len(args) != 3 {
			return bad("ite takes 3 arguments, not %d", len(args))
		}
		if args[0].Sort != smtlib.SortBool {
			return bad("the condition of ite must be of sort Bool, not %s", args[0].Sort)
		}
		if args[1].Sort != args[2].Sort {
			return bad("the branches of ite are of sorts %s and %s", args[1].Sort, args[2].Sort)
		}
		result = args[1].Sort
	case "re.loop", "re.^":
		want := 2
		if t.Op == "re.^" {
			want = 1
		}
		switch {
		case len(t.Indices) > 0:
			if len(t.Indices) != want || len(args) != 1 {
				return bad("(_ %s) takes %d indices and one argument", t.Op, want)
			}
		case len(args) < 2 || len(args) > want+1:
			return bad("%s takes a regular expression and %d counts", t.Op, want)
		default:
			for _, a := range args[1:] {
				if a.Sort != smtlib.SortInt {
					return bad("the counts of %s must be of sort Int", t.Op)
				}
			}
		}
		if args[0].Sort != smtlib.SortRegLan {
			return bad("the argument of %s must be of sort RegLan, not %s", t.Op, args[0].Sort)
		}
		result = smtlib.SortRegLan
	default:
		sg, known := funcSigs[t.Op]
		if !known {
			return bad("unknown SMT-LIB function")
		}
		if len(t.Indices) > 0 {
			return bad("%s takes no indices", t.Op)
		}
		if sg.hasRest {
			if len(args) < sg.minArgs {
				return bad("%s needs at least %d arguments", t.Op, sg.minArgs)
			}
			for i, a := range args {
				if a.Sort != sg.rest {
					return bad("argument %d must be of sort %s, not %s", i+1, sg.rest, a.Sort)
				}
			}
		} else {
			if len(args) != len(sg.args) {
				return bad("%s takes %d arguments, not %d", t.Op, len(sg.args), len(args))
			}
			for i, a := range args {
				if a.Sort != sg.args[i] {
					return bad("argument %d must be of sort %s, not %s", i+1, sg.args[i], a.Sort)
				}
			}
		}
		result = sg.result
	}
	eval := applyFunc(t.Op, t.Indices, args)
	konst := true
	for _, a := range args {
		konst = konst && a.Const
	}
	if konst {
		v := eval(nil)
		eval = func(*Evaluator) smtlib.Value { return v }
	}
	return CompiledTerm{Sort: result, Eval: eval, Const: konst}, true
}

// SourceOf returns the source formula of a compiled formula.
func SourceOf(c Compiled) Formula { return c.source() }

// evalCost estimates what evaluating n costs, to order the operands of a
// conjunction or disjunction, which the Evaluator may decide in either
// order (evaluation has no side effects, and an undefined value counts as
// false either way): an SMT-LIB formula compares a few values; a
// structural predicate walks the tree's ancestors, level more of them; a
// semantic predicate computes; a quantifier visits nodes.
func evalCost(n Compiled) int {
	switch n := n.(type) {
	case *CompiledSMT:
		return 1
	case *CompiledPred:
		switch {
		case n.Impl != nil:
			return 8
		case n.level != "":
			return 4
		}
		return 2
	case *CompiledNot:
		return evalCost(n.X)
	case *CompiledBinary:
		return evalCost(n.X) + evalCost(n.Y)
	}
	return 50 // a quantifier
}
