package pipeline

import (
	"context"
	"errors"
	"fmt"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/internal/measure"
)

// Progress hears about the long steps of a pipeline: a command draws a
// progress bar with it. Its methods are called from one goroutine at a time.
type Progress interface {
	// Step announces a new step, such as "measuring 2,000 inputs", of total
	// units of work (0 if unknown).
	Step(name string, total int)
	// Advance reports n more units of the current step done.
	Advance(n int)
}

// quiet is the Progress of a nil Progress: it hears nothing.
type quiet struct{}

func (quiet) Step(string, int) {}
func (quiet) Advance(int)      {}

// A Session is a fuzz test built for measurement, with its harness. Open one
// with Open and Close it when done; it is not safe for concurrent use.
type Session struct {
	*Harness
	// Progress, if not nil, hears about long steps.
	Progress Progress

	runner *measure.Runner
}

// Open builds the fuzz test that cfg names with coverage instrumentation (see
// measure.Build) and has its harness describe itself. The fuzz test must run
// its target through fuzzharness.
func Open(ctx context.Context, cfg measure.Config) (*Session, error) {
	r, err := measure.Build(ctx, cfg)
	if err != nil {
		return nil, err
	}
	d, err := r.Describe(ctx)
	if err != nil {
		r.Close()
		return nil, err
	}
	h, err := NewHarness(d)
	if err != nil {
		r.Close()
		return nil, err
	}
	return &Session{Harness: h, runner: r}, nil
}

// Close removes the test binary.
func (s *Session) Close() error { return s.runner.Close() }

// Target returns the name of the fuzz test, such as FuzzCalc.
func (s *Session) Target() string { return s.runner.Target() }

// ImportPath returns the import path of the fuzz test's package.
func (s *Session) ImportPath() string { return s.runner.ImportPath() }

// PackageDir returns the directory of the fuzz test's package.
func (s *Session) PackageDir() string { return s.runner.PackageDir() }

// TestdataDir returns the fuzz test's seed corpus directory,
// <package dir>/testdata/fuzz/<target>, which plain go test runs.
func (s *Session) TestdataDir() string { return corpus.TestdataDir(s.PackageDir(), s.Target()) }

// Measured returns the import paths of the measured packages, sorted.
func (s *Session) Measured() []string { return s.runner.Table().Packages() }

// Functions returns the names of all functions of the measured packages.
func (s *Session) Functions() []string {
	t := s.runner.Table()
	names := make([]string, t.Len())
	for i := range names {
		names[i] = t.Func(i).Name
	}
	return names
}

// progress returns the session's Progress, never nil.
func (s *Session) progress() Progress {
	if s.Progress == nil {
		return quiet{}
	}
	return s.Progress
}

// Step announces a new step of work to the session's Progress, if any:
// work built on a session reports its steps with the session's own.
func (s *Session) Step(name string, total int) { s.progress().Step(name, total) }

// Advance reports n more units of the current step done to the session's
// Progress, if any.
func (s *Session) Advance(n int) { s.progress().Advance(n) }

// measureChunk is how many inputs one test process runs at most: small
// enough that progress shows and an interrupt is noticed soon, large enough
// that starting processes costs little next to running the inputs.
const measureChunk = 250

// Measure runs the fuzz test's target over the inputs, in chunks, and returns
// one result per input, in order (see measure.Runner.Run). The current
// step of the Progress advances by one per input.
func (s *Session) Measure(ctx context.Context, inputs []measure.Input) ([]measure.Result, error) {
	results := make([]measure.Result, 0, len(inputs))
	for start := 0; start < len(inputs); start += measureChunk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		end := min(start+measureChunk, len(inputs))
		rep, err := s.runner.Run(ctx, inputs[start:end])
		if err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
				return nil, fmt.Errorf("%w (%v)", ctxErr, err)
			}
			return nil, err
		}
		for _, r := range rep.Results {
			r.Index += start
			results = append(results, r)
		}
		s.progress().Advance(end - start)
	}
	return results, nil
}
