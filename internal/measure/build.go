package measure

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/seed72891827/kfuzz/coverage"
	"github.com/seed72891827/kfuzz/coverage/instrument"
	"github.com/seed72891827/kfuzz/internal/gocmd"
	"github.com/seed72891827/kfuzz/internal/protocol"
)

// Config says which fuzz test to run and which packages to measure.
type Config struct {
	// Dir is the directory in which the go command runs; empty means the
	// current directory. Package and Cover are resolved there.
	Dir string
	// Package names the package that holds the fuzz test, as for go list:
	// a directory such as "./examples/calc" or an import path. It must be
	// a package of the main module. Empty means ".".
	Package string
	// Target is the name of the fuzz test, e.g. "FuzzCalc". It must run
	// its target through fuzzharness (see ErrNotHarness).
	Target string
	// Cover selects the packages whose functions are measured, as
	// patterns for go list ("./...", or a dependency's import path). The
	// default is the fuzz test's own package. Packages that the coverage
	// runtime itself depends on cannot be measured (see
	// instrument.Config.Patterns).
	Cover []string
	// BuildFlags are passed to go list and go test, e.g. "-tags=netgo" or
	// "-race". -cover and its relatives and -overlay are refused.
	BuildFlags []string
	// Env is the environment of the go command and of the test process;
	// nil means os.Environ().
	Env []string
	// Mode is the counter mode (coverage.ModeHits by default; see
	// coverage.Mode). It matters only for block counts and profiles:
	// function sets are the same in every mode.
	Mode coverage.Mode
	// Timeout limits the time the target may take on one input; zero
	// means protocol.DefaultTimeout. An input that runs longer is
	// reported with status timeout, and a new test process runs the
	// inputs after it.
	Timeout time.Duration
	// KeepCounts keeps the block counts of every input in Result.Counts.
	// Without it only the function sets are kept per input (and the
	// counts summed over all inputs in Report.Total).
	KeepCounts bool
}

// ErrNotHarness is returned, wrapped in an error that says how to fix it,
// when the fuzz test does not run its target through fuzzharness: only a
// harness can run chosen inputs one by one and report each, and describe
// its grammar.
var ErrNotHarness = errors.New("the fuzz test does not use fuzzharness")

// notHarness returns ErrNotHarness for the fuzz test, with the remedy.
func notHarness(target, pkg string, output []byte) error {
	msg := fmt.Sprintf("%s in %s wrote no grammar description, so its inputs cannot be measured one by one. "+
		"Make it measurable by running its target through a harness in place of f.Fuzz: "+
		"fuzzharness.New(f, g).FuzzString(func(t *testing.T, s string) { ... }) for a string target, "+
		"or Fuzz(func(t *testing.T, in fuzzharness.Input) { ... }) with in.Bytes() for a []byte target",
		target, pkg)
	if out := bytes.TrimSpace(output); len(out) > 0 {
		msg += "\ntest output:\n" + string(out)
	}
	return fmt.Errorf("measure: %w: %s", ErrNotHarness, msg)
}

// A Runner holds a test binary of a fuzz test built with coverage
// instrumentation. It runs the fuzz test's target over inputs (Run) and
// reports the harness's grammar (Describe). Close removes the binary.
//
// A Runner is not safe for concurrent use.
type Runner struct {
	cfg     Config
	pkg     *listedPackage
	tmp     string // temporary directory of the overlay, glue and binary
	ov      *instrument.Overlay
	bin     string
	table   *coverage.Table
	base    map[string]int // first block of each instrumented package in table
	nblocks map[string]int // number of blocks of each instrumented package
	entryOf []int32        // the function whose entries each block counts, or -1
	runs    int            // numbers the files of successive processes
}

// listedPackage is the part of go list -json output that is used.
type listedPackage struct {
	ImportPath   string
	Name         string
	Dir          string
	GoFiles      []string
	TestGoFiles  []string
	XTestGoFiles []string
	Module       *struct {
		Path, Dir string
		Main      bool
	}
	Error *struct{ Err string }
}

