package learn

import (
	"errors"
	"math"
	"slices"
	"testing"
)

func TestSelectRanking(t *testing.T) {
	m, corpus, targets := selectSetup(t)
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

func TestSelectRecall(t *testing.T) {
	m, corpus, targets := selectSetup(t)
	for _, target := range []float64{0.5, 0.9, 0.99, 1} {
		sel, stats, err := m.SelectRecall(targets, corpus, target)
		if err != nil {
			t.Fatal(err)
		}
		if len(stats) != len(targets) {
			t.Fatalf("%d stats for %d targets", len(stats), len(targets))
		}
		taken := make([]map[int]bool, len(targets))
		for k := range targets {
			taken[k] = map[int]bool{}
		}
		for _, s := range sel {
			for _, p := range s.Predictions {
				k := slices.Index(targets, p.Func)
				taken[k][s.Index] = true
			}
		}
		for k, name := range targets {
			st := stats[k]
			probs := make([]float64, len(corpus))
			total, sum := 0.0, 0.0
			for i, in := range corpus {
				p, err := m.CoverProb(name, in.Paths)
				if err != nil {
					t.Fatal(err)
				}
				if p <= 0 || p >= 1 {
					t.Errorf("%s: CoverProb %v of a learned function is not smoothed", name, p)
				}
				probs[i] = p
				total += p
				if taken[k][i] {
					sum += p
				}
			}
			if st.Func != name || st.Selected != len(taken[k]) || math.Abs(st.Mass-total) > 1e-9 || math.Abs(st.Expected-sum/total) > 1e-9 {
				t.Errorf("recall %v, %s: stats %+v; taken %d, expected %v, mass %v", target, name, st, len(taken[k]), sum/total, total)
			}
			if st.Expected < target-1e-9 {
				t.Errorf("recall %v, %s: expected recall %v below the target", target, name, st.Expected)
			}
			// Taken by decreasing probability: nothing left out is more
			// probable than something taken, and nothing of probability 0
			// is taken; dropping the least probable input taken would
			// miss the target.
			least := 2.0
			for i := range taken[k] {
				least = min(least, probs[i])
			}
			for i, p := range probs {
				if !taken[k][i] && p > least {
					t.Errorf("recall %v, %s: input %d (%.2f) left out, %.2f taken", target, name, i, p, least)
				}
				if taken[k][i] && p == 0 {
					t.Errorf("recall %v, %s: input %d of probability 0 taken", target, name, i)
				}
			}
			if (sum-least)/total >= target {
				t.Errorf("recall %v, %s: %d inputs taken, one fewer reaches %v", target, name, st.Selected, (sum-least)/total)
			}
		}
	}
	// The actual recall on these inputs at 0.99 is at least that of Select.
	plain, err := m.Select(targets, corpus)
	if err != nil {
		t.Fatal(err)
	}
	high, _, err := m.SelectRecall(targets, corpus, 0.99)
	if err != nil {
		t.Fatal(err)
	}
	if len(high) < len(plain) {
		t.Errorf("recall 0.99 selects %d inputs, Select %d", len(high), len(plain))
	}
	for _, bad := range []float64{0, -0.5, 1.5, math.NaN()} {
		if _, _, err := m.SelectRecall(targets, corpus, bad); err == nil {
			t.Errorf("recall %v: no error", bad)
		}
	}
	if _, _, err := m.SelectRecall([]string{"calc.a"}, corpus, 0.9); !errors.Is(err, ErrUnknownFunc) {
		t.Errorf("unknown target: %v", err)
	}
	if sel, st, err := m.SelectRecall([]string{exprUnused}, corpus, 0.9); err != nil || len(sel) != 0 || st[0].Mass != 0 {
		t.Errorf("never covered: %d selected, %+v, %v", len(sel), st, err)
	}
}

// selectSetup returns the model of the simulated functions, 300 other
// expressions to select from and three target functions.
func selectSetup(t *testing.T) (*Model, []Input, []string) {
	t.Helper()
	m := exprModel(t)
	trees, samples := exprSamples(t, 300, 7)
	var corpus []Input
	for i, tr := range trees {
		corpus = append(corpus, Input{Name: tr.String(), Paths: samples[i].Paths, Size: tr.Len()})
	}
	return m, corpus, []string{"calc.distributive", "calc.divide", "calc.nestedParens"}
}
