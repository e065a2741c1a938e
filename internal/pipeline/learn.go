package pipeline

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/measure"
	"github.com/seed72891827/kfuzz/internal/protocol"
	"github.com/seed72891827/kfuzz/learn"
)

// Where an input comes from.
const (
	SourceSeed   = "seed"   // a seed of the harness: its k-path covering forest or an example
	SourceCorpus = "corpus" // an entry of the fuzz test's testdata/fuzz directory
	SourceRandom = "random" // a random tree of the grammar, for training
	SourceTest   = "test"   // a random tree of the grammar, for the test set
	SourceRefine = "refine" // a tree generated from a rule of a rarely covered function, for training
)

// An Observation is one input that ran, with what it covered.
type Observation struct {
	// ID names the input: "random#12", "seed#3", "test#7", or the corpus
	// entry's path relative to the package directory.
	ID string
	// Source is one of SourceSeed, SourceCorpus, SourceRandom, SourceTest.
	Source string
	// Text is the input and Data its encoding for the harness.
	Text string
	Data []byte
	// Status is the outcome of the target on the input, and Message the
	// panic value or why the input did not run.
	Status  measure.Status
	Message string
	// Funcs holds the functions the input covered, sorted.
	Funcs []string
	// Paths holds the input's l-paths (l <= k) in the model's table; nil
	// for an input that was not used.
	Paths grammar.PathSet
	// Shape is the shape of one derivation of the input, for root and
	// count features; nil unless LearnOptions.Tree.Features asks for them.
	Shape *learn.Shape
}

// Usable reports whether an input with status st ran the target, so that
// its coverage says what the input reaches: it passed, failed, panicked or
// skipped. Inputs the validity predicate rejected, that could not be read,
// that timed out or crashed the process are left out.
func Usable(st measure.Status) bool {
	switch st {
	case protocol.StatusPass, protocol.StatusFail, protocol.StatusPanic, protocol.StatusSkip:
		return true
	}
	return false
}

// Defaults of LearnOptions.
const (
	DefaultN       = 1000
	DefaultDepth   = 12
	DefaultRefine  = 5
	DefaultRare    = 50
	DefaultRefineN = 20
)

// LearnOptions configure Session.Learn. The zero value asks for the defaults.
type LearnOptions struct {
	// N is the number of random training inputs, and of random test inputs
	// unless Test says otherwise (default DefaultN).
	N int
	// Test, if positive, is the number of random test inputs.
	Test int
	// K is the length of the longest paths used as features (default
	// learn.DefaultFeatureK).
	K int
	// Seed seeds the random inputs and the learning; the same seed gives the
	// same model. The test inputs come from a seed derived from it.
	Seed uint64
	// Depth bounds the derivation depth of the random inputs: they are drawn
	// at every depth from the least the grammar allows up to Depth, in turn,
	// so that small and large inputs alike are in the training set (default
	// DefaultDepth, at most the harness's MaxDepth).
	Depth int
	// NoSeeds leaves the harness's seeds out of the training set, and
	// NoCorpus the entries of its testdata/fuzz directory.
	NoSeeds, NoCorpus bool
	// Refine is the number of refinement rounds (default DefaultRefine; a
	// negative number means none). Random inputs rarely reach a function
	// that needs a particular structure, and a tree learned from a handful
	// of such inputs says little. Each round generates RefineN inputs from
	// the rules of every function that fewer than Rare training inputs
	// covered (default DefaultRare), measures them, adds them to the
	// training set and learns again: the inputs that satisfy a rule but
	// miss the function refute it, and those that reach it confirm it.
	Refine, Rare, RefineN int
	// Tree configures the decision trees; its Seed is set from Seed.
	Tree learn.Config
}

// A PathCoverage is how many of a grammar's l-paths a set of inputs
// contains (TRIBBLE's pathcov_l).
type PathCoverage struct {
	L       int
	Covered int
	Total   int
}

