package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/internal/pipeline"
	"github.com/seed72891827/kfuzz/learn"
)

func init() {
	register(&command{
		name:  "select",
		usage: "-model FILE (-changed FUNC,... | -diff FILE) [-root DIR] [-recall R] [-n N] [-json | -run] [DIR|FILE...]",
		short: "select the inputs predicted to cover changed functions, best first",
		run:   runSelect,
	})
}

const selectHelp = `kfuzz select ranks the inputs that the model predicts to cover at least one
of the given functions: those predicted to cover more of them first, then
those whose prediction is surer, then the shorter. The functions are given
with -changed (full names or suffixes that name one function, as for kfuzz
seed) or found in a unified diff (-diff FILE, "-" for standard input, as git
diff or diff -u writes it): the functions whose bodies the diff changes, of
the packages the model was learned on. -root is the directory the diff's
paths are relative to (default: the top of the git work tree); in a diff -u
of two trees a/ and b/, the b/ is dropped when root holds the new files
themselves. Outside a module (no go.mod), a changed file's package is the
one of the model that has its functions.

The inputs are FILEs and the files in DIRs: a file that starts with "go test
fuzz v1" is a corpus entry, any other file a plain input (as kfuzz gen -o
writes); by default
testdata/fuzz/FuzzX of the current directory, or else of the package the
model was learned in. Nothing is built or run.

With -run, kfuzz select prints instead one line for go test -run that runs
the selected seed corpus entries of the fuzz test and nothing else, such as
^FuzzCalc$/^(3f2a91c0|seed-7)$; then every selected input must be a file of
testdata/fuzz/FuzzX. When nothing is selected it prints nothing, so that a
CI script can skip the run (see docs/ci-selection.md).

With -recall R (such as 0.99), kfuzz select does not stop at the inputs
predicted to cover a function: for every changed function it takes inputs by
the probability of their tree's leaf (the share of the training inputs there
that covered the function), most probable first, until their probabilities
sum to R times the sum over all inputs: the expected recall. Missing an
input that covers the change costs more than running an extra one. It prints
per function how many inputs it took and their expected recall.`

func runSelect(e *env, args []string) error {
	c := commands["select"]
	fs := newFlagSet(e, c)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: kfuzz %s %s\n\n%s\n\n%s\n\nFlags:\n", c.name, c.usage, c.short, selectHelp)
		fs.PrintDefaults()
	}
	modelPath := fs.String("model", "", "the model `file` written by kfuzz learn (required)")
	var changed multiFlag
	fs.Var(&changed, "changed", "the changed `functions`, comma-separated")
	diffPath := fs.String("diff", "", "find the changed functions in this unified diff `file` (- for standard input)")
	root := fs.String("root", "", "the `directory` the diff's paths are relative to (default: the git work tree's top)")
	recall := fs.Float64("recall", 0, "select until the expected recall of every changed function reaches `R` in (0, 1] (0: the inputs predicted to cover one)")
	limit := fs.Int("n", 0, "print at most `N` inputs (0: all)")
	asJSON := fs.Bool("json", false, "print JSON instead of text")
	asRun := fs.Bool("run", false, "print a go test -run `pattern` naming the selected seed corpus entries")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *modelPath == "" || (len(changed) == 0) == (*diffPath == "") || (*asJSON && *asRun) || *recall < 0 || *recall > 1 {
		switch {
		case *recall < 0 || *recall > 1:
			fmt.Fprintf(e.stderr, "kfuzz select: -recall %g is outside [0, 1]\n", *recall)
		case *modelPath == "":
			fmt.Fprintf(e.stderr, "kfuzz select: -model FILE is required\n")
		case *asJSON && *asRun:
			fmt.Fprintf(e.stderr, "kfuzz select: give -json or -run, not both\n")
		default:
			fmt.Fprintf(e.stderr, "kfuzz select: give either -changed or -diff\n")
		}
		fs.Usage()
		return errUsage
	}
	mf, h, err := pipeline.LoadModelFile(*modelPath)
	if err != nil {
		return err
	}
	funcs := []string(changed)
	if *diffPath != "" {
		var data []byte
		if *diffPath == "-" {
			data, err = io.ReadAll(e.stdin)
		} else {
			data, err = os.ReadFile(*diffPath)
		}
		if err != nil {
			return err
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		known, unknown, err := pipeline.ChangedFuncs(ctx, mf.Model, *diffPath, data, *root)
		if err != nil {
			return err
		}
		for _, f := range unknown {
			fmt.Fprintf(e.stderr, "kfuzz select: %s changed, but the model knows nothing of it (not measured, or new)\n", f)
		}
		if len(known) == 0 {
			return fmt.Errorf("the diff changes no function the model knows")
		}
		funcs = known
	}
	if len(pos) == 0 {
		dir := corpus.TestdataDir(".", mf.Target)
		if _, err := os.Stat(dir); err != nil && mf.Dir != "" {
			dir = corpus.TestdataDir(mf.Dir, mf.Target)
		}
		pos = []string{filepath.Clean(dir)}
	}
	inputs, err := h.ReadInputs(pos...)
	if err != nil {
		return err
	}
	var sel []pipeline.Selected
	var stats []learn.TargetRecall
	var skipped []pipeline.InputPrediction
	if *recall > 0 {
		sel, stats, skipped, err = pipeline.SelectRecall(mf.Model, h, funcs, inputs, *recall)
	} else {
		sel, skipped, err = pipeline.Select(mf.Model, h, funcs, inputs)
	}
	if err != nil {
		return err
	}
	for _, s := range skipped {
		fmt.Fprintf(e.stderr, "kfuzz select: %s: %v\n", s.Name, s.Err)
	}
	if *limit > 0 && len(sel) > *limit {
		sel = sel[:*limit]
	}
	if *asJSON {
		return printSelectJSON(e.stdout, mf.Model, funcs, len(inputs), sel, stats)
	}
	if *asRun {
		pat, err := runPattern(mf.Target, sel)
		if err != nil {
			return err
		}
		if pat == "" {
			fmt.Fprintf(e.stderr, "kfuzz select: none of %d inputs is predicted to cover the %d changed functions; nothing to run\n", len(inputs), len(funcs))
			return nil
		}
		fmt.Fprintln(e.stdout, pat)
		return nil
	}
	printSelect(e.stdout, funcs, len(inputs), sel, stats)
	return nil
}

