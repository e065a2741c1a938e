package islearneval

import (
	"fmt"
	"math/rand/v2"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// A Share counts the executions of a fuzz harness: Execs inputs decoded,
// Reached of them passed to the target (not skipped), Valid of those
// valid by the oracle.
type Share struct {
	Execs, Reached, Valid int
}

// Rate is Valid/Execs: the share of executions that ran the target on a
// valid input.
func (s Share) Rate() float64 { return ratio(s.Valid, s.Execs) }

func (s Share) String() string {
	return fmt.Sprintf("%d of %d executions reached the target with a valid input (%.1f%%; %d reached it)",
		s.Valid, s.Execs, 100*s.Rate(), s.Reached)
}

// ValidShare runs a fuzzharness harness of gr (with fuzzharness.WithConstraint(c)
// if c is not nil) on n random byte strings of up to 256 bytes made from
// seed, as go test -fuzz would run its target on the fuzzer's inputs, and
// counts how many executions ran the target on an input that valid
// accepts. The harness's own seeds are not counted.
func ValidShare(gr *grammar.Graph, c fuzzharness.Constraint, valid func([]byte) bool, n int, seed uint64) (Share, error) {
	var opts []fuzzharness.Option
	if c != nil {
		opts = append(opts, fuzzharness.WithConstraint(c), fuzzharness.WithConstraintSeeds(0))
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
