package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/seed72891827/kfuzz/internal/atomicfile"
	"github.com/seed72891827/kfuzz/internal/pipeline"
	"github.com/seed72891827/kfuzz/internal/protocol"
	"github.com/seed72891827/kfuzz/internal/report"
	"github.com/seed72891827/kfuzz/learn"
)

func init() {
	register(&command{
		name: "learn",
		usage: "-fuzz FuzzX [-cover PATTERN,...] [-n N] [-k K] [-seed S] [-depth D] [-refine R] [-features KINDS] [-o FILE] [-report BASE|none] [-f]\n" +
			"\t\t[-tags TAGS] [-timeout D] [-json] [-v] [PACKAGE]",
		short: "learn which input features reach which functions, and write the model and a report",
		run:   runLearn,
	})
}

const learnHelp = `PACKAGE (default ".") holds the fuzz test FuzzX, which must run its target
through fuzzharness; the grammar is the one it registers. kfuzz learn
builds the fuzz test with coverage instrumentation of the packages named by
-cover (default: PACKAGE), runs its target over the training inputs (the
harness's seeds, the entries of testdata/fuzz/FuzzX and N random inputs of
the grammar) and records the functions each covers. It learns one decision
tree per function over the inputs' k-paths, refines the trees of functions
that few inputs cover with inputs generated from their rules and mutants of
the inputs that covered them, and evaluates the model on N other random
inputs.

-features chooses what the trees may test: kpath (the default, CODEINE's
l-paths anywhere in the derivation), root (paths of up to 8 symbols from the
root of one derivation: positional features such as "the top-level value is
an object") and count (at least N references to a nonterminal, thresholds
taken from the training inputs, as Alhazen's numeric features), or all.
Rules print them as "root: <start> -> ..." and "count(<X>) >= N"; kfuzz seed
searches for inputs that satisfy them but derives only toward k-paths.

It writes the model to -o (default kfuzz-FuzzX.model.json), which kfuzz seed,
predict and select read, and a report as BASE.md and BASE.html (default: the
model file's name with .report instead of .model.json; -report none writes
none). Files are written atomically; an existing file is replaced only with
-f, and is checked before any work starts.

The instrumented test binary is kept across runs in the user's cache
directory (kfuzz/measure), keyed by everything it is built from, so that a
second run skips the build; KFUZZ_CACHE=off turns the cache off and
KFUZZ_CACHE=DIR moves it. kfuzz seed and kfuzz cover use it too.`

