package pipeline

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/internal/measure"
	"github.com/seed72891827/kfuzz/learn"
)

// Defaults of SeedOptions.
const (
	DefaultSeeds   = 10
	DefaultBatches = 5
)

// SeedOptions configure Session.Seeds. The zero value asks for the defaults.
type SeedOptions struct {
	// N is the number of inputs wanted that reach the function (default
	// DefaultSeeds).
	N int
	// Batches bounds the rounds of generation: each generates N new inputs
	// and measures them, until N have reached the function (default
	// DefaultBatches).
	Batches int
	// Seed seeds the generation; the same seed gives the same inputs.
	Seed uint64
	// MaxStates bounds each search (default learn.DefaultTargetStates).
	MaxStates int
	// Timeout, if positive, bounds the time of the generation; the inputs
	// found by then are measured.
	Timeout time.Duration
}

// A Seed is an input generated to reach a function, and what it reached.
type Seed struct {
	// Text is the input and Data its encoding for the harness.
	Text string
	Data []byte
	// Rule is the first of the function's rules the input satisfies.
	Rule *learn.Rule
	// Status is the outcome of the target on the input, and Message the
	// panic value or why it did not run.
	Status  measure.Status
	Message string
	// Reached reports whether the input covered the function.
	Reached bool
	// Name is the name of the corpus entry that holds the input, set by
	// WriteSeeds for inputs that reached the function, and Added reports
	// whether WriteSeeds wrote it (false if it was already there).
	Name  string
	Added bool
}

// Seeds generates inputs aimed at the function fn from the model's rules
// (learn.Model.Generate), within the harness's bounds, and measures which of
// them really reach it: in batches of N new inputs, until N have reached it
// or Batches batches are done. It returns the inputs it measured, in order,
// up to the N-th that reached fn: at most N of them reached it; fewer if
// the batches ran out or no more distinct inputs could be generated.
// The model must be learned for the session's grammar (see ModelFile). If no
// input can be generated, the error wraps learn.ErrUnsatisfiable or, for a
// function without a tree, learn.ErrUnknownFunc.
func (s *Session) Seeds(ctx context.Context, m *learn.Model, fn string, opts SeedOptions) ([]Seed, error) {
	if learn.Fingerprint(m.Table.Graph) != learn.Fingerprint(s.Graph) {
		return nil, fmt.Errorf("the model was learned for another grammar than the one %s uses", s.Target())
	}
	if opts.N == 0 {
		opts.N = DefaultSeeds
	}
	if opts.Batches == 0 {
		opts.Batches = DefaultBatches
	}
	if opts.N < 0 || opts.Batches < 0 {
		return nil, fmt.Errorf("negative seed options (%d inputs, %d batches)", opts.N, opts.Batches)
	}
	f := m.Func(fn)
	if f == nil {
		_, err := m.Rules(fn) // says why
		return nil, err
	}
	var seeds []Seed
	seen := map[string]bool{}
	reached := 0
	prog := s.progress()
	for batch := 0; batch < opts.Batches && reached < opts.N; batch++ {
		prog.Step(fmt.Sprintf("generating inputs for %s (batch %d)", fn, batch+1), 0)
		gopts := s.TargetOptions(opts.Seed + uint64(batch)*0x9e37_79b9)
		gopts.MaxStates, gopts.Timeout = opts.MaxStates, opts.Timeout
		trees, err := m.Generate(fn, opts.N, gopts)
		if err != nil {
			if len(seeds) > 0 && errors.Is(err, learn.ErrUnsatisfiable) {
				break
			}
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var batchSeeds []Seed
		var inputs []measure.Input
		for _, t := range trees {
			// The model's graph may be another compilation of the same
			// grammar: go through the text, which means the same in both.
			text := t.String()
			if seen[text] {
				continue
			}
			seen[text] = true
			tree, err := s.Codec.Parse(text)
			if err != nil {
				continue // outside the harness's bounds
			}
			data, err := s.Codec.Encode(tree)
			if err != nil {
				continue
			}
			if data == nil {
				data = []byte{}
			}
			sd := Seed{Text: text, Data: data}
			ps, err := m.TreeFeatures(t)
			if err != nil {
				return nil, err
			}
			for _, r := range f.Rules {
				if r.Satisfied(ps) {
					sd.Rule = r
					break
				}
			}
			batchSeeds = append(batchSeeds, sd)
			inputs = append(inputs, measure.Input{ID: fmt.Sprintf("seed#%d", len(seeds)+len(inputs)+1), Data: data})
		}
		prog.Step(fmt.Sprintf("measuring %d inputs", len(inputs)), len(inputs))
		results, err := s.Measure(ctx, inputs)
		if err != nil {
			return nil, err
		}
		for i, r := range results {
			sd := &batchSeeds[i]
			sd.Status, sd.Message = r.Status, r.Message
			sd.Reached = r.Funcs != nil && r.Funcs.HasName(fn)
			if sd.Reached {
				reached++
				if reached == opts.N {
					batchSeeds = batchSeeds[:i+1]
					break
				}
			}
		}
		seeds = append(seeds, batchSeeds...)
	}
	return seeds, nil
}

// WriteSeeds adds the seeds that reached their function to the corpus
// directory dir (such as Session.TestdataDir), encoded for the harness as go
// test reads them: atomically, never replacing an entry, and not at all when
// the same entry is there. It sets the seeds' Name and Added.
func WriteSeeds(dir string, seeds []Seed) error {
	d, err := corpus.OpenDir(dir)
	if err != nil {
		return err
	}
	for i := range seeds {
		if !seeds[i].Reached {
			continue
		}
		name, added, err := d.Add(seeds[i].Data)
		if err != nil {
			return err
		}
		seeds[i].Name, seeds[i].Added = name, added
	}
	return nil
}

// ResolveFunc returns the function of the model that name stands for: the
// full name (import/path.(*T).Method), or a suffix of it that starts after a
// "/" or a ".", such as calc.(*simplifier).distribute or distribute, if just
// one function has it.
func ResolveFunc(m *learn.Model, name string) (string, error) {
	all := m.Names()
	if _, ok := slices.BinarySearch(all, name); ok {
		return name, nil
	}
	var matches []string
	for _, n := range all {
		if strings.HasSuffix(n, name) && len(n) > len(name) {
			if c := n[len(n)-len(name)-1]; c == '.' || c == '/' {
				matches = append(matches, n)
			}
		}
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		var near []string
		for _, n := range all {
			if strings.Contains(strings.ToLower(n), strings.ToLower(name)) {
				near = append(near, n)
			}
		}
		if len(near) > 0 && len(near) <= 10 {
			return "", fmt.Errorf("%w %s (did you mean %s?)", learn.ErrUnknownFunc, name, strings.Join(near, ", "))
		}
		return "", fmt.Errorf("%w %s (the model knows %d functions; kfuzz predict and the learn report list them)", learn.ErrUnknownFunc, name, len(all))
	}
	return "", fmt.Errorf("%s is ambiguous: it may be %s", name, strings.Join(matches, ", "))
}