// runPattern returns the go test -run pattern that runs the selected seed
// corpus entries of the fuzz test target: go test runs the file
// testdata/fuzz/FuzzX/NAME as the subtest FuzzX/NAME. It is "" when nothing
// is selected, and an error when a selected input is not such a file, since
// go test could not run it.
func runPattern(target string, sel []pipeline.Selected) (string, error) {
	if len(sel) == 0 {
		return "", nil
	}
	var names, outside []string
	for _, s := range sel {
		dir := filepath.Dir(s.Name)
		if filepath.Base(dir) != target || filepath.Base(filepath.Dir(dir)) != "fuzz" || filepath.Base(filepath.Dir(filepath.Dir(dir))) != "testdata" {
			outside = append(outside, s.Name)
			continue
		}
		names = append(names, regexp.QuoteMeta(filepath.Base(s.Name)))
	}
	if len(outside) > 0 {
		return "", fmt.Errorf("-run: go test can run only the files of testdata/fuzz/%s, and %d selected inputs are not: %s", target, len(outside), strings.Join(outside, ", "))
	}
	return "^" + regexp.QuoteMeta(target) + "$/^(" + strings.Join(names, "|") + ")$", nil
}

func printSelect(w io.Writer, funcs []string, total int, sel []pipeline.Selected, stats []learn.TargetRecall) {
	for i, s := range sel {
		fmt.Fprintf(w, "%d. %s %s\n", i+1, s.Name, strconv.Quote(s.Text))
		for _, p := range s.Predictions {
			note := ""
			if !p.Covered {
				note = " (below 50%: taken for the recall target)"
			}
			fmt.Fprintf(w, "\t%s %3.0f%%%s\n", p.Func, 100*p.Prob, note)
		}
	}
	if stats == nil {
		fmt.Fprintf(w, "%d of %d inputs are predicted to cover %d changed functions\n", len(sel), total, len(funcs))
		return
	}
	for _, st := range stats {
		fmt.Fprintf(w, "%s: %d inputs, expected recall %.3f (%.1f covering inputs expected)\n", st.Func, st.Selected, st.Expected, st.Mass)
	}
	fmt.Fprintf(w, "%d of %d inputs selected for %d changed functions\n", len(sel), total, len(funcs))
}

type selectedJSON struct {
	Rank      int              `json:"rank"`
	Name      string           `json:"name"`
	Input     string           `json:"input"`
	Prob      float64          `json:"prob"`
	Functions []predictionJSON `json:"functions"`
}

type recallJSON struct {
	Func     string  `json:"function"`
	Selected int     `json:"selected"`
	Expected float64 `json:"expected_recall"`
	Mass     float64 `json:"expected_covering"`
}

type selectJSON struct {
	Changed  []string       `json:"changed"`
	Recall   []recallJSON   `json:"recall,omitempty"`
	Inputs   int            `json:"inputs"`
	Selected []selectedJSON `json:"selected"`
}

func printSelectJSON(w io.Writer, m *learn.Model, funcs []string, total int, sel []pipeline.Selected, stats []learn.TargetRecall) error {
	doc := selectJSON{Changed: funcs, Inputs: total, Selected: []selectedJSON{}}
	for _, st := range stats {
		doc.Recall = append(doc.Recall, recallJSON{Func: st.Func, Selected: st.Selected, Expected: st.Expected, Mass: st.Mass})
	}
	for i, s := range sel {
		sj := selectedJSON{Rank: i + 1, Name: s.Name, Input: s.Text, Prob: s.Prob, Functions: []predictionJSON{}}
		for _, p := range s.Predictions {
			pj := predictionJSON{Func: p.Func, Prob: p.Prob}
			if p.Rule != nil {
				pj.Rule = ruleLine(m.Table, p.Rule)
			}
			sj.Functions = append(sj.Functions, pj)
		}
		doc.Selected = append(doc.Selected, sj)
	}
	return writeJSON(w, doc)
}
