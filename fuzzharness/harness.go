package fuzzharness

import (
	"fmt"
	"os"
	"sync/atomic"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// A Harness adapts a fuzz test (testing.F) to a grammar: the fuzzer mutates
// bytes, and the harness decodes them into derivation trees of the grammar
// (see Codec) before calling the target, so the target sees only inputs of
// the language. Create one with New or NewGraph at the start of a fuzz test
// and call Fuzz or FuzzString once, in place of f.Fuzz.
type Harness struct {
	f     *testing.F
	codec *Codec
	cfg   config
	name  string

	seeds    atomic.Int64
	inputs   atomic.Int64
	rejected atomic.Int64
}

// New returns a harness for the fuzz test f over the grammar g, which it
// compiles with its own start symbol. Errors in the grammar or options stop
// the fuzz test with f.Fatal.
func New(f *testing.F, g *grammar.Grammar, opts ...Option) *Harness {
	f.Helper()
	if g == nil {
		f.Fatal("fuzzharness: nil grammar")
	}
	gr, err := grammar.Compile(g)
	if err != nil {
		f.Fatalf("fuzzharness: %v", err)
	}
	return NewGraph(f, gr, opts...)
}

// NewGraph is like New for a compiled grammar graph, for example one
// compiled from another start symbol with grammar.WithStart.
func NewGraph(f *testing.F, gr *grammar.Graph, opts ...Option) *Harness {
	f.Helper()
	cfg := newConfig(opts)
	c, err := newCodec(gr, cfg.boundsFor(gr))
	if err != nil {
		f.Fatal(err)
	}
	return &Harness{f: f, codec: c, cfg: cfg, name: f.Name()}
}

// Codec returns the harness's codec.
func (h *Harness) Codec() *Codec { return h.codec }

// Fuzz runs the fuzz test with target fn, in place of f.Fuzz. It adds the
// seeds (the k-path covering forest, the examples and the seed trees; see
// Seeds) with f.Add, and then calls f.Fuzz with a function that decodes the
// fuzzer's bytes with the harness's codec and calls fn with the input. So
// the three modes of go test work as usual: plain go test runs the seeds and
// the entries of testdata/fuzz/FuzzX as regression tests, go test -fuzz
// fuzzes, and go test -run=FuzzX/NAME runs one entry.
//
// An input that the validity predicate (WithValidity) rejects is skipped
// with t.Skip before fn runs. When fn fails or panics, the harness logs the
// input, quoted, and the outline of its tree; a panic is raised again after
// logging so that go test records the failing input as usual.
//
// Environment variables switch Fuzz into the measure mode described in the
// package documentation.
func (h *Harness) Fuzz(fn func(t *testing.T, in Input)) {
	f := h.f
	f.Helper()
	if path := os.Getenv(EnvGrammarOut); path != "" {
		if err := h.describe(path); err != nil {
			f.Fatal(err)
		}
		if os.Getenv(EnvInputs) == "" {
			f.Skipf("fuzzharness: wrote the grammar to %s (%s is set)", path, EnvGrammarOut)
		}
	}
	if path := os.Getenv(EnvInputs); path != "" {
		h.measure(path, fn)
		return
	}
	trees, err := seeds(h.codec, &h.cfg)
	if err != nil {
		f.Fatal(err)
	}
	for _, t := range trees {
		data, err := h.codec.Encode(t)
		if err != nil {
			f.Fatalf("fuzzharness: seed %q: %v", t, err) // seeds checks the bounds
		}
		f.Add(data)
		h.seeds.Add(1)
	}
	f.Cleanup(func() {
		if s := h.Stats(); s.Rejected > 0 {
			f.Logf("fuzzharness: the validity predicate rejected %d of %d inputs (%.1f%%)",
				s.Rejected, s.Inputs, 100*s.RejectRate())
		}
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		h.run(t, h.decode(data), fn)
	})
}

// FuzzString is like Fuzz for a target that only needs the input text.
func (h *Harness) FuzzString(fn func(t *testing.T, s string)) {
	h.f.Helper()
	h.Fuzz(func(t *testing.T, in Input) { fn(t, in.String()) })
}

// decode decodes data, building the tree right away only if the validity
// predicate needs it.
func (h *Harness) decode(data []byte) Input {
	if h.cfg.valid != nil {
		return h.codec.Decode(data)
	}
	return h.codec.decodeText(data)
}

// run checks the input's validity and calls fn on it, reporting failures.
func (h *Harness) run(t *testing.T, in Input, fn func(*testing.T, Input)) {
	h.inputs.Add(1)
	defer report(t, in)
	if h.cfg.valid != nil && !h.cfg.valid(in.Tree()) {
		h.rejected.Add(1)
		t.Skip("fuzzharness: the input does not satisfy the validity predicate")
	}
	fn(t, in)
}

// report logs the input if the target failed or panicked, and raises a panic
// again. It must be called directly by defer.
func report(t *testing.T, in Input) {
	if r := recover(); r != nil {
		t.Logf("fuzzharness: the target panicked on this %s", in.Describe())
		panic(r)
	}
	if t.Failed() {
		t.Logf("fuzzharness: the target failed on this %s", in.Describe())
	}
}

// Stats counts what a harness did in this process.
type Stats struct {
	Seeds    int64 // seeds added with f.Add
	Inputs   int64 // inputs decoded and passed to the validity check
	Rejected int64 // inputs that the validity predicate rejected
}

// RejectRate returns Rejected/Inputs, or 0 if there were no inputs.
func (s Stats) RejectRate() float64 {
	if s.Inputs == 0 {
		return 0
	}
	return float64(s.Rejected) / float64(s.Inputs)
}

// Stats returns the harness's counts so far. During go test -fuzz the inputs
// run in worker processes, each with its own counts; the harness in the
// go test process itself counts only the seeds.
func (h *Harness) Stats() Stats {
	return Stats{Seeds: h.seeds.Load(), Inputs: h.inputs.Load(), Rejected: h.rejected.Load()}
}

// Seeds returns the seed trees that a harness with the same graph and
// options adds: the k-path covering forest (see WithKPathSeeds), then the
// parsed examples (WithExamples), then the seed trees (WithSeedTrees), each
// once. Every tree is checked against the bounds; a seed that exceeds them is
// an error that names it. A plain string fuzz target can add the seeds'
// strings to compare with the harness on equal terms.
func Seeds(gr *grammar.Graph, opts ...Option) ([]*grammar.Tree, error) {
	cfg := newConfig(opts)
	c, err := newCodec(gr, cfg.boundsFor(gr))
	if err != nil {
		return nil, err
	}
	return seeds(c, &cfg)
}

func seeds(c *Codec, cfg *config) ([]*grammar.Tree, error) {
	var out []*grammar.Tree
	seen := map[string]bool{}
	add := func(t *grammar.Tree, what string) error {
		data, err := c.Encode(t)
		if err != nil {
			return fmt.Errorf("fuzzharness: %s %q: %w", what, t, err)
		}
		if !seen[string(data)] {
			seen[string(data)] = true
			out = append(out, t)
		}
		return nil
	}
	if cfg.k > 0 {
		forest, err := c.graph.CoveringForest(cfg.k, c.closeShortest)
		if err != nil {
			return nil, fmt.Errorf("fuzzharness: the %d-path covering forest: %w", cfg.k, err)
		}
		for _, t := range forest {
			if err := add(t, fmt.Sprintf("%d-path seed", cfg.k)); err != nil {
				return nil, err
			}
		}
	}
	for i, s := range cfg.examples {
		t, err := c.Parse(s)
		if err != nil {
			return nil, fmt.Errorf("fuzzharness: example %d %q: %w", i+1, s, err)
		}
		if err := add(t, fmt.Sprintf("example %d", i+1)); err != nil {
			return nil, err
		}
	}
	for i, t := range cfg.trees {
		if err := add(t, fmt.Sprintf("seed tree %d", i+1)); err != nil {
			return nil, err
		}
	}
	return out, nil
}