// Build checks cfg, instruments the packages to measure and builds the
// fuzz test's package into a test binary, once: go test -c with an overlay
// that replaces the measured packages' files with instrumented copies and
// adds a file to the fuzz test's package that hands the coverage of each
// input to fuzzharness (see fuzzharness.SetMeasureHook). The user's files
// are never written. Call Close to remove the binary.
func Build(ctx context.Context, cfg Config) (*Runner, error) {
	if err := cfg.setDefaults(); err != nil {
		return nil, err
	}
	if err := checkGOFLAGS(cfg.Env); err != nil {
		return nil, err
	}
	pkg, err := findTarget(ctx, &cfg)
	if err != nil {
		return nil, err
	}
	glue := filepath.Join(pkg.Dir, glueFile)
	if _, err := os.Lstat(glue); err == nil {
		return nil, fmt.Errorf("measure: %s exists; kfuzz adds a file of this name to the test package while it measures, remove it", glue)
	}
	cover := cfg.Cover
	if len(cover) == 0 {
		if len(pkg.GoFiles) == 0 {
			return nil, fmt.Errorf("measure: %s has no code outside its tests to measure; name the packages under test (Config.Cover; kfuzz learn -cover PATTERN, such as -cover github.com/x/y for a dependency)", pkg.ImportPath)
		}
		cover = []string{pkg.ImportPath}
	}
	cache := openCache(cfg.Env)
	var key string
	if cache != nil {
		// A cache that cannot be used only makes the build slower.
		key, _ = cache.key(ctx, cfg, cover)
		if key != "" {
			if r := loadCached(cache, key, cfg, pkg); r != nil {
				return r, nil
			}
		}
	}
	ov, err := instrument.BuildOverlay(ctx, instrument.Config{
		Dir: cfg.Dir, Patterns: cover, BuildFlags: cfg.BuildFlags, Env: cfg.Env, Mode: cfg.Mode,
	})
	if err != nil {
		return nil, fmt.Errorf("measure: %w", err)
	}
	r := &Runner{cfg: cfg, pkg: pkg, ov: ov, table: ov.Table}
	if err := r.build(ctx, glue); err != nil {
		r.Close()
		return nil, err
	}
	if key != "" {
		cache.store(key, r.bin, ov.Metadata) // a failure only loses the entry
	}
	return r, nil
}

// build writes the glue and the overlay and runs go test -c.
func (r *Runner) build(ctx context.Context, glue string) error {
	var err error
	if r.tmp, err = os.MkdirTemp("", "kfuzz-measure-"); err != nil {
		return fmt.Errorf("measure: %v", err)
	}
	src, err := glueSource(r.pkg.Name + "_test")
	if err != nil {
		return err
	}
	glueCopy := filepath.Join(r.tmp, glueFile)
	if err := os.WriteFile(glueCopy, src, 0o644); err != nil {
		return fmt.Errorf("measure: %v", err)
	}
	replace := map[string]string{glue: glueCopy}
	for k, v := range r.ov.Replace {
		replace[k] = v
	}
	data, err := json.Marshal(struct{ Replace map[string]string }{replace})
	if err != nil {
		return fmt.Errorf("measure: %v", err)
	}
	overlay := filepath.Join(r.tmp, "overlay.json")
	if err := os.WriteFile(overlay, data, 0o644); err != nil {
		return fmt.Errorf("measure: %v", err)
	}
	r.bin = filepath.Join(r.tmp, "fuzz.test")
	if err := compileTest(ctx, &r.cfg, r.pkg, r.bin, " with instrumentation", "-overlay="+overlay); err != nil {
		return err
	}
	return r.index()
}

// index numbers the blocks of each package and finds the entry blocks of
// the functions (see mapEntries) by running the binary.
func (r *Runner) index() error {
	r.base, r.nblocks = map[string]int{}, map[string]int{}
	for i := 0; i < r.table.NumBlocks(); i++ {
		p := r.table.Func(r.table.Block(i).Func).Package
		if _, ok := r.base[p]; !ok {
			r.base[p] = i
		}
		r.nblocks[p]++
	}
	return r.mapEntries()
}

// setDefaults fills in the default package and timeout, and refuses a
// negative timeout.
func (cfg *Config) setDefaults() error {
	if cfg.Package == "" {
		cfg.Package = "."
	}
	if cfg.Timeout < 0 {
		return fmt.Errorf("measure: negative timeout %v", cfg.Timeout)
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = protocol.DefaultTimeout
	}
	return nil
}

// compileTest builds the test of pkg into the binary bin with go test -c,
// the flags extra and cfg's build flags. how says how, for errors.
func compileTest(ctx context.Context, cfg *Config, pkg *listedPackage, bin, how string, extra ...string) error {
	args := append([]string{"test", "-c", "-o", bin}, extra...)
	args = append(args, cfg.BuildFlags...)
	args = append(args, cfg.Package)
	if out, err := (gocmd.Runner{Dir: cfg.Dir, Env: cfg.Env}).Go(ctx, args...); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("measure: building the test of %s: %w", pkg.ImportPath, ctx.Err())
		}
		return fmt.Errorf("measure: building the test of %s%s: %w%s", pkg.ImportPath, how, err, testOutput(out))
	}
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("measure: go test -c wrote no test binary for %s (does it have test files?)", pkg.ImportPath)
	}
	return nil
}

