// Package evallearn is the evaluation of kfuzz learn after CODEINE's section
// 5.4 (kfuzz eval learn): on a fuzz test's session it learns a model, checks
// which functions' coverage depends on the input alone, evaluates the
// model's predictions on independent test inputs (Table 10 of the paper) and
// compares inputs generated from each function's rules with grammar-random
// inputs (Table 9).
package evallearn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/seed72891827/kfuzz/internal/pipeline"
	"github.com/seed72891827/kfuzz/learn"
)

// DefaultTargets is the default of Options.Targets.
const DefaultTargets = 10

// DefaultSelectRecall is the default of Options.SelectRecall.
const DefaultSelectRecall = 0.99

// Options configure Run. The zero value asks for the
// defaults.
type Options struct {
	// Learn configures the learning, as for pipeline.Session.Learn: the
	// training and test inputs, k, the seed and the trees (whose depth
	// CODEINE bounds by 5, the default).
	Learn pipeline.LearnOptions
	// Targets is the number of inputs generated for each function from its
	// rules, and of grammar-random inputs it is compared with (default
	// DefaultTargets).
	Targets int
	// MaxStates bounds each search of the targeted generation (default
	// learn.DefaultTargetStates).
	MaxStates int
	// All evaluates every learned function, those in Result.Unstable and
	// Result.Untrainable too.
	All bool
	// SelectRecall is the recall target of the selection evaluated besides
	// the default selection (default DefaultSelectRecall; see
	// learn.Model.SelectRecall).
	SelectRecall float64
}

// SelectionCounts counts the test inputs a selection for one changed
// function took, those of them that covered the function, and all test
// inputs that covered it.
type SelectionCounts struct {
	Selected, Hits, Covering int
}

// Recall returns the share of the covering test inputs that were selected;
// NaN if no test input covered the function.
func (c SelectionCounts) Recall() float64 {
	if c.Covering == 0 {
		return math.NaN()
	}
	return fraction(c.Hits, c.Covering)
}

// Precision returns the share of the selected test inputs that covered the
// function; NaN if none was selected.
func (c SelectionCounts) Precision() float64 {
	if c.Selected == 0 {
		return math.NaN()
	}
	return fraction(c.Hits, c.Selected)
}

// A FuncSelection is the selection of test inputs for one function taken as
// the only changed one: Default as kfuzz select takes them (the inputs
// predicted to cover it), Target with the recall target
// (kfuzz select -recall). Expected is the expected recall SelectRecall
// computed for Target.
type FuncSelection struct {
	Func            string
	Default, Target SelectionCounts
	Expected        float64
}

// A FuncGeneration is the outcome of targeted and random generation for one
// function: CODEINE's coverage fractions (Table 9 of the paper).
type FuncGeneration struct {
	// Func is the function's name and Rules the number of its rules.
	Func  string
	Rules int
	// Pos is the number of training inputs that covered the function.
	Pos int
	// Targeted counts the inputs generated from the function's rules and
	// TargetedReached those that covered it; Random and RandomReached the
	// same for as many grammar-random inputs (Targets of them if no
	// targeted input could be generated).
	Targeted, TargetedReached int
	Random, RandomReached     int
	// Error says why fewer inputs than asked for were generated, if no
	// input was (the function has no rule, or none could be satisfied).
	Error string
}

// TargetedFraction returns the share of the targeted inputs that reached
// the function (CODEINE's relative coverage fraction); 0 if there were none.
func (g FuncGeneration) TargetedFraction() float64 { return fraction(g.TargetedReached, g.Targeted) }

// RandomFraction returns the share of the random inputs that reached the
// function; 0 if there were none.
func (g FuncGeneration) RandomFraction() float64 { return fraction(g.RandomReached, g.Random) }

