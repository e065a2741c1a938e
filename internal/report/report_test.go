package report

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/pipeline"
	"github.com/seed72891827/kfuzz/internal/protocol"
	"github.com/seed72891827/kfuzz/learn"
)

// learned returns a model of the expr grammar learned from random inputs
// whose coverage a rule of the text decides, without running any code:
// calc.product is covered by the inputs with a "*", calc.paren by those with
// a "(", calc.Parse by all.
func learned(t *testing.T) *pipeline.Learned {
	t.Helper()
	g, err := grammar.Builtin("expr")
	if err != nil {
		t.Fatal(err)
	}
	gr, err := grammar.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	pt, err := gr.PathTable(2)
	if err != nil {
		t.Fatal(err)
	}
	gen := grammar.NewGenerator(gr, 1)
	observe := func(source string, n int) []pipeline.Observation {
		var obs []pipeline.Observation
		for i := range n {
			tree, err := gen.Generate()
			if err != nil {
				t.Fatal(err)
			}
			text := tree.String()
			funcs := []string{"example.com/calc.Parse"}
			if strings.Contains(text, "*") {
				funcs = append(funcs, "example.com/calc.product")
			}
			if strings.Contains(text, "(") {
				funcs = append(funcs, "example.com/calc.paren")
			}
			slices.Sort(funcs)
			obs = append(obs, pipeline.Observation{
				ID: fmt.Sprintf("%s#%d", source, i+1), Source: source, Text: text,
				Status: protocol.StatusPass, Funcs: funcs, Paths: pt.Paths(tree),
			})
		}
		return obs
	}
	train := append(observe(pipeline.SourceSeed, 20), observe(pipeline.SourceRandom, 200)...)
	test := observe(pipeline.SourceTest, 100)
	samples := func(obs []pipeline.Observation) []learn.Sample {
		var out []learn.Sample
		for _, o := range obs {
			out = append(out, learn.Sample{Paths: o.Paths, Covered: o.Funcs})
		}
		return out
	}
	funcs := []string{"example.com/calc.Eval", "example.com/calc.Parse", "example.com/calc.paren", "example.com/calc.product"}
	ds, err := learn.NewDataset(pt, samples(train), funcs)
	if err != nil {
		t.Fatal(err)
	}
	m, err := learn.Learn(ds, learn.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	ev, err := m.Evaluate(samples(test))
	if err != nil {
		t.Fatal(err)
	}
	return &pipeline.Learned{
		Target: "FuzzCalc", ImportPath: "example.com/calc/fuzz", Measured: []string{"example.com/calc"},
		Options: pipeline.LearnOptions{N: 200, K: 2, Seed: 1, Depth: 8},
		Model:   m, Train: train, Test: test, Eval: ev,
		PathCoverage: []pipeline.PathCoverage{{L: 1, Covered: 30, Total: 40}, {L: 2, Covered: 50, Total: 200}},
		Functions:    len(funcs),
	}
}

func TestReports(t *testing.T) {
	l := learned(t)
	if l.Model.Func("example.com/calc.product") == nil || len(l.Model.Func("example.com/calc.product").Rules) == 0 {
		t.Fatal("the model has no rule for calc.product")
	}
	var md, html bytes.Buffer
	if err := WriteMarkdown(&md, l); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&html, l); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# What reaches the functions of example.com/calc\n", "fuzz test `FuzzCalc` of `example.com/calc/fuzz`",
		"Training inputs: 20 seed, 200 random; test inputs: 100",
		"| 1 | 30 | 40 | 75.0% |", "| 2 | 50 | 200 | 25.0% |",
		"### `example.com/calc.product`", "- requires `<", `"*"`, "Examples: `\"",
		"Covered by every training input:\n\n- `example.com/calc.Parse`",
		"Covered by no training input:\n\n- `example.com/calc.Eval`",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the Markdown report lacks %q", want)
		}
	}
	h := html.String()
	for _, want := range []string{"<!DOCTYPE html>", "<style>", "example.com/calc.product", "&lt;MultExpr&gt;", "&#34;*&#34;"} {
		if !strings.Contains(h, want) {
			t.Errorf("the HTML report lacks %q", want)
		}
	}
	for _, bad := range []string{"<script", "http://", "https://", "<MultExpr>"} {
		if strings.Contains(h, bad) {
			t.Errorf("the HTML report holds %q", bad)
		}
	}
	if t.Failed() {
		t.Logf("Markdown:\n%s", md.String())
	}
}
