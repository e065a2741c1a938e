package mineeval

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// Defaults of Options.
const (
	// DefaultN is the number of inputs generated for precision and for
	// recall each, as in GLADE's and Arvada's evaluations.
	DefaultN = 1000
	// DefaultMaxSize bounds the derivation trees of the generated inputs
	// (tree nodes; see grammar.Generator). It keeps inputs in the hundreds
	// of bytes, the size of the samples GLADE and Arvada draw.
	DefaultMaxSize = 300
	// DefaultMaxItems bounds the Earley items of one recall parse (about 16
	// bytes each, so 32 MB). The reference grammars need a few items per
	// input byte; a mined grammar can be so ambiguous, or so large, that one
	// parse of a short input would take seconds. Such a parse counts as a
	// rejection and is reported.
	DefaultMaxItems = 1 << 21
)

// Options configure Measure. Zero values mean the defaults.
type Options struct {
	// N is the number of inputs generated for precision and for recall.
	N int
	// Seed seeds both generators.
	Seed uint64
	// MaxSize bounds the derivation trees of the generated inputs.
	MaxSize int
	// MaxItems bounds the Earley items of one recall parse.
	MaxItems int
}

func (o Options) withDefaults() Options {
	if o.N <= 0 {
		o.N = DefaultN
	}
	if o.MaxSize <= 0 {
		o.MaxSize = DefaultMaxSize
	}
	if o.MaxItems <= 0 {
		o.MaxItems = DefaultMaxItems
	}
	return o
}

// A Score is the precision and recall of a mined grammar.
type Score struct {
	// Precision is PrecisionAccepted / N: the share of inputs generated
	// from the mined grammar that the oracle accepts.
	Precision float64
	// Recall is RecallAccepted / N: the share of inputs generated from the
	// reference grammar that the mined grammar's Earley parser accepts.
	Recall float64
	// F1 is the harmonic mean of precision and recall (0 if both are 0).
	F1 float64

	// N is the number of inputs generated from each grammar.
	N int
	// PrecisionAccepted counts the inputs of the mined grammar that the
	// oracle accepts, RecallAccepted those of the reference grammar that
	// the mined grammar's parser accepts.
	PrecisionAccepted int
	RecallAccepted    int
	// ItemLimit counts the recall inputs whose parse exceeded
	// Options.MaxItems; they count as rejected.
	ItemLimit int
}

// F1 returns the harmonic mean of precision p and recall r, 0 if both are 0.
func F1(p, r float64) float64 {
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// Sample returns n inputs generated from gr with the given seed, the
// derivation trees bounded by maxSize nodes (raised to what the grammar's
// smallest input needs). Duplicates are kept: the samples are draws from
// the generator's distribution.
func Sample(gr *grammar.Graph, n int, seed uint64, maxSize int) ([][]byte, error) {
	gen := grammar.NewGenerator(gr, seed)
	gen.MaxSize = max(maxSize, 2*gr.Root.MinSize)
	out := make([][]byte, 0, n)
	for range n {
		t, err := gen.Generate()
		if err != nil {
			return nil, err
		}
		out = append(out, t.Bytes())
	}
	return out, nil
}

// Measure scores the grammar mined against the reference grammar and the
// oracle: precision on opts.N inputs generated from mined, recall on opts.N
// inputs generated from reference, with opts.Seed. Recall parses that exceed
// opts.MaxItems count as rejections (Score.ItemLimit). It fails if a grammar
// does not compile or the context is cancelled.
func Measure(ctx context.Context, mined, reference *grammar.Grammar, oracle func([]byte) bool, opts Options) (*Score, error) {
	opts = opts.withDefaults()
	minedGraph, err := grammar.Compile(mined)
	if err != nil {
		return nil, fmt.Errorf("mined grammar: %w", err)
	}
	refGraph, err := grammar.Compile(reference)
	if err != nil {
		return nil, fmt.Errorf("reference grammar: %w", err)
	}
	parser, err := grammar.NewParser(minedGraph, grammar.MaxItems(opts.MaxItems))
	if err != nil {
		return nil, fmt.Errorf("mined grammar: %w", err)
	}
	sc := &Score{N: opts.N}

	fromMined, err := Sample(minedGraph, opts.N, opts.Seed, opts.MaxSize)
	if err != nil {
		return nil, fmt.Errorf("generating from the mined grammar: %w", err)
	}
	accepted, err := forEach(ctx, fromMined, func(in []byte) int {
		if safeAccept(oracle, in) {
			return 1
		}
		return 0
	})
	if err != nil {
		return nil, err
	}
	sc.PrecisionAccepted = accepted[1]

	fromRef, err := Sample(refGraph, opts.N, opts.Seed, opts.MaxSize)
	if err != nil {
		return nil, fmt.Errorf("generating from the reference grammar: %w", err)
	}
	parsed, err := forEach(ctx, fromRef, func(in []byte) int {
		switch err := parser.Recognize(in); {
		case err == nil:
			return 1
		case errors.Is(err, grammar.ErrItemLimit):
			return 2
		}
		return 0
	})
	if err != nil {
		return nil, err
	}
	sc.RecallAccepted, sc.ItemLimit = parsed[1], parsed[2]
	sc.Precision = float64(sc.PrecisionAccepted) / float64(opts.N)
	sc.Recall = float64(sc.RecallAccepted) / float64(opts.N)
	sc.F1 = F1(sc.Precision, sc.Recall)
	return sc, nil
}

// forEach applies f to every input on all cores and counts the outcomes
// 0, 1 and 2 it returns. It stops early if ctx is cancelled.
func forEach(ctx context.Context, inputs [][]byte, f func([]byte) int) ([3]int, error) {
	var counts [3]atomic.Int64
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(inputs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(inputs) {
					return
				}
				counts[f(inputs[i])].Add(1)
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return [3]int{}, err
	}
	return [3]int{int(counts[0].Load()), int(counts[1].Load()), int(counts[2].Load())}, nil
}

// safeAccept calls oracle, counting a panic as a rejection.
func safeAccept(oracle func([]byte) bool, in []byte) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return oracle(in)
}
