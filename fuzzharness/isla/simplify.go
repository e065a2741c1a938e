package isla

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// The translation of simplified ISLa into core ISLa, after the ISLa
// language specification:
//
//   - A quantifier without "in" searches the constant: "in start".
//   - A quantifier without a variable name gets a fresh one; the
//     nonterminal of the quantifier, used where a variable may stand inside
//     it, refers to that variable.
//   - A nonterminal used where a variable may stand, and not bound that way,
//     is a free nonterminal: it becomes the variable of a new universal
//     quantifier over the constant, which is pushed into the formula as far
//     as ISLa pushes it: past conjuncts and disjuncts that do not mention it,
//     and into the bodies of universal quantifiers.
//   - An XPath expression x.<a>[i] stands for the i-th direct child of x
//     labeled <a>. It becomes a quantifier over <a> in x, restricted by the
//     structural predicate nth_child(i, var, x) and placed right inside the
//     quantifier that binds x, of the same kind: under a universal binder
//     "forall <a> v in x: (nth_child(i, v, x) implies ...)", under an
//     existential one "exists <a> v in x: (nth_child(i, v, x) and ...)".
//     Like ISLa's match expressions, this restricts x to the nodes that have
//     such a child. Equal XPath prefixes share one variable.
//   - x..<b> stands for every <b> below x: a universal quantifier
//     "forall <b> v in x: ..." pushed in like a free nonterminal, within the
//     binder of x.
//
// The binder of the constant and of free nonterminals counts as universal.

// nthChild is the structural predicate the child axis translates to.
const nthChild = "nth_child"

// A binding is one binding of a variable: by a quantifier, a match
// expression, a free nonterminal, an XPath step or the constant. XPath
// steps hang off the binding they start from.
type binding struct {
	name   string
	isInt  bool
	kids   []*chainLink          // XPath steps from this binding, in order of first use
	chains map[string]*chainLink // step key -> link
}

// chainLink is the variable introduced for an XPath step.
type chainLink struct {
	step xstep
	b    *binding // the binding of the step's node
}

type translator struct {
	lx    *lexer
	errs  *grammar.ErrorList
	c     *Constraint
	used  map[string]bool
	anon  map[string][]*binding // nonterminal -> enclosing anonymous quantifiers over it
	scope map[string][]*binding // variable -> its bindings in scope, innermost last
	konst *binding

	freeNT    map[string]*binding // free nonterminal -> its binding
	freeOrder []string            // free nonterminals in order of first use
}

func translate(c *Constraint, lx *lexer, errs *grammar.ErrorList) {
	tr := &translator{
		lx: lx, errs: errs, c: c,
		used:   map[string]bool{c.Const: true},
		anon:   map[string][]*binding{},
		scope:  map[string][]*binding{},
		freeNT: map[string]*binding{},
	}
	tr.konst = tr.newBinding(c.Const, false)
	collectNames(c.Formula, tr.used)
	f := tr.formula(c.Formula)
	if len(*errs) > 0 {
		return
	}
	f = tr.wrap(tr.konst, f, false)
	for i := len(tr.freeOrder) - 1; i >= 0; i-- {
		nt := tr.freeOrder[i]
		b := tr.freeNT[nt]
		f = pushIn(f, subtreeVars(b), func(body Formula) Formula {
			return &Quantifier{Type: nt, Var: b.name, In: c.Const, Body: tr.wrap(b, body, false), P: body.Position()}
		})
	}
	c.Formula = f
}

func (tr *translator) newBinding(name string, isInt bool) *binding {
	return &binding{name: name, isInt: isInt, chains: map[string]*chainLink{}}
}

func (tr *translator) errorf(pos Pos, format string, args ...any) {
	tr.errs.Add(pos, fmt.Sprintf(format, args...))
}

