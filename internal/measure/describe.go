package measure

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

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
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = cfg.Dir
	env := cfg.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(protocol.Environ(env), protocol.EnvGrammarOut+"="+out)
	output, runErr := cmd.CombinedOutput()
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
		return nil, fmt.Errorf("measure: go %s: %v\n%s", strings.Join(args, " "), runErr, tailOf(output))
	}
	return nil, notHarness(cfg.Target, pkg.ImportPath, tailOf(output))
}

// tailOf returns at most the last maxOutput bytes of out.
func tailOf(out []byte) []byte {
	b := &tailBuffer{max: maxOutput}
	b.Write(out)
	return b.Bytes()
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
