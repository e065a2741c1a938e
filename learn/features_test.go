package learn

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

func TestParseFeatureKinds(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want FeatureKinds
	}{
		{"kpath", KPathFeatures},
		{"kpath,root,count", AllFeatures},
		{" count , kpath", KPathFeatures | CountFeatures},
		{"all", AllFeatures},
	} {
		got, err := ParseFeatureKinds(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseFeatureKinds(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
		if back, err := ParseFeatureKinds(got.String()); err != nil || back != got {
			t.Errorf("%v does not read back: %v, %v", got, back, err)
		}
	}
	if _, err := ParseFeatureKinds("kpath,depth"); err == nil || !strings.Contains(err.Error(), `"depth"`) {
		t.Errorf("unknown kind: %v", err)
	}
}

// countAtLeast reports whether t has at least n references to rule.
func countAtLeast(t *grammar.Tree, rule string, n int) bool {
	c := 0
	t.Walk(func(u *grammar.Tree) bool {
		if isRef(u, rule) {
			c++
		}
		return true
	})
	return c >= n
}

func TestShape(t *testing.T) {
	gr, _ := exprSetup(t)
	trees, _ := exprSamples(t, 50, 3)
	for _, tr := range trees {
		s := NewShape(tr)
		for _, n := range []int{1, 2, 3, 5} {
			if got := s.Counts["MultExpr"] >= n; got != countAtLeast(tr, "MultExpr", n) {
				t.Errorf("%s: count(<MultExpr>) >= %d is %v", tr, n, got)
			}
		}
		// Every root path's first symbol is a symbolic node at the top.
		if len(s.Root) == 0 {
			t.Fatalf("%s: no root paths", tr)
		}
		for k := range s.Root {
			p, err := parseKey(k)
			if err != nil || len(p) == 0 || len(p) > DefaultRootDepth {
				t.Errorf("%s: root path %q", tr, k)
				continue
			}
			if len(p) == 1 && gr.Symbols[p[0]].Nodes[0].Rule != gr.Root.Rule {
				t.Errorf("%s: root path %s does not start in <%s>", tr, PathLabel(gr, p), gr.Root.Rule)
			}
		}
	}
}

// TestCountFeatures learns a function covered by inputs with at least three
// <Identifier>s, which no set of k-paths tells apart: with count features the
// tree tests exactly that, predicts it without error, keeps it through a
// model file, prints it, and generates inputs satisfying it.
func TestCountFeatures(t *testing.T) {
	const name = "calc.manyTerms"
	_, pt := exprSetup(t)
	sampleOf := func(n int, seed uint64) ([]*grammar.Tree, []Sample) {
		trees, samples := exprSamples(t, n, seed)
		for i, tr := range trees {
			samples[i].Shape = NewShape(tr)
			if countAtLeast(tr, "Identifier", 3) {
				samples[i].Covered = append(samples[i].Covered, name)
			}
		}
		return trees, samples
	}
	_, train := sampleOf(600, 1)
	_, test := sampleOf(300, 2)
	ds, err := NewDataset(pt, train, nil)
	if err != nil {
		t.Fatal(err)
	}
	acc := map[FeatureKinds]float64{}
	for _, kinds := range []FeatureKinds{KPathFeatures, KPathFeatures | CountFeatures} {
		m, err := Learn(ds, Config{Seed: 1, Features: kinds, NoBalance: true})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := m.Evaluate(test)
		if err != nil {
			t.Fatal(err)
		}
		f := m.Func(name)
		i := 0
		for k, fn := range m.Funcs {
			if fn == f {
				i = k
			}
		}
		acc[kinds] = rep.Funcs[i].Accuracy()
		tested := false
		for _, n := range f.Tree {
			if !n.Leaf() && m.Features[n.Feature] >= pt.Len() {
				tested = true
				if kinds&CountFeatures == 0 {
					t.Errorf("%v: the tree tests %s", kinds, m.Extra[m.Features[n.Feature]-pt.Len()].Format(pt.Graph))
				}
			}
		}
		if kinds&CountFeatures == 0 {
			continue
		}
		if !tested || rep.Funcs[i].Accuracy() != 1 {
			t.Fatalf("with count features: accuracy %v, count tested %v", rep.Funcs[i].Accuracy(), tested)
		}
		if len(f.Rules) == 0 || !strings.Contains(f.Rules[0].Format(pt), "requires count(<Identifier>) >= 3") {
			for _, r := range f.Rules {
				t.Log(r.Format(pt))
			}
			t.Errorf("rules of %s above", name)
		}
		// The model file keeps the feature (version 2) and the predictions.
		var buf bytes.Buffer
		if err := m.Save(&buf); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), `"version": 2`) || !strings.Contains(buf.String(), `"kind": "count"`) {
			t.Errorf("model file:\n%.600s", buf.String())
		}
		m2, err := Load(bytes.NewReader(buf.Bytes()), pt.Graph)
		if err != nil {
			t.Fatal(err)
		}
		rep2, err := m2.Evaluate(test)
		if err != nil {
			t.Fatal(err)
		}
		if rep2.Micro != rep.Micro {
			t.Errorf("after Load: %+v, before %+v", rep2.Micro, rep.Micro)
		}
		// A plain path set is refused with a hint.
		if _, err := m.Predict(test[0].Paths); err == nil || !strings.Contains(err.Error(), "Extend") {
			t.Errorf("Predict of a plain path set: %v", err)
		}
		// Targeted generation satisfies the count clause.
		trees, err := m.Generate(name, 5, &GenerateOptions{Seed: 1})
		if err != nil && !errors.Is(err, ErrUnsatisfiable) {
			t.Fatal(err)
		}
		if len(trees) == 0 {
			t.Fatalf("no tree generated: %v", err)
		}
		for _, tr := range trees {
			if !countAtLeast(tr, "Identifier", 3) {
				t.Errorf("generated %q has fewer than 3 <Identifier>", tr)
			}
			if p, err := m.PredictTree(tr); err != nil || !predicted(p, name) {
				t.Errorf("generated %q: not predicted (%v)", tr, err)
			}
		}
	}
	t.Logf("accuracy of %s: k-paths %.3f, with counts %.3f", name, acc[KPathFeatures], acc[KPathFeatures|CountFeatures])
	if acc[KPathFeatures] >= 1 {
		t.Error("k-paths alone predict the count; the test shows nothing")
	}
}

func predicted(ps []Prediction, name string) bool {
	for _, p := range ps {
		if p.Func == name {
			return true
		}
	}
	return false
}

func TestShapesAllOrNone(t *testing.T) {
	_, pt := exprSetup(t)
	trees, samples := exprSamples(t, 4, 1)
	samples[0].Shape = NewShape(trees[0])
	if _, err := NewDataset(pt, samples, nil); err == nil || !strings.Contains(err.Error(), "1 of 4 samples have a shape") {
		t.Errorf("mixed shapes: %v", err)
	}
}
