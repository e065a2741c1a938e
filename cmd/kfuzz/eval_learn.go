package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/seed72891827/kfuzz/internal/evallearn"
	"github.com/seed72891827/kfuzz/internal/pipeline"
	"github.com/seed72891827/kfuzz/internal/protocol"
	"github.com/seed72891827/kfuzz/learn"
)

func init() {
	register(&command{
		name: "eval learn",
		usage: "[-subjects json,url,csv,goexpr,gojson,gjson] [-n 1000] [-test 1000] [-k 4] [-depth 5] [-targets N]\n" +
			"\t\t[-seed S] [-refine R] [-features KINDS] [-recall R] [-noseeds] [-nobalance] [-all] [-json] [-v]",
		short: "reproduce CODEINE's Tables 9 and 10 (prediction and targeted generation) on the real subjects",
		run:   runEvalLearn,
	})
}

const evalLearnHelp = `For every subject (an example fuzz test and the package it checks), kfuzz
eval learn learns a model as kfuzz learn does from N random training inputs
(with the harness's seeds and the refinement rounds of kfuzz learn unless
-refine 0), and evaluates it as CODEINE's section 5.4 does:

  prediction (Table 10): accuracy, precision and recall of the trees on
  -test independent random inputs, pooled over all (input, function) pairs
  (micro) and as the mean of the per-function values;

  generation (Table 9): for every learned function, -targets inputs
  generated from its rules and as many grammar-random inputs, measured; the
  relative coverage fraction is the share of a function's inputs that reach
  it (median over the functions), the absolute one the share of functions
  reached by at least one of their inputs.

  selection: every evaluated function taken as the only changed one, the
  test inputs kfuzz select takes for it (those predicted to cover it) and
  those kfuzz select -recall R takes (default 0.99); recall is the share of
  the test inputs covering the function that were selected, precision the
  share of the selected that cover it.

The functions evaluated are those CODEINE calls trainable: covered by some
but not all of the random training inputs. Also left out (unless -all) are
functions whose coverage depends on what ran before in the process (caches,
sync.Once, sync.Pool), found by measuring the inputs a second time in the
reverse order. docs/learn-eval.md holds the results and the protocol.

Run it inside the kfuzz module; the third-party subjects build in their
nested module examples/thirdparty.`

// A learnSubject is a fuzz test of the examples and the packages it checks.
type learnSubject struct {
	name   string
	dir    string // package directory, relative to the kfuzz module root
	target string
	cover  []string
}

var learnSubjects = []learnSubject{
	{"json", "examples/json", "FuzzJSON", []string{"encoding/json"}},
	{"url", "examples/url", "FuzzURL", []string{"net/url"}},
	{"csv", "examples/csv", "FuzzCSV", []string{"encoding/csv"}},
	{"goexpr", "examples/goexpr", "FuzzGoExpr", []string{"go/parser", "go/scanner"}},
	{"gojson", "examples/thirdparty/gojson", "FuzzGoJSON", []string{"github.com/goccy/go-json/..."}},
	{"gjson", "examples/thirdparty/gjson", "FuzzGJSON", []string{"github.com/tidwall/gjson"}},
}

// The ranges of CODEINE's Tables 9 and 10 over its 14 subjects.
const (
	paperPrediction = "paper (Table 10): accuracy 0.941-0.997, precision 0.846-0.989, recall 0.825-0.994"
	paperGeneration = "paper (Table 9): relative random 0.000-0.948, CODEINE 0.500-1.000; absolute random 0.240-1.000, CODEINE 0.680-1.000"
)

