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

func TestReportSubset(t *testing.T) {
	rep := &Report{Funcs: []FuncReport{
		{Func: "a", Confusion: Confusion{TP: 8, FP: 2, TN: 90}},
		{Func: "b", Confusion: Confusion{TP: 1, FP: 50, TN: 49}},
		{Func: "c", Confusion: Confusion{TN: 99, FN: 1}},
	}}
	rep.total()
	if rep.Micro != (Confusion{TP: 9, FP: 52, TN: 238, FN: 1}) {
		t.Errorf("micro of all: %+v", rep.Micro)
	}
	sub := rep.Subset(func(name string) bool { return name != "b" })
	if len(sub.Funcs) != 2 || sub.Funcs[0].Func != "a" || sub.Funcs[1].Func != "c" {
		t.Fatalf("subset funcs: %+v", sub.Funcs)
	}
	if sub.Micro != (Confusion{TP: 8, FP: 2, TN: 189, FN: 1}) {
		t.Errorf("micro of the subset: %+v", sub.Micro)
	}
	// c has no precision (nothing predicted covered): the mean is a's alone.
	if sub.MeanPrecision != 0.8 || sub.MeanRecall != 0.5 || sub.MeanAccuracy != (0.98+0.99)/2 {
		t.Errorf("means of the subset: %v %v %v", sub.MeanAccuracy, sub.MeanPrecision, sub.MeanRecall)
	}
	if len(rep.Funcs) != 3 || rep.Micro.TP != 9 {
		t.Error("Subset changed the report")
	}
	if none := rep.Subset(func(string) bool { return false }); len(none.Funcs) != 0 || !math.IsNaN(none.MeanAccuracy) || none.Micro.Total() != 0 {
		t.Errorf("empty subset: %+v", none)
	}
}
