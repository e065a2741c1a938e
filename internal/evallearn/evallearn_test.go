package evallearn

import (
	"context"
	"math"
	"os/exec"
	"slices"
	"testing"

	"github.com/seed72891827/kfuzz/internal/gomod"
	"github.com/seed72891827/kfuzz/internal/pipeline"
)

// calcSession opens the session of the calc example's fuzz test in a
// module of its own.
func calcSession(t *testing.T) *pipeline.Session {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the calc example's fuzz test (-short)")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not available")
	}
	ctx := context.Background()
	src, err := gomod.FindSource(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s, err := pipeline.OpenCalc(ctx, t.TempDir(), src)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestRunCalc(t *testing.T) {
	s := calcSession(t)
	ev, err := Run(context.Background(), s, Options{
		Learn:   pipeline.LearnOptions{N: 300, Test: 150, Seed: 1},
		Targets: 4,
		All:     true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(ev.Learned.Test); got != 150 {
		t.Errorf("%d test inputs, want 150", got)
	}
	// calc keeps no state between inputs: every function is stable.
	if len(ev.Unstable) != 0 {
		t.Errorf("unstable functions in calc: %v", ev.Unstable)
	}
	if len(ev.Gen) != len(ev.Eval.Funcs) || len(ev.Gen) != len(ev.Learned.Model.Funcs) {
		t.Fatalf("%d generations, %d evaluated, %d learned functions", len(ev.Gen), len(ev.Eval.Funcs), len(ev.Learned.Model.Funcs))
	}
	var dist *FuncGeneration
	for i := range ev.Gen {
		g := &ev.Gen[i]
		if g.Func != ev.Eval.Funcs[i].Func {
			t.Errorf("generation %d is of %s, the evaluation of %s", i, g.Func, ev.Eval.Funcs[i].Func)
		}
		if g.Targeted > 4 || g.TargetedReached > g.Targeted || g.RandomReached > g.Random ||
			(g.Targeted > 0 && g.Random != g.Targeted) || (g.Targeted == 0 && (g.Random != 4 || g.Error == "")) {
			t.Errorf("%s: %+v", g.Func, *g)
		}
		if g.Func == pipeline.DemoFunc {
			dist = g
		}
	}
	if dist == nil {
		t.Fatalf("%s was not evaluated", pipeline.DemoFunc)
	}
	if dist.Targeted == 0 || dist.TargetedReached < dist.Targeted/2 {
		t.Errorf("%s: %d of %d targeted inputs reached it", pipeline.DemoFunc, dist.TargetedReached, dist.Targeted)
		for _, r := range ev.Learned.Model.Func(pipeline.DemoFunc).Rules {
			t.Log(r.Format(ev.Learned.Model.Table))
		}
	}
	rt, rr := ev.Relative()
	at, ar := ev.Absolute()
	for _, x := range []float64{rt, rr, at, ar, ev.Eval.Micro.Accuracy(), ev.Eval.Micro.Precision(), ev.Eval.Micro.Recall()} {
		if !(x >= 0 && x <= 1) {
			t.Errorf("a fraction out of [0, 1]: relative %v %v, absolute %v %v, micro %+v", rt, rr, at, ar, ev.Eval.Micro)
		}
	}
	if rt <= rr {
		t.Errorf("median relative fraction: targeted %v, random %v", rt, rr)
	}

	// The default selection of a function is its prediction: its counts are
	// the confusion matrix's. The recall target selects a superset in
	// count, with an expected recall of at least the target.
	if len(ev.Selection) != len(ev.Eval.Funcs) || ev.SelectRecall != DefaultSelectRecall {
		t.Fatalf("%d selections of %d functions, recall target %v", len(ev.Selection), len(ev.Eval.Funcs), ev.SelectRecall)
	}
	raised := 0
	for i, sel := range ev.Selection {
		c := ev.Eval.Funcs[i].Confusion
		if sel.Func != ev.Eval.Funcs[i].Func || sel.Default.Selected != c.TP+c.FP || sel.Default.Hits != c.TP || sel.Default.Covering != c.TP+c.FN || sel.Target.Covering != sel.Default.Covering {
			t.Errorf("%s: default selection %+v, confusion %+v", sel.Func, sel.Default, c)
		}
		if sel.Target.Hits > sel.Target.Covering || sel.Target.Hits > sel.Target.Selected || sel.Expected < DefaultSelectRecall-1e-9 && sel.Expected != 0 {
			t.Errorf("%s: selection with the recall target %+v, expected recall %v", sel.Func, sel.Target, sel.Expected)
		}
		if sel.Target.Recall() > sel.Default.Recall() {
			raised++
		}
	}
	t.Logf("the recall target raised the recall of %d of %d functions", raised, len(ev.Selection))

	// Without All, the same seed gives the same generations, of the
	// functions that some but not all random training inputs covered.
	again, err := Run(context.Background(), s, Options{Learn: pipeline.LearnOptions{N: 300, Test: 150, Seed: 1}, Targets: 4})
	if err != nil {
		t.Fatal(err)
	}
	left := map[string]bool{}
	for _, name := range again.Untrainable {
		left[name] = true
	}
	var want []FuncGeneration
	for _, g := range ev.Gen {
		if !left[g.Func] {
			want = append(want, g)
		}
	}
	if !slices.Equal(again.Gen, want) {
		t.Errorf("without All: %d generations, want the %d of the functions not untrainable", len(again.Gen), len(want))
	}
	for name := range left {
		n, random := 0, 0
		for _, o := range again.Learned.Train {
			if o.Source == pipeline.SourceRandom {
				random++
				if _, ok := slices.BinarySearch(o.Funcs, name); ok {
					n++
				}
			}
		}
		if n != 0 && n != random {
			t.Errorf("%s is untrainable, but %d of %d random training inputs covered it", name, n, random)
		}
	}
	if _, err := Run(context.Background(), s, Options{Targets: -1}); err == nil {
		t.Error("negative targets: no error")
	}
}

func TestFractions(t *testing.T) {
	ev := &Result{Gen: []FuncGeneration{
		{Func: "a", Targeted: 10, TargetedReached: 10, Random: 10, RandomReached: 1},
		{Func: "b", Targeted: 5, TargetedReached: 4, Random: 5, RandomReached: 0},
		{Func: "c", Targeted: 0, Random: 10, RandomReached: 3, Error: "no rule"},
		{Func: "d", Targeted: 10, TargetedReached: 0, Random: 10, RandomReached: 5},
	}}
	// Targeted fractions 1, 0.8, 0, 0; random 0.1, 0, 0.3, 0.5.
	if rt, rr := ev.Relative(); rt != 0.4 || rr != 0.2 {
		t.Errorf("Relative = %v, %v; want 0.4, 0.2", rt, rr)
	}
	if at, ar := ev.Absolute(); at != 0.5 || ar != 0.75 {
		t.Errorf("Absolute = %v, %v; want 0.5, 0.75", at, ar)
	}
	var empty Result
	rt, rr := empty.Relative()
	at, ar := empty.Absolute()
	if !math.IsNaN(rt) || !math.IsNaN(rr) || !math.IsNaN(at) || !math.IsNaN(ar) {
		t.Errorf("no functions: %v %v %v %v, want NaN", rt, rr, at, ar)
	}
	if m := median([]float64{3, 1, 2}); m != 2 {
		t.Errorf("median of 3 values = %v", m)
	}
}

func TestSymmetricDifference(t *testing.T) {
	for _, c := range []struct{ a, b, want []string }{
		{nil, nil, nil},
		{[]string{"a", "c"}, []string{"a", "c"}, nil},
		{[]string{"a", "b", "d"}, []string{"b", "c"}, []string{"a", "c", "d"}},
		{nil, []string{"x"}, []string{"x"}},
		{[]string{"x", "y"}, nil, []string{"x", "y"}},
	} {
		if got := symmetricDifference(c.a, c.b); !slices.Equal(got, c.want) {
			t.Errorf("symmetricDifference(%q, %q) = %q, want %q", c.a, c.b, got, c.want)
		}
	}
}
