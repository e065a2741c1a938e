package islearneval

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
)

// A LoopResult compares a fuzz harness with the grammar only and with the
// grammar and a mined constraint.
type LoopResult struct {
	// Plain and Constrained are the counts of the two harnesses.
	Plain, Constrained Share
	// Solved counts the inputs the solver made for the constraint (as
	// the harness's constraint seeds are made), SolvedValid those of them
	// the oracle accepts; SolveErr says why the solver gave up, if it did.
	Solved, SolvedValid int
	SolveErr            error
}

// LoopSolved is the number of inputs Loop asks the solver for.
const LoopSolved = 20

// Loop gives the constraint (mined for the subject, say by Run) to a
// harness with fuzzharness.WithConstraint(solver.NewRepairer(spec)) and
// counts, with ValidShare, the executions among n that ran the target on
// an input the subject's oracle accepts, with and without the constraint;
// it also asks the solver for LoopSolved inputs of the constraint and
// counts the valid ones (a solver that gives up is no error: SolveErr).
func Loop(ctx context.Context, s *Subject, formula string, seed uint64, n int) (*LoopResult, error) {
	spec, err := Compile(s, formula)
	if err != nil {
		return nil, err
	}
	rep, err := solver.NewRepairer(spec)
	if err != nil {
		return nil, err
	}
	r := &LoopResult{}
	// The repairer's trees are of the spec's graph: both harnesses use it.
	if r.Plain, err = ValidShare(spec.Graph(), nil, s.Valid, n, seed); err != nil {
		return nil, err
	}
	if r.Constrained, err = ValidShare(spec.Graph(), rep, s.Valid, n, seed); err != nil {
		return nil, err
	}
	solved, err := solve(ctx, spec, seed, LoopSolved)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		r.SolveErr = err
	}
	r.Solved = len(solved)
	for _, b := range solved {
		if s.Valid(b) {
			r.SolvedValid++
		}
	}
	return r, nil
}

// A Share counts the executions of a fuzz harness: Execs inputs decoded,
// Reached of them passed to the target (not skipped), Valid of those
// valid by the oracle.
type Share struct {
	Execs, Reached, Valid int
}

// Rate is Valid/Execs: the share of executions that ran the target on a
// valid input.
func (s Share) Rate() float64 { return ratio(s.Valid, s.Execs) }

// ReachedRate is Valid/Reached: the share of the target's runs that got a
// valid input.
func (s Share) ReachedRate() float64 { return ratio(s.Valid, s.Reached) }

func (s Share) String() string {
	return fmt.Sprintf("%d of %d executions reached the target with a valid input (%.1f%%; %d reached it)",
		s.Valid, s.Execs, 100*s.Rate(), s.Reached)
}

// ValidShare runs a fuzzharness harness of gr (with fuzzharness.WithConstraint(c)
// if c is not nil) on n random byte strings of up to 256 bytes made from
// seed (gr must be the graph c's trees are of, such as the graph the spec
// of a solver.Repairer was compiled against), as go test -fuzz would run its target on the fuzzer's inputs, and
// counts how many executions ran the target on an input that valid
// accepts. The harness's own seeds are not counted. Repairs run without a
// time budget (fuzzharness.WithRepairBudget(0)), so that the counts depend on
// the seed alone, not on the machine's load.
func ValidShare(gr *grammar.Graph, c fuzzharness.Constraint, valid func([]byte) bool, n int, seed uint64) (Share, error) {
	var opts []fuzzharness.Option
	if c != nil {
		opts = append(opts, fuzzharness.WithConstraint(c), fuzzharness.WithConstraintSeeds(0), fuzzharness.WithRepairBudget(0))
	}
	f := &loopF{}
	var s Share
	fuzzharness.NewGraph(f, gr, opts...).FuzzString(func(t *loopT, in string) {
		s.Reached++
		if valid([]byte(in)) {
			s.Valid++
		}
	})
	if f.err != nil {
		return Share{}, f.err
	}
	body, ok := f.body.(func(*loopT, []byte))
	if !ok {
		return Share{}, fmt.Errorf("islearneval: the harness passed a %T to Fuzz", f.body)
	}
	rng := rand.New(rand.NewPCG(seed, 0x6c6f6f70))
	for range n {
		data := make([]byte, rng.IntN(257))
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		body(&loopT{}, data)
		s.Execs++
	}
	return s, nil
}

// loopF is the fuzzharness.F of ValidShare: it keeps the fuzz function.
type loopF struct {
	body any
	err  error
}

func (f *loopF) Add(args ...any)   {}
func (f *loopF) Fuzz(ff any)       { f.body = ff }
func (f *loopF) Fatal(args ...any) { f.err = fmt.Errorf("islearneval: %s", fmt.Sprint(args...)) }

// loopT is the T of ValidShare's target: a skipped input returns.
type loopT struct{}

func (*loopT) Log(args ...any)  {}
func (*loopT) Skip(args ...any) {}
