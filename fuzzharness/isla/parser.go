package isla

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// Parse parses an ISLa constraint, core or simplified, and translates it to
// core ISLa (see the package documentation for the language). The file name
// is used in positions only. Syntax errors, and errors of the translation
// such as unbound variables, are returned as a grammar.ErrorList of
// positioned errors, each saying what was expected.
func Parse(filename string, src []byte) (*Constraint, error) {
	var errs grammar.ErrorList
	lx := newLexer(filename, src, &errs)
	p := &parser{lx: lx, toks: lx.tokenize(), errs: &errs, memo: map[int]termResult{}}
	c := p.parseConstraint()
	if c == nil {
		p.reportFailure()
	}
	if len(errs) == 0 {
		translate(c, lx, &errs)
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return c, nil
}

// MustParse is like Parse for a constraint known to be correct, such as a
// literal in a program; it panics on error.
func MustParse(src string) *Constraint {
	c, err := Parse("", []byte(src))
	if err != nil {
		panic(err)
	}
	return c
}

// keywords cannot be variable names.
var keywords = map[string]bool{
	"forall": true, "exists": true, "not": true, "and": true, "or": true, "xor": true,
	"implies": true, "iff": true, "in": true, "const": true, "int": true, "true": true,
	"false": true, "let": true,
}

// smtFuncs are the SMT-LIB function names the parser knows. An identifier
// followed by '(' names a predicate unless it is one of these.
var smtFuncs = map[string]bool{
	"not": true, "and": true, "or": true, "xor": true, "=>": true, "=": true, "distinct": true, "ite": true,
	"+": true, "-": true, "*": true, "div": true, "mod": true, "abs": true,
	"<=": true, "<": true, ">=": true, ">": true,
	"str.++": true, "str.len": true, "str.<": true, "str.<=": true, "str.at": true, "str.substr": true,
	"str.prefixof": true, "str.suffixof": true, "str.contains": true, "str.indexof": true,
	"str.replace": true, "str.replace_all": true, "str.replace_re": true, "str.replace_re_all": true,
	"str.is_digit": true, "str.to_code": true, "str.from_code": true, "str.to_int": true,
	"str.to.int": true, "str.from_int": true, "int.to.str": true, "str.in_re": true, "str.in.re": true,
	"str.to_re": true, "str.to.re": true,
	"re.none": true, "re.all": true, "re.allchar": true, "re.++": true, "re.union": true, "re.inter": true,
	"re.*": true, "re.+": true, "re.opt": true, "re.range": true, "re.loop": true, "re.^": true,
	"re.comp": true, "re.diff": true,
}

// nullaryFuncs are written without parentheses.
var nullaryFuncs = map[string]bool{"re.none": true, "re.all": true, "re.allchar": true}

// Raw terms that only the parser produces; translate replaces them.

// ntTerm is a nonterminal used where a variable may stand: a free
// nonterminal or the variable of an enclosing quantifier without a name.
type ntTerm struct {
	Type string
	P    Pos
}

// xpathTerm is an XPath expression base.<a>[i]..<b>.
type xpathTerm struct {
	Base     string // a variable, or a nonterminal if BaseType
	BaseType bool
	Steps    []xstep
	P        Pos
}

// xstep is one step of an XPath expression: .<Type>[Index] (child axis) or
// ..<Type> (descendant axis).
type xstep struct {
	Type  string
	Index int // child axis: 1-based position among the children of the type
	Desc  bool
	P     Pos
}

// Position returns where the nonterminal is written.
func (t *ntTerm) Position() Pos { return t.P }

// Position returns where the XPath expression starts.
func (t *xpathTerm) Position() Pos { return t.P }
func (*ntTerm) term()              {}
func (*xpathTerm) term()           {}

type termResult struct {
	t    Term
	next int
	ok   bool
}

// parser is a recursive-descent parser with backtracking at parentheses
// (memoized, so it stays linear). Failures record the furthest position
// reached and what was expected there; if the parse fails, that is the
// error reported.
type parser struct {
	lx   *lexer
	toks []token
	i    int
	errs *grammar.ErrorList
	memo map[int]termResult

	depth int

	failAt   int      // furthest token index of a failure
	expected []string // what was expected there
	failMsg  string   // a message other than "expected", if any
}

const maxNesting = 400

func (p *parser) tok() token { return p.toks[p.i] }

func (p *parser) peek(k int) token {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) pos(t token) Pos { return p.lx.pos(t.off) }

// fail records that at the current token one of what was expected.
func (p *parser) fail(what ...string) bool {
	switch {
	case p.i > p.failAt:
		p.failAt, p.expected, p.failMsg = p.i, append([]string(nil), what...), ""
	case p.i == p.failAt:
		for _, w := range what {
			if !slices.Contains(p.expected, w) {
				p.expected = append(p.expected, w)
			}
		}
	}
	return false
}

// failf records an error message at the current token.
func (p *parser) failf(format string, args ...any) bool {
	if p.i > p.failAt || p.i == p.failAt && p.failMsg == "" {
		p.failAt, p.failMsg, p.expected = p.i, fmt.Sprintf(format, args...), nil
	}
	return false
}

func (p *parser) reportFailure() {
	if p.failAt >= len(p.toks) {
		p.failAt = len(p.toks) - 1
	}
	t := p.toks[p.failAt]
	for _, e := range *p.lx.errs {
		if e.Pos.Offset <= t.off {
			return // a lexical error explains the failure
		}
	}
	if p.failMsg != "" {
		p.lx.errs.Add(p.pos(t), p.failMsg)
		return
	}
	exp := p.expected
	if len(exp) == 0 {
		exp = []string{"a formula"}
	}
	var what string
	switch len(exp) {
	case 1:
		what = exp[0]
	case 2:
		what = exp[0] + " or " + exp[1]
	default:
		what = strings.Join(exp[:len(exp)-1], ", ") + " or " + exp[len(exp)-1]
	}
	p.lx.errs.Add(p.pos(t), fmt.Sprintf("expected %s, found %s", what, describeToken(t)))
}

func describeToken(t token) string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tIdent:
		if keywords[t.text] {
			return "keyword " + t.text
		}
		return "'" + shorten(t.text) + "'"
	case tNonterm:
		return "<" + shorten(t.text) + ">"
	case tString:
		return "string " + shorten(t.text)
	case tInt:
		return "number " + shorten(t.text)
	case tIllegal:
		return fmt.Sprintf("%q", t.text)
	}
	return "'" + t.text + "'"
}