// collectNames records every name used in f, so that fresh names avoid them.
func collectNames(f Formula, used map[string]bool) {
	var term func(t Term)
	term = func(t Term) {
		switch t := t.(type) {
		case *Var:
			used[t.Name] = true
		case *xpathTerm:
			if !t.BaseType {
				used[t.Base] = true
			}
		case *App:
			for _, a := range t.Args {
				term(a)
			}
		case *Let:
			for _, b := range t.Binds {
				used[b.Name] = true
				term(b.Value)
			}
			term(t.Body)
		}
	}
	var form func(f Formula)
	form = func(f Formula) {
		switch f := f.(type) {
		case *SMT:
			term(f.Term)
		case *Pred:
			for _, a := range f.Args {
				term(a)
			}
		case *Not:
			form(f.X)
		case *Binary:
			form(f.X)
			form(f.Y)
		case *Quantifier:
			used[f.Var] = true
			if f.inTerm != nil {
				term(f.inTerm)
			}
			if f.Match != nil {
				for _, e := range f.Match.Elems {
					if e.Kind == MatchBind {
						used[e.Var] = true
					}
				}
			}
			form(f.Body)
		case *IntQuantifier:
			used[f.Var] = true
			form(f.Body)
		}
	}
	form(f)
}

// fresh returns a new variable name derived from a nonterminal name.
func (tr *translator) fresh(base string) string {
	var b strings.Builder
	for i := 0; i < len(base); i++ {
		c := base[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' {
			b.WriteByte(c)
		} else {
			b.WriteByte('_')
		}
	}
	name := b.String()
	if name == "" || !isIdentStart(name[0]) {
		name = "v" + name
	}
	if keywords[name] || smtFuncs[name] {
		name += "_"
	}
	cand := name
	for i := 1; tr.used[cand]; i++ {
		cand = fmt.Sprintf("%s_%d", name, i)
	}
	tr.used[cand] = true
	return cand
}

func (tr *translator) push(bs ...*binding) {
	for _, b := range bs {
		tr.scope[b.name] = append(tr.scope[b.name], b)
	}
}

func (tr *translator) pop(bs ...*binding) {
	for _, b := range bs {
		s := tr.scope[b.name]
		tr.scope[b.name] = s[:len(s)-1]
	}
}

// lookup returns the binding of a variable in scope, or nil.
func (tr *translator) lookup(name string) *binding {
	if s := tr.scope[name]; len(s) > 0 {
		return s[len(s)-1]
	}
	if name == tr.c.Const {
		return tr.konst
	}
	return nil
}

// formula resolves names in f and rebuilds it in core ISLa, wrapping the
// body of every quantifier with the quantifiers of XPath steps from its
// variables.
func (tr *translator) formula(f Formula) Formula {
	switch f := f.(type) {
	case *SMT:
		return &SMT{Term: tr.term(f.Term)}
	case *Pred:
		g := &Pred{Name: f.Name, P: f.P}
		for _, a := range f.Args {
			g.Args = append(g.Args, tr.term(a))
		}
		return g
	case *Not:
		return &Not{X: tr.formula(f.X), P: f.P}
	case *Binary:
		return &Binary{Op: f.Op, X: tr.formula(f.X), Y: tr.formula(f.Y), P: f.P}
	case *Quantifier:
		q := &Quantifier{Exists: f.Exists, Type: f.Type, Var: f.Var, Match: f.Match, P: f.P}
		q.In = tr.inVar(f)
		if f.anonymous {
			q.Var = tr.fresh(f.Type)
		}
		bs := []*binding{tr.newBinding(q.Var, false)}
		if q.Match != nil {
			for _, e := range q.Match.Elems {
				if e.Kind == MatchBind {
					bs = append(bs, tr.newBinding(e.Var, false))
				}
			}
		}
		if f.anonymous {
			tr.anon[f.Type] = append(tr.anon[f.Type], bs[0])
		}
		tr.push(bs...)
		body := tr.formula(f.Body)
		tr.pop(bs...)
		if f.anonymous {
			s := tr.anon[f.Type]
			tr.anon[f.Type] = s[:len(s)-1]
		}
		for i := len(bs) - 1; i >= 0; i-- {
			body = tr.wrap(bs[i], body, q.Exists)
		}
		q.Body = body
		return q
	case *IntQuantifier:
		b := tr.newBinding(f.Var, true)
		tr.push(b)
		body := tr.formula(f.Body)
		tr.pop(b)
		return &IntQuantifier{Exists: f.Exists, Var: f.Var, Body: body, P: f.P}
	}
	return f
}

