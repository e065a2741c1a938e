package solver

import (
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// valid reports whether an output, of text input, satisfies the
// constraint, as Spec.EvalTree decides it, on a view that reuses the
// memory of the one before: the solver checks every output it returns.
func (s *Solver) valid(t *grammar.Tree, input []byte) bool {
	s.checkView = isla.NewViewReusing(s.checkView, input, t, s.spec.Labels(), s.spec.RootLabel(), s.spec.VirtualRoot())
	if s.checkEval == nil {
		s.checkEval = isla.NewEvaluator(s.spec, s.checkView)
	} else {
		s.checkEval.Reset(s.checkView)
	}
	return s.checkEval.Eval(s.spec.Formula())
}
