package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/internal/evallearn"
	"github.com/seed72891827/kfuzz/internal/pipeline"
)

// TestEvalLearnSmall runs kfuzz eval learn on one real subject with few
// inputs and checks that every figure is there and a fraction.
func TestEvalLearnSmall(t *testing.T) {
	needGo(t)
	out, errOut, code := kfuzz(t, "eval", "learn", "-subjects", "url", "-n", "100", "-test", "100", "-targets", "2", "-refine", "1", "-json")
	if code != 0 {
		t.Fatalf("code %d, stderr:\n%s", code, errOut)
	}
	var rows []learnEvalRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rows) != 1 {
		t.Fatalf("%d rows, want 1", len(rows))
	}
	r := rows[0]
	if r.Subject != "url" || r.Target != "FuzzURL" || r.Test != 100 || r.Train < 100 || r.Functions == 0 {
		t.Errorf("row %+v", r)
	}
	if r.Learned == 0 || r.Evaluated != r.Learned-len(r.Unstable)-len(r.Untrainable) || len(r.Funcs) != r.Evaluated {
		t.Errorf("%d learned, %d unstable, %d untrainable, %d evaluated, %d function rows", r.Learned, len(r.Unstable), len(r.Untrainable), r.Evaluated, len(r.Funcs))
	}
	for name, x := range map[string]float64{
		"accuracy": r.Accuracy, "precision": r.Precision, "recall": r.Recall,
		"mean accuracy": r.MeanAcc, "mean precision": r.MeanPrec, "mean recall": r.MeanRecall,
		"relative targeted": r.RelTargeted, "relative random": r.RelRandom,
		"absolute targeted": r.AbsTargeted, "absolute random": r.AbsRandom,
		"mean targeted": r.MeanTargeted, "mean random": r.MeanRandom,
	} {
		if !(x >= 0 && x <= 1) {
			t.Errorf("%s = %v, not in [0, 1]", name, x)
		}
	}
	reached := 0
	for _, f := range r.Funcs {
		if f.Targeted > 2 || f.TargetedReached > f.Targeted || f.RandomReached > f.Random || f.Random == 0 {
			t.Errorf("%+v", f)
		}
		if !(f.Accuracy >= 0 && f.Accuracy <= 1) {
			t.Errorf("%s: accuracy %v", f.Func, f.Accuracy)
		}
		if f.TargetedReached > 0 {
			reached++
		}
	}
	if got := float64(reached) / float64(len(r.Funcs)); math.Abs(got-r.AbsTargeted) > 1e-9 {
		t.Errorf("absolute targeted fraction %v, but %d of %d functions reached", r.AbsTargeted, reached, len(r.Funcs))
	}
}

func TestPrintLearnEval(t *testing.T) {
	rows := []*learnEvalRow{
		{Subject: "good", Functions: 10, Learned: 4, Unstable: []string{"x"}, Evaluated: 3, Train: 1000,
			Accuracy: 0.99, Precision: 0.95, Recall: 0.97, MeanAcc: 0.98, MeanPrec: 0.9, MeanRecall: 0.9,
			RelTargeted: 1, RelRandom: 0.2, AbsTargeted: 1, AbsRandom: 0.5,
			Funcs: []learnEvalFunc{{Targeted: 10}, {Targeted: 10}, {Targeted: 0}}},
		{Subject: "poor", Functions: 10, Learned: 4, Evaluated: 4, Train: 1000,
			Accuracy: 0.9, Precision: math.NaN(), Recall: 0.95, RelTargeted: 0.5, RelRandom: 0.4, AbsTargeted: 0.9},
		{Subject: "flat", Functions: 19, Train: 1000, Accuracy: math.NaN(), Precision: math.NaN(), Recall: math.NaN(),
			RelTargeted: math.NaN(), RelRandom: math.NaN(), AbsTargeted: math.NaN()},
	}
	var b strings.Builder
	printLearnEval(&b, rows, evallearn.Options{Learn: pipeline.LearnOptions{Test: 1000}, Targets: 10})
	out := b.String()
	for _, want := range []string{
		"prediction on 1000 independent test inputs",
		"paper (Table 10)", "paper (Table 9)",
		"5.0x", // 1 / 0.2
		"good: all met",
		"poor: missed: accuracy, precision, relative fraction, absolute fraction",
		"flat: nothing to evaluate",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "      -  ") && !strings.Contains(out, " - ") {
		t.Errorf("an undefined precision is not printed as -:\n%s", out)
	}
}

func TestEvalLearnFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-subjects", "nosuch"},
		{"-n", "0"},
		{"-targets", "0"},
		{"extra"},
	} {
		if _, errOut, code := kfuzz(t, append([]string{"eval", "learn"}, args...)...); code == 0 {
			t.Errorf("%q: code 0, stderr %q", args, errOut)
		}
	}
}