// learnEvalRow is the evaluation of one subject, as -json prints it.
type learnEvalRow struct {
	Subject   string   `json:"subject"`
	Target    string   `json:"target"`
	Cover     []string `json:"cover"`
	Functions int      `json:"functions"`
	Train     int      `json:"train"`
	Test      int      `json:"test"`
	Learned   int      `json:"learned"`
	Unstable  []string `json:"unstable"`
	// Untrainable holds the functions only seeds, corpus entries or
	// refinement inputs told apart (see evallearn.Result).
	Untrainable []string `json:"untrainable"`
	Evaluated   int      `json:"evaluated"`
	Accuracy    float64  `json:"accuracy"`
	Precision   float64  `json:"precision"`
	Recall      float64  `json:"recall"`
	MeanAcc     float64  `json:"meanAccuracy"`
	MeanPrec    float64  `json:"meanPrecision"`
	MeanRecall  float64  `json:"meanRecall"`
	// RelTargeted and RelRandom are the median relative coverage
	// fractions; AbsTargeted and AbsRandom the absolute ones.
	RelTargeted float64 `json:"relativeTargeted"`
	RelRandom   float64 `json:"relativeRandom"`
	AbsTargeted float64 `json:"absoluteTargeted"`
	AbsRandom   float64 `json:"absoluteRandom"`
	// MeanTargeted and MeanRandom are the mean relative fractions.
	MeanTargeted float64 `json:"meanTargeted"`
	MeanRandom   float64 `json:"meanRandom"`
	// Seconds is the wall-clock time of the subject, building included.
	Seconds float64         `json:"seconds"`
	Funcs   []learnEvalFunc `json:"funcs"`
}

// learnEvalFunc is one function's figures, as -json prints them.
type learnEvalFunc struct {
	Func            string  `json:"func"`
	Pos             int     `json:"trainCovered"`
	Rules           int     `json:"rules"`
	Accuracy        float64 `json:"accuracy"`
	Precision       float64 `json:"precision"`
	Recall          float64 `json:"recall"`
	Targeted        int     `json:"targeted"`
	TargetedReached int     `json:"targetedReached"`
	Random          int     `json:"random"`
	RandomReached   int     `json:"randomReached"`
	Error           string  `json:"error,omitempty"`
	Covering        int     `json:"testCovering"`
	Selected        int     `json:"selected"`
	SelectedHits    int     `json:"selectedCovering"`
	RecallSelected  int     `json:"recallSelected"`
	RecallHits      int     `json:"recallSelectedCovering"`
	ExpectedRecall  float64 `json:"expectedRecall"`
}

