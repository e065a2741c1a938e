package solver

import (
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"strconv"
)

// The formulas of a solver state are instances of the compiled formula: a
// compiled node with the values of its free variables (an env), possibly
// negated. Negations are pushed inwards lazily: an instance of "not F" is
// F with neg set, and a negated quantifier is its dual over the negated
// body.

// env binds variable slots: a node id for a tree variable, an index into
// the state's integer variables for a numeric one. It is an immutable
// list, shared between instances.
type env struct {
	slot int
	val  int32
	next *env
}

func (e *env) bind(slot int, val int32) *env { return &env{slot: slot, val: val, next: e} }

func (e *env) lookup(slot int) (int32, bool) {
	for ; e != nil; e = e.next {
		if e.slot == slot {
			return e.val, true
		}
	}
	return 0, false
}

// item is one formula of a state.
type item struct {
	n   isla.Compiled
	env *env
	neg bool
	// done lists, for a universal quantifier, the nodes it was instantiated
	// with or that can never match it.
	done []int32
}

// exists reports whether a quantifier item is effectively existential.
func (it item) exists() bool {
	switch n := it.n.(type) {
	case *isla.CompiledQuantifier:
		return n.Exists != it.neg
	case *isla.CompiledIntQuantifier:
		return n.Src.Exists != it.neg
	}
	return false
}

// key identifies an instance: the formula, its polarity and the values of
// its free variables.
func (s *Solver) key(it item) string {
	b := strconv.AppendInt(nil, int64(s.nodeID[it.n]), 10)
	if it.neg {
		b = append(b, '!')
	}
	for _, v := range s.freeSlots[it.n] {
		x, _ := it.env.lookup(v)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return string(b)
}

// tri is a three-valued truth value.
type tri uint8

const (
	triUnknown tri = iota
	triTrue
	triFalse
)

func triOf(b bool) tri {
	if b {
		return triTrue
	}
	return triFalse
}

// dnf is a formula in disjunctive normal form: a list of conjunctions. The
// empty list is false; a list holding an empty conjunction is true.
type dnf [][]item

var (
	dnfTrue  = dnf{{}}
	dnfFalse = dnf{}
)

func (d dnf) isTrue() bool { return len(d) == 1 && len(d[0]) == 0 }

// maxDisjuncts bounds the disjuncts of a normalized formula.
const maxDisjuncts = 64

func (s *Solver) and(a, b dnf) dnf {
	switch {
	case len(a) == 0 || len(b) == 0:
		return dnfFalse
	case a.isTrue():
		return b
	case b.isTrue():
		return a
	}
	var out dnf
	for _, x := range a {
		for _, y := range b {
			if len(out) == maxDisjuncts {
				s.incomplete(NoLimit, "a formula has more than %d disjuncts", maxDisjuncts)
				return out
			}
			c := make([]item, 0, len(x)+len(y))
			out = append(out, append(append(c, x...), y...))
		}
	}
	return out
}

func (s *Solver) or(a, b dnf) dnf {
	if a.isTrue() || b.isTrue() {
		return dnfTrue
	}
	out := append(append(dnf(nil), a...), b...)
	if len(out) > maxDisjuncts {
		s.incomplete(NoLimit, "a formula has more than %d disjuncts", maxDisjuncts)
		out = out[:maxDisjuncts]
	}
	return out
}

// normalize puts an instance into negation normal form and disjunctive
// normal form, deciding the atoms it can decide in the state: the result
// holds quantifiers and undecided atoms only.
func (s *Solver) normalize(c *evalCtx, it item) dnf {
	switch n := it.n.(type) {
	case *isla.CompiledNot:
		return s.normalize(c, item{n: n.X, env: it.env, neg: !it.neg})
	case *isla.CompiledBinary:
		x := func(neg bool) dnf { return s.normalize(c, item{n: n.X, env: it.env, neg: neg}) }
		y := func(neg bool) dnf { return s.normalize(c, item{n: n.Y, env: it.env, neg: neg}) }
		op := n.Src.Op
		switch {
		case op == isla.And && !it.neg:
			return s.and(x(false), y(false))
		case op == isla.And && it.neg:
			return s.or(x(true), y(true))
		case op == isla.Or && !it.neg:
			return s.or(x(false), y(false))
		case op == isla.Or && it.neg:
			return s.and(x(true), y(true))
		case op == isla.Implies && !it.neg:
			return s.or(x(true), y(false))
		case op == isla.Implies && it.neg:
			return s.and(x(false), y(true))
		case op == isla.Iff && !it.neg, op == isla.Xor && it.neg:
			return s.or(s.and(x(false), y(false)), s.and(x(true), y(true)))
		default: // isla.Iff negated, isla.Xor
			return s.or(s.and(x(false), y(true)), s.and(x(true), y(false)))
		}
	case *isla.CompiledSMT, *isla.CompiledPred:
		switch c.decideSearch(it) {
		case triTrue:
			return dnfTrue
		case triFalse:
			return dnfFalse
		}
	}
	return dnf{{it}}
}
