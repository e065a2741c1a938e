package learn

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

func TestPredictInput(t *testing.T) {
	gr, pt := exprSetup(t)
	m := exprModel(t)
	p, err := grammar.NewParser(gr)
	if err != nil {
		t.Fatal(err)
	}
	// The inputs of CODEINE's Table 6 and Table 7, and the paper's false
	// positive of Fig. 7, "(x * 2)".
	for _, tc := range []struct {
		input string
		want  bool
	}{
		{"1*(2+3)", true},
		{"(1-2)/3", true},
		{"(1+2)*3", true},
		{"(1+2)/(3-4)", true},
		{"(x*2)", false},
		{"x+y", false},
		{"2*3", false},
		{"(3)*4", false},
		{"-(1+2)", false},
	} {
		preds, err := m.PredictInput(p, []byte(tc.input))
		if err != nil {
			t.Fatalf("%s: %v", tc.input, err)
		}
		var got *Prediction
		for i := range preds {
			if preds[i].Func == "calc.distributive" {
				got = &preds[i]
			}
			if !preds[i].Covered {
				t.Errorf("%s: Predict returned %s, which is not predicted covered", tc.input, preds[i].Func)
			}
		}
		if (got != nil) != tc.want {
			t.Errorf("%s: distributive predicted %v, want %v", tc.input, got != nil, tc.want)
		}
		if got != nil {
			ps, _ := InputPaths(pt, p, []byte(tc.input))
			if got.Rule == nil || !got.Rule.Satisfied(ps) || got.Prob <= 0.5 {
				t.Errorf("%s: prediction %+v: no rule that the input satisfies", tc.input, got)
			}
		}
		if !slices.ContainsFunc(preds, func(p Prediction) bool { return p.Func == "calc.parse" && p.Prob == 1 && p.Rule == nil }) {
			t.Errorf("%s: the always covered function is not predicted", tc.input)
		}
		if slices.ContainsFunc(preds, func(p Prediction) bool { return p.Func == exprUnused }) {
			t.Errorf("%s: the never covered function is predicted", tc.input)
		}
	}
	var serr *grammar.SyntaxError
	if _, err := m.PredictInput(p, []byte("1+")); !errors.As(err, &serr) {
		t.Errorf("syntax error: %v", err)
	}
	other, err := grammar.NewParser(grammar.MustCompile(grammar.MustBuiltin("expr")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.PredictInput(other, []byte("1")); err == nil {
		t.Error("parser of another graph: no error")
	}
	unary, err := grammar.NewParser(gr, grammar.ParseFrom("UnaryExpr"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.PredictInput(unary, []byte("1")); err == nil {
		t.Error("parser from another start: no error")
	}
	if _, err := m.Predict(make(grammar.PathSet, 1)); err == nil {
		t.Error("short path set: no error")
	}
}

func TestSelect(t *testing.T) {
	gr, pt := exprSetup(t)
	m := exprModel(t)
	p, err := grammar.NewParser(gr)
	if err != nil {
		t.Fatal(err)
	}
	var corpus []Input
	for _, s := range []string{"x+y", "(1+2)*3/y", "1*(2+3)", "++x", "(1+2)*(3-4)/-x", "7"} {
		ps, err := InputPaths(pt, p, []byte(s))
		if err != nil {
			t.Fatal(err)
		}
		corpus = append(corpus, Input{Name: s, Paths: ps, Size: len(s)})
	}
	sel, err := m.Select([]string{"calc.distributive", "calc.negate"}, corpus)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range sel {
		names = append(names, s.Name)
		if corpus[s.Index].Name != s.Name {
			t.Errorf("index %d names %s, not %s", s.Index, corpus[s.Index].Name, s.Name)
		}
	}
	// Both targets first, then by leaf purity (all pure here), then smaller.
	want := []string{"(1+2)*(3-4)/-x", "1*(2+3)", "(1+2)*3/y"}
	if !slices.Equal(names, want) {
		t.Errorf("selected %q, want %q", names, want)
	}
	if len(sel) > 0 && (len(sel[0].Predictions) != 2 || sel[0].Prob <= 0.5) {
		t.Errorf("first selection %+v", sel[0])
	}
	if sel, err := m.Select([]string{exprUnused}, corpus); err != nil || len(sel) != 0 {
		t.Errorf("never covered: %v, %v", sel, err)
	}
	if sel, err := m.Select([]string{"calc.parse"}, corpus); err != nil || len(sel) != len(corpus) || sel[0].Name != "7" {
		t.Errorf("always covered: %v, %v", sel, err)
	}
	_, err = m.Select([]string{"calc.a", "calc.negate", "calc.b"}, corpus)
	if !errors.Is(err, ErrUnknownFunc) || !strings.Contains(err.Error(), "calc.a") || !strings.Contains(err.Error(), "calc.b") {
		t.Errorf("unknown targets: %v", err)
	}
}

// BenchmarkParseFeatures measures feature extraction per input from its
// text: parsing plus the paths of the parse forest.
func BenchmarkParseFeatures(b *testing.B) {
	gr, pt := exprSetup(b)
	trees, _ := exprSamples(b, 200, 5)
	bytes := 0
	for _, t := range trees {
		bytes += t.Len()
	}
	p, err := grammar.NewParser(gr)
	if err != nil {
		b.Fatal(err)
	}
	inputs := make([][]byte, len(trees))
	for i, t := range trees {
		inputs[i] = t.Bytes()
	}
	b.SetBytes(int64(bytes / len(trees)))
	i := 0
	for b.Loop() {
		if _, err := InputPaths(pt, p, inputs[i%len(inputs)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