func runEvalLearn(e *env, args []string) error {
	c := commands["eval learn"]
	fs := newFlagSet(e, c)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: kfuzz %s %s\n\n%s\n\n%s\n\nFlags:\n", c.name, c.usage, c.short, evalLearnHelp)
		fs.PrintDefaults()
	}
	var names []string
	for _, s := range learnSubjects {
		names = append(names, s.name)
	}
	which := fs.String("subjects", strings.Join(names, ","), "comma-separated `subjects` to evaluate")
	n := fs.Int("n", pipeline.DefaultN, "random training inputs")
	test := fs.Int("test", pipeline.DefaultN, "random test inputs")
	k := fs.Int("k", learn.DefaultFeatureK, "use the l-paths of the inputs for l <= `k` as features")
	depth := fs.Int("depth", learn.DefaultTreeDepth, "the greatest depth of the decision trees")
	targets := fs.Int("targets", evallearn.DefaultTargets, "inputs generated per function, and random inputs compared with them")
	seed := fs.Uint64("seed", 1, "random seed")
	refine := fs.Int("refine", pipeline.DefaultRefine, "refinement `rounds` of kfuzz learn (0 for none: the paper's protocol)")
	noSeeds := fs.Bool("noseeds", false, "train on the random inputs alone, without the harness's seeds and corpus")
	features := fs.String("features", learn.DefaultFeatures.String(), "the `kinds` of features the trees test: kpath, root, count, all (comma-separated)")
	selRecall := fs.Float64("recall", evallearn.DefaultSelectRecall, "the recall target of the selection evaluated besides the default one, in (0, 1]")
	noBalance := fs.Bool("nobalance", false, "train every tree on all inputs, without CODEINE's class balancing")
	all := fs.Bool("all", false, "evaluate every learned function, also those whose coverage depends on the process's history\nand those the random training inputs cover always or never")
	asJSON := fs.Bool("json", false, "print JSON instead of tables")
	verbose := fs.Bool("v", false, "report each step on stderr even when it is not a terminal")
	if pos, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(pos) != 0 {
		fs.Usage()
		return errUsage
	}
	switch {
	case *n < 1:
		return fmt.Errorf("-n must be positive, not %d", *n)
	case *test < 1:
		return fmt.Errorf("-test must be positive, not %d", *test)
	case *k < 1 || *k > 8:
		return fmt.Errorf("-k must be in 1..8, not %d", *k)
	case *depth < 1:
		return fmt.Errorf("-depth must be positive, not %d", *depth)
	case *targets < 1:
		return fmt.Errorf("-targets must be positive, not %d", *targets)
	case *refine < 0:
		return fmt.Errorf("-refine must not be negative, not %d", *refine)
	case !(*selRecall > 0 && *selRecall <= 1):
		return fmt.Errorf("-recall must be in (0, 1], not %g", *selRecall)
	}
	kinds, err := learn.ParseFeatureKinds(*features)
	if err != nil {
		return fmt.Errorf("-features: %w", err)
	}
	var subjects []learnSubject
	for _, name := range strings.Split(*which, ",") {
		name = strings.TrimSpace(name)
		found := false
		for _, s := range learnSubjects {
			if s.name == name {
				subjects, found = append(subjects, s), true
				break
			}
		}
		if !found {
			return fmt.Errorf("unknown subject %q (have %s)", name, strings.Join(names, ", "))
		}
	}
	root, err := kfuzzModuleRoot()
	if err != nil {
		return err
	}
	refineRounds := *refine
	if refineRounds == 0 {
		refineRounds = -1
	}
	opts := evallearn.Options{
		Learn: pipeline.LearnOptions{
			N: *n, Test: *test, K: *k, Seed: *seed, Refine: refineRounds,
			NoSeeds: *noSeeds, NoCorpus: *noSeeds,
			Tree: learn.Config{MaxDepth: *depth, NoBalance: *noBalance, Features: kinds},
		},
		Targets:      *targets,
		All:          *all,
		SelectRecall: *selRecall,
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var rows []*learnEvalRow
	for _, sub := range subjects {
		row, err := evalLearnSubject(ctx, e, root, sub, opts, *verbose)
		if err != nil {
			return fmt.Errorf("%s: %w", sub.name, err)
		}
		rows = append(rows, row)
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(jsonRows(rows))
	}
	printLearnEval(e.stdout, rows, opts)
	return nil
}

// evalLearnSubject builds the subject's fuzz test and evaluates learning on it.
func evalLearnSubject(ctx context.Context, e *env, root string, sub learnSubject, opts evallearn.Options, verbose bool) (*learnEvalRow, error) {
	start := time.Now()
	prog := newProgress(e.stderr, verbose)
	defer prog.finish()
	cfg := pipeline.Config{
		Dir: filepath.Join(root, filepath.FromSlash(sub.dir)), Package: ".",
		Target: sub.target, Cover: sub.cover, Timeout: protocol.DefaultTimeout,
	}
	step := fmt.Sprintf("%s: building %s with coverage instrumentation of %s", sub.name, sub.target, strings.Join(sub.cover, ","))
	s, err := openSession(ctx, prog, cfg, step)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	o := opts
	o.Learn.Depth = min(pipeline.DefaultDepth, s.Desc.Bounds.MaxDepth)
	ev, err := evallearn.Run(ctx, s, o)
	if err != nil {
		return nil, err
	}
	l := ev.Learned
	row := &learnEvalRow{
		Subject: sub.name, Target: sub.target, Cover: sub.cover,
		Functions: l.Functions, Train: len(l.Train), Test: len(l.Test),
		Learned: len(l.Model.Funcs), Unstable: ev.Unstable, Evaluated: len(ev.Eval.Funcs),
		Accuracy: ev.Eval.Micro.Accuracy(), Precision: ev.Eval.Micro.Precision(), Recall: ev.Eval.Micro.Recall(),
		MeanAcc: ev.Eval.MeanAccuracy, MeanPrec: ev.Eval.MeanPrecision, MeanRecall: ev.Eval.MeanRecall,
	}
	if row.Unstable == nil {
		row.Unstable = []string{}
	}
	row.Untrainable = ev.Untrainable
	if row.Untrainable == nil {
		row.Untrainable = []string{}
	}
	row.RelTargeted, row.RelRandom = ev.Relative()
	row.AbsTargeted, row.AbsRandom = ev.Absolute()
	var mt, mr float64
	for i, g := range ev.Gen {
		fr := ev.Eval.Funcs[i]
		sel := ev.Selection[i]
		row.Funcs = append(row.Funcs, learnEvalFunc{
			Func: g.Func, Pos: g.Pos, Rules: g.Rules,
			Accuracy: fr.Accuracy(), Precision: fr.Precision(), Recall: fr.Recall(),
			Targeted: g.Targeted, TargetedReached: g.TargetedReached,
			Random: g.Random, RandomReached: g.RandomReached, Error: g.Error,
			Covering: sel.Default.Covering, Selected: sel.Default.Selected, SelectedHits: sel.Default.Hits,
			RecallSelected: sel.Target.Selected, RecallHits: sel.Target.Hits, ExpectedRecall: sel.Expected,
		})
		mt += g.TargetedFraction()
		mr += g.RandomFraction()
	}
	row.MeanTargeted, row.MeanRandom = math.NaN(), math.NaN()
	if len(ev.Gen) > 0 {
		row.MeanTargeted, row.MeanRandom = mt/float64(len(ev.Gen)), mr/float64(len(ev.Gen))
	}
	row.Seconds = time.Since(start).Seconds()
	return row, nil
}

