package solver_test

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/tarpred"
)

// fastSubject is a constraint subject of the harness evaluation, with the
// share of the fuzzer's invalid inputs that the fast repair steps alone
// must repair.
type fastSubject struct {
	name, grammar string
	files         []string
	opts          []isla.Option
	minFast       float64
}

func fastSubjects() []fastSubject {
	return []fastSubject{
		{"scriptsizec", "scriptsizec", []string{"scriptsizec-def-use.isla", "scriptsizec-no-redef.isla"}, nil, 0.9},
		{"xml-balance", "xml", []string{"xml-balance.isla"}, nil, 0.95},
		{"csv-columns", "csv", []string{"csv-columns.isla"}, nil, 0.8},
		{"tar", "tar", nil, []isla.Option{tarpred.Predicates()}, 0.8},
	}
}

// fastRepairer compiles the subject's constraint and makes its Repairer.
func fastRepairer(t testing.TB, sub fastSubject) (*isla.Spec, *solver.Repairer) {
	t.Helper()
	spec := compileFast(t, sub)
	r, err := solver.NewRepairer(spec)
	if err != nil {
		t.Fatal(err)
	}
	return spec, r
}

// compileFast compiles the constraint of a subject: its files, or without
// files tarpred's constraint.
func compileFast(t testing.TB, sub fastSubject) *isla.Spec {
	t.Helper()
	if len(sub.files) > 0 {
		return compileAll(t, sub.grammar, sub.files, sub.opts...)
	}
	c, err := isla.Parse("ustar.isla", []byte(tarpred.Constraint))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := isla.Compile(c, loadGraph(t, sub.grammar), sub.opts...)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// fuzzerTrees decodes n random byte strings of 32 to 511 bytes with the
// harness's codec, as the trees the fuzzer's inputs give, and returns
// those that violate the constraint.
func fuzzerTrees(t testing.TB, gr *grammar.Graph, r *solver.Repairer, n int) []*grammar.Tree {
	t.Helper()
	return fuzzerTreesOf(t, gr, r, n, 32, 512)
}

// fuzzerTreesOf is fuzzerTrees with byte strings of lo to hi-1 bytes and
// a codec with options opts.
func fuzzerTreesOf(t testing.TB, gr *grammar.Graph, r *solver.Repairer, n, lo, hi int, opts ...fuzzharness.Option) []*grammar.Tree {
	t.Helper()
	var out []*grammar.Tree
	for _, tr := range decodedTrees(t, gr, n, lo, hi, opts...) {
		if !r.Valid(tr) {
			out = append(out, tr)
		}
	}
	return out
}

// decodedTrees decodes n random byte strings of lo to hi-1 bytes with the
// harness's codec with options opts.
func decodedTrees(t testing.TB, gr *grammar.Graph, n, lo, hi int, opts ...fuzzharness.Option) []*grammar.Tree {
	t.Helper()
	c, err := fuzzharness.NewCodec(gr, opts...)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	out := make([]*grammar.Tree, 0, n)
	for range n {
		data := make([]byte, lo+rng.IntN(hi-lo))
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		out = append(out, c.Decode(data).Tree())
	}
	return out
}

// TestFastRepair repairs the fuzzer's invalid inputs of each constraint
// subject with the fast steps alone: every tree they call valid satisfies
// the constraint, the input tree is not modified, and they repair at least
// the subject's share.
func TestFastRepair(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 100
	}
	for _, sub := range fastSubjects() {
		t.Run(sub.name, func(t *testing.T) {
			spec, r := fastRepairer(t, sub)
			trees := fuzzerTrees(t, spec.Graph(), r, n)
			fixed := 0
			var times []time.Duration
			for i, in := range trees {
				before := in.String()
				start := time.Now()
				out, ok := r.FastRepair(in, uint64(i), time.Time{})
				times = append(times, time.Since(start))
				if in.String() != before {
					t.Fatalf("FastRepair modified its input %q", before)
				}
				if !ok {
					continue
				}
				fixed++
				if res := spec.EvalTree(out); !res.Valid {
					t.Fatalf("FastRepair(%q) = %q, invalid:\n%s", before, out, res)
				}
				if n := sharedNodes(in, out); n > 0 {
					t.Fatalf("FastRepair(%q) = %q has %d nodes in two places", before, out, n)
				}
			}
			slices.Sort(times)
			t.Logf("%d of %d invalid inputs repaired by the fast steps; time p50 %v, p99 %v, max %v", fixed, len(trees),
				times[len(times)/2], times[len(times)*99/100], times[len(times)-1])
			if float64(fixed) < sub.minFast*float64(len(trees)) {
				t.Errorf("the fast steps repaired %d of %d invalid inputs, want at least %.0f%%", fixed, len(trees), 100*sub.minFast)
			}
		})
	}
}

// TestFastEval checks that the fast repair's evaluation, which looks the
// instances of def-use, no-redef and the like up by text, decides every
// conjunct of each subject's constraint as the evaluator does, on the
// fuzzer's trees (valid and invalid, of the harness's codec and of one
// with a larger MaxSize) and on the repairs of the small ones.
func TestFastEval(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 40
	}
	for _, sub := range fastSubjects() {
		t.Run(sub.name, func(t *testing.T) {
			spec, r := fastRepairer(t, sub)
			// The trees of the harness's codec first, then larger ones.
			trees := decodedTrees(t, spec.Graph(), n, 32, 1000)
			small := len(trees)
			trees = append(trees, decodedTrees(t, spec.Graph(), n, 1000, 4000, fuzzharness.WithMaxSize(3000))...)
			falses := 0
			// The repairs of the small ones (the solver, which the larger
			// ones often need, takes long on them).
			for i, tr := range trees[:small] {
				if out, ok := r.Repair(tr, uint64(i)); ok && out != tr {
					trees = append(trees, out)
				}
			}
			for _, tr := range trees {
				fast, full := r.FastEval(tr)
				if !slices.Equal(fast, full) {
					t.Fatalf("on %q the fast evaluation gives %v, the evaluator %v", tr, fast, full)
				}
				if slices.Contains(full, false) {
					falses++
				}
			}
			if falses == 0 || falses == len(trees) {
				t.Errorf("%d of %d trees violate a conjunct: want both kinds", falses, len(trees))
			}
		})
	}
}

