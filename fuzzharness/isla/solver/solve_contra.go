package solver

import (
	"bytes"
	"slices"
	"strconv"

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
	seen := &s.simp.canonSeen // canonical atom -> its polarity
	seen.reset()
	b := s.simp.canon[:0]
	defer func() { s.simp.canon = b[:0] }()
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
		var eq bool
		b, eq, ok = appendCanon(b[:0], t, n.Vars, it.env)
		if !ok {
			continue
		}
		if eq && neg {
			return true
		}
		if pol, ok := seen.get(b); ok && pol != neg {
			return true
		}
		seen.put(b, neg)
	}
	return false
}

// appendCanon appends a canonical form of the term t under env to b:
// variables as the nodes (tree variables) or numeric constants (integer
// variables) they are bound to, the two arguments of = sorted. It reports
// false for a term it cannot write so (a let, an unbound variable), and
// eq: t is an = of two terms of the same canonical form.
func appendCanon(b []byte, t isla.Term, vars []isla.Variable, e *env) (_ []byte, eq, ok bool) {
	switch t := t.(type) {
	case *isla.Var:
		i := slices.IndexFunc(vars, func(v isla.Variable) bool { return v.Name == t.Name })
		if i < 0 || slices.ContainsFunc(vars[i+1:], func(v isla.Variable) bool { return v.Name == t.Name }) {
			return b, false, false
		}
		v := vars[i]
		x, ok := e.lookup(v.Slot)
		if !ok {
			return b, false, false
		}
		switch v.Kind {
		case isla.TreeVar:
			b = append(b, '#')
		case isla.IntVar:
			b = append(b, '$')
		default:
			return b, false, false
		}
		b = strconv.AppendInt(b, int64(x), 10)
	case *isla.StrLit:
		b = strconv.AppendQuote(b, t.Value)
	case *isla.IntLit:
		b = t.Value.Append(b, 10)
	case *isla.BoolLit:
		b = strconv.AppendBool(b, t.Value)
	case *isla.App:
		b = append(b, '(')
		b = append(b, t.Op...)
		for _, x := range t.Indices {
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(x), 10)
		}
		if t.Op == "=" && len(t.Args) == 2 {
			b = append(b, ' ')
			p := len(b)
			if b, _, ok = appendCanon(b, t.Args[0], vars, e); !ok {
				return b, false, false
			}
			q := len(b)
			b = append(b, ' ')
			if b, _, ok = appendCanon(b, t.Args[1], vars, e); !ok {
				return b, false, false
			}
			l, r := b[p:q], b[q+1:]
			switch bytes.Compare(r, l) {
			case 0:
				eq = true
			case -1:
				// "l r" becomes "r l": reversing the whole and then
				// each part.
				slices.Reverse(b[p:])
				slices.Reverse(b[p : p+len(r)])
				slices.Reverse(b[p+len(r)+1:])
			}
			return append(b, ')'), eq, true
		}
		for _, a := range t.Args {
			b = append(b, ' ')
			if b, _, ok = appendCanon(b, a, vars, e); !ok {
				return b, false, false
			}
		}
		b = append(b, ')')
	default:
		return b, false, false
	}
	return b, false, true
}
