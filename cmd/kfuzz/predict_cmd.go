package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/pipeline"
	"github.com/seed72891827/kfuzz/learn"
)

func init() {
	register(&command{
		name:  "predict",
		usage: "-model FILE [-all] [-json] FILE|DIR...",
		short: "predict the functions inputs cover, with the rule behind each prediction",
		run:   runPredict,
	})
}

const predictHelp = `kfuzz predict reads inputs (FILEs and the files in DIRs; a file that starts
with "go test fuzz v1" is a corpus entry of the fuzz test the model was
learned for, any other file is a plain input, as kfuzz gen -o writes, so
testdata/fuzz/FuzzX and kfuzz gen -o DIR both work), parses each with the
grammar stored in the model file
and prints the functions the model predicts it covers: per function the
fraction of training inputs at the tree's leaf that covered it and the
leaf's rule. Nothing is built or run. Functions that every training input
covered are shown with -all. Inputs that do not parse are reported, and the
command then exits with status 1.`

func runPredict(e *env, args []string) error {
	c := commands["predict"]
	fs := newFlagSet(e, c)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: kfuzz %s %s\n\n%s\n\n%s\n\nFlags:\n", c.name, c.usage, c.short, predictHelp)
		fs.PrintDefaults()
	}
	modelPath := fs.String("model", "", "the model `file` written by kfuzz learn (required)")
	all := fs.Bool("all", false, "also list the functions every training input covered")
	asJSON := fs.Bool("json", false, "print JSON instead of text")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *modelPath == "" || len(pos) == 0 {
		if *modelPath == "" {
			fmt.Fprintf(e.stderr, "kfuzz predict: -model FILE is required\n")
		} else {
			fmt.Fprintf(e.stderr, "kfuzz predict: name the input files\n")
		}
		fs.Usage()
		return errUsage
	}
	mf, h, err := pipeline.LoadModelFile(*modelPath)
	if err != nil {
		return err
	}
	inputs, err := h.ReadInputs(pos...)
	if err != nil {
		return err
	}
	preds := pipeline.Predict(mf.Model, h, inputs)
	if !*all {
		for i := range preds {
			preds[i].Predictions = withoutAlways(mf.Model, preds[i].Predictions)
		}
	}
	if *asJSON {
		err = printPredictJSON(e.stdout, mf.Model, preds)
	} else {
		printPredict(e.stdout, mf.Model, preds)
	}
	if err != nil {
		return err
	}
	bad := 0
	for _, p := range preds {
		if p.Err != nil {
			bad++
		}
	}
	if bad > 0 {
		return &exitError{code: 1, err: fmt.Errorf("%d of %d inputs could not be predicted", bad, len(preds))}
	}
	return nil
}

// withoutAlways drops the predictions of functions every training input
// covered.
func withoutAlways(m *learn.Model, ps []learn.Prediction) []learn.Prediction {
	var out []learn.Prediction
	for _, p := range ps {
		if m.Func(p.Func) != nil {
			out = append(out, p)
		}
	}
	return out
}

func printPredict(w io.Writer, m *learn.Model, preds []pipeline.InputPrediction) {
	for _, p := range preds {
		fmt.Fprintf(w, "%s %s\n", p.Name, strconv.Quote(p.Text))
		if p.Err != nil {
			fmt.Fprintf(w, "\terror: %v\n", p.Err)
			continue
		}
		for _, pr := range p.Predictions {
			fmt.Fprintf(w, "\t%s %3.0f%%", pr.Func, 100*pr.Prob)
			if pr.Rule != nil {
				fmt.Fprintf(w, "  %s", ruleLine(m.Table, pr.Rule))
			} else {
				fmt.Fprintf(w, "  (every training input covered it)")
			}
			fmt.Fprintln(w)
		}
	}
}

// ruleLine renders a rule on one line: its required and forbidden patterns.
func ruleLine(pt *grammar.PathTable, r *learn.Rule) string {
	var parts []string
	clause := func(verb string, id int) {
		if f := r.Extra(pt, id); f != nil {
			parts = append(parts, verb+" "+f.Format(pt.Graph))
			return
		}
		p := pt.Path(id)
		s := learn.PathLabel(pt.Graph, p)
		if pat, err := learn.NewPattern(pt.Graph, p); err == nil {
			s = "<" + pat.Rule + ">: " + pat.String()
		}
		parts = append(parts, verb+" "+s)
	}
	for _, id := range r.Required {
		clause("has", id)
	}
	for _, id := range r.Forbidden {
		clause("lacks", id)
	}
	if len(parts) == 0 {
		return "any input"
	}
	return strings.Join(parts, "; ")
}

type predictionJSON struct {
	Func string  `json:"function"`
	Prob float64 `json:"prob"`
	Rule string  `json:"rule,omitempty"`
}

type inputPredictionJSON struct {
	Name      string           `json:"name"`
	Input     string           `json:"input"`
	Error     string           `json:"error,omitempty"`
	Functions []predictionJSON `json:"functions"`
}

func printPredictJSON(w io.Writer, m *learn.Model, preds []pipeline.InputPrediction) error {
	doc := []inputPredictionJSON{}
	for _, p := range preds {
		ij := inputPredictionJSON{Name: p.Name, Input: p.Text, Functions: []predictionJSON{}}
		if p.Err != nil {
			ij.Error = p.Err.Error()
		}
		for _, pr := range p.Predictions {
			pj := predictionJSON{Func: pr.Func, Prob: pr.Prob}
			if pr.Rule != nil {
				pj.Rule = ruleLine(m.Table, pr.Rule)
			}
			ij.Functions = append(ij.Functions, pj)
		}
		doc = append(doc, ij)
	}
	return writeJSON(w, doc)
}