// Timings are the wall-clock times of the steps of Learn, summed over the
// refinement rounds.
type Timings struct {
	// Generate is the time spent generating random and targeted inputs.
	Generate time.Duration
	// Measure is the time spent running the target over the inputs.
	Measure time.Duration
	// Features is the time spent parsing the inputs for their paths.
	Features time.Duration
	// Learn is the time spent growing decision trees.
	Learn time.Duration
	// Evaluate is the time spent predicting the test inputs.
	Evaluate time.Duration
}

// A Refinement is one refinement round of Learn.
type Refinement struct {
	// Round counts from 1.
	Round int
	// Funcs names the functions the round generated inputs for; Generated
	// and Reached count the inputs it generated for each and those that
	// covered the function, and Targeted and TargetedReached the same for
	// the inputs generated from the function's rules alone.
	Funcs                     []string
	Generated, Reached        []int
	Targeted, TargetedReached []int
}

// A Learned is a model with the evidence it was learned and tested on.
type Learned struct {
	// Target and ImportPath name the fuzz test and its package.
	Target, ImportPath string
	// Measured holds the import paths of the measured packages.
	Measured []string
	// Options are the options used, defaults filled in.
	Options LearnOptions
	// Model is the learned model.
	Model *learn.Model
	// Train and Test hold the inputs the model was trained and evaluated
	// on, in the order they ran; Skipped those whose coverage was not used
	// (see Observation.Status).
	Train, Test, Skipped []Observation
	// Refinements holds the refinement rounds that ran.
	Refinements []Refinement
	// Eval compares the model's predictions with the coverage of Test.
	Eval *learn.Report
	// PathCoverage holds the l-path coverage of the training inputs, for l
	// from 1 to K.
	PathCoverage []PathCoverage
	// Functions is the number of functions of the measured packages.
	Functions int
	// Timings are the times the steps took.
	Timings Timings
}

// withDefaults fills in the defaults.
func (o LearnOptions) withDefaults(maxDepth int) (LearnOptions, error) {
	if o.N == 0 {
		o.N = DefaultN
	}
	if o.Test == 0 {
		o.Test = o.N
	}
	if o.K == 0 {
		o.K = learn.DefaultFeatureK
	}
	if o.Depth == 0 {
		o.Depth = min(DefaultDepth, maxDepth)
	}
	if o.Refine == 0 {
		o.Refine = DefaultRefine
	}
	if o.Refine < 0 {
		o.Refine = 0
	}
	if o.Rare == 0 {
		o.Rare = DefaultRare
	}
	if o.RefineN == 0 {
		o.RefineN = DefaultRefineN
	}
	switch {
	case o.N < 0:
		return o, fmt.Errorf("the number of random inputs %d is negative", o.N)
	case o.Test < 0:
		return o, fmt.Errorf("the number of test inputs %d is negative", o.Test)
	case o.K < 1 || o.K > 8:
		return o, fmt.Errorf("k = %d is outside 1..8", o.K)
	case o.Depth < 0:
		return o, fmt.Errorf("the depth %d is negative", o.Depth)
	case o.Rare < 0 || o.RefineN < 0:
		return o, fmt.Errorf("negative refinement settings (rare %d, inputs %d)", o.Rare, o.RefineN)
	case o.Depth > maxDepth:
		return o, fmt.Errorf("the depth %d is beyond the harness's bound %d", o.Depth, maxDepth)
	}
	o.Tree.Seed = o.Seed
	return o, nil
}

// testSeed derives the seed of the test inputs from the training seed, so
// that no training seed's test set is another seed's training set.
func testSeed(seed uint64) uint64 { return seed ^ 0x7e57_5eed_7e57_5eed }

