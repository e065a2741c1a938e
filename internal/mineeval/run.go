package mineeval

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// A Miner synthesizes a grammar from seed inputs and a membership oracle.
// It may call oracle concurrently.
type Miner func(ctx context.Context, seeds [][]byte, oracle func([]byte) bool) (*grammar.Grammar, error)

// A CodeMiner synthesizes a grammar from a parser's code, without seeds or
// an oracle. It returns the grammar and the work it did in the unit that
// stands for oracle queries in the table (for ConfigSymbolic, the paths
// explored).
type CodeMiner func(ctx context.Context, code Code) (g *grammar.Grammar, work int64, err error)

// A Config is a miner under a name, such as "glade" or "symbolic": one that
// learns from seeds and an oracle (Mine) or one that reads the subject's
// code (MineCode, for subjects with Subject.Code only).
type Config struct {
	Name     string // as in the evaluation table
	Mine     Miner
	MineCode CodeMiner
}

// Runs reports whether c can run on s: a code miner needs the subject's
// code.
func (c Config) Runs(s *Subject) bool { return c.MineCode == nil || s.Code != nil }

// RunOptions configure Run. Zero values mean the defaults.
type RunOptions struct {
	Options
	// Seeds is the number of seed inputs, SeedLen their greatest length.
	Seeds   int
	SeedLen int
	// MaxQueries stops a miner after this many oracle calls (0: no limit):
	// its context is cancelled and every further call is answered false.
	MaxQueries int64
	// Measuring, if not nil, is called when mining is done and measuring
	// starts.
	Measuring func()
}

// ErrNoCode is the error of a code miner run on a subject without code.
var ErrNoCode = errors.New("mineeval: the subject has no parser code to mine")

// ErrQueryLimit is the cause of the context cancellation that stops a miner
// at RunOptions.MaxQueries.
var ErrQueryLimit = errors.New("mineeval: oracle query limit reached (-max-queries)")

// A Result is the evaluation of one configuration on one subject.
type Result struct {
	Subject string
	Config  string
	// Seeds are the seed inputs the miner was given (none for a code
	// miner).
	Seeds [][]byte
	// Grammar is the mined grammar (nil if Err is set).
	Grammar *grammar.Grammar
	// Score is the grammar's precision and recall (nil if Err is set).
	Score *Score
	// Queries counts the miner's calls of the oracle, or a code miner's
	// work (CodeMiner).
	Queries int64
	// Mining is the time the miner took; Measuring the time of Measure.
	Mining, Measuring time.Duration
	// Err is why mining or measuring failed, for example ErrQueryLimit.
	Err error
}

// Run gives the miner of c the subject's seeds and oracle, or a code miner
// the subject's code, and measures the grammar it returns. A failing miner
// is reported in Result.Err (ErrNoCode for a code miner on a subject without
// code); Run itself fails only if the subject's seeds cannot be made or ctx
// is cancelled.
func Run(ctx context.Context, s *Subject, c Config, opts RunOptions) (*Result, error) {
	if c.MineCode != nil {
		return runCode(ctx, s, c, opts)
	}
	if opts.Seeds <= 0 {
		opts.Seeds = DefaultSeeds
	}
	if opts.SeedLen <= 0 {
		opts.SeedLen = DefaultSeedLen
	}
	seeds, err := s.Seeds(opts.Seeds, opts.Seed, opts.SeedLen)
	if err != nil {
		return nil, err
	}
	res := &Result{Subject: s.Name, Config: c.Name, Seeds: seeds}
	mctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var queries atomic.Int64
	oracle := func(in []byte) bool {
		n := queries.Add(1)
		if opts.MaxQueries > 0 && n > opts.MaxQueries {
			cancel(ErrQueryLimit)
			return false
		}
		return safeAccept(s.Oracle, in)
	}
	start := time.Now()
	g, err := c.Mine(mctx, seeds, oracle)
	res.Mining = time.Since(start)
	res.Queries = queries.Load()
	if opts.MaxQueries > 0 {
		res.Queries = min(res.Queries, opts.MaxQueries)
	}
	if cause := context.Cause(mctx); err != nil && cause != nil && ctx.Err() == nil {
		err = cause
	}
	return measure(ctx, s, c, res, g, err, opts)
}

// runCode is Run for a code miner.
func runCode(ctx context.Context, s *Subject, c Config, opts RunOptions) (*Result, error) {
	res := &Result{Subject: s.Name, Config: c.Name}
	if s.Code == nil {
		res.Err = fmt.Errorf("%s on %s: %w", c.Name, s.Name, ErrNoCode)
		return res, nil
	}
	start := time.Now()
	code := *s.Code
	code.Oracle = s.Oracle
	g, work, err := c.MineCode(ctx, code)
	res.Mining = time.Since(start)
	res.Queries = work
	return measure(ctx, s, c, res, g, err, opts)
}

// measure scores the grammar g mined by c into res, or records the miner's
// error err.
func measure(ctx context.Context, s *Subject, c Config, res *Result, g *grammar.Grammar, err error, opts RunOptions) (*Result, error) {
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		res.Err = err
		return res, nil
	}
	if g == nil {
		res.Err = fmt.Errorf("%s returned no grammar", c.Name)
		return res, nil
	}
	res.Grammar = g
	ref, err := s.Grammar()
	if err != nil {
		return nil, err
	}
	if opts.Measuring != nil {
		opts.Measuring()
	}
	start := time.Now()
	res.Score, res.Err = Measure(ctx, g, ref, s.Oracle, opts.Options)
	res.Measuring = time.Since(start)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return res, nil
}
