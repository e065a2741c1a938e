package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/internal/measure"
	"github.com/seed72891827/kfuzz/internal/protocol"
)

// The measurement types of package measure, under the names the commands
// use: the commands go through this package.
type (
	// Config says which fuzz test to build, how, and which packages to
	// measure (see measure.Config).
	Config = measure.Config
	// Input is one input to run the target over.
	Input = measure.Input
	// Result is the outcome of the target on one input and what it covered.
	Result = measure.Result
	// Report holds the results of a run and the coverage outside inputs.
	Report = measure.Report
	// Status is the outcome of the target on an input.
	Status = measure.Status
)

// StatusCrash is the Status of an input during which the test process died.
const StatusCrash = measure.StatusCrash

// ErrNotHarness is wrapped by the errors of fuzz tests that do not run their
// target through fuzzharness.
var ErrNotHarness = measure.ErrNotHarness

// CoverOptions say which inputs Cover runs.
type CoverOptions struct {
	// Files are files and directories of inputs, corpus entries or plain
	// inputs (see measure.FileInputs). If there are any, Cover runs them
	// alone.
	Files []string
	// Without Files, Seeds runs the harness's seeds (its k-path covering
	// forest and examples), and Testdata the entries of the fuzz test's
	// testdata/fuzz/FuzzX, in that order.
	Seeds, Testdata bool
}

// A Coverage is what Cover measured.
type Coverage struct {
	// Target is the fuzz test, and ImportPath the import path of its
	// package.
	Target, ImportPath string
	*Report
}

// Cover builds the fuzz test that cfg names with coverage instrumentation
// and runs its target over the inputs that opts names, reporting for each
// its outcome and the functions it covered (kfuzz cover).
func Cover(ctx context.Context, cfg Config, opts CoverOptions) (*Coverage, error) {
	var inputs []Input
	if len(opts.Files) > 0 {
		var err error
		if inputs, err = measure.FileInputs(opts.Files...); err != nil {
			return nil, err
		}
	}
	r, err := measure.Build(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if len(opts.Files) == 0 {
		if opts.Seeds {
			d, err := r.Describe(ctx)
			if err != nil {
				return nil, err
			}
			s, err := measure.SeedInputs(d)
			if err != nil {
				return nil, err
			}
			inputs = append(inputs, s...)
		}
		if opts.Testdata {
			td, err := r.TestdataInputs()
			if err != nil {
				return nil, err
			}
			inputs = append(inputs, td...)
		}
	}
	rep, err := r.Run(ctx, inputs)
	if err != nil {
		return nil, err
	}
	return &Coverage{Target: r.Target(), ImportPath: r.ImportPath(), Report: rep}, nil
}

// DescribeCorpusDir returns the description of the harness whose corpus
// directory dir is, with its grammar and bounds: dir is the seed corpus
// pkg/testdata/fuzz/FuzzX of the fuzz test FuzzX of the package in pkg, or
// the directory of the go test fuzz cache that holds what go test -fuzz
// generated for it ($GOCACHE/fuzz/import/path/FuzzX). The fuzz test runs in
// its package to describe its harness (see measure.Describe); if it does not
// use fuzzharness, the error wraps ErrNotHarness.
func DescribeCorpusDir(ctx context.Context, dir string) (*protocol.Description, error) {
	cfg, err := corpusDirConfig(ctx, dir)
	if err != nil {
		return nil, err
	}
	return measure.Describe(ctx, cfg)
}

// corpusDirConfig returns the configuration that names the fuzz test of the
// corpus directory dir and its package.
func corpusDirConfig(ctx context.Context, dir string) (Config, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Config{}, err
	}
	target := filepath.Base(abs)
	var cfg Config
	if parent := filepath.Dir(abs); filepath.Base(parent) == "fuzz" && filepath.Base(filepath.Dir(parent)) == "testdata" {
		cfg = Config{Dir: filepath.Dir(filepath.Dir(parent)), Package: "."} // pkg/testdata/fuzz/FuzzX
	} else if gocache, err := corpus.GoCache(ctx); err == nil {
		// gocache/fuzz/import/path/FuzzX
		if rel, err := filepath.Rel(filepath.Join(gocache, "fuzz"), parent); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			cfg = Config{Package: filepath.ToSlash(rel)}
		}
	}
	if cfg.Package == "" || !strings.HasPrefix(target, "Fuzz") {
		return Config{}, fmt.Errorf("%s is not a corpus directory pkg/testdata/fuzz/FuzzX or in the go test fuzz cache", dir)
	}
	cfg.Target = target
	return cfg, nil
}
