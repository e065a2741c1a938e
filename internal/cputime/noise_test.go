package cputime

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// noiseSink keeps fixedWork's result alive.
var noiseSink uint64

// fixedWork does n steps of a linear congruential generator: the same
// instructions, with no memory traffic, however often it runs.
func fixedWork(n int) {
	x := uint64(1)
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
	}
	noiseSink += x
}

// BenchmarkFixedWork measures the noise of the thread clock on this
// machine: each op times one run of the same computation (20,000 or
// 200,000 steps, about 20 and 200 µs), and the metrics are the median,
// the 99.9th percentile and the maximum of those times, and max/p50. Any
// spread is the machine's (interrupts, other processes' use of the caches,
// a hypervisor's preemption), not the work's; it bounds how precisely one
// run can time a single output of the solver. Run it with a fixed count,
// e.g. -benchtime=50000x.
func BenchmarkFixedWork(b *testing.B) {
	for _, steps := range []int{20000, 200000} {
		b.Run(fmt.Sprint(steps), func(b *testing.B) {
			tm := Start()
			defer tm.Release()
			each := make([]time.Duration, 0, b.N)
			for b.Loop() {
				t0 := tm.Elapsed()
				fixedWork(steps)
				each = append(each, tm.Elapsed()-t0)
			}
			slices.Sort(each)
			p50, top := each[len(each)/2], each[len(each)-1]
			b.ReportMetric(float64(p50)/1e3, "p50-us")
			b.ReportMetric(float64(each[len(each)*999/1000])/1e3, "p99.9-us")
			b.ReportMetric(float64(top)/1e3, "max-us")
			b.ReportMetric(float64(top)/float64(max(p50, 1)), "max/p50")
		})
	}
}