// checkGOFLAGS refuses coverage flags in GOFLAGS: go test -cover ignores
// overlays (golang/go#73802), so the instrumented copies would not be built.
func checkGOFLAGS(env []string) error {
	for _, f := range strings.Fields(envValue(env, "GOFLAGS")) {
		name, _, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
		switch name {
		case "cover", "coverpkg", "covermode", "coverprofile", "overlay":
			return fmt.Errorf("measure: GOFLAGS has %s, which cannot be combined with kfuzz's coverage instrumentation (go test -cover ignores overlays, golang/go#73802); unset it", f)
		}
	}
	return nil
}

// Close removes the test binary and the instrumented files.
func (r *Runner) Close() error {
	var errs []error
	if r.ov != nil {
		errs = append(errs, r.ov.Close())
		r.ov = nil
	}
	if r.tmp != "" {
		errs = append(errs, os.RemoveAll(r.tmp))
		r.tmp = ""
	}
	return errors.Join(errs...)
}

// Table returns the functions and blocks of the measured packages.
func (r *Runner) Table() *coverage.Table { return r.table }

// ImportPath returns the import path of the fuzz test's package.
func (r *Runner) ImportPath() string { return r.pkg.ImportPath }

// PackageDir returns the directory of the fuzz test's package, in which
// the test binary runs (and where testdata/fuzz lies).
func (r *Runner) PackageDir() string { return r.pkg.Dir }

// Target returns the name of the fuzz test.
func (r *Runner) Target() string { return r.cfg.Target }

// validTarget reports whether name can name a fuzz test: Fuzz, followed by
// nothing or by a character that is not a lower-case letter, as go test
// requires, and an identifier.
func validTarget(name string) bool {
	rest, ok := strings.CutPrefix(name, "Fuzz")
	if !ok || !token.IsIdentifier(name) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return rest == "" || !unicode.IsLower(r)
}

// findTarget lists the package of cfg and checks that one of its test
// files declares the fuzz test.
func findTarget(ctx context.Context, cfg *Config) (*listedPackage, error) {
	if !validTarget(cfg.Target) {
		if cfg.Target == "" {
			return nil, errors.New("measure: no fuzz test named")
		}
		return nil, fmt.Errorf("measure: %q cannot name a fuzz test (want FuzzXxx)", cfg.Target)
	}
	if strings.HasPrefix(cfg.Package, "-") {
		return nil, fmt.Errorf("measure: bad package %q", cfg.Package)
	}
	args := append([]string{"-e"}, cfg.BuildFlags...)
	args = append(args, "--", cfg.Package)
	pkgs, err := gocmd.List[*listedPackage](ctx, gocmd.Runner{Dir: cfg.Dir, Env: cfg.Env}, args...)
	if err != nil {
		return nil, fmt.Errorf("measure: listing %s: %w", cfg.Package, err)
	}
	switch {
	case len(pkgs) == 0:
		return nil, fmt.Errorf("measure: %s matches no package", cfg.Package)
	case len(pkgs) > 1:
		return nil, fmt.Errorf("measure: %s matches %d packages; name the one package that holds %s", cfg.Package, len(pkgs), cfg.Target)
	}
	p := pkgs[0]
	if p.Error != nil {
		return nil, fmt.Errorf("measure: package %s: %s", p.ImportPath, strings.TrimSpace(p.Error.Err))
	}
	if p.Module == nil || !p.Module.Main {
		return nil, fmt.Errorf("measure: package %s is not in the main module; run kfuzz in the module that holds the fuzz test", p.ImportPath)
	}
	var fuzzTests []string
	fset := token.NewFileSet()
	for _, name := range append(append([]string(nil), p.TestGoFiles...), p.XTestGoFiles...) {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("measure: %v", err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || !validTarget(fd.Name.Name) {
				continue
			}
			if fd.Name.Name == cfg.Target {
				return p, nil
			}
			fuzzTests = append(fuzzTests, fd.Name.Name)
		}
	}
	sort.Strings(fuzzTests)
	if len(fuzzTests) == 0 {
		return nil, fmt.Errorf("measure: package %s has no fuzz test %s (it has no fuzz tests)", p.ImportPath, cfg.Target)
	}
	return nil, fmt.Errorf("measure: package %s has no fuzz test %s (it has %s)", p.ImportPath, cfg.Target, strings.Join(fuzzTests, ", "))
}
