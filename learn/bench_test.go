package learn

import (
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// BenchmarkTrain trains 200 trees on synthetic data: 2,000 inputs, 5,000
// features, about 150 random features per input plus the planted ones.
func BenchmarkTrain(b *testing.B) {
	ds, _ := synthetic(1, 2000, 5000, 150, 200)
	b.ReportMetric(float64(len(ds.m.cols)), "nonzeros")
	for _, bc := range []struct {
		name string
		cfg  Config
	}{
		{"balanced/workers=1", Config{Seed: 1, Workers: 1}},
		{"balanced/workers=2", Config{Seed: 1, Workers: 2}},
		{"unbalanced/workers=1", Config{Seed: 1, Workers: 1, NoBalance: true}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			cfg, err := bc.cfg.withDefaults()
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				trainAll(ds, cfg)
			}
		})
	}
}

// BenchmarkLearnExpr runs NewDataset and Learn on 1,000 expressions.
func BenchmarkLearnExpr(b *testing.B) {
	_, pt := exprSetup(b)
	_, samples := exprSamples(b, 1000, 1)
	for b.Loop() {
		ds, err := NewDataset(pt, samples, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Learn(ds, Config{Seed: 1, Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFeatures measures feature extraction per input: the paths of a
// derivation tree.
func BenchmarkFeatures(b *testing.B) {
	_, pt := exprSetup(b)
	trees, _ := exprSamples(b, 200, 5)
	b.Run("tree", func(b *testing.B) {
		i := 0
		for b.Loop() {
			pt.Paths(trees[i%len(trees)])
			i++
		}
	})
}

// BenchmarkPredict measures the prediction of every function for one input
// given its path set: 200 synthetic functions, and the expression model.
func BenchmarkPredict(b *testing.B) {
	b.Run("synthetic-200", func(b *testing.B) {
		ds, _ := synthetic(1, 2000, 5000, 150, 200)
		cfg, _ := Config{Seed: 1}.withDefaults()
		m := &Model{Features: ds.Features, Config: cfg}
		for f, tree := range trainAll(ds, cfg) {
			m.Funcs = append(m.Funcs, &Func{Name: ds.Funcs[f], Tree: tree})
		}
		sets := make([]grammar.PathSet, 100)
		for i := range sets {
			sets[i] = make(grammar.PathSet, (5000+63)/64)
			for _, c := range ds.m.row(i) {
				sets[i].Add(int(c))
			}
		}
		i := 0
		for b.Loop() {
			ps := sets[i%len(sets)]
			for _, fn := range m.Funcs {
				m.classify(fn, ps)
			}
			i++
		}
	})
	b.Run("expr", func(b *testing.B) {
		m := exprModel(b)
		_, test := exprSamples(b, 100, 6)
		i := 0
		for b.Loop() {
			if _, err := m.Predict(test[i%len(test)].Paths); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}

// BenchmarkGenerate measures targeted generation of 10 inputs for the
// distributive function.
func BenchmarkGenerate(b *testing.B) {
	m := exprModel(b)
	for b.Loop() {
		if _, err := m.Generate("calc.distributive", 10, &GenerateOptions{Seed: 1, MaxStates: 200}); err != nil {
			b.Fatal(err)
		}
	}
}