func fraction(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// A Result is the evaluation of learning on one fuzz test, after CODEINE's
// section 5.4: how well the model predicts the coverage of an independent
// test set (Table 10 of the paper), and how often inputs generated from its
// rules reach their function compared with grammar-random inputs (Table 9).
type Result struct {
	// Learned is the model with its training and test inputs.
	Learned *pipeline.Learned
	// Unstable holds the learned functions whose coverage depends on the
	// process's history rather than on the input: an input covered one of
	// them in one run and not in another, with other inputs before it (for
	// example a function behind a cache, a sync.Once or a sync.Pool). No
	// model of the input can predict them; they are left out of Eval and
	// Gen unless Options.All is set.
	Unstable []string
	// Untrainable holds the other learned functions that the random
	// training inputs covered always or never: only the harness's seeds,
	// the corpus entries or the refinement inputs told covering from
	// non-covering inputs. CODEINE, which trains on random inputs alone,
	// would not learn them (Table 8 of the paper counts as trainable the
	// methods covered by some but not all training inputs). They are left
	// out of Eval and Gen unless Options.All is set.
	Untrainable []string
	// Eval is the evaluation on the test inputs, of the evaluated functions.
	Eval *learn.Report
	// Gen holds the targeted generation of every evaluated function, in
	// the order of Eval.Funcs.
	Gen []FuncGeneration
	// Selection holds, for every evaluated function in the order of
	// Eval.Funcs, the selection of the test inputs with the function as the
	// only changed one, without and with the recall target SelectRecall.
	Selection    []FuncSelection
	SelectRecall float64
	// Timings are the times of the steps: Learned.Timings, then the
	// stability check and the generation (Generate) and measurement
	// (Measure) of the targeted and random inputs.
	Recheck, Generate, Measure time.Duration
}

// Relative returns the medians, over the evaluated functions, of the share of
// targeted and of random inputs that reached their function: CODEINE's
// relative coverage fractions. Both are NaN without functions.
func (e *Result) Relative() (targeted, random float64) {
	var t, r []float64
	for _, g := range e.Gen {
		t = append(t, g.TargetedFraction())
		r = append(r, g.RandomFraction())
	}
	return median(t), median(r)
}

// Absolute returns the shares of the evaluated functions reached by at least
// one of their targeted inputs, and by at least one of their random inputs:
// CODEINE's absolute coverage fractions. Both are NaN without functions.
func (e *Result) Absolute() (targeted, random float64) {
	if len(e.Gen) == 0 {
		return math.NaN(), math.NaN()
	}
	var t, r int
	for _, g := range e.Gen {
		if g.TargetedReached > 0 {
			t++
		}
		if g.RandomReached > 0 {
			r++
		}
	}
	return fraction(t, len(e.Gen)), fraction(r, len(e.Gen))
}

// median returns the median of xs, or NaN if there are none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Run evaluates learning on the session's fuzz test as CODEINE's evaluation
// does (section 5.4 of the paper). It learns a model (pipeline.Session.Learn),
// then measures the training and test inputs a second time, in the reverse
// order, to find the functions whose coverage does not depend on the input
// alone (Result.Unstable), and sets apart those the random training inputs
// alone do not tell apart (Result.Untrainable). For every other learned
// function it evaluates the predictions on the test inputs and generates
// Targets inputs from the function's rules (learn.Model.Generate); it
// measures them and as many new grammar-random inputs, drawn like the
// training inputs, and counts those that reach the function.
func Run(ctx context.Context, s *pipeline.Session, opts Options) (*Result, error) {
	if opts.Targets == 0 {
		opts.Targets = DefaultTargets
	}
	if opts.SelectRecall == 0 {
		opts.SelectRecall = DefaultSelectRecall
	}
	if !(opts.SelectRecall > 0 && opts.SelectRecall <= 1) {
		return nil, fmt.Errorf("the selection's recall target %g is outside (0, 1]", opts.SelectRecall)
	}
	if opts.Targets < 0 || opts.MaxStates < 0 {
		return nil, fmt.Errorf("negative evaluation settings (%d targets, %d states)", opts.Targets, opts.MaxStates)
	}
	l, err := s.Learn(ctx, opts.Learn)
	if err != nil {
		return nil, err
	}
	ev := &Result{Learned: l}

	start := time.Now()
	unstable, err := unstable(ctx, s, slices.Concat(l.Train, l.Test))
	if err != nil {
		return nil, err
	}
	ev.Recheck = time.Since(start)
	random, covered := 0, map[string]int{}
	for _, o := range l.Train {
		if o.Source == pipeline.SourceRandom {
			random++
			for _, name := range o.Funcs {
				covered[name]++
			}
		}
	}
	var funcs []*learn.Func
	for _, fn := range l.Model.Funcs {
		switch {
		case unstable[fn.Name]:
			ev.Unstable = append(ev.Unstable, fn.Name)
		case covered[fn.Name] == 0 || covered[fn.Name] == random:
			ev.Untrainable = append(ev.Untrainable, fn.Name)
		default:
			funcs = append(funcs, fn)
			continue
		}
		if opts.All {
			funcs = append(funcs, fn)
		}
	}
	keep := map[string]bool{}
	for _, fn := range funcs {
		keep[fn.Name] = true
	}
	ev.Eval = l.Eval.Subset(func(name string) bool { return keep[name] })
	ev.SelectRecall = opts.SelectRecall
	if ev.Selection, err = selection(l, ev.Eval.Funcs, opts.SelectRecall); err != nil {
		return nil, err
	}

	// Targeted inputs, Targets per function.
	start = time.Now()
	prog := s
	prog.Step(fmt.Sprintf("generating %d inputs for each of %d functions from their rules", opts.Targets, len(funcs)), len(funcs))
	var targeted []pipeline.Input
	owner := map[int]int{} // index into targeted -> index into ev.Gen
	for i, fn := range funcs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		g := FuncGeneration{Func: fn.Name, Rules: len(fn.Rules), Pos: fn.Pos}
		gopts := s.TargetOptions(l.Options.Seed + uint64(i)*0x9e37_79b9)
		gopts.MaxStates = opts.MaxStates
		trees, err := l.Model.Generate(fn.Name, opts.Targets, gopts)
		if err != nil {
			if !errors.Is(err, learn.ErrUnsatisfiable) {
				return nil, err
			}
			g.Error = err.Error()
		}
		for _, t := range trees {
			data, err := s.Codec.Encode(t)
			if err != nil {
				continue // outside the harness's bounds
			}
			if data == nil {
				data = []byte{}
			}
			owner[len(targeted)] = i
			targeted = append(targeted, pipeline.Input{ID: fmt.Sprintf("targeted:%s#%d", fn.Name, g.Targeted+1), Data: data})
			g.Targeted++
		}
		g.Random = g.Targeted
		if g.Random == 0 {
			g.Random = opts.Targets
		}
		ev.Gen = append(ev.Gen, g)
		prog.Advance(1)
	}
	total := 0
	for _, g := range ev.Gen {
		total += g.Random
	}
	prog.Step(fmt.Sprintf("generating %d grammar-random inputs", total), total)
	randomInputs, err := s.RandomInputs(ctx, "random-eval", evalSeed(l.Options.Seed), total, l.Options.Depth)
	if err != nil {
		return nil, err
	}
	ev.Generate = time.Since(start)

	start = time.Now()
	prog.Step(fmt.Sprintf("measuring %d targeted and %d random inputs", len(targeted), len(randomInputs)), len(targeted)+len(randomInputs))
	results, err := s.Measure(ctx, slices.Concat(targeted, randomInputs))
	if err != nil {
		return nil, err
	}
	ev.Measure = time.Since(start)
	for k, r := range results[:len(targeted)] {
		g := &ev.Gen[owner[k]]
		if r.Funcs != nil && r.Funcs.HasName(g.Func) {
			g.TargetedReached++
		}
	}
	next := len(targeted)
	for i := range ev.Gen {
		g := &ev.Gen[i]
		for _, r := range results[next : next+g.Random] {
			if r.Funcs != nil && r.Funcs.HasName(g.Func) {
				g.RandomReached++
			}
		}
		next += g.Random
	}
	return ev, nil
}

