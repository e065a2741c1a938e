package solver_test

import (
	"context"
	"hash/fnv"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
)

// nonterminalPaths returns the k-path table (k up to 4) of a built-in
// grammar compiled with one node per nonterminal, as ISLa counts k-paths,
// and a parser for it.
func nonterminalPaths(t testing.TB, name string) (*grammar.PathTable, *grammar.Parser) {
	t.Helper()
	g, err := grammar.Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	gr, err := grammar.Compile(g, grammar.WithIdentity(grammar.ByNonterminal))
	if err != nil {
		t.Fatal(err)
	}
	pt, err := gr.PathTable(4)
	if err != nil {
		t.Fatal(err)
	}
	p, err := grammar.NewParser(gr)
	if err != nil {
		t.Fatal(err)
	}
	return pt, p
}

// pathCoverage returns the accumulated 3- and 4-path coverage (in percent,
// per nonterminal) of the inputs.
func pathCoverage(t testing.TB, gname string, inputs [][]byte) (cov3, cov4 float64) {
	t.Helper()
	pt, p := nonterminalPaths(t, gname)
	set := pt.NewPathSet()
	for _, in := range inputs {
		f, err := p.Parse(in)
		if err != nil {
			t.Fatalf("solution %q does not parse: %v", in, err)
		}
		pt.AddPaths(set, f.Tree())
	}
	pct := func(k int) float64 {
		lo, hi := pt.Range(k)
		return 100 * float64(set.CountRange(lo, hi)) / float64(hi-lo)
	}
	return pct(3), pct(4)
}

// solverOptions returns the options of the measurements: seed 1, and with
// KFUZZ_RESTART=n set, RestartEvery(n) with MaxStates(KFUZZ_MAXSTATES,
// default 3000).
func solverOptions(seed uint64) []solver.Option {
	opts := []solver.Option{solver.Seed(seed)}
	if n, _ := strconv.Atoi(os.Getenv("KFUZZ_RESTART")); n > 0 {
		states := 3000
		if m, _ := strconv.Atoi(os.Getenv("KFUZZ_MAXSTATES")); m > 0 {
			states = m
		}
		opts = append(opts, solver.RestartEvery(n), solver.MaxStates(states))
	}
	return opts
}

// BenchmarkSolveSubjects measures, per subject of the ISLa evaluation, the
// valid inputs one solver produces per second (of wall and of CPU time) and
// the accumulated 3- and 4-path coverage of all of them (per nonterminal,
// as ISLa's Table 2 counts). Run it with a fixed -benchtime (e.g. 10s):
// the coverage grows with the number of inputs. KFUZZ_RESTART=n sets
// RestartEvery(n).
func BenchmarkSolveSubjects(b *testing.B) {
	for _, sub := range solveSubjects {
		b.Run(sub.name, func(b *testing.B) {
			spec := compileAll(b, sub.grammar, sub.files)
			s, err := solver.New(spec, solverOptions(1)...)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			var inputs [][]byte
			cpu := processCPU()
			for b.Loop() {
				t, err := s.Next(ctx)
				if err != nil {
					b.Fatal(err)
				}
				inputs = append(inputs, t.Bytes())
			}
			reportRates(b, cpu)
			cov3, cov4 := pathCoverage(b, sub.grammar, inputs)
			b.ReportMetric(cov3, "%3-paths")
			b.ReportMetric(cov4, "%4-paths")
		})
	}
}

// TestSolveDiversity prints, for each subject, the accumulated 3- and
// 4-path coverage of the first KFUZZ_DIVERSITY_N solutions of seed
// KFUZZ_DIVERSITY_SEED (default 1) and the CPU time they took
// (KFUZZ_RESTART=n: with RestartEvery(n)). It runs only when that variable is set: it is a
// measurement, not a check.
func TestSolveDiversity(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("KFUZZ_DIVERSITY_N"))
	if n <= 0 {
		t.Skip("set KFUZZ_DIVERSITY_N to the number of solutions")
	}
	seed := uint64(1)
	if v, err := strconv.ParseUint(os.Getenv("KFUZZ_DIVERSITY_SEED"), 10, 64); err == nil {
		seed = v
	}
	for _, sub := range solveSubjects {
		t.Run(sub.name, func(t *testing.T) {
			spec := compileAll(t, sub.grammar, sub.files)
			s, err := solver.New(spec, solverOptions(seed)...)
			if err != nil {
				t.Fatal(err)
			}
			cpu := processCPU()
			start := time.Now()
			trees, err := s.Solve(context.Background(), n)
			if err != nil {
				t.Fatalf("%s: after %d solutions: %v", sub.name, len(trees), err)
			}
			used := processCPU() - cpu
			var inputs [][]byte
			h := fnv.New64a()
			for _, tr := range trees {
				inputs = append(inputs, tr.Bytes())
				h.Write(tr.Bytes())
				h.Write([]byte{0})
			}
			cov3, cov4 := pathCoverage(t, sub.grammar, inputs)
			// The grammar's own generator, which the solver uses to close
			// unconstrained leaves, as the "(none)" rows of Table 2.
			gen := grammar.NewGenerator(loadGraph(t, sub.grammar), 1)
			var free [][]byte
			for range n {
				tr, err := gen.Generate()
				if err != nil {
					t.Fatal(err)
				}
				free = append(free, tr.Bytes())
			}
			free3, free4 := pathCoverage(t, sub.grammar, free)
			t.Logf("%-12s %d grammar inputs: 3-paths %.1f%%, 4-paths %.1f%%", sub.grammar, n, free3, free4)
			t.Logf("%-12s %d solutions in %v (cpu %v, %.0f/cpu-s): 3-paths %.1f%%, 4-paths %.1f%%; hash %016x; %+v",
				sub.name, n, time.Since(start).Round(time.Millisecond), used.Round(time.Millisecond),
				float64(n)/used.Seconds(), cov3, cov4, h.Sum64(), s.Stats())
		})
	}
}