// BenchmarkRepairFuzzer measures the latency of Repair (fast steps, then
// the solver, without a deadline) on the fuzzer's invalid inputs of each
// constraint subject, one input after the other, after a first round that
// fills the caches; ns/op is the mean wall time of one repair, cpu-ns/op
// its CPU time (the process's, GC included: on a loaded machine the
// steadier figure).
func BenchmarkRepairFuzzer(b *testing.B) {
	for _, sub := range fastSubjects() {
		b.Run(sub.name, func(b *testing.B) {
			spec, r := fastRepairer(b, sub)
			benchRepair(b, r, fuzzerTrees(b, spec.Graph(), r, 200))
		})
	}
}

// BenchmarkRepairFuzzerLarge is BenchmarkRepairFuzzer on Scriptsize-C
// programs of about 1.4 KB (1,000 to 4,000 random bytes decoded with a
// MaxSize of 3,000 nodes; the fuzzer's own, bounded by 500 nodes, are
// about 220 bytes): the programs a long run grows, with their
// declarations and uses, on which the repair's work that grows with the
// program shows.
func BenchmarkRepairFuzzerLarge(b *testing.B) {
	sub := fastSubjects()[0]
	spec, r := fastRepairer(b, sub)
	benchRepair(b, r, fuzzerTreesOf(b, spec.Graph(), r, 100, 1000, 4000, fuzzharness.WithMaxSize(3000)))
}

// benchRepair repairs trees one after the other, after a first round that
// fills the caches, and reports the CPU time and the failures per repair.
func benchRepair(b *testing.B, r *solver.Repairer, trees []*grammar.Tree) {
	// Warm the caches (parsers, regular expression texts) as a fuzzing
	// worker's first inputs do, with other seeds than the loop's, which
	// measures repairs not made before.
	for i, in := range trees {
		r.Repair(in, ^uint64(i))
	}
	b.ReportAllocs()
	failed := 0
	cpu0 := processCPU()
	for i := 0; b.Loop(); i++ {
		if _, ok := r.RepairBy(trees[i%len(trees)], uint64(i), time.Time{}); !ok {
			failed++
		}
	}
	if cpu := processCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
	b.ReportMetric(float64(failed)/float64(b.N), "failed/op")
}

// sharedNodes counts the nodes that occur more than once in out: a
// repair may share whole subtrees with its input in, but no node may stand
// in two places of its result.
func sharedNodes(in, out *grammar.Tree) int {
	seen := map[*grammar.Tree]bool{}
	n := 0
	out.Walk(func(t *grammar.Tree) bool {
		if seen[t] {
			n++
		}
		seen[t] = true
		return true
	})
	return n
}

// TestRepairWithinBudget checks RepairWithin on the fuzzer's invalid
// inputs of each subject: without a budget it gives what Repair of
// another Repairer gives for the same seed; with a budget of a nanosecond
// of CPU time it stops and repairs none, unless it has made and
// remembered the repair before (then it returns it: trees of up to
// RepairCacheMaxNodes are remembered); and a tree that holds already
// is returned as it is.
func TestRepairWithinBudget(t *testing.T) {
	for _, sub := range fastSubjects() {
		t.Run(sub.name, func(t *testing.T) {
			spec, r := fastRepairer(t, sub)
			_, other := fastRepairer(t, sub)
			trees := fuzzerTrees(t, spec.Graph(), r, 20)
			for i, in := range trees {
				if out, ok := r.RepairWithin(in, uint64(i), time.Nanosecond); ok {
					t.Fatalf("RepairWithin(%q, 1ns) = %q, true; want it stopped", in, out)
				}
				want, wok := other.Repair(in, uint64(i))
				got, ok := r.RepairWithin(in, uint64(i), 0)
				if ok != wok || ok && got.String() != want.String() {
					t.Fatalf("RepairWithin(%q, no budget) = %q, %v; Repair gives %q, %v", in, got, ok, want, wok)
				}
				// A repaired tree small enough to be remembered is; a
				// remembered repair comes back at once.
				if small := in.Size() <= solver.RepairCacheMaxNodes; ok && r.Remembered(in, uint64(i)) != small {
					t.Fatalf("Remembered(%q) = %v after its repair, a tree of %d nodes", in, !small, in.Size())
				}
				again, aok := r.RepairWithin(in, uint64(i), time.Nanosecond)
				if r.Remembered(in, uint64(i)) && (aok != ok || again != got) {
					t.Fatalf("RepairWithin(%q, 1ns) after the same repair = %q, %v; want %q, %v, remembered", in, again, aok, got, ok)
				}
				if ok {
					if out, ok := r.RepairWithin(got, uint64(i), time.Nanosecond); !ok || out != got {
						t.Fatalf("RepairWithin of a valid tree %q = %q, %v; want the tree itself", got, out, ok)
					}
				}
			}
		})
	}
}
