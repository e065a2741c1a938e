package pipeline

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/internal/gomod"
	"github.com/seed72891827/kfuzz/internal/measure"
	"github.com/seed72891827/kfuzz/learn"
)

// The calc fixture: the calc example in a temporary module, built for
// measurement once, and a model learned from it once (-n 300), shared by the
// tests of this file.
var calc struct {
	once    sync.Once
	dir     string
	session *Session
	learned *Learned
	err     error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if calc.session != nil {
		calc.session.Close()
	}
	if calc.dir != "" {
		os.RemoveAll(calc.dir)
	}
	os.Exit(code)
}

// calcFixture returns the shared session and model.
func calcFixture(t *testing.T) (*Session, *Learned) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the calc example's fuzz test (-short)")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not available")
	}
	calc.once.Do(func() {
		ctx := context.Background()
		src, err := gomod.FindSource(ctx)
		if err != nil {
			calc.err = err
			return
		}
		if calc.dir, calc.err = os.MkdirTemp("", "kfuzz-pipeline-test-"); calc.err != nil {
			return
		}
		if calc.session, calc.err = OpenCalc(ctx, calc.dir, src); calc.err != nil {
			return
		}
		calc.learned, calc.err = calc.session.Learn(ctx, LearnOptions{N: 300, Seed: 1})
	})
	if calc.err != nil {
		t.Fatal(calc.err)
	}
	return calc.session, calc.learned
}

// isParenSumProduct reports whether a pattern describes a parenthesised sum
// or difference as a factor of a product.
func isParenSumProduct(pattern string) bool {
	open := strings.Index(pattern, `"("`)
	return open >= 0 && strings.Contains(pattern, `"*"`) &&
		(strings.Contains(pattern[open:], `"+"`) || strings.Contains(pattern[open:], `"-"`)) &&
		strings.Contains(pattern[open:], `")"`)
}

// TestLearnDistributive learns from the calc example and checks that a rule
// of the distributive law requires a parenthesised sum in a product, and the
// figures around it.
func TestLearnDistributive(t *testing.T) {
	_, l := calcFixture(t)
	fn := l.Model.Func(DemoFunc)
	if fn == nil {
		t.Fatalf("no tree for %s; functions %v", DemoFunc, l.Model.Names())
	}
	found := ""
	for _, r := range fn.Rules {
		for _, id := range r.Required {
			p, err := learn.NewPattern(l.Model.Table.Graph, l.Model.Table.Path(id))
			if err == nil && isParenSumProduct(p.String()) {
				found = r.Format(l.Model.Table)
			}
		}
	}
	if found == "" {
		for _, r := range fn.Rules {
			t.Log(r.Format(l.Model.Table))
		}
		t.Fatalf("no rule of %s requires a parenthesised sum in a product", DemoFunc)
	}
	t.Logf("rule:\n%s", found)

	if acc := l.Eval.Micro.Accuracy(); acc < 0.9 {
		t.Errorf("micro accuracy %.3f on the test set, want >= 0.9", acc)
	}
	if len(l.Test) != 300 || len(l.Skipped) != 0 {
		t.Errorf("%d test inputs and %d skipped, want 300 and 0", len(l.Test), len(l.Skipped))
	}
	sources := map[string]int{}
	for _, o := range l.Train {
		sources[o.Source]++
	}
	entries, err := os.ReadDir(corpus.TestdataDir(calc.dir, "FuzzCalc"))
	if err != nil {
		t.Fatal(err)
	}
	if sources[SourceRandom] != 300 || sources[SourceCorpus] != len(entries) || sources[SourceSeed] == 0 || sources[SourceRefine] == 0 {
		t.Errorf("training inputs by source: %v", sources)
	}
	if len(l.Refinements) == 0 || !slices.Contains(l.Refinements[0].Funcs, DemoFunc) {
		t.Errorf("refinements %+v do not start with %s", l.Refinements, DemoFunc)
	}
	// The harness's 2-path seeds cover every 1- and 2-path.
	for _, pc := range l.PathCoverage[:2] {
		if pc.Covered != pc.Total {
			t.Errorf("%d-path coverage %d/%d", pc.L, pc.Covered, pc.Total)
		}
	}
	if !slices.Contains(l.Model.Always, CalcModule+".Parse") || !slices.Contains(l.Model.Never, CalcModule+".Eval") {
		t.Errorf("always %v, never %v", l.Model.Always, l.Model.Never)
	}
}

