package fuzzharness

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/protocol"
)

// An F is the fuzz test a harness runs in: *testing.F, or a type with the
// same methods, such as the *F of the testing package that go-118-fuzz-build
// (OSS-Fuzz's builder of libFuzzer binaries) puts in place of the standard
// one. Fatal must not return normally; if it does, the harness panics with
// the message.
//
// The harness also uses these methods of *testing.F when f has them:
// Helper(), Name() string, Skip(args ...any), Cleanup(func()),
// Log(args ...any) and Error(args ...any).
type F interface {
	Add(args ...any)
	Fuzz(ff any)
	Fatal(args ...any)
}

// The optional methods of an F.
type (
	helper   interface{ Helper() }
	namer    interface{ Name() string }
	skipper  interface{ Skip(args ...any) }
	reporter interface {
		Cleanup(func())
		Log(args ...any)
		Error(args ...any)
	}
)

// fatal reports the error msg with f.Fatal, and panics with it if Fatal
// returns (the libFuzzer shim's F.Fatal does nothing).
func fatal(f F, msg string) {
	if h, ok := f.(helper); ok {
		h.Helper()
	}
	f.Fatal(msg)
	panic(msg)
}

// A Harness adapts a fuzz test (testing.F) to a grammar: the fuzzer mutates
// bytes, and the harness decodes them into derivation trees of the grammar
// (see Codec) before calling the target, so the target sees only inputs of
// the language. Create one with New or NewGraph at the start of a fuzz test
// and call Fuzz or FuzzString once, in place of f.Fuzz.
type Harness struct {
	f     F
	codec *Codec
	cfg   config
	name  string

	seeds      atomic.Int64
	inputs     atomic.Int64
	repaired   atomic.Int64
	rejected   atomic.Int64
	overBudget atomic.Int64
	invalid    atomic.Int64
	times      repairTimes
	start      time.Time // when Fuzz began

	workerStats *workerStats // in a go test -fuzz worker with a constraint or validity predicate
}

// New returns a harness for the fuzz test f, usually a *testing.F, over the
// grammar g, which it compiles with its own start symbol. Errors in the
// grammar or options stop the fuzz test with f.Fatal.
func New(f F, g *grammar.Grammar, opts ...Option) *Harness {
	if h, ok := f.(helper); ok {
		h.Helper()
	}
	if g == nil {
		fatal(f, "fuzzharness: nil grammar")
	}
	gr, err := compileCached(g)
	if err != nil {
		fatal(f, fmt.Sprintf("fuzzharness: %v", err))
	}
	return NewGraph(f, gr, opts...)
}

// NewGraph is like New for a compiled grammar graph, for example one
// compiled from another start symbol with grammar.WithStart.
func NewGraph(f F, gr *grammar.Graph, opts ...Option) *Harness {
	if h, ok := f.(helper); ok {
		h.Helper()
	}
	cfg := newConfig(opts)
	if err := cfg.validate(); err != nil {
		fatal(f, err.Error())
	}
	if v := os.Getenv(protocol.EnvRepairBudget); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			fatal(f, fmt.Sprintf("fuzzharness: %s=%q is not a duration", protocol.EnvRepairBudget, v))
		}
		cfg.repairBudget = d
	}
	c, err := newCodecCached(gr, cfg.boundsFor(gr))
	if err != nil {
		fatal(f, err.Error())
	}
	h := &Harness{f: f, codec: c, cfg: cfg, start: time.Now()}
	if n, ok := f.(namer); ok {
		h.name = n.Name()
	}
	if _, worker := fuzzRole(); worker && (cfg.constraint != nil || cfg.valid != nil) {
		h.workerStats = newWorkerStats(h.name)
	}
	return h
}

// Codec returns the harness's codec.
func (h *Harness) Codec() *Codec { return h.codec }