func runLearn(e *env, args []string) error {
	c := commands["learn"]
	fs := newFlagSet(e, c)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: kfuzz %s %s\n\n%s\n\n%s\n\nFlags:\n", c.name, c.usage, c.short, learnHelp)
		fs.PrintDefaults()
	}
	target := fs.String("fuzz", "", "the fuzz test `FuzzX` (required)")
	var cover multiFlag
	fs.Var(&cover, "cover", "measure the packages matching these comma-separated `patterns` (default: the fuzz test's package)")
	n := fs.Int("n", pipeline.DefaultN, "random training inputs, and as many test inputs")
	k := fs.Int("k", learn.DefaultFeatureK, "use the l-paths of the inputs for l <= `k` as features")
	seed := fs.Uint64("seed", 1, "random seed")
	depth := fs.Int("depth", pipeline.DefaultDepth, "the deepest random input (derivation depth)")
	features := fs.String("features", learn.DefaultFeatures.String(), "the `kinds` of features the trees test, comma-separated: kpath (CODEINE's l-paths),\nroot (paths from the root of the derivation), count (at least N occurrences of a nonterminal), all")
	refine := fs.Int("refine", pipeline.DefaultRefine, "refinement `rounds` for rarely covered functions (0 for none)")
	out := fs.String("o", "", "write the model to `file` (default kfuzz-FuzzX.model.json)")
	reportBase := fs.String("report", "", "write the report to `BASE`.md and BASE.html, or none (default: from -o)")
	force := fs.Bool("f", false, "replace existing model and report files")
	bf := addBuildFlags(fs)
	asJSON := fs.Bool("json", false, "print a JSON summary instead of text")
	verbose := fs.Bool("v", false, "report each step on stderr even when it is not a terminal")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *target == "" || len(pos) > 1 {
		if *target == "" {
			fmt.Fprintf(e.stderr, "kfuzz learn: -fuzz FuzzX is required\n")
		}
		fs.Usage()
		return errUsage
	}
	switch {
	case *n < 1:
		return fmt.Errorf("-n must be positive, not %d", *n)
	case *k < 1 || *k > 8:
		return fmt.Errorf("-k must be in 1..8, not %d", *k)
	case *depth < 1:
		return fmt.Errorf("-depth must be positive, not %d", *depth)
	case *refine < 0:
		return fmt.Errorf("-refine must not be negative, not %d", *refine)
	}
	kinds, err := learn.ParseFeatureKinds(*features)
	if err != nil {
		return fmt.Errorf("-features: %w", err)
	}
	modelPath := *out
	if modelPath == "" {
		modelPath = "kfuzz-" + *target + ".model.json"
	}
	var mdPath, htmlPath string
	if *reportBase != "none" {
		base := *reportBase
		if base == "" {
			base = strings.TrimSuffix(strings.TrimSuffix(modelPath, ".json"), ".model") + ".report"
		}
		mdPath, htmlPath = base+".md", base+".html"
	}
	if !*force {
		paths := []string{modelPath}
		if mdPath != "" {
			paths = append(paths, mdPath, htmlPath)
		}
		if err := checkNew(paths...); err != nil {
			return err
		}
	}
	pkg := "."
	if len(pos) == 1 {
		pkg = pos[0]
	}
	cfg, err := bf.config(pkg, *target)
	if err != nil {
		return err
	}
	cfg.Cover = cover

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	prog := newProgress(e.stderr, *verbose)
	defer prog.finish()
	s, err := openSession(ctx, prog, cfg, "building "+*target+" with coverage instrumentation")
	if err != nil {
		return err
	}
	defer s.Close()
	refineRounds := *refine
	if refineRounds == 0 {
		refineRounds = -1
	}
	l, err := s.Learn(ctx, pipeline.LearnOptions{N: *n, K: *k, Seed: *seed, Depth: min(*depth, s.Desc.Bounds.MaxDepth), Refine: refineRounds,
		Tree: learn.Config{Features: kinds}})
	if err != nil {
		return err
	}
	prog.finish()

	mf := &pipeline.ModelFile{
		Target: s.Target(), ImportPath: s.ImportPath(), Dir: s.PackageDir(), Measured: s.Measured(),
		BuildFlags: cfg.BuildFlags, Timeout: cfg.Timeout, Desc: s.Desc, Model: l.Model,
	}
	data, err := mf.Marshal()
	if err != nil {
		return err
	}
	if err := writeOutput(modelPath, data, *force); err != nil {
		return err
	}
	if mdPath != "" {
		for _, r := range []struct {
			path  string
			write func(io.Writer, *pipeline.Learned) error
		}{{mdPath, report.WriteMarkdown}, {htmlPath, report.WriteHTML}} {
			var b strings.Builder
			if err := r.write(&b, l); err != nil {
				return err
			}
			if err := writeOutput(r.path, []byte(b.String()), *force); err != nil {
				return err
			}
		}
	}
	if *asJSON {
		return printLearnJSON(e.stdout, l, modelPath, mdPath, htmlPath)
	}
	printLearn(e.stdout, l, modelPath, mdPath, htmlPath)
	return nil
}

// checkNew returns an error if any of the files exists, so that a command
// that may not replace them (without -f) refuses before it does its work
// rather than after.
func checkNew(paths ...string) error {
	for _, p := range paths {
		if _, err := os.Lstat(p); err == nil {
			return fmt.Errorf("%s already exists (use -f to replace it)", p)
		}
	}
	return nil
}

// writeOutput writes an output file of a command atomically, replacing an
// existing one only with -f (replace).
func writeOutput(path string, data []byte, replace bool) error {
	err := atomicfile.Write(path, data, replace)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s already exists (use -f to replace it)", path)
	}
	return err
}

// buildFlags are the flags that say how to build a fuzz test.
type buildFlags struct {
	tags    *string
	timeout *time.Duration
}

func addBuildFlags(fs *flag.FlagSet) *buildFlags {
	return &buildFlags{
		tags:    fs.String("tags", "", "build `tags`, as for go test"),
		timeout: fs.Duration("timeout", protocol.DefaultTimeout, "time limit of the target on one input"),
	}
}

