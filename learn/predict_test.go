package learn

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

func TestClassify(t *testing.T) {
	_, pt := exprSetup(t)
	m := exprModel(t)
	ps := pt.NewPathSet()
	for name, want := range map[string]bool{"calc.parse": true, exprUnused: false} {
		p, err := m.Classify(name, ps)
		if err != nil || p.Covered != want || p.Rule != nil {
			t.Errorf("%s: %+v, %v", name, p, err)
		}
	}
	if _, err := m.Classify("calc.none", ps); !errors.Is(err, ErrUnknownFunc) {
		t.Errorf("unknown: %v", err)
	}
	if _, err := m.Rules(exprUnused); !errors.Is(err, ErrUnknownFunc) || !strings.Contains(err.Error(), "no training input covered it") {
		t.Errorf("rules of a never covered function: %v", err)
	}
}

func TestConfusion(t *testing.T) {
	c := Confusion{TP: 3, FP: 1, TN: 5, FN: 1}
	if c.Total() != 10 || c.Accuracy() != 0.8 || c.Precision() != 0.75 || c.Recall() != 0.75 {
		t.Errorf("%+v: %v %v %v", c, c.Accuracy(), c.Precision(), c.Recall())
	}
	var z Confusion
	if !math.IsNaN(z.Accuracy()) || !math.IsNaN(z.Precision()) || !math.IsNaN(z.Recall()) {
		t.Error("empty confusion: want NaN")
	}
	z.add(false, false)
	if z.Accuracy() != 1 || !math.IsNaN(z.Precision()) || !math.IsNaN(z.Recall()) {
		t.Error("one true negative")
	}
}

func TestEvaluateAverages(t *testing.T) {
	_, pt := exprSetup(t)
	m := exprModel(t)
	_, test := exprSamples(t, 200, 4)
	rep, err := m.Evaluate(test)
	if err != nil {
		t.Fatal(err)
	}
	var sum Confusion
	var acc float64
	for _, fr := range rep.Funcs {
		sum.TP += fr.TP
		sum.FP += fr.FP
		sum.TN += fr.TN
		sum.FN += fr.FN
		acc += fr.Accuracy()
		if fr.Total() != len(test) {
			t.Errorf("%s: %d predictions", fr.Func, fr.Total())
		}
	}
	if sum != rep.Micro {
		t.Errorf("micro %+v, sum %+v", rep.Micro, sum)
	}
	if d := rep.MeanAccuracy - acc/float64(len(rep.Funcs)); math.Abs(d) > 1e-12 {
		t.Errorf("mean accuracy %v, want %v", rep.MeanAccuracy, acc/float64(len(rep.Funcs)))
	}
	if !strings.Contains(rep.String(), "micro-average") {
		t.Errorf("report:\n%s", rep)
	}
	if _, err := m.Evaluate([]Sample{{Paths: make(grammar.PathSet, 2)}}); err == nil {
		t.Error("bad test sample: no error")
	}
	_ = pt
}
