package algebra

import (
	"fmt"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// Holds reports whether the expression e over the given patterns holds on
// the derivation tree t of the base grammar, by matching the patterns on
// the tree directly (no specialized grammar is involved): a pattern holds
// if some node of its nonterminal in t derives exactly the pattern's tree,
// any derivation standing in for a hole. t is a complete tree whose root is
// the right-hand side of a rule (as Forest.Tree and Generator.Generate
// return them) of any graph compiled from the base grammar.
func (a *Algebra) Holds(patterns []*Pattern, e *Expr, t *grammar.Tree) (bool, error) {
	byName := map[string]*Pattern{}
	for _, p := range patterns {
		if p.root == nil || a.b.rhs[p.Nonterminal] != p.root.pos {
			return false, fmt.Errorf("algebra: pattern %s was not parsed by this algebra", p.Name)
		}
		byName[p.Name] = p
	}
	for _, n := range e.Names() {
		if byName[n] == nil {
			return false, fmt.Errorf("algebra: undefined pattern %s", n)
		}
	}
	if t == nil || t.Node == nil {
		return false, fmt.Errorf("algebra: no tree")
	}
	rule := t.Node.Rule
	rhs := a.b.rhs[rule]
	if rhs == nil {
		return false, fmt.Errorf("algebra: <%s> is not a rule of the base grammar", rule)
	}
	pt, err := a.b.fromRHS(t, rule, rhs, nil)
	if err != nil {
		return false, err
	}
	memo := map[string]bool{}
	var eval func(*Expr) bool
	eval = func(x *Expr) bool {
		switch x.op {
		case opName:
			v, ok := memo[x.name]
			if !ok {
				v = occurs(rule, pt, byName[x.name])
				memo[x.name] = v
			}
			return v
		case opNot:
			return !eval(x.x)
		case opAnd:
			return eval(x.x) && eval(x.y)
		}
		return eval(x.x) || eval(x.y)
	}
	return eval(e), nil
}

// occurs reports whether pattern p matches some node of the tree whose
// root is the right-hand side pt of rule.
func occurs(rule string, pt *ptree, p *Pattern) bool {
	if rule == p.Nonterminal && matches(pt, p.root) {
		return true
	}
	found := false
	var walk func(*ptree)
	walk = func(t *ptree) {
		if found {
			return
		}
		if t.pos.kind == grammar.KindRef && t.pos.name == p.Nonterminal && matches(t.kids[0], p.root) {
			found = true
			return
		}
		for _, k := range t.kids {
			walk(k)
		}
	}
	walk(pt)
	return found
}

// matches reports whether tree t derives what pattern tree q does, holes
// matching anything.
func matches(t, q *ptree) bool {
	if q.hole {
		return true
	}
	if t.pos != q.pos || t.alt != q.alt || t.value != q.value || len(t.kids) != len(q.kids) {
		return false
	}
	for i := range t.kids {
		if !matches(t.kids[i], q.kids[i]) {
			return false
		}
	}
	return true
}