// config returns the measure configuration of the fuzz test target in the
// package pkg. A package directory in another module than the current
// directory's is built in its own module: the go command runs there.
func (bf *buildFlags) config(pkg, target string) (pipeline.Config, error) {
	if *bf.timeout <= 0 {
		return pipeline.Config{}, fmt.Errorf("-timeout must be positive, not %v", *bf.timeout)
	}
	cfg := pipeline.Config{Package: pkg, Target: target, Timeout: *bf.timeout}
	if st, err := os.Stat(pkg); err == nil {
		if !st.IsDir() {
			return pipeline.Config{}, fmt.Errorf("%s is a file, not a package", pkg)
		}
		if moduleRoot(pkg) != moduleRoot(".") {
			cfg.Dir, cfg.Package = pkg, "."
		}
	}
	if *bf.tags != "" {
		cfg.BuildFlags = []string{"-tags=" + *bf.tags}
	}
	return cfg, nil
}

// moduleRoot returns the directory of the go.mod file that governs dir, or
// "" if there is none.
func moduleRoot(dir string) string {
	d, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		if st, err := os.Stat(filepath.Join(d, "go.mod")); err == nil && !st.IsDir() {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// printLearn prints the outcome of kfuzz learn for people.
func printLearn(w io.Writer, l *pipeline.Learned, model, md, html string) {
	srcs := map[string]int{}
	for _, o := range l.Train {
		srcs[o.Source]++
	}
	var parts []string
	for _, s := range []string{pipeline.SourceSeed, pipeline.SourceCorpus, pipeline.SourceRandom, pipeline.SourceRefine} {
		if srcs[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", srcs[s], s))
		}
	}
	fmt.Fprintf(w, "%s: learned %d functions of %d from %d training inputs (%s)", l.Target, len(l.Model.Funcs), l.Functions, len(l.Train), strings.Join(parts, ", "))
	if len(l.Skipped) > 0 {
		fmt.Fprintf(w, "; %d inputs left out (no coverage)", len(l.Skipped))
	}
	fmt.Fprintf(w, "\n%d covered by every training input, %d by none\n", len(l.Model.Always), len(l.Model.Never))
	var cov []string
	for _, pc := range l.PathCoverage {
		cov = append(cov, fmt.Sprintf("%d-paths %d/%d", pc.L, pc.Covered, pc.Total))
	}
	fmt.Fprintf(w, "k-path coverage of the training inputs: %s\n", strings.Join(cov, ", "))
	fmt.Fprintf(w, "\nevaluation on %d test inputs:\n%s", len(l.Test), l.Eval)
	fmt.Fprintf(w, "\nmodel: %s\n", model)
	if md != "" {
		fmt.Fprintf(w, "report: %s, %s\n", md, html)
	}
}

// learnJSON is the document kfuzz learn -json prints.
type learnJSON struct {
	Target       string             `json:"target"`
	ImportPath   string             `json:"import_path"`
	Model        string             `json:"model"`
	Report       []string           `json:"report"`
	Train        map[string]int     `json:"train"`
	Test         int                `json:"test"`
	Skipped      int                `json:"skipped"`
	Functions    []learnFuncJSON    `json:"functions"`
	Always       []string           `json:"always"`
	Never        []string           `json:"never"`
	Micro        metricsJSON        `json:"micro"`
	Mean         metricsJSON        `json:"mean"`
	PathCoverage []pathCoverageJSON `json:"path_coverage"`
	TimingsMS    map[string]int64   `json:"timings_ms"`
}

type learnFuncJSON struct {
	Name    string `json:"name"`
	Covered int    `json:"covered"`
	Inputs  int    `json:"inputs"`
	metricsJSON
	Rules []string `json:"rules"`
}

// metricsJSON holds ratios; undefined ones are null.
type metricsJSON struct {
	Accuracy  *float64 `json:"accuracy"`
	Precision *float64 `json:"precision"`
	Recall    *float64 `json:"recall"`
}

type pathCoverageJSON struct {
	L       int `json:"l"`
	Covered int `json:"covered"`
	Total   int `json:"total"`
}

func ratio(x float64) *float64 {
	if math.IsNaN(x) {
		return nil
	}
	return &x
}

func newMetricsJSON(acc, prec, rec float64) metricsJSON {
	return metricsJSON{ratio(acc), ratio(prec), ratio(rec)}
}

func printLearnJSON(w io.Writer, l *pipeline.Learned, model, md, html string) error {
	doc := learnJSON{
		Target: l.Target, ImportPath: l.ImportPath, Model: model, Report: []string{},
		Train: map[string]int{}, Test: len(l.Test), Skipped: len(l.Skipped),
		Always: nonNil(l.Model.Always), Never: nonNil(l.Model.Never),
		Micro: newMetricsJSON(l.Eval.Micro.Accuracy(), l.Eval.Micro.Precision(), l.Eval.Micro.Recall()),
		Mean:  newMetricsJSON(l.Eval.MeanAccuracy, l.Eval.MeanPrecision, l.Eval.MeanRecall),
		TimingsMS: map[string]int64{
			"generate": l.Timings.Generate.Milliseconds(), "measure": l.Timings.Measure.Milliseconds(),
			"features": l.Timings.Features.Milliseconds(), "learn": l.Timings.Learn.Milliseconds(),
			"evaluate": l.Timings.Evaluate.Milliseconds(),
		},
	}
	if md != "" {
		doc.Report = []string{md, html}
	}
	for _, o := range l.Train {
		doc.Train[o.Source]++
	}
	for i, fn := range l.Model.Funcs {
		ev := l.Eval.Funcs[i]
		fj := learnFuncJSON{Name: fn.Name, Covered: fn.Pos, Inputs: fn.Pos + fn.Neg,
			metricsJSON: newMetricsJSON(ev.Accuracy(), ev.Precision(), ev.Recall()), Rules: []string{}}
		for _, r := range fn.Rules {
			fj.Rules = append(fj.Rules, r.Format(l.Model.Table))
		}
		doc.Functions = append(doc.Functions, fj)
	}
	for _, pc := range l.PathCoverage {
		doc.PathCoverage = append(doc.PathCoverage, pathCoverageJSON{pc.L, pc.Covered, pc.Total})
	}
	return writeJSON(w, doc)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	return nil
}

// progress shows the steps of a pipeline on a terminal as a progress bar
// redrawn in place, or, when asked, as one line per step; otherwise it is
// silent, so that the output stays easy to parse.
type progress struct {
	w       io.Writer
	tty     bool
	width   func() int // the terminal's width in columns
	verbose bool
	long    time.Duration // a step this long logs a line off a terminal
	name    string
	total   int
	done    int
	drawn   time.Time
	start   time.Time
	open    bool // a bar line is on the terminal
}

func newProgress(w io.Writer, verbose bool) *progress {
	p := &progress{w: w, verbose: verbose, long: time.Second, width: func() int { return 80 }}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = true
		p.width = func() int {
			if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
				return w
			}
			return 80
		}
	}
	return p
}