// Fuzz runs the fuzz test with target fn, in place of f.Fuzz. fn is a
// func(t *testing.T, in Input), or the same with the *T of the fuzz test's
// testing package in place of *testing.T (as with go-118-fuzz-build); Fuzz
// stops the fuzz test with f.Fatal if it is neither.
//
// Fuzz adds the seeds (the k-path covering forest, the examples and the
// seed trees; see Seeds) with f.Add, and then calls f.Fuzz with a function
// that decodes the fuzzer's bytes with the harness's codec and calls fn with
// the input. So the three modes of go test work as usual: plain go test runs
// the seeds and the entries of testdata/fuzz/FuzzX as regression tests, go
// test -fuzz fuzzes, and go test -run=FuzzX/NAME runs one entry.
//
// An input that violates the constraint (WithConstraint) is repaired
// before fn runs, and one that cannot be repaired or that the validity
// predicate (WithValidity) rejects is skipped with t.Skip. At the end, the
// fuzz test logs the share of inputs that reached fn with a valid input.
// When fn fails or panics, the harness logs the input, quoted, and the
// outline of its tree; a panic is raised again after logging so that go
// test records the failing input as usual.
//
// When go test -fuzz fuzzes a harness that checks its inputs
// (WithConstraint, WithValidity) and the command line gives no
// -fuzzminimizetime, Fuzz sets that flag to 200 executions ("200x") before
// it calls f.Fuzz: go test's default, 60 seconds of minimization for every
// input that finds new coverage, let a fuzzer whose executions cost a
// repair spend whole runs minimizing kilobyte-long inputs.
//
// Environment variables switch Fuzz into the measure mode described in the
// package documentation.
func (h *Harness) Fuzz(fn any) { h.fuzz(fn, inputType) }

// FuzzString is like Fuzz for a target that only needs the input text: fn
// is a func(t *testing.T, s string), or the same with the fuzz test's own T.
func (h *Harness) FuzzString(fn any) { h.fuzz(fn, stringType) }

// fuzz is Fuzz for a target fn whose second parameter has type arg.
func (h *Harness) fuzz(fn any, arg reflect.Type) {
	f := h.f
	if hp, ok := f.(helper); ok {
		hp.Helper()
	}
	tg, err := newTarget(fn, arg)
	if err != nil {
		fatal(f, err.Error())
	}
	if path := os.Getenv(protocol.EnvGrammarOut); path != "" {
		if err := h.describe(path); err != nil {
			fatal(f, err.Error())
		}
		if os.Getenv(protocol.EnvInputs) == "" {
			msg := fmt.Sprintf("fuzzharness: wrote the grammar to %s (%s is set)", path, protocol.EnvGrammarOut)
			if s, ok := f.(skipper); ok {
				s.Skip(msg)
			}
			fatal(f, msg)
		}
	}
	if spec := os.Getenv(protocol.EnvServe); spec != "" {
		tf, ok := f.(*testing.F)
		if !ok || tg.std == nil {
			fatal(f, fmt.Sprintf("fuzzharness: %s is set: the serve mode needs a *testing.F and a target taking *testing.T", protocol.EnvServe))
		}
		h.serve(tf, spec, tg.std)
		return
	}
	if path := os.Getenv(protocol.EnvInputs); path != "" {
		tf, ok := f.(*testing.F)
		if !ok || tg.std == nil {
			fatal(f, fmt.Sprintf("fuzzharness: %s is set: the measure mode needs a *testing.F and a target taking *testing.T", protocol.EnvInputs))
		}
		tf.Cleanup(h.reportStats)
		h.measure(tf, path, tg.std)
		return
	}
	var trees []*grammar.Tree
	if _, worker := fuzzRole(); !worker && !libFuzzer {
		// A worker of go test -fuzz runs the inputs the coordinator sends
		// and never its own seeds: it need not make them (the solver's
		// seeds of a constraint are costly). Nor does a libFuzzer binary,
		// whose F.Add does nothing and which runs the fuzz test anew for
		// every input.
		var err error
		if trees, err = seeds(h.codec, &h.cfg); err != nil {
			fatal(f, err.Error())
		}
	}
	for _, t := range trees {
		data, err := h.codec.Encode(t)
		if err != nil {
			fatal(f, fmt.Sprintf("fuzzharness: seed %q: %v", t, err)) // seeds checks the bounds
		}
		f.Add(data)
		h.seeds.Add(1)
	}
	if coordinator, _ := fuzzRole(); coordinator {
		if err := commandLineMinimize.set(flag.CommandLine, h.cfg.minimizeLimitOf()); err != nil {
			fatal(f, err.Error())
		}
	}
	if r, ok := f.(reporter); ok {
		r.Cleanup(h.reportStats)
	}
	h.start = time.Now()
	f.Fuzz(tg.fuzzFunc(func(t tb, data []byte) { h.run(t, data, tg.call) }))
}