func shorten(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

func (p *parser) isIdent(text string) bool {
	t := p.tok()
	return t.kind == tIdent && t.text == text
}

func (p *parser) expect(kind tokKind, what string) (token, bool) {
	t := p.tok()
	if t.kind != kind {
		return t, p.fail(what)
	}
	p.i++
	return t, true
}

func (p *parser) enter() bool {
	p.depth++
	if p.depth > maxNesting {
		return p.failf("formula nested too deeply (more than %d levels)", maxNesting)
	}
	return true
}

func (p *parser) leave() { p.depth-- }

// parseConstraint parses [const name: <type>;] formula EOF.
func (p *parser) parseConstraint() *Constraint {
	c := &Constraint{Const: "start"}
	if p.isIdent("const") {
		c.ConstPos = p.pos(p.tok())
		p.i++
		name, ok := p.expect(tIdent, "a constant name")
		if !ok {
			return nil
		}
		if keywords[name.text] || smtFuncs[name.text] {
			p.i--
			p.failf("%s cannot be a constant name", describeToken(name))
			return nil
		}
		if _, ok := p.expect(tColon, "':'"); !ok {
			return nil
		}
		typ, ok := p.expect(tNonterm, "a nonterminal type such as <start>")
		if !ok {
			return nil
		}
		if _, ok := p.expect(tSemi, "';'"); !ok {
			return nil
		}
		c.Const, c.ConstType = name.text, typ.text
	}
	f, ok := p.parseFormula()
	if !ok {
		return nil
	}
	if p.tok().kind != tEOF {
		p.fail("'and'", "'or'", "'xor'", "'implies'", "'iff'", "end of input")
		return nil
	}
	c.Formula = f
	return c
}

var levelOps = []struct {
	kw string
	op Op
}{{"and", And}, {"or", Or}, {"xor", Xor}, {"implies", Implies}, {"iff", Iff}}

func (p *parser) parseFormula() (Formula, bool) { return p.parseLevel(len(levelOps) - 1) }

// parseLevel parses binary formulas of precedence level l and tighter; all
// connectives associate to the left, as in ISLa.
func (p *parser) parseLevel(l int) (Formula, bool) {
	if l < 0 {
		return p.parseUnary()
	}
	x, ok := p.parseLevel(l - 1)
	if !ok {
		return nil, false
	}
	for p.isIdent(levelOps[l].kw) {
		p.i++
		y, ok := p.parseLevel(l - 1)
		if !ok {
			return nil, false
		}
		x = &Binary{Op: levelOps[l].op, X: x, Y: y, P: x.Position()}
	}
	return x, true
}

// parseUnary parses not, quantifiers and primary formulas. Quantifiers bind
// tighter than every connective, as in ISLa: "forall <a> x: A and B" is
// "(forall <a> x: A) and B".
func (p *parser) parseUnary() (Formula, bool) {
	if !p.enter() {
		return nil, false
	}
	defer p.leave()
	t := p.tok()
	if t.kind == tIdent {
		switch t.text {
		case "not":
			p.i++
			x, ok := p.parseUnary()
			if !ok {
				return nil, false
			}
			return &Not{X: x, P: p.pos(t)}, true
		case "forall", "exists":
			return p.parseQuantifier()
		}
	}
	return p.parsePrimaryFormula()
}

func (p *parser) parseQuantifier() (Formula, bool) {
	kw := p.tok()
	p.i++
	exists := kw.text == "exists"
	if p.isIdent("int") {
		p.i++
		name, ok := p.parseVarName()
		if !ok {
			return nil, false
		}
		if _, ok := p.expect(tColon, "':'"); !ok {
			return nil, false
		}
		body, ok := p.parseUnary()
		if !ok {
			return nil, false
		}
		return &IntQuantifier{Exists: exists, Var: name, Body: body, P: p.pos(kw)}, true
	}
	typ, ok := p.expect(tNonterm, "a nonterminal type such as <expr>, or 'int'")
	if !ok {
		return nil, false
	}
	q := &Quantifier{Exists: exists, Type: typ.text, P: p.pos(kw)}
	if t := p.tok(); t.kind == tIdent && t.text != "in" {
		name, ok := p.parseVarName()
		if !ok {
			return nil, false
		}
		q.Var = name
	} else {
		q.anonymous = true
	}
	if t := p.tok(); t.kind == tOp && t.text == "=" {
		p.i++
		s, ok := p.expect(tString, "a match expression in quotes")
		if !ok {
			return nil, false
		}
		q.Match = parseMatchExpr(p.lx, s)
	}
	if p.isIdent("in") {
		p.i++
		in, ok := p.parseVarOrPath()
		if !ok {
			return nil, false
		}
		q.inTerm = in
	}
	if _, ok := p.expect(tColon, "':'"); !ok {
		return nil, false
	}
	body, ok := p.parseUnary()
	if !ok {
		return nil, false
	}
	q.Body = body
	return q, true
}

// parseVarName parses an identifier that may name a variable.
func (p *parser) parseVarName() (string, bool) {
	t := p.tok()
	if t.kind != tIdent {
		return "", p.fail("a variable name")
	}
	if keywords[t.text] || smtFuncs[t.text] {
		return "", p.failf("%s cannot be a variable name", describeToken(t))
	}
	p.i++
	return t.text, true
}

// parseVarOrPath parses a variable or nonterminal with an optional XPath
// suffix.
func (p *parser) parseVarOrPath() (Term, bool) {
	t := p.tok()
	var base Term
	switch t.kind {
	case tIdent:
		name, ok := p.parseVarName()
		if !ok {
			return nil, false
		}
		base = &Var{Name: name, P: p.pos(t)}
	case tNonterm:
		p.i++
		base = &ntTerm{Type: t.text, P: p.pos(t)}
	default:
		return nil, p.fail("a variable", "a nonterminal")
	}
	return p.parsePathSuffix(base)
}

// parsePathSuffix parses .<a>[i] and ..<b> steps after a variable or
// nonterminal.
func (p *parser) parsePathSuffix(base Term) (Term, bool) {
	var steps []xstep
	for {
		t := p.tok()
		if (t.kind != tDot && t.kind != tDotDot) || p.peek(1).kind != tNonterm {
			break
		}
		nt := p.peek(1)
		p.i += 2
		st := xstep{Type: nt.text, Desc: t.kind == tDotDot, P: p.pos(nt)}
		if !st.Desc {
			st.Index = 1
			if p.tok().kind == tLBrack {
				p.i++
				n, ok := p.expect(tInt, "a position such as 1")
				if !ok {
					return nil, false
				}
				v, ok := new(big.Int).SetString(n.text, 10)
				if !ok || !v.IsInt64() || v.Int64() < 1 || v.Int64() > 1<<20 {
					p.i--
					return nil, p.failf("position %s out of range (1 to %d)", n.text, 1<<20)
				}
				st.Index = int(v.Int64())
				if _, ok := p.expect(tRBrack, "']'"); !ok {
					return nil, false
				}
			}
		}
		steps = append(steps, st)
	}
	if len(steps) == 0 {
		return base, true
	}
	x := &xpathTerm{Steps: steps, P: base.Position()}
	switch b := base.(type) {
	case *Var:
		x.Base = b.Name
	case *ntTerm:
		x.Base, x.BaseType = b.Type, true
	}
	return x, true
}

// parsePrimaryFormula parses a parenthesized formula, a predicate formula or
// an SMT-LIB formula.
func (p *parser) parsePrimaryFormula() (Formula, bool) {
	t := p.tok()
	switch {
	case t.kind == tLParen:
		save := p.i
		if term, ok := p.parseTerm(); ok {
			return &SMT{Term: term}, true
		}
		p.i = save + 1
		f, ok := p.parseFormula()
		if !ok {
			return nil, false
		}
		if _, ok := p.expect(tRParen, "')'"); !ok {
			p.fail("'and'", "'or'", "'xor'", "'implies'", "'iff'")
			return nil, false
		}
		return f, true
	case t.kind == tIdent && !keywords[t.text] && !smtFuncs[t.text] && p.peek(1).kind == tLParen:
		return p.parsePredicate()
	}
	term, ok := p.parseTerm()
	if !ok {
		return nil, false
	}
	return &SMT{Term: term}, true
}

func (p *parser) parsePredicate() (Formula, bool) {
	name := p.tok()
	p.i += 2
	args, ok := p.parseArgs(p.parsePredArg)
	if !ok {
		return nil, false
	}
	return &Pred{Name: name.text, P: p.pos(name), Args: args}, true
}

// parseArgs parses the arguments of a call after its "(": at least one
// argument, read by arg, separated by commas, and the closing ")".
func (p *parser) parseArgs(arg func() (Term, bool)) ([]Term, bool) {
	var args []Term
	for {
		a, ok := arg()
		if !ok {
			return nil, false
		}
		args = append(args, a)
		if p.tok().kind == tComma {
			p.i++
			continue
		}
		if _, ok := p.expect(tRParen, "',' or ')'"); !ok {
			return nil, false
		}
		return args, true
	}
}

func (p *parser) parsePredArg() (Term, bool) {
	t := p.tok()
	switch t.kind {
	case tInt:
		p.i++
		return p.intLit(t)
	case tString:
		p.i++
		return &StrLit{Value: t.str.text(), P: p.pos(t)}, true
	case tIdent, tNonterm:
		return p.parseVarOrPath()
	}
	return nil, p.fail("a variable", "a nonterminal", "a string", "a number")
}

func (p *parser) intLit(t token) (Term, bool) {
	v, ok := new(big.Int).SetString(t.text, 10)
	if !ok {
		return nil, p.failf("bad number %s", t.text)
	}
	return &IntLit{Value: v, P: p.pos(t)}, true
}

// Term precedence, from the loosest: comparisons (= >= <= > < str.<=
// str.<), then + and -, then * div mod, then str.++ and re.++, then unary
// minus. Each level associates to the left.
var termLevels = [][]string{
	{"=", ">=", "<=", ">", "<", "str.<=", "str.<"},
	{"+", "-"},
	{"*", "div", "mod"},
	{"str.++", "re.++"},
}

func (p *parser) parseTerm() (Term, bool) { return p.parseTermLevel(0) }

func (p *parser) termOp(level int) (string, bool) {
	t := p.tok()
	if t.kind != tOp && t.kind != tIdent {
		return "", false
	}
	if slices.Contains(termLevels[level], t.text) {
		return t.text, true
	}
	return "", false
}

func (p *parser) parseTermLevel(l int) (Term, bool) {
	if l == len(termLevels) {
		return p.parseUnaryTerm()
	}
	if !p.enter() {
		return nil, false
	}
	defer p.leave()
	x, ok := p.parseTermLevel(l + 1)
	if !ok {
		return nil, false
	}
	for {
		op, ok := p.termOp(l)
		if !ok {
			return x, true
		}
		p.i++
		y, ok := p.parseTermLevel(l + 1)
		if !ok {
			return nil, false
		}
		x = &App{Op: op, Args: []Term{x, y}, P: x.Position()}
	}
}

func (p *parser) parseUnaryTerm() (Term, bool) {
	t := p.tok()
	if t.kind == tOp && t.text == "-" {
		if !p.enter() {
			return nil, false
		}
		defer p.leave()
		p.i++
		x, ok := p.parseUnaryTerm()
		if !ok {
			return nil, false
		}
		return &App{Op: "-", Args: []Term{x}, P: p.pos(t)}, true
	}
	return p.parsePrimaryTerm()
}

func (p *parser) parsePrimaryTerm() (Term, bool) {
	t := p.tok()
	switch t.kind {
	case tInt:
		p.i++
		return p.intLit(t)
	case tString:
		p.i++
		return &StrLit{Value: t.str.text(), P: p.pos(t)}, true
	case tNonterm:
		return p.parseVarOrPath()
	case tLParen:
		return p.parseParen()
	case tIdent:
		switch {
		case t.text == "true" || t.text == "false":
			p.i++
			return &BoolLit{Value: t.text == "true", P: p.pos(t)}, true
		case nullaryFuncs[t.text]:
			p.i++
			if p.tok().kind == tLParen && p.peek(1).kind == tRParen {
				p.i += 2
			}
			return &App{Op: t.text, P: p.pos(t)}, true
		case smtFuncs[t.text]:
			if p.peek(1).kind != tLParen {
				p.i++
				return nil, p.fail("'(' after " + t.text)
			}
			return p.parseCall()
		case keywords[t.text]:
			return nil, p.fail("a term")
		}
		return p.parseVarOrPath()
	}
	return nil, p.fail("a term")
}

// parseCall parses f(a, b, ...).
func (p *parser) parseCall() (Term, bool) {
	name := p.tok()
	p.i += 2
	app := &App{Op: name.text, P: p.pos(name)}
	if p.tok().kind == tRParen {
		p.i++
		return app, true
	}
	if !p.enter() {
		return nil, false
	}
	defer p.leave()
	args, ok := p.parseArgs(p.parseTerm)
	if !ok {
		return nil, false
	}
	app.Args = args
	return app, true
}

// parseParen parses a parenthesized infix term "(x + 1)" or an S-expression
// "(+ x 1)", trying them in that order. Results are memoized by position.
func (p *parser) parseParen() (Term, bool) {
	start := p.i
	if r, ok := p.memo[start]; ok {
		if r.ok {
			p.i = r.next
		}
		return r.t, r.ok
	}
	if !p.enter() {
		return nil, false
	}
	defer p.leave()
	p.i++
	if t, ok := p.parseTerm(); ok && p.tok().kind == tRParen {
		p.i++
		p.memo[start] = termResult{t, p.i, true}
		return t, true
	}
	p.i = start + 1
	t, ok := p.parseSexpr(p.toks[start])
	p.memo[start] = termResult{t, p.i, ok}
	return t, ok
}

// parseSexpr parses the rest of an S-expression after its '(':
// (op args...), ((_ op n...) args...) or (let ((x t)...) body).
func (p *parser) parseSexpr(open token) (Term, bool) {
	app := &App{P: p.pos(open)}
	t := p.tok()
	switch {
	case t.kind == tLParen && p.peek(1).kind == tIdent && p.peek(1).text == "_":
		p.i += 2
		op := p.tok()
		if op.kind != tIdent || !smtFuncs[op.text] {
			return nil, p.fail("an indexed function such as re.loop")
		}
		p.i++
		app.Op = op.text
		for p.tok().kind == tInt {
			n := p.tok()
			v, ok := new(big.Int).SetString(n.text, 10)
			if !ok || !v.IsInt64() || v.Int64() > 1<<30 {
				return nil, p.failf("index %s out of range", n.text)
			}
			app.Indices = append(app.Indices, int(v.Int64()))
			p.i++
		}
		if len(app.Indices) == 0 {
			return nil, p.fail("a numeral")
		}
		if _, ok := p.expect(tRParen, "')'"); !ok {
			return nil, false
		}
	case t.kind == tIdent && t.text == "let":
		p.i++
		return p.parseLet(open)
	case t.kind == tOp || t.kind == tIdent && smtFuncs[t.text]:
		app.Op = t.text
		p.i++
	default:
		return nil, p.fail("an SMT-LIB function such as = or str.len")
	}
	for p.tok().kind != tRParen {
		arg, ok := p.parseSexprArg()
		if !ok {
			return nil, false
		}
		app.Args = append(app.Args, arg)
	}
	p.i++
	return app, true
}

// parseSexprArg parses an argument of an S-expression: a literal, a
// variable, an XPath expression, a call f(...) or a parenthesized term.
func (p *parser) parseSexprArg() (Term, bool) {
	t := p.tok()
	if t.kind == tOp && t.text == "-" && p.peek(1).kind == tInt {
		// (- 1) is the SMT-LIB way; accept -1 too, as the negated literal.
		p.i++
		n := p.tok()
		p.i++
		lit, ok := p.intLit(n)
		if !ok {
			return nil, false
		}
		return &App{Op: "-", Args: []Term{lit}, P: p.pos(t)}, true
	}
	if t.kind == tRParen || t.kind == tEOF {
		return nil, p.fail("an argument", "')'")
	}
	return p.parsePrimaryTerm()
}

func (p *parser) parseLet(open token) (Term, bool) {
	let := &Let{P: p.pos(open)}
	if _, ok := p.expect(tLParen, "'(' starting the let bindings"); !ok {
		return nil, false
	}
	for p.tok().kind == tLParen {
		b := p.tok()
		p.i++
		name, ok := p.parseVarName()
		if !ok {
			return nil, false
		}
		v, ok := p.parseTerm()
		if !ok {
			return nil, false
		}
		if _, ok := p.expect(tRParen, "')'"); !ok {
			return nil, false
		}
		let.Binds = append(let.Binds, LetBind{Name: name, Value: v, P: p.pos(b)})
	}
	if len(let.Binds) == 0 {
		return nil, p.fail("a binding (name term)")
	}
	if _, ok := p.expect(tRParen, "')'"); !ok {
		return nil, false
	}
	body, ok := p.parseTerm()
	if !ok {
		return nil, false
	}
	if _, ok := p.expect(tRParen, "')'"); !ok {
		return nil, false
	}
	let.Body = body
	return let, true
}