// TestSeedsReachDistributive generates seeds for the distributive law,
// checks that exactly the number asked for reached it, and that at least
// 90% of the generated inputs really reach it (the
// CODEINE example's goal), writes those that reached it into a corpus
// directory and measures the written entries again, as go test would run
// them.
func TestSeedsReachDistributive(t *testing.T) {
	s, l := calcFixture(t)
	ctx := context.Background()
	seeds, err := s.Seeds(ctx, l.Model, DemoFunc, SeedOptions{N: 40, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	reached := countReached(seeds)
	for _, sd := range seeds {
		if sd.Rule == nil {
			t.Errorf("seed %q satisfies no rule of %s", sd.Text, DemoFunc)
		}
	}
	if reached != 40 || 10*reached < 9*len(seeds) {
		t.Fatalf("%d of %d generated inputs reached %s, want 40 and at least 90%%", reached, len(seeds), DemoFunc)
	}
	t.Logf("%d of %d generated inputs reached %s", reached, len(seeds), DemoFunc)
	dir := filepath.Join(t.TempDir(), "FuzzCalc")
	if err := WriteSeeds(dir, seeds); err != nil {
		t.Fatal(err)
	}
	ins, err := measure.CorpusInputs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ins) != reached {
		t.Fatalf("%d entries written for %d seeds that reached the function", len(ins), reached)
	}
	results, err := s.Measure(ctx, ins)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if !r.Funcs.HasName(DemoFunc) {
			t.Errorf("entry %s (%q) does not reach %s", r.ID, r.Input, DemoFunc)
		}
	}
	// Writing again adds nothing.
	if err := WriteSeeds(dir, seeds); err != nil {
		t.Fatal(err)
	}
	for _, sd := range seeds {
		if sd.Added {
			t.Errorf("%s was written again", sd.Name)
		}
	}
}

// TestSeedsExactlyN asks for 10 inputs that reach a function whose rules
// are imprecise (about 7 in 10 generated inputs reach it), so that it takes
// a second batch: exactly 10 are returned as reaching it, the last input
// returned being the 10th.
func TestSeedsExactlyN(t *testing.T) {
	s, l := calcFixture(t)
	fn := DemoFunc + ".func1"
	seeds, err := s.Seeds(context.Background(), l.Model, fn, SeedOptions{N: 10, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	reached := countReached(seeds)
	if reached != 10 || len(seeds) <= 10 || !seeds[len(seeds)-1].Reached {
		t.Errorf("%d of %d generated inputs reached %s (the last: %v), want exactly 10 and a second batch",
			reached, len(seeds), fn, seeds[len(seeds)-1].Reached)
	}
}

// countReached returns how many of the seeds reached their function.
func countReached(seeds []Seed) int {
	n := 0
	for _, sd := range seeds {
		if sd.Reached {
			n++
		}
	}
	return n
}

func TestModelFileRoundTrip(t *testing.T) {
	s, l := calcFixture(t)
	mf := &ModelFile{Target: s.Target(), ImportPath: s.ImportPath(), Dir: s.PackageDir(), Desc: s.Desc, Model: l.Model}
	data, err := mf.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, h, err := ReadModelFile("calc.model.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if back.Target != "FuzzCalc" || back.ImportPath != CalcModule || back.Desc.Grammar != s.Desc.Grammar {
		t.Errorf("read back %+v", back)
	}
	for _, text := range []string{"x*(y+1)", "++x/3", "(1-z)%x"} {
		a := Predict(l.Model, s.Harness, []TextInput{{Name: text, Text: text}})[0]
		b := Predict(back.Model, h, []TextInput{{Name: text, Text: text}})[0]
		if a.Err != nil || b.Err != nil || len(a.Predictions) != len(b.Predictions) {
			t.Fatalf("%s: predictions %v (%v) and after the round trip %v (%v)", text, a.Predictions, a.Err, b.Predictions, b.Err)
		}
		for i := range a.Predictions {
			if a.Predictions[i].Func != b.Predictions[i].Func || a.Predictions[i].Prob != b.Predictions[i].Prob {
				t.Errorf("%s: prediction %d is %+v, after the round trip %+v", text, i, a.Predictions[i], b.Predictions[i])
			}
		}
	}
	for _, bad := range []struct{ data, want string }{
		{`{`, "not a kfuzz model file"},
		{`{"format":"other"}`, `format "other"`},
		{`{"format":"kfuzz-model","version":7}`, "version 7"},
		{`{"format":"kfuzz-model","version":1}`, "lacks its harness"},
	} {
		if _, _, err := ReadModelFile("m.json", []byte(bad.data)); err == nil || !strings.Contains(err.Error(), bad.want) || !strings.HasPrefix(err.Error(), "m.json: ") {
			t.Errorf("ReadModelFile(%s) = %v, want an error with %q", bad.data, err, bad.want)
		}
	}
}

func TestPredictAndSelect(t *testing.T) {
	s, l := calcFixture(t)
	ins := []TextInput{{"product", "x*(y+z)"}, {"quotient", "x/(y+1)"}, {"plain", "x"}, {"broken", "x*"}}
	preds := Predict(l.Model, s.Harness, ins)
	has := func(p InputPrediction, fn string) bool {
		return slices.ContainsFunc(p.Predictions, func(pr learn.Prediction) bool { return pr.Func == fn })
	}
	if !has(preds[0], DemoFunc) || has(preds[2], DemoFunc) {
		t.Errorf("predictions: %+v", preds[:3])
	}
	if !has(preds[1], CalcModule+".divide") {
		t.Errorf("x/(y+1) is not predicted to divide: %+v", preds[1].Predictions)
	}
	var se interface{ Error() string }
	if se = preds[3].Err; se == nil {
		t.Errorf("x* predicted without an error")
	}
	sel, skipped, err := Select(l.Model, s.Harness, []string{"distribute", "divide"}, ins)
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || skipped[0].Name != "broken" {
		t.Errorf("skipped %+v", skipped)
	}
	if len(sel) == 0 || sel[0].Name != "product" && sel[0].Name != "quotient" || slices.ContainsFunc(sel, func(s Selected) bool { return s.Name == "plain" }) {
		t.Errorf("selected %+v", sel)
	}
	if _, _, err := Select(l.Model, s.Harness, []string{"nosuchfunction"}, ins); !errors.Is(err, learn.ErrUnknownFunc) {
		t.Errorf("Select of an unknown function: %v", err)
	}
}

func TestResolveFunc(t *testing.T) {
	_, l := calcFixture(t)
	for _, tc := range []struct{ name, want, err string }{
		{DemoFunc, DemoFunc, ""},
		{"distribute", DemoFunc, ""},
		{"calc.(*simplifier).distribute", DemoFunc, ""},
		{"(*simplifier).distribute", DemoFunc, ""},
		{"String", "", "ambiguous"},
		{"istribute", "", "unknown function istribute (did you mean"},
		{"zzz", "", "unknown function zzz"},
	} {
		got, err := ResolveFunc(l.Model, tc.name)
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("ResolveFunc(%q) = %q, %v; want %q and an error with %q", tc.name, got, err, tc.want, tc.err)
		}
	}
}

func TestWriteCalcModuleRefusesNonEmpty(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x"), nil, 0o666)
	if err := WriteCalcModule(context.Background(), dir, gomod.Source{Dir: "."}); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("WriteCalcModule into a non-empty directory: %v", err)
	}
}

