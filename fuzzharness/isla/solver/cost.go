package solver

import (
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"math"
)

// cost computes the cost of a state: the weighted geometric mean of six
// cost factors, as in ISLa,
//
//	cost = (Π (f_i + 1)^w_i)^(1 / Σ w_i) - 1
//
// over the factors with a non-zero weight:
//
//   - tree closing: the sum of the estimated closing costs (Solver.closing)
//     of the nonterminals of the open leaves;
//   - constraint: the formulas left, an existential quantifier counting
//     most (its elimination may need tree insertion), quantifiers the more
//     the deeper they nest;
//   - derivation depth: the number of transitions from the initial state,
//     which keeps old states from starving;
//   - k-path coverage: the share of the grammar's k-paths the tree lacks;
//   - global k-path coverage: the share of the tree's k-paths that earlier
//     solutions covered (the record starts over once all are covered);
//   - vacuity: the share of the universal quantifiers whose nonterminal
//     occurs nowhere in the tree, which hold only vacuously if it stays so
//     (ISLa's cost penalizes vacuously satisfied universals likewise).
func (s *Solver) cost(st *state) float64 {
	w := s.cfg.weights
	var f [6]float64
	st.root.walk(func(n *stree) bool {
		if n.open {
			f[0] += s.closing[n.g.Name]
		}
		return n.nopen > 0
	})
	if w.Vacuity != 0 && len(s.universals) > 0 {
		have := map[string]bool{}
		st.root.walk(func(n *stree) bool {
			if n.g != nil && n.g.Kind == grammar.KindRef {
				have[n.g.Name] = true
			}
			return true
		})
		for _, name := range s.universals {
			if !have[name] {
				f[5]++
			}
		}
		f[5] /= float64(len(s.universals))
	}
	for _, it := range st.forms {
		f[1] += formulaCost(it.n, it.exists())
	}
	f[2] = float64(st.steps)
	if s.pathTable != nil && !st.root.open {
		pt := s.pathTable
		set := s.arena.pathsOf(pt, st.root.kids[0])
		lo, hi := pt.Range(pt.K)
		have := set.CountRange(lo, hi)
		if total := hi - lo; total > 0 {
			f[3] = 1 - float64(have)/float64(total)
		}
		if have > 0 {
			old := 0
			for i := lo; i < hi; i++ {
				if set.Has(i) && s.covered.Has(i) {
					old++
				}
			}
			f[4] = float64(old) / float64(have)
		}
	} else {
		f[3], f[4] = 1, 1
	}
	ws := [6]float64{w.TreeClosing, w.Constraint, w.Depth, w.KPath, w.GlobalKPath, w.Vacuity}
	logSum, wSum := 0.0, 0.0
	for i, wi := range ws {
		if wi == 0 {
			continue
		}
		logSum += wi * math.Log(f[i]+1)
		wSum += wi
	}
	if wSum == 0 {
		return 0
	}
	return math.Exp(logSum/wSum) - 1
}

// formulaCost is the constraint cost of a formula: 1 for an atom, and for a
// quantifier a base (10 existential, 2 universal) plus twice its body's.
func formulaCost(n isla.Compiled, exists bool) float64 {
	switch n := n.(type) {
	case *isla.CompiledQuantifier:
		base := 2.0
		if exists {
			base = 10
		}
		return base + 2*formulaCost(n.Body, n.Exists)
	case *isla.CompiledIntQuantifier:
		return 1 + formulaCost(n.Body, n.Src.Exists)
	case *isla.CompiledNot:
		return formulaCost(n.X, !exists)
	case *isla.CompiledBinary:
		return formulaCost(n.X, exists) + formulaCost(n.Y, exists)
	}
	return 1
}