// Learn learns which input features reach which functions of the measured
// packages. The training set holds the harness's seeds, the entries of its
// testdata/fuzz directory and N random inputs of its grammar; the test set
// Test (default N) other random inputs. Learn measures the functions each input covers, turns
// every input into its l-paths (l <= K) by parsing its text, learns one
// decision tree per function, refines the trees of rarely covered functions
// with inputs generated from their rules (see LearnOptions.Refine) and
// evaluates the model on the test set.
func (s *Session) Learn(ctx context.Context, opts LearnOptions) (*Learned, error) {
	opts, err := opts.withDefaults(s.Desc.Bounds.MaxDepth)
	if err != nil {
		return nil, err
	}
	pt, err := s.Graph.PathTable(opts.K)
	if err != nil {
		return nil, err
	}
	res := &Learned{Target: s.Target(), ImportPath: s.ImportPath(), Measured: s.Measured(), Options: opts, Functions: len(s.Functions())}
	prog := s.progress()

	// The inputs.
	start := time.Now()
	var inputs []measure.Input
	var sources []string
	add := func(src string, ins ...measure.Input) {
		for _, in := range ins {
			inputs = append(inputs, in)
			sources = append(sources, src)
		}
	}
	if !opts.NoSeeds {
		seeds, err := measure.SeedInputs(s.Desc)
		if err != nil {
			return nil, err
		}
		add(SourceSeed, seeds...)
	}
	if !opts.NoCorpus {
		entries, err := s.runner.TestdataInputs()
		if err != nil {
			return nil, err
		}
		add(SourceCorpus, entries...)
	}
	prog.Step(fmt.Sprintf("generating %d training and %d test inputs", opts.N, opts.Test), opts.N+opts.Test)
	train, err := s.RandomInputs(ctx, "random", opts.Seed, opts.N, opts.Depth)
	if err != nil {
		return nil, err
	}
	add(SourceRandom, train...)
	test, err := s.RandomInputs(ctx, "test", testSeed(opts.Seed), opts.Test, opts.Depth)
	if err != nil {
		return nil, err
	}
	add(SourceTest, test...)
	res.Timings.Generate += time.Since(start)

	obs, err := s.observe(ctx, pt, inputs, sources, &res.Timings, res.Options.Tree.Features&^learn.KPathFeatures != 0)
	if err != nil {
		return nil, err
	}
	res.sort(obs)
	if len(res.Train) == 0 {
		return nil, fmt.Errorf("no training input ran the target (%d skipped)", len(res.Skipped))
	}
	if err := res.learn(pt, s.Functions(), prog); err != nil {
		return nil, err
	}

	for round := 1; round <= opts.Refine; round++ {
		ref, inputs, err := s.refineInputs(ctx, res, round)
		if err != nil {
			return nil, err
		}
		if len(inputs) == 0 {
			break
		}
		sources := make([]string, len(inputs))
		for i := range sources {
			sources[i] = SourceRefine
		}
		obs, err := s.observe(ctx, pt, inputs, sources, &res.Timings, res.Options.Tree.Features&^learn.KPathFeatures != 0)
		if err != nil {
			return nil, err
		}
		for i, name := range ref.Funcs {
			for _, o := range obs {
				if _, ok := slices.BinarySearch(o.Funcs, name); !ok {
					continue
				}
				if strings.HasPrefix(o.ID, refineID(round, name)) {
					ref.Reached[i]++
				}
				if strings.HasPrefix(o.ID, refineID(round, name)+"rule") {
					ref.TargetedReached[i]++
				}
			}
		}
		res.Refinements = append(res.Refinements, ref)
		res.sort(obs)
		if err := res.learn(pt, s.Functions(), prog); err != nil {
			return nil, err
		}
	}

	start = time.Now()
	prog.Step(fmt.Sprintf("evaluating on %d inputs", len(res.Test)), 0)
	if res.Eval, err = res.Model.Evaluate(samples(res.Test)); err != nil {
		return nil, err
	}
	res.Timings.Evaluate = time.Since(start)
	res.PathCoverage = pathCoverage(pt, res.Train)
	return res, nil
}

