package learn

import (
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// TestJSONTargets learns simulated functions of a JSON parser, labelled by
// the text of the input, and aims at them.
func TestJSONTargets(t *testing.T) {
	gr := grammar.MustCompile(grammar.MustBuiltin("json"))
	pt, err := gr.PathTable(DefaultFeatureK)
	if err != nil {
		t.Fatal(err)
	}
	funcs := map[string]func(string) bool{
		"json.negative": func(s string) bool { return strings.Contains(s, "-") },
		"json.escape":   func(s string) bool { return strings.Contains(s, `\`) },
		"json.true":     func(s string) bool { return strings.Contains(s, "true") },
	}
	label := func(s string) []string {
		var out []string
		for name, f := range funcs {
			if f(s) {
				out = append(out, name)
			}
		}
		return out
	}
	g := grammar.NewGenerator(gr, 1)
	g.MaxDepth, g.MaxSize = 12, 300
	var samples []Sample
	for range 1000 {
		tr, err := g.Generate()
		if err != nil {
			t.Fatal(err)
		}
		samples = append(samples, NewSample(pt, tr, label(tr.String())))
	}
	ds, err := NewDataset(pt, samples, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Learn(ds, Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range funcs {
		trees, err := m.Generate(name, 20, &GenerateOptions{Seed: 1, MaxStates: 200})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		hits := 0
		for _, tr := range trees {
			if f(tr.String()) {
				hits++
			}
		}
		t.Logf("%s: %d of %d; %s", name, hits, len(trees), m.Func(name).Rules[0].Format(pt))
		if len(trees) < 10 || hits*10 < 9*len(trees) {
			t.Errorf("%s: %d of %d generated inputs reach it", name, hits, len(trees))
		}
	}
}
