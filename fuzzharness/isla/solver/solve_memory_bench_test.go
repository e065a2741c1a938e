package solver_test

import (
	"context"
	"runtime"
	"slices"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
)

// BenchmarkSolveMemory measures long solves with the options of kfuzz
// eval isla (seed 1, RestartEvery(1500), MaxStates(1000)): besides the
// allocations and the process CPU time per output (cpu-us/op), the growth of the live heap (after a
// collection) from before New to after the last output, with the solver
// alive (live-MB), and the garbage collection cycles per 1,000 outputs
// (gc/1k-outputs). Every cycle scans the live heap while the solver
// works, which adds to the process CPU time of the outputs it overlaps.
// Run it with a fixed count of outputs, e.g. -benchtime=20000x: the
// live heap grows with the solutions returned.
func BenchmarkSolveMemory(b *testing.B) {
	for _, name := range []string{"rest-title", "xml-full", "scriptsizec", "csv-columns"} {
		i := slices.IndexFunc(solveSubjects, func(s solveSubject) bool { return s.name == name })
		sub := solveSubjects[i]
		b.Run(name, func(b *testing.B) {
			spec := compileAll(b, sub.grammar, sub.files)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			s, err := solver.New(spec, solver.Seed(1), solver.RestartEvery(1500), solver.MaxStates(1000))
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			cpu := processCPU()
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				if _, err := s.Next(ctx); err != nil {
					b.Fatal(err)
				}
				n++
			}
			used := processCPU() - cpu
			runtime.ReadMemStats(&after)
			cycles := after.NumGC - before.NumGC
			runtime.GC()
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(used.Microseconds())/float64(n), "cpu-us/op")
			b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/1e6, "live-MB")
			b.ReportMetric(1000*float64(cycles)/float64(n), "gc/1k-outputs")
			runtime.KeepAlive(s)
		})
	}
}