// observe measures the inputs and finds the paths of those that ran.
func (s *Session) observe(ctx context.Context, pt *grammar.PathTable, inputs []measure.Input, sources []string, tm *Timings, shapes bool) ([]Observation, error) {
	start := time.Now()
	prog := s.progress()
	prog.Step(fmt.Sprintf("measuring the coverage of %d inputs", len(inputs)), len(inputs))
	results, err := s.Measure(ctx, inputs)
	if err != nil {
		return nil, err
	}
	tm.Measure += time.Since(start)

	start = time.Now()
	obs := make([]Observation, len(results))
	for i, r := range results {
		obs[i] = Observation{ID: r.ID, Source: sources[i], Text: r.Input, Data: r.Data, Status: r.Status, Message: r.Message}
		if r.Funcs != nil {
			obs[i].Funcs = r.Funcs.Names()
		}
	}
	prog.Step(fmt.Sprintf("finding the %d-paths of %d inputs", pt.K, len(obs)), len(obs))
	if err := s.features(ctx, pt, obs, shapes); err != nil {
		return nil, err
	}
	tm.Features += time.Since(start)
	return obs, nil
}

// sort files observations under Train, Test or Skipped.
func (res *Learned) sort(obs []Observation) {
	for _, o := range obs {
		switch {
		case o.Paths == nil:
			res.Skipped = append(res.Skipped, o)
		case o.Source == SourceTest:
			res.Test = append(res.Test, o)
		default:
			res.Train = append(res.Train, o)
		}
	}
}

// learn learns the model from the training observations.
func (res *Learned) learn(pt *grammar.PathTable, funcs []string, prog Progress) error {
	start := time.Now()
	prog.Step(fmt.Sprintf("learning from %d inputs", len(res.Train)), 0)
	ds, err := learn.NewDataset(pt, samples(res.Train), funcs)
	if err != nil {
		return err
	}
	res.Model, err = learn.Learn(ds, res.Options.Tree)
	res.Timings.Learn += time.Since(start)
	return err
}

// refineID returns the prefix of the IDs of the inputs a refinement round
// generates for a function.
func refineID(round int, fn string) string { return fmt.Sprintf("refine%d:%s#", round, fn) }

// TargetOptions returns the options of targeted generation
// (learn.Model.Generate) within the harness's bounds.
func (h *Harness) TargetOptions(seed uint64) *learn.GenerateOptions {
	b := h.Desc.Bounds
	return &learn.GenerateOptions{
		Seed:      seed,
		MaxDepth:  min(learn.DefaultTargetDepth, b.MaxDepth),
		MaxSize:   min(learn.DefaultTargetSize, b.MaxSize),
		MaxRepeat: min(learn.DefaultTargetRepeat, b.MaxRepeat),
	}
}

