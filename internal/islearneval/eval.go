package islearneval

import (
	"context"
	"fmt"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
	"github.com/seed72891827/kfuzz/learn/islearn"
)

// A Result is the evaluation of one subject.
type Result struct {
	Subject *Subject
	// Best is the top-ranked mined constraint; Candidates the number of
	// constraints mined.
	Best       islearn.Candidate
	Candidates int
	// TrainPos and TrainNeg count the training samples.
	TrainPos, TrainNeg int
	// The confusion matrix of Best on the held-out samples: true and
	// false positives and negatives (valid inputs accepted, invalid ones
	// accepted, valid ones rejected, invalid ones rejected).
	TP, FP, FN, TN int
	// Mine is the time mining took (samples made before it do not count).
	Mine time.Duration
}

// Recall is TP/(TP+FN) on the held-out samples.
func (r *Result) Recall() float64 { return ratio(r.TP, r.TP+r.FN) }

// Specificity is TN/(TN+FP) on the held-out samples.
func (r *Result) Specificity() float64 { return ratio(r.TN, r.TN+r.FP) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Run makes the subject's samples, mines constraints from the training
// samples and checks the best one on the held-out samples.
func Run(ctx context.Context, s *Subject, seed uint64) (*Result, error) {
	sm, err := s.samples(ctx, s, seed)
	if err != nil {
		return nil, err
	}
	opts := append([]islearn.Option{islearn.Seed(seed), islearn.WithPredicates(s.Predicates...)}, s.Options...)
	start := time.Now()
	cands, err := islearn.Learn(ctx, s.Grammar, sm.TrainPos, sm.TrainNeg, opts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	r := &Result{Subject: s, Candidates: len(cands), TrainPos: len(sm.TrainPos), TrainNeg: len(sm.TrainNeg), Mine: time.Since(start)}
	if len(cands) == 0 {
		return nil, fmt.Errorf("%s: no constraint mined", s.Name)
	}
	r.Best = cands[0]
	spec, err := Compile(s, r.Best.Formula)
	if err != nil {
		return nil, fmt.Errorf("%s: the mined constraint: %w", s.Name, err)
	}
	accept := func(b []byte) bool {
		res, err := spec.Check(b)
		return err == nil && res.Valid
	}
	for _, b := range sm.HeldPos {
		if accept(b) {
			r.TP++
		} else {
			r.FN++
		}
	}
	for _, b := range sm.HeldNeg {
		if accept(b) {
			r.FP++
		} else {
			r.TN++
		}
	}
	return r, nil
}

// Compile compiles a constraint for the subject's grammar, with its
// predicates.
func Compile(s *Subject, formula string) (*isla.Spec, error) {
	c, err := isla.Parse("mined.isla", []byte(formula))
	if err != nil {
		return nil, err
	}
	gr, err := grammar.Compile(s.Grammar)
	if err != nil {
		return nil, err
	}
	return isla.Compile(c, gr, isla.WithPredicates(s.Predicates...))
}

// solve returns n inputs that the solver makes for spec.
func solve(ctx context.Context, spec *isla.Spec, seed uint64, n int) ([][]byte, error) {
	sv, err := solver.New(spec, solver.Seed(seed))
	if err != nil {
		return nil, err
	}
	trees, err := sv.Solve(ctx, n)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(trees))
	for i, t := range trees {
		out[i] = t.Bytes()
	}
	return out, nil
}