// run decodes data, checks (and repairs) the input and calls fn on it,
// reporting failures.
//
// It runs on the goroutine that go test starts for every execution, whose
// stack starts small (as small as the runtime finds goroutines need on
// average), below frames of package testing and reflect: the functions on
// the way to the decoder keep their frames small, so that decoding does not
// make the stack grow, which copies it, on most executions.
func (h *Harness) run(t tb, data []byte, fn func(tb, Input)) {
	in, o := h.input(data)
	h.count(o)
	if o == outcomeRejected || o == outcomeOverBudget {
		h.skip(t, o)
		return // the libFuzzer shim's T.Skip panics; a T that returns skips too
	}
	call(t, in, fn)
}

// call calls fn on in, reporting the input if fn fails or panics.
func call(t tb, in Input, fn func(tb, Input)) {
	defer report(t, in)
	fn(t, in)
}

// input decodes data and checks the input (see check); without a check to
// make, it decodes the text alone.
func (h *Harness) input(data []byte) (Input, outcome) {
	if h.cfg.valid == nil && h.cfg.constraint == nil && h.cfg.invalidShare == 0 {
		return h.codec.decodeText(data), outcomeValid
	}
	return h.checked(data)
}

// checked decodes data with its tree and checks the input.
func (h *Harness) checked(data []byte) (Input, outcome) {
	return h.check(h.codec.Decode(data), data)
}

// decode decodes data, building the tree right away only if the validity
// predicate, the constraint or the invalid share needs it.
func (h *Harness) decode(data []byte) Input {
	if h.cfg.valid != nil || h.cfg.constraint != nil || h.cfg.invalidShare != 0 {
		return h.codec.Decode(data)
	}
	return h.codec.decodeText(data)
}

// skip skips the execution of an input that the check rejected with
// outcome o.
func (h *Harness) skip(t tb, o outcome) {
	msg := "fuzzharness: the input does not satisfy the validity predicate"
	switch {
	case o == outcomeOverBudget:
		msg = "fuzzharness: the input violates the constraint and its repair took longer than the budget (WithRepairBudget)"
	case h.cfg.constraint != nil:
		msg = "fuzzharness: the input violates the constraint and could not be repaired, or the validity predicate rejects it"
	}
	t.Skip(msg)
}

// report logs the input if the target failed or panicked, and raises a panic
// again. It must be called directly by defer.
func report(t tb, in Input) {
	if r := recover(); r != nil {
		t.Log(fmt.Sprintf("fuzzharness: the target panicked on this %s", in.Describe()))
		panic(r)
	}
	// Only a *testing.T says whether it failed: the libFuzzer shim's T
	// panics in Failed, and in Error and Fatal, which report catches above.
	if st, ok := t.(*testing.T); ok && st.Failed() {
		t.Log(fmt.Sprintf("fuzzharness: the target failed on this %s", in.Describe()))
	}
}