// refineInputs generates the inputs of a refinement round. For every
// function with rules that fewer than Rare training inputs covered, or
// whose rules in the round before generated inputs of which fewer than half
// reached it, it makes up to RefineN inputs: half of them generated from the function's
// rules (CODEINE's Algorithm 3, which yields small inputs that satisfy a rule
// and little else), the others mutants of the training inputs that covered
// the function (one random subtree derived anew), which vary what the rules
// leave open. Inputs already in the training set are left out.
func (s *Session) refineInputs(ctx context.Context, res *Learned, round int) (Refinement, []measure.Input, error) {
	ref := Refinement{Round: round}
	poor := map[string]bool{}
	if k := len(res.Refinements); k > 0 {
		last := res.Refinements[k-1]
		for i, name := range last.Funcs {
			if 2*last.TargetedReached[i] < last.Targeted[i] {
				poor[name] = true
			}
		}
	}
	var rare []*learn.Func
	for _, fn := range res.Model.Funcs {
		if (fn.Pos < res.Options.Rare || poor[fn.Name]) && len(fn.Rules) > 0 {
			rare = append(rare, fn)
		}
	}
	if len(rare) == 0 {
		return ref, nil, nil
	}
	start := time.Now()
	defer func() { res.Timings.Generate += time.Since(start) }()
	seen := map[string]bool{}
	for _, o := range res.Train {
		seen[string(o.Data)] = true
	}
	n := res.Options.RefineN
	seed := res.Options.Seed + uint64(round)
	gen := s.generator(seed)
	rng := rand.New(rand.NewPCG(seed, 0x6d75_7461_6e74))
	prog := s.progress()
	prog.Step(fmt.Sprintf("refinement round %d: generating inputs for %d rarely covered functions", round, len(rare)), len(rare))
	var inputs []measure.Input
	for _, fn := range rare {
		if err := ctx.Err(); err != nil {
			return ref, nil, err
		}
		var picked [][]byte
		var kinds []string
		pick := func(t *grammar.Tree, kind string) {
			data, err := s.Codec.Encode(t)
			if err != nil || seen[string(data)] {
				return
			}
			if data == nil {
				data = []byte{}
			}
			seen[string(data)] = true
			picked = append(picked, data)
			kinds = append(kinds, kind)
		}
		trees, err := res.Model.Generate(fn.Name, n/2, s.TargetOptions(seed))
		if err != nil && !errors.Is(err, learn.ErrUnsatisfiable) {
			return ref, nil, err
		}
		for _, t := range trees {
			pick(t, "rule")
		}
		targeted := len(picked)
		var positives []*grammar.Tree
		for _, o := range res.Train {
			if _, ok := slices.BinarySearch(o.Funcs, fn.Name); ok {
				positives = append(positives, s.Codec.Decode(o.Data).Tree())
			}
		}
		for try := 0; len(positives) > 0 && len(picked) < n && try < 4*n; try++ {
			if t := mutate(gen, rng, positives[try%len(positives)]); t != nil {
				pick(t, "mutant")
			}
		}
		prog.Advance(1)
		if len(picked) == 0 {
			continue
		}
		ref.Funcs = append(ref.Funcs, fn.Name)
		ref.Generated = append(ref.Generated, len(picked))
		ref.Targeted = append(ref.Targeted, targeted)
		for k, data := range picked {
			inputs = append(inputs, measure.Input{ID: fmt.Sprintf("%s%s%d", refineID(round, fn.Name), kinds[k], k+1), Data: data})
		}
	}
	ref.Reached = make([]int, len(ref.Funcs))
	ref.TargetedReached = make([]int, len(ref.Funcs))
	return ref, inputs, nil
}

// generator returns a random tree generator within the harness's bounds.
func (s *Session) generator(seed uint64) *grammar.Generator {
	b := s.Desc.Bounds
	gen := grammar.NewGenerator(s.Graph, seed)
	gen.MaxDepth = b.MaxDepth
	gen.MaxSize = min(gen.MaxSize, b.MaxSize)
	gen.MaxRepeat = min(gen.MaxRepeat, b.MaxRepeat)
	return gen
}

// mutate returns a copy of t in which the subtree of one reference, chosen
// at random, is derived anew by gen, or nil if the new derivation does not
// fit the generator's bounds.
func mutate(gen *grammar.Generator, rng *rand.Rand, t *grammar.Tree) *grammar.Tree {
	c := t.Clone()
	var refs []*grammar.Tree
	c.Walk(func(u *grammar.Tree) bool {
		if u.Node.Kind == grammar.KindRef {
			refs = append(refs, u)
		}
		return true
	})
	if len(refs) == 0 {
		return nil
	}
	u := refs[rng.IntN(len(refs))]
	*u = *grammar.NewOpen(u.Node)
	if err := gen.Complete(c); err != nil {
		return nil
	}
	return c
}

// samples returns the learning samples of observations.
func samples(obs []Observation) []learn.Sample {
	out := make([]learn.Sample, len(obs))
	for i, o := range obs {
		out[i] = learn.Sample{Paths: o.Paths, Covered: o.Funcs, Shape: o.Shape}
	}
	return out
}

// pathCoverage returns the l-path coverage of the observations for every l
// of the table.
func pathCoverage(pt *grammar.PathTable, obs []Observation) []PathCoverage {
	union := pt.NewPathSet()
	for _, o := range obs {
		union.Union(o.Paths)
	}
	out := make([]PathCoverage, pt.K)
	for l := 1; l <= pt.K; l++ {
		lo, hi := pt.Range(l)
		out[l-1] = PathCoverage{L: l, Covered: union.CountRange(lo, hi), Total: pt.Count(l)}
	}
	return out
}

