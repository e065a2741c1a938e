package solver

import (
	"slices"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// A state can hold an SMT-LIB atom and its negation over the same nodes:
// quantifiers instantiated on the same node by different paths (TAR's
// link_constraint binds an entry's file name twice, asks it to equal the
// linked entry's and to differ from it). Such a state is unsatisfiable
// whatever its open leaves become, yet the atoms' solver would try random
// values for them, and the SMT solver would be asked, for every state the
// search makes from it. contradictory finds these states in the search.

// contradictory reports whether the undecided atoms hold an SMT-LIB atom
// and its negation, up to the order of the arguments of =, or a negated
// (= t t).
func (s *Solver) contradictory(atoms []item) bool {
	var seen map[string]bool // canonical atom -> its polarity
	for _, it := range atoms {
		n, ok := it.n.(*isla.CompiledSMT)
		if !ok {
			continue
		}
		t, neg := n.Src.Term, it.neg
		for {
			a, ok := t.(*isla.App)
			if !ok || a.Op != "not" || len(a.Args) != 1 {
				break
			}
			t, neg = a.Args[0], !neg
		}
		var b strings.Builder
		if !canonTerm(&b, t, n.Vars, it.env) {
			continue
		}
		key := b.String()
		if a, ok := t.(*isla.App); ok && a.Op == "=" && len(a.Args) == 2 && neg {
			var l, r strings.Builder
			if canonTerm(&l, a.Args[0], n.Vars, it.env) && canonTerm(&r, a.Args[1], n.Vars, it.env) && l.String() == r.String() {
				return true
			}
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		if pol, ok := seen[key]; ok && pol != neg {
			return true
		}
		seen[key] = neg
	}
	return false
}

// canonTerm writes a canonical form of the term t under env: variables as
// the nodes (tree variables) or numeric constants (integer variables) they
// are bound to, the two arguments of = sorted. It reports false for a term
// it cannot write so (a let, an unbound variable).
func canonTerm(b *strings.Builder, t isla.Term, vars []isla.Variable, e *env) bool {
	switch t := t.(type) {
	case *isla.Var:
		i := slices.IndexFunc(vars, func(v isla.Variable) bool { return v.Name == t.Name })
		if i < 0 || slices.ContainsFunc(vars[i+1:], func(v isla.Variable) bool { return v.Name == t.Name }) {
			return false
		}
		v := vars[i]
		x, ok := e.lookup(v.Slot)
		if !ok {
			return false
		}
		switch v.Kind {
		case isla.TreeVar:
			b.WriteByte('#')
		case isla.IntVar:
			b.WriteByte('$')
		default:
			return false
		}
		b.WriteString(strconv.Itoa(int(x)))
	case *isla.StrLit:
		b.WriteString(strconv.Quote(t.Value))
	case *isla.IntLit:
		b.WriteString(t.Value.String())
	case *isla.BoolLit:
		b.WriteString(strconv.FormatBool(t.Value))
	case *isla.App:
		b.WriteByte('(')
		b.WriteString(t.Op)
		for _, x := range t.Indices {
			b.WriteString(" ")
			b.WriteString(strconv.Itoa(x))
		}
		if t.Op == "=" && len(t.Args) == 2 {
			var l, r strings.Builder
			if !canonTerm(&l, t.Args[0], vars, e) || !canonTerm(&r, t.Args[1], vars, e) {
				return false
			}
			ls, rs := l.String(), r.String()
			if rs < ls {
				ls, rs = rs, ls
			}
			b.WriteString(" " + ls + " " + rs + ")")
			return true
		}
		for _, a := range t.Args {
			b.WriteByte(' ')
			if !canonTerm(b, a, vars, e) {
				return false
			}
		}
		b.WriteByte(')')
	default:
		return false
	}
	return true
}
