package learn

import (
	"errors"
	"testing"
)

func TestSelectRanking(t *testing.T) {
	m := exprModel(t)
	trees, samples := exprSamples(t, 300, 7)
	var corpus []Input
	for i, tr := range trees {
		corpus = append(corpus, Input{Name: tr.String(), Paths: samples[i].Paths, Size: tr.Len()})
	}
	targets := []string{"calc.distributive", "calc.divide", "calc.nestedParens"}
	sel, err := m.Select(targets, corpus)
	if err != nil {
		t.Fatal(err)
	}
	picked := map[int]bool{}
	for k, s := range sel {
		picked[s.Index] = true
		if s.Name != corpus[s.Index].Name || len(s.Predictions) == 0 {
			t.Fatalf("selection %d: %+v", k, s)
		}
		sum := 0.0
		for _, p := range s.Predictions {
			if !p.Covered {
				t.Errorf("%s: %s is not predicted covered", s.Name, p.Func)
			}
			sum += p.Prob
		}
		if d := sum/float64(len(s.Predictions)) - s.Prob; d > 1e-12 || d < -1e-12 {
			t.Errorf("%s: prob %v, mean %v", s.Name, s.Prob, sum/float64(len(s.Predictions)))
		}
		if k == 0 {
			continue
		}
		prev := sel[k-1]
		switch {
		case len(prev.Predictions) > len(s.Predictions):
		case len(prev.Predictions) < len(s.Predictions):
			t.Errorf("%d: %d targets after %d", k, len(s.Predictions), len(prev.Predictions))
		case prev.Prob > s.Prob:
		case prev.Prob < s.Prob:
			t.Errorf("%d: prob %v after %v", k, s.Prob, prev.Prob)
		case corpus[prev.Index].Size > corpus[s.Index].Size:
			t.Errorf("%d: size %d after %d", k, corpus[s.Index].Size, corpus[prev.Index].Size)
		}
	}
	// Every input predicted to cover a target is selected, and only those.
	for i, in := range corpus {
		want := false
		for _, name := range targets {
			p, err := m.Classify(name, in.Paths)
			if err != nil {
				t.Fatal(err)
			}
			want = want || p.Covered
		}
		if want != picked[i] {
			t.Errorf("%s: selected %v, predicted %v", in.Name, picked[i], want)
		}
	}
	if len(sel) == 0 || len(sel) == len(corpus) {
		t.Errorf("%d of %d selected", len(sel), len(corpus))
	}

	if sel, err := m.Select([]string{exprUnused}, corpus); err != nil || len(sel) != 0 {
		t.Errorf("never covered: %d selected, %v", len(sel), err)
	}
	if sel, err := m.Select([]string{"calc.parse"}, corpus); err != nil || len(sel) != len(corpus) {
		t.Errorf("always covered: %d selected, %v", len(sel), err)
	}
	if _, err := m.Select([]string{"calc.a", "calc.b"}, corpus); !errors.Is(err, ErrUnknownFunc) {
		t.Errorf("unknown targets: %v", err)
	}
	if _, err := m.Select(targets, []Input{{Name: "bad"}}); err == nil {
		t.Error("input without paths: no error")
	}
}
