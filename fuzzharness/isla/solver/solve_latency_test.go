package solver_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
	"github.com/seed72891827/kfuzz/internal/cputime"
)

// BenchmarkScriptsizeCLatency measures the CPU time of each of 30,000
// Scriptsize-C programs (def-use and no-redef) with the settings of kfuzz
// eval isla (seed 1, RestartEvery 1500, MaxStates 1000): the median, the
// 99.9th percentile and the slowest per output (the solving thread's CPU
// time where the system gives it), and the most states one output took,
// which, unlike the times, the seed fixes.
func BenchmarkScriptsizeCLatency(b *testing.B) {
	spec := compileAll(b, "scriptsizec", []string{"scriptsizec-def-use.isla", "scriptsizec-no-redef.isla"})
	const n = 30000
	var p50, p999, most, ratio float64
	mostStates := 0
	for range b.N {
		s, err := solver.New(spec, solver.Seed(1), solver.RestartEvery(1500), solver.MaxStates(1000))
		if err != nil {
			b.Fatal(err)
		}
		each := make([]time.Duration, 0, n)
		prev := 0
		for range n {
			timer := cputime.Start()
			_, err := s.Next(context.Background())
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
		us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
		p50, p999, most = p50+us(each[n/2]), p999+us(each[n*999/1000]), most+us(each[n-1])
		ratio += float64(each[n-1]) / float64(each[n/2])
	}
	k := float64(b.N)
	b.ReportMetric(p50/k, "p50-us")
	b.ReportMetric(p999/k, "p99.9-us")
	b.ReportMetric(most/k, "max-us")
	b.ReportMetric(ratio/k, "max/p50")
	b.ReportMetric(float64(mostStates), "max-states")
}