func TestExamplesReadableFirst(t *testing.T) {
	obs := []Observation{
		{Text: "\U0001f600\U000e0001", Funcs: []string{"f"}},
		{Text: "a\x00", Funcs: []string{"f"}},
		{Text: "abcdef", Funcs: []string{"f"}},
		{Text: "xy", Funcs: []string{"f"}},
		{Text: "z", Funcs: []string{"g"}},
		{Text: "xy", Funcs: []string{"f"}},
	}
	var got []string
	for _, o := range Examples(nil, obs, "f", nil, 4) {
		got = append(got, o.Text)
	}
	want := []string{"xy", "abcdef", "a\x00", "\U0001f600\U000e0001"}
	if !slices.Equal(got, want) {
		t.Errorf("Examples: %q, want %q", got, want)
	}
}

// TestLearnAllFeatures learns the calc example with root and count features
// too: the observations have shapes, the model's path sets are extended by
// its extra features everywhere it predicts (Predict, SelectRecall, the
// seeds' rules), and a model file keeps them.
func TestLearnAllFeatures(t *testing.T) {
	s, _ := calcFixture(t)
	l, err := s.Learn(context.Background(), LearnOptions{N: 200, Seed: 2, Refine: -1, Tree: learn.Config{Features: learn.AllFeatures}})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range l.Train {
		if o.Shape == nil {
			t.Fatalf("training input %s has no shape", o.ID)
		}
	}
	if len(l.Model.Extra) == 0 {
		t.Fatal("no root or count feature in the model")
	}
	if l.Eval.Micro.Accuracy() < 0.9 {
		t.Errorf("accuracy %v with all features", l.Eval.Micro.Accuracy())
	}
	ins := []TextInput{{"product", "x*(y+z)"}, {"plain", "x"}}
	for _, p := range Predict(l.Model, s.Harness, ins) {
		if p.Err != nil {
			t.Errorf("%s: %v", p.Name, p.Err)
		}
	}
	sel, stats, skipped, err := SelectRecall(l.Model, s.Harness, []string{"distribute"}, ins, 0.99)
	if err != nil || len(skipped) != 0 || len(stats) != 1 || len(sel) == 0 || sel[0].Name != "product" {
		t.Errorf("SelectRecall: %+v, %+v, skipped %v, %v", sel, stats, skipped, err)
	}
	if seeds, err := s.Seeds(context.Background(), l.Model, DemoFunc, SeedOptions{N: 3, Seed: 1}); err != nil || len(seeds) == 0 {
		t.Errorf("seeds: %d, %v", len(seeds), err)
	}
}