// Stats counts what a harness did in this process.
type Stats struct {
	Seeds    int64 // seeds added with f.Add
	Inputs   int64 // inputs decoded and passed to the validity check
	Repaired int64 // inputs that violated the constraint and were repaired
	Rejected int64 // inputs skipped: not repaired, or rejected by the validity predicate
	// OverBudget counts the inputs of Rejected whose repair took longer
	// than its budget (WithRepairBudget).
	OverBudget int64
	// Invalid counts the inputs that were valid, as decoded or repaired,
	// and reached the target with a text changed on purpose: by byte
	// edits (WithMaxEdits) or as one of the invalid share
	// (WithInvalidShare). They are counted neither as valid, nor as
	// Repaired or Rejected.
	Invalid int64 `json:",omitempty"`
	// Elapsed is the time since Fuzz began (under go test -fuzz, in the
	// coordinator), and ValidPerSecond the inputs that reached the target
	// with a valid input, as decoded or repaired, per second of it:
	// (Inputs-Rejected-Invalid)/Elapsed.
	Elapsed        time.Duration
	ValidPerSecond float64
	// RepairP50, RepairP99 and RepairMax are the median, the 99th
	// percentile and the maximum of the CPU time of the repairs attempted
	// (successful, failed and over the budget). The percentiles are upper
	// bounds of a bucket of RepairTimes, at most 25% above the exact
	// value; the maximum is exact.
	RepairP50, RepairP99, RepairMax time.Duration
	// RepairTimes is the histogram of the repair times, on a logarithmic
	// scale: bucket 4e+k, for k < 4, counts the times of [(4+k)·2^e/4,
	// (5+k)·2^e/4) nanoseconds. Under go test -fuzz the workers'
	// histograms are added up.
	RepairTimes []int64 `json:",omitempty"`
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
// go test process itself counts only the seeds, and adds up the workers'
// counts for its final report (see the package documentation).
func (h *Harness) Stats() Stats {
	s := Stats{Seeds: h.seeds.Load(), Inputs: h.inputs.Load(), Repaired: h.repaired.Load(), Rejected: h.rejected.Load(),
		OverBudget: h.overBudget.Load(), Invalid: h.invalid.Load()}
	s.RepairTimes, s.RepairMax = h.times.snapshot()
	return s.derive(time.Since(h.start))
}

// Seeds returns the seed trees that a harness with the same graph and
// options adds: the k-path covering forest (see WithKPathSeeds), then the
// parsed examples (WithExamples), then the seed trees (WithSeedTrees), each
// once; with a constraint (WithConstraint), those that violate it repaired
// or left out, followed by the constraint's seeds within the bounds. Every
// tree is checked against the bounds; a seed that exceeds them is an error
// that names it. A plain string fuzz target can add the seeds'
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
		forest, err := c.graph.KPathTrees(cfg.k, c.closeShortest)
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
	if cfg.constraint != nil {
		out = constrainSeeds(c, cfg, out, seen)
	}
	return out, nil
}

// constrainSeeds repairs the seeds that violate the constraint, leaving
// out those it cannot repair within the bounds, and adds the constraint's
// own seeds that are within the bounds.
func constrainSeeds(c *Codec, cfg *config, trees []*grammar.Tree, seen map[string]bool) []*grammar.Tree {
	con := cfg.constraint
	var out []*grammar.Tree
	for _, t := range trees {
		if con.Valid(t) {
			out = append(out, t)
			continue
		}
		data, _ := c.Encode(t) // seeds checked the bounds
		r, ok := con.Repair(t, repairSeed(data))
		if !ok || r == nil {
			continue
		}
		if rdata, err := c.Encode(r); err == nil && !seen[string(rdata)] {
			seen[string(rdata)] = true
			out = append(out, r)
		}
	}
	if cfg.constraintSeeds > 0 {
		for _, t := range con.Seeds(cfg.constraintSeeds) {
			if data, err := c.Encode(t); err == nil && !seen[string(data)] {
				seen[string(data)] = true
				out = append(out, t)
			}
		}
	}
	return out
}