// RandomInputs returns n random inputs of the grammar, encoded for the
// harness, with IDs prefix#1, prefix#2, ... Their depth bounds cycle from the
// least the grammar allows to maxDepth. Trees outside the harness's bounds
// (which the generator avoids) are drawn again. The current step of the
// Progress advances by one per input.
func (s *Session) RandomInputs(ctx context.Context, prefix string, seed uint64, n, maxDepth int) ([]measure.Input, error) {
	gen := s.generator(seed)
	lo := s.Graph.Root.MinDepth
	if lo > maxDepth {
		return nil, fmt.Errorf("the grammar's inputs are at least %d deep, more than the depth %d", lo, maxDepth)
	}
	out := make([]measure.Input, 0, n)
	failures := 0
	for len(out) < n {
		if len(out)%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		gen.MaxDepth = lo + (len(out)+failures)%(maxDepth-lo+1)
		t, err := gen.Generate()
		var data []byte
		if err == nil {
			data, err = s.Codec.Encode(t)
		}
		if err != nil {
			if failures++; failures > n+100 {
				return nil, fmt.Errorf("generating random inputs: %w", err)
			}
			continue
		}
		if data == nil {
			data = []byte{} // the shortest input, not text
		}
		out = append(out, measure.Input{ID: fmt.Sprintf("%s#%d", prefix, len(out)+1), Data: data})
		s.progress().Advance(1)
	}
	return out, nil
}

// features sets the Paths of every usable observation: the paths of all
// derivations of its text, or, if the text cannot be parsed (the parser's
// item limit), of the tree its data decodes to. It parses in parallel.
func (s *Session) features(ctx context.Context, pt *grammar.PathTable, obs []Observation, shapes bool) error {
	var (
		mu   sync.Mutex
		next int
		wg   sync.WaitGroup
	)
	take := func() int {
		mu.Lock()
		defer mu.Unlock()
		if ctx.Err() != nil || next >= len(obs) {
			return -1
		}
		next++
		return next - 1
	}
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := take(); i >= 0; i = take() {
				o := &obs[i]
				if Usable(o.Status) {
					ps, tree, err := learn.ParseInput(pt, s.Parser, []byte(o.Text))
					var se *grammar.SyntaxError
					if err != nil && !errors.As(err, &se) && o.Data != nil {
						tree = s.Codec.Decode(o.Data).Tree()
						ps, err = pt.Paths(tree), nil
					}
					if err == nil {
						o.Paths = ps
						if shapes {
							o.Shape = learn.NewShape(tree)
						}
					} else {
						o.Status, o.Message = protocol.StatusError, fmt.Sprintf("its text does not parse: %v", err)
					}
				}
				mu.Lock()
				s.progress().Advance(1)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// Examples returns up to n of the observations that covered the function
// and satisfy the rule (any rule if r is nil) of model m, the most readable
// first: those with the fewest characters outside printable ASCII (which a
// quoted example shows as escapes such as \U0001f600), then the shortest.
func Examples(m *learn.Model, obs []Observation, fn string, r *learn.Rule, n int) []Observation {
	var out []Observation
	for _, o := range obs {
		if _, ok := slices.BinarySearch(o.Funcs, fn); !ok {
			continue
		}
		if r != nil {
			ps, err := m.Extend(o.Paths, o.Shape)
			if err != nil || !r.Satisfied(ps) {
				continue
			}
		}
		out = append(out, o)
	}
	slices.SortStableFunc(out, func(a, b Observation) int {
		if ua, ub := unreadable(a.Text), unreadable(b.Text); ua != ub {
			return ua - ub
		}
		if len(a.Text) != len(b.Text) {
			return len(a.Text) - len(b.Text)
		}
		return strings.Compare(a.Text, b.Text)
	})
	out = slices.CompactFunc(out, func(a, b Observation) bool { return a.Text == b.Text })
	return out[:min(n, len(out))]
}

// unreadable counts the characters of s outside printable ASCII.
func unreadable(s string) int {
	n := 0
	for _, r := range s {
		if r < ' ' || r > '~' {
			n++
		}
	}
	return n
}