// jsonRows returns the rows with undefined values (NaN) as -1, which JSON
// can hold.
func jsonRows(rows []*learnEvalRow) []*learnEvalRow {
	def := func(x *float64) {
		if math.IsNaN(*x) || math.IsInf(*x, 0) {
			*x = -1
		}
	}
	for _, r := range rows {
		for _, x := range []*float64{&r.Accuracy, &r.Precision, &r.Recall, &r.MeanAcc, &r.MeanPrec, &r.MeanRecall,
			&r.RelTargeted, &r.RelRandom, &r.AbsTargeted, &r.AbsRandom, &r.MeanTargeted, &r.MeanRandom} {
			def(x)
		}
		for i := range r.Funcs {
			f := &r.Funcs[i]
			def(&f.Accuracy)
			def(&f.Precision)
			def(&f.Recall)
		}
	}
	return rows
}

// printLearnEval prints the tables of Table 10 and Table 9 with the paper's
// ranges, then the goals.
func printLearnEval(w io.Writer, rows []*learnEvalRow, opts evallearn.Options) {
	fmt.Fprintf(w, "prediction on %d independent test inputs (CODEINE Table 10); micro = pooled over (input, function) pairs, mean = mean over functions\n", opts.Learn.Test)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "subject\tfunctions\tlearned\tunstable\tuntrainable\tevaluated\ttrain\taccuracy\tprecision\trecall\tmean acc.\tmean prec.\tmean recall\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Subject, r.Functions, r.Learned, len(r.Unstable), len(r.Untrainable), r.Evaluated, r.Train,
			f3(r.Accuracy), f3(r.Precision), f3(r.Recall), f3(r.MeanAcc), f3(r.MeanPrec), f3(r.MeanRecall))
	}
	tw.Flush()
	fmt.Fprintln(w, paperPrediction)
	fmt.Fprintln(w)
	fmt.Fprintf(w, "coverage fractions of %d targeted inputs per function versus as many grammar-random ones (CODEINE Table 9)\n", opts.Targets)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "subject\tfunctions\tno input\trel. random\trel. targeted\tratio\tmean random\tmean targeted\tabs. random\tabs. targeted\tseconds\t")
	for _, r := range rows {
		noInput := 0
		for _, f := range r.Funcs {
			if f.Targeted == 0 {
				noInput++
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.0f\t\n", r.Subject, len(r.Funcs), noInput, f3(r.RelRandom), f3(r.RelTargeted),
			timesRatio(r.RelTargeted, r.RelRandom), f3(r.MeanRandom), f3(r.MeanTargeted), f3(r.AbsRandom), f3(r.AbsTargeted), r.Seconds)
	}
	tw.Flush()
	fmt.Fprintln(w, paperGeneration)
	fmt.Fprintln(w)
	printSelectionEval(w, rows, opts)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "goals: accuracy >= 0.95, precision and recall >= 0.90 (micro), median relative fraction targeted >= 3x random, absolute targeted >= 0.95")
	for _, r := range rows {
		var missed []string
		if !(r.Accuracy >= 0.95) {
			missed = append(missed, "accuracy")
		}
		if !(r.Precision >= 0.90) {
			missed = append(missed, "precision")
		}
		if !(r.Recall >= 0.90) {
			missed = append(missed, "recall")
		}
		if !(r.RelTargeted >= 3*r.RelRandom) || r.RelTargeted == 0 {
			missed = append(missed, "relative fraction")
		}
		if !(r.AbsTargeted >= 0.95) {
			missed = append(missed, "absolute fraction")
		}
		status := "all met"
		switch {
		case r.Evaluated == 0:
			status = "nothing to evaluate: every function was covered by all training inputs or by none"
		case len(missed) > 0:
			status = "missed: " + strings.Join(missed, ", ")
		}
		fmt.Fprintf(w, "  %s: %s\n", r.Subject, status)
	}
}