// selection selects among the test inputs for each evaluated function, as
// the only changed one, without and with the recall target, and counts the
// selected inputs that covered it.
func selection(l *pipeline.Learned, funcs []learn.FuncReport, recall float64) ([]FuncSelection, error) {
	corpus := make([]learn.Input, len(l.Test))
	for i, o := range l.Test {
		ps, err := l.Model.Extend(o.Paths, o.Shape)
		if err != nil {
			return nil, fmt.Errorf("test input %s: %w", o.ID, err)
		}
		corpus[i] = learn.Input{Name: o.ID, Paths: ps, Size: len(o.Data)}
	}
	covers := func(i int, name string) bool {
		_, ok := slices.BinarySearch(l.Test[i].Funcs, name)
		return ok
	}
	out := make([]FuncSelection, len(funcs))
	for k, fr := range funcs {
		fs := FuncSelection{Func: fr.Func}
		for i := range corpus {
			if covers(i, fr.Func) {
				fs.Default.Covering++
				fs.Target.Covering++
			}
		}
		sel, err := l.Model.Select([]string{fr.Func}, corpus)
		if err != nil {
			return nil, err
		}
		for _, s := range sel {
			fs.Default.Selected++
			if covers(s.Index, fr.Func) {
				fs.Default.Hits++
			}
		}
		sel, stats, err := l.Model.SelectRecall([]string{fr.Func}, corpus, recall)
		if err != nil {
			return nil, err
		}
		fs.Expected = stats[0].Expected
		for _, s := range sel {
			fs.Target.Selected++
			if covers(s.Index, fr.Func) {
				fs.Target.Hits++
			}
		}
		out[k] = fs
	}
	return out, nil
}

// evalSeed derives the seed of the random inputs of Run from the
// training seed, apart from the training and test seeds.
func evalSeed(seed uint64) uint64 { return seed ^ 0x0e7a_1ea2_0e7a_1ea2 }

// unstable measures the observations again, in the reverse order, and
// returns the functions that some usable observation covered in one run and
// not in the other.
func unstable(ctx context.Context, s *pipeline.Session, obs []pipeline.Observation) (map[string]bool, error) {
	var inputs []pipeline.Input
	var index []int
	for i := len(obs) - 1; i >= 0; i-- {
		if o := obs[i]; o.Paths != nil && o.Data != nil {
			inputs = append(inputs, pipeline.Input{ID: o.ID, Data: o.Data})
			index = append(index, i)
		}
	}
	s.Step(fmt.Sprintf("measuring %d inputs again in the reverse order", len(inputs)), len(inputs))
	results, err := s.Measure(ctx, inputs)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for k, r := range results {
		o := obs[index[k]]
		if !pipeline.Usable(r.Status) {
			continue
		}
		var again []string
		if r.Funcs != nil {
			again = r.Funcs.Names()
		}
		for _, name := range symmetricDifference(o.Funcs, again) {
			out[name] = true
		}
	}
	return out, nil
}

// symmetricDifference returns the names in exactly one of the sorted slices.
func symmetricDifference(a, b []string) []string {
	var out []string
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			out = append(out, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			i++
			j++
		}
	}
	return out
}