// inVar resolves the in-part of a quantifier to a variable name.
func (tr *translator) inVar(q *Quantifier) string {
	switch t := q.inTerm.(type) {
	case nil:
		return tr.c.Const
	case *ntTerm:
		if (t.Type == "start" || t.Type == tr.c.ConstType) && len(tr.anon[t.Type]) == 0 {
			return tr.c.Const
		}
	}
	v, ok := tr.term(q.inTerm).(*Var)
	if !ok {
		return tr.c.Const
	}
	if b := tr.lookup(v.Name); b != nil && b.isInt {
		tr.errorf(v.P, "%s is a number, not a tree: a quantifier cannot search it", v.Name)
	}
	return v.Name
}

// term resolves names in t.
func (tr *translator) term(t Term) Term {
	switch t := t.(type) {
	case *Var:
		if tr.lookup(t.Name) == nil {
			tr.errorf(t.P, "undefined variable %s", t.Name)
		}
		return t
	case *ntTerm:
		return &Var{Name: tr.ntBinding(t.Type).name, P: t.P}
	case *xpathTerm:
		var b *binding
		if t.BaseType {
			b = tr.ntBinding(t.Base)
		} else if b = tr.lookup(t.Base); b == nil {
			tr.errorf(t.P, "undefined variable %s", t.Base)
			return &Var{Name: t.Base, P: t.P}
		} else if b.isInt {
			tr.errorf(t.P, "%s is a number, not a tree: XPath steps cannot start from it", t.Base)
			return &Var{Name: t.Base, P: t.P}
		}
		for _, s := range t.Steps {
			b = tr.link(b, s)
		}
		return &Var{Name: b.name, P: t.P}
	case *App:
		a := &App{Op: t.Op, Indices: t.Indices, P: t.P}
		for _, x := range t.Args {
			a.Args = append(a.Args, tr.term(x))
		}
		return a
	case *Let:
		l := &Let{P: t.P}
		var bs []*binding
		for _, b := range t.Binds {
			l.Binds = append(l.Binds, LetBind{Name: b.Name, Value: tr.term(b.Value), P: b.P})
			bs = append(bs, tr.newBinding(b.Name, false))
		}
		tr.push(bs...)
		l.Body = tr.term(t.Body)
		tr.pop(bs...)
		return l
	}
	return t
}

// ntBinding returns the binding a nonterminal stands for: that of the
// nearest enclosing anonymous quantifier over it, or its free-nonterminal
// binding.
func (tr *translator) ntBinding(nt string) *binding {
	if s := tr.anon[nt]; len(s) > 0 {
		return s[len(s)-1]
	}
	if b, ok := tr.freeNT[nt]; ok {
		return b
	}
	b := tr.newBinding(tr.fresh(nt), false)
	tr.freeNT[nt] = b
	tr.freeOrder = append(tr.freeOrder, nt)
	return b
}

// link returns the binding for the XPath step s from the binding parent;
// equal steps from one binding share it.
func (tr *translator) link(parent *binding, s xstep) *binding {
	key := fmt.Sprintf("%s\x00%d\x00%t", s.Type, s.Index, s.Desc)
	if l, ok := parent.chains[key]; ok {
		return l.b
	}
	l := &chainLink{step: s, b: tr.newBinding(tr.fresh(s.Type), false)}
	parent.chains[key] = l
	parent.kids = append(parent.kids, l)
	return l.b
}

// subtreeVars returns the variable of b and of every XPath step below b.
func subtreeVars(b *binding) map[string]bool {
	out := map[string]bool{b.name: true}
	var walk func(*binding)
	walk = func(p *binding) {
		for _, l := range p.kids {
			out[l.b.name] = true
			walk(l.b)
		}
	}
	walk(b)
	return out
}

