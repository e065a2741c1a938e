package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/internal/pipeline"
	"github.com/seed72891827/kfuzz/learn"
)

func init() {
	register(&command{
		name:  "select",
		usage: "-model FILE (-changed FUNC,... | -diff FILE) [-root DIR] [-n N] [-json] [DIR|FILE...]",
		short: "select the inputs predicted to cover changed functions, best first",
		run:   runSelect,
	})
}

const selectHelp = `kfuzz select ranks the inputs that the model predicts to cover at least one
of the given functions: those predicted to cover more of them first, then
those whose prediction is surer, then the shorter. The functions are given
with -changed (full names or suffixes that name one function, as for kfuzz
seed) or found in a unified diff (-diff FILE, "-" for standard input, as git
diff writes it): the functions whose bodies the diff changes, of the packages
the model was learned on. -root is the directory the diff's paths are
relative to (default: the top of the git work tree).

The inputs are FILEs and the files in DIRs: a file that starts with "go test
fuzz v1" is a corpus entry, any other file a plain input (as kfuzz gen -o
writes); by default
testdata/fuzz/FuzzX of the current directory, or else of the package the
model was learned in. Nothing is built or run.`

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
	limit := fs.Int("n", 0, "print at most `N` inputs (0: all)")
	asJSON := fs.Bool("json", false, "print JSON instead of text")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *modelPath == "" || (len(changed) == 0) == (*diffPath == "") {
		if *modelPath == "" {
			fmt.Fprintf(e.stderr, "kfuzz select: -model FILE is required\n")
		} else {
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
	sel, skipped, err := pipeline.Select(mf.Model, h, funcs, inputs)
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
		return printSelectJSON(e.stdout, mf.Model, funcs, len(inputs), sel)
	}
	printSelect(e.stdout, funcs, len(inputs), sel)
	return nil
}

func printSelect(w io.Writer, funcs []string, total int, sel []pipeline.Selected) {
	for i, s := range sel {
		fmt.Fprintf(w, "%d. %s %s\n", i+1, s.Name, strconv.Quote(s.Text))
		for _, p := range s.Predictions {
			fmt.Fprintf(w, "\t%s %3.0f%%\n", p.Func, 100*p.Prob)
		}
	}
	fmt.Fprintf(w, "%d of %d inputs are predicted to cover %d changed functions\n", len(sel), total, len(funcs))
}

type selectedJSON struct {
	Rank      int              `json:"rank"`
	Name      string           `json:"name"`
	Input     string           `json:"input"`
	Prob      float64          `json:"prob"`
	Functions []predictionJSON `json:"functions"`
}

type selectJSON struct {
	Changed  []string       `json:"changed"`
	Inputs   int            `json:"inputs"`
	Selected []selectedJSON `json:"selected"`
}

func printSelectJSON(w io.Writer, m *learn.Model, funcs []string, total int, sel []pipeline.Selected) error {
	doc := selectJSON{Changed: funcs, Inputs: total, Selected: []selectedJSON{}}
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