// Step implements pipeline.Progress.
func (p *progress) Step(name string, total int) {
	p.finish()
	p.name, p.total, p.done, p.start = name, total, 0, time.Now()
	switch {
	case p.tty:
		p.draw("")
	case p.verbose:
		fmt.Fprintf(p.w, "kfuzz: %s\n", name)
	}
}

// Advance implements pipeline.Progress.
func (p *progress) Advance(n int) {
	p.done += n
	if p.tty && (time.Since(p.drawn) > 100*time.Millisecond || p.done >= p.total) {
		p.draw("")
	}
}

// draw redraws the current step's line on the terminal: the label, a bar
// and the count when the step has a total, and suffix. Only a label too
// long for the terminal's width is shortened.
func (p *progress) draw(suffix string) {
	const width = 20
	tail := suffix
	if p.total > 0 {
		filled := min(width, width*p.done/p.total)
		tail = fmt.Sprintf(" [%s%s] %d/%d%s", strings.Repeat("=", filled), strings.Repeat(" ", width-filled), p.done, p.total, suffix)
	} else if suffix == "" {
		tail = " ..."
	}
	label := []rune(p.name)
	if room := p.width() - 1 - utf8.RuneCountInString(tail); len(label) > room {
		label = append(label[:max(room-1, 0)], '…')
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s%s", string(label), tail)
	p.drawn, p.open = time.Now(), true
}

// finish ends the current step: on a terminal its line is redrawn with the
// step's time and ended; elsewhere a step that took long logs one line
// (with -v every step logged a line when it started).
func (p *progress) finish() {
	if p.name == "" {
		return
	}
	secs := time.Since(p.start).Seconds()
	switch {
	case p.open:
		p.draw(fmt.Sprintf(" (%.1fs)", secs))
		fmt.Fprintln(p.w)
		p.open = false
	case !p.tty && !p.verbose && time.Since(p.start) >= p.long:
		fmt.Fprintf(p.w, "kfuzz: %s (%.1fs)\n", p.name, secs)
	}
	p.name = ""
}

// openSession builds the fuzz test of cfg with coverage instrumentation,
// reporting the step on prog, and returns its pipeline session, which
// reports its own steps on prog too.
func openSession(ctx context.Context, prog *progress, cfg pipeline.Config, step string) (*pipeline.Session, error) {
	prog.Step(step, 0)
	s, err := pipeline.Open(ctx, cfg)
	if err != nil {
		return nil, err
	}
	s.Progress = prog
	return s, nil
}