// wrap adds to body, which is in the scope of the binding p, the
// quantifiers of the XPath steps from p: descendant steps pushed in, child
// steps around the whole, universal or existential like p's binder.
func (tr *translator) wrap(p *binding, body Formula, exists bool) Formula {
	if len(p.kids) == 0 {
		return body
	}
	b := body
	for _, l := range p.kids {
		if !l.step.Desc {
			continue
		}
		l := l
		b = pushIn(b, subtreeVars(l.b), func(x Formula) Formula {
			return &Quantifier{Type: l.step.Type, Var: l.b.name, In: p.name, Body: tr.wrap(l.b, x, false), P: l.step.P}
		})
	}
	for i := len(p.kids) - 1; i >= 0; i-- {
		l := p.kids[i]
		if l.step.Desc {
			continue
		}
		guard := &Pred{Name: nthChild, Args: []Term{
			&IntLit{Value: big.NewInt(int64(l.step.Index)), P: l.step.P},
			&Var{Name: l.b.name, P: l.step.P},
			&Var{Name: p.name, P: l.step.P},
		}, P: l.step.P}
		inner := tr.wrap(l.b, b, exists)
		op := Implies
		if exists {
			op = And
		}
		b = &Quantifier{Exists: exists, Type: l.step.Type, Var: l.b.name, In: p.name,
			Body: &Binary{Op: op, X: guard, Y: inner, P: l.step.P}, P: l.step.P}
	}
	return b
}

// pushIn adds a universal quantifier, built by mk around a subformula, for
// the variables vars to f, pushing it as far in as ISLa does: conjuncts and
// disjuncts that do not mention vars stay outside, and universal
// quantifiers are entered.
func pushIn(f Formula, vars map[string]bool, mk func(Formula) Formula) Formula {
	if !mentions(f, vars) {
		return f
	}
	switch g := f.(type) {
	case *Binary:
		if g.Op != And && g.Op != Or {
			break
		}
		parts := flatten(g, g.Op)
		first := -1
		var dep []Formula
		for i, x := range parts {
			if mentions(x, vars) {
				if first < 0 {
					first = i
				}
				dep = append(dep, x)
			}
		}
		if len(dep) == len(parts) {
			break
		}
		var out []Formula
		for i, x := range parts {
			if i == first {
				out = append(out, pushIn(rebuild(dep, g.Op), vars, mk))
			} else if !mentions(x, vars) {
				out = append(out, x)
			}
		}
		return rebuild(out, g.Op)
	case *Quantifier:
		if g.Exists || vars[g.In] {
			break
		}
		// Entering g must not capture the variables mk's quantifier uses.
		probe := FreeVars(mk(&SMT{Term: &BoolLit{Value: true}}))
		if capturesAny(g, probe) {
			break
		}
		h := *g
		h.Body = pushIn(g.Body, vars, mk)
		return &h
	}
	return mk(f)
}

func capturesAny(q *Quantifier, names []string) bool {
	bound := map[string]bool{q.Var: true}
	if q.Match != nil {
		for _, e := range q.Match.Elems {
			if e.Kind == MatchBind {
				bound[e.Var] = true
			}
		}
	}
	for _, n := range names {
		if bound[n] {
			return true
		}
	}
	return false
}

func mentions(f Formula, vars map[string]bool) bool {
	for _, v := range FreeVars(f) {
		if vars[v] {
			return true
		}
	}
	return false
}

// flatten returns the operands of a chain of op.
func flatten(f Formula, op Op) []Formula {
	if b, ok := f.(*Binary); ok && b.Op == op {
		return append(flatten(b.X, op), flatten(b.Y, op)...)
	}
	return []Formula{f}
}

// rebuild joins parts with op, associating to the left.
func rebuild(parts []Formula, op Op) Formula {
	f := parts[0]
	for _, x := range parts[1:] {
		f = &Binary{Op: op, X: f, Y: x, P: f.Position()}
	}
	return f
}