// printSelectionEval prints, per subject, the recall and precision of
// selecting test inputs for each evaluated function as the only changed
// one, by default and with the recall target: pooled over the functions
// (selected inputs that cover the function over all covering inputs, or over
// all selected), and the least recall and precision of a function.
func printSelectionEval(w io.Writer, rows []*learnEvalRow, opts evallearn.Options) {
	fmt.Fprintf(w, "selection of the test inputs for each function as the only changed one: kfuzz select, and kfuzz select -recall %g\n", opts.SelectRecall)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "subject\tfunctions\tcovering\tselected\trecall\tmin recall\tprecision\tmin prec.\t-recall selected\trecall\tmin recall\tprecision\tmin prec.\t")
	for _, r := range rows {
		var cov, sel, hit, rsel, rhit int
		minR, minP, minRR, minRP := math.NaN(), math.NaN(), math.NaN(), math.NaN()
		least := func(m *float64, x float64) {
			if !math.IsNaN(x) && (math.IsNaN(*m) || x < *m) {
				*m = x
			}
		}
		for _, f := range r.Funcs {
			cov += f.Covering
			sel += f.Selected
			hit += f.SelectedHits
			rsel += f.RecallSelected
			rhit += f.RecallHits
			d := evallearn.SelectionCounts{Selected: f.Selected, Hits: f.SelectedHits, Covering: f.Covering}
			t := evallearn.SelectionCounts{Selected: f.RecallSelected, Hits: f.RecallHits, Covering: f.Covering}
			least(&minR, d.Recall())
			least(&minP, d.Precision())
			least(&minRR, t.Recall())
			least(&minRP, t.Precision())
		}
		d := evallearn.SelectionCounts{Selected: sel, Hits: hit, Covering: cov}
		t := evallearn.SelectionCounts{Selected: rsel, Hits: rhit, Covering: cov}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t\n", r.Subject, len(r.Funcs), cov,
			sel, f3(d.Recall()), f3(minR), f3(d.Precision()), f3(minP),
			rsel, f3(t.Recall()), f3(minRR), f3(t.Precision()), f3(minRP))
	}
	tw.Flush()
}

// f3 formats a fraction with three decimals, or "-" if it is undefined.
func f3(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%.3f", x)
}

// timesRatio formats a/b, "inf" for a positive a over 0, and "-" for 0/0.
func timesRatio(a, b float64) string {
	switch {
	case math.IsNaN(a) || math.IsNaN(b) || a == 0 && b == 0:
		return "-"
	case b == 0:
		return "inf"
	}
	return fmt.Sprintf("%.1fx", a/b)
}
