package solver_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
	"github.com/seed72891827/kfuzz/internal/cputime"
)

// BenchmarkSolveXMLTail measures the CPU time of the solving thread per
// output of the full XML subject (balance, namespaces, no-redef) with the
// evaluation's settings (seed 1, RestartEvery 1500, MaxStates 1000): an
// op is one output; the metrics are the median, 99th percentile and
// maximum per output in microseconds, and max/p50. The slowest outputs
// solve states with large trees, whose atoms (one per pair of attributes
// of a list) make the per-state work grow with the tree. Run it with a
// fixed count, e.g. -benchtime=30000x, so that every run sees the same
// outputs.
func BenchmarkSolveXMLTail(b *testing.B) {
	spec := compileAll(b, "xml", []string{"xml-balance.isla", "xml-namespace.isla", "xml-no-redef.isla"})
	s, err := solver.New(spec, solver.Seed(1), solver.RestartEvery(1500), solver.MaxStates(1000))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var each []time.Duration
	for b.Loop() {
		tm := cputime.Start()
		_, err := s.Next(ctx)
		each = append(each, tm.Stop())
		if err != nil {
			b.Fatal(err)
		}
	}
	slices.Sort(each)
	p50, p99, top := each[len(each)/2], each[len(each)*99/100], each[len(each)-1]
	us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
	b.ReportMetric(us(p50), "p50-us")
	b.ReportMetric(us(p99), "p99-us")
	b.ReportMetric(us(top), "max-us")
	b.ReportMetric(float64(top)/float64(max(p50, 1)), "max/p50")
}
