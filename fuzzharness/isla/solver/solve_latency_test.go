package solver_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
	"github.com/seed72891827/kfuzz/internal/cputime"
)

// timeOutputs returns, sorted, the CPU time of each of the next n outputs
// of s (the solving thread's where the system gives it), and the most
// states one output took, which, unlike the times, the seed fixes.
func timeOutputs(b *testing.B, s *solver.Solver, n int) (each []time.Duration, mostStates int) {
	ctx := context.Background()
	each = make([]time.Duration, 0, n)
	prev := s.Stats().States
	for range n {
		timer := cputime.Start()
		_, err := s.Next(ctx)
		d := timer.Stop()
		timer.Release()
		if err != nil {
			b.Fatal(err)
		}
		each = append(each, d)
		st := s.Stats().States
		mostStates = max(mostStates, st-prev)
		prev = st
	}
	slices.Sort(each)
	return each, mostStates
}

// micros returns d in microseconds.
func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// evalSolver returns a solver for spec with the settings of kfuzz eval
// isla: seed 1, RestartEvery 1500, MaxStates 1000.
func evalSolver(b *testing.B, spec string, files []string) *solver.Solver {
	s, err := solver.New(compileAll(b, spec, files), solver.Seed(1), solver.RestartEvery(1500), solver.MaxStates(1000))
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkScriptsizeCLatency measures the CPU time of each of 30,000
// Scriptsize-C programs (def-use and no-redef) with the settings of kfuzz
// eval isla: the median, the 99.9th percentile and the slowest per output,
// and the most states one output took.
func BenchmarkScriptsizeCLatency(b *testing.B) {
	const n = 30000
	var p50, p999, most, ratio float64
	mostStates := 0
	for range b.N {
		s := evalSolver(b, "scriptsizec", []string{"scriptsizec-def-use.isla", "scriptsizec-no-redef.isla"})
		each, states := timeOutputs(b, s, n)
		mostStates = max(mostStates, states)
		p50, p999, most = p50+micros(each[n/2]), p999+micros(each[n*999/1000]), most+micros(each[n-1])
		ratio += float64(each[n-1]) / float64(each[n/2])
	}
	k := float64(b.N)
	b.ReportMetric(p50/k, "p50-us")
	b.ReportMetric(p999/k, "p99.9-us")
	b.ReportMetric(most/k, "max-us")
	b.ReportMetric(ratio/k, "max/p50")
	b.ReportMetric(float64(mostStates), "max-states")
}

// BenchmarkSolveXMLTail measures the CPU time per output of the full XML
// subject (balance, namespaces, no-redef) with the evaluation's settings:
// an op is one output; the metrics are the median, 99th and 99.9th
// percentiles and maximum per output in microseconds, and max/p50. The slowest outputs
// solve states with large trees, whose atoms (one per pair of attributes
// of a list) make the per-state work grow with the tree. Run it with a
// fixed count, e.g. -benchtime=30000x, so that every run sees the same
// outputs.
func BenchmarkSolveXMLTail(b *testing.B) {
	s := evalSolver(b, "xml", []string{"xml-balance.isla", "xml-namespace.isla", "xml-no-redef.isla"})
	b.ResetTimer()
	each, _ := timeOutputs(b, s, b.N)
	p50, p99, p999, top := each[len(each)/2], each[len(each)*99/100], each[len(each)*999/1000], each[len(each)-1]
	b.ReportMetric(micros(p50), "p50-us")
	b.ReportMetric(micros(p99), "p99-us")
	b.ReportMetric(micros(p999), "p99.9-us")
	b.ReportMetric(micros(top), "max-us")
	b.ReportMetric(float64(top)/float64(max(p50, 1)), "max/p50")
}
