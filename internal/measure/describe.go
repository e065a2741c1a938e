package measure

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/seed72891827/kfuzz/internal/gocmd"
	"github.com/seed72891827/kfuzz/internal/protocol"
)

// Describe returns the description of the harness of the fuzz test that
// cfg names: the grammar it registers with fuzzharness, its bounds and
// seed options. It runs go test -run='^Target$' in the package, without
// instrumentation, with protocol.EnvGrammarOut set, so the harness
// describes itself and the fuzz test is skipped. Only cfg.Dir, Package,
// Target, BuildFlags and Env are used. If the fuzz test does not use
// fuzzharness, the error wraps ErrNotHarness.
//
// A Runner describes the harness with the binary it built instead (see
// Runner.Describe).
func Describe(ctx context.Context, cfg Config) (*protocol.Description, error) {
	if cfg.Package == "" {
		cfg.Package = "."
	}
	pkg, err := findTarget(ctx, &cfg)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "kfuzz-describe-")
	if err != nil {
		return nil, fmt.Errorf("measure: %v", err)
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "grammar.jsonl")
	args := []string{"test", "-count=1", "-run=^" + cfg.Target + "$"}
	args = append(args, cfg.BuildFlags...)
	args = append(args, cfg.Package)
	env := cfg.Env
	if env == nil {
		env = os.Environ()
	}
	env = append(protocol.Environ(env), protocol.EnvGrammarOut+"="+out)
	stdout, runErr := gocmd.Runner{Dir: cfg.Dir, Env: env}.Go(ctx, args...)
	if ctx.Err() != nil {
		return nil, fmt.Errorf("measure: describing %s: %w", cfg.Target, ctx.Err())
	}
	descs, err := readFile(out, protocol.ReadDescriptions)
	if err != nil {
		return nil, fmt.Errorf("measure: reading the description of %s: %v", cfg.Target, err)
	}
	for i := range descs {
		if descs[i].Target == cfg.Target {
			return &descs[i], nil
		}
	}
	if runErr != nil {
		// The error holds the command line and what the go command wrote
		// to standard error (build errors); the test's own report of what
		// failed is on standard output.
		return nil, fmt.Errorf("measure: describing %s in %s: %w%s", cfg.Target, pkg.ImportPath, runErr, testOutput(stdout))
	}
	return nil, notHarness(cfg.Target, pkg.ImportPath, excerpt(stdout))
}

// excerpt returns the beginning and the end of out, maxOutput bytes in
// all.
func excerpt(out []byte) []byte {
	e := &gocmd.Excerpt{Max: maxOutput}
	e.Write(out)
	return e.Bytes()
}

// testOutput returns an excerpt of what a failed go test wrote to standard
// output, on lines of its own under a heading, or "" if it wrote nothing.
func testOutput(stdout []byte) string {
	if out := excerpt(stdout); len(out) > 0 {
		return "\ntest output:\n" + string(out)
	}
	return ""
}

// Measure builds the fuzz test that cfg names with instrumentation, runs
// its target over the inputs and removes the build again: Build, Run and
// Close in one. Use a Runner to run several sets of inputs with one build.
func Measure(ctx context.Context, cfg Config, inputs []Input) (*Report, error) {
	r, err := Build(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Run(ctx, inputs)
}
