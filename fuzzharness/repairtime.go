package fuzzharness

import (
	"math/bits"
	"sync"
	"time"
)

// repairTimes is the histogram of a harness's repair times (see
// Stats.RepairTimes) and their maximum.
type repairTimes struct {
	mu   sync.Mutex
	hist []int64
	max  time.Duration
}

// add records a repair that took d.
func (r *repairTimes) add(d time.Duration) {
	b := timeBucket(d)
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.hist) <= b {
		r.hist = append(r.hist, make([]int64, b+1-len(r.hist))...)
	}
	r.hist[b]++
	r.max = max(r.max, d)
}

// snapshot returns a copy of the histogram and the maximum.
func (r *repairTimes) snapshot() ([]int64, time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.hist) == 0 {
		return nil, r.max
	}
	return append([]int64(nil), r.hist...), r.max
}

// timeBucket returns the histogram bucket of a duration: 4e+k for a time
// in [(4+k)·2^e/4, (5+k)·2^e/4) nanoseconds.
func timeBucket(d time.Duration) int {
	n := uint64(max(d, 4))
	e := bits.Len64(n) - 1
	return 4*e + int(n>>(e-2)&3)
}

// bucketTop returns the least duration above the bucket b.
func bucketTop(b int) time.Duration {
	e, k := b/4, b%4
	return time.Duration(uint64(5+k) << e / 4)
}

// addHist adds histogram b to a, growing a as needed.
func addHist(a, b []int64) []int64 {
	if len(a) < len(b) {
		a = append(a, make([]int64, len(b)-len(a))...)
	}
	for i, n := range b {
		a[i] += n
	}
	return a
}

// percentile returns the upper end of the bucket holding the p-quantile
// of the histogram, at most the maximum; 0 for an empty histogram.
func percentile(hist []int64, p float64, most time.Duration) time.Duration {
	var total int64
	for _, n := range hist {
		total += n
	}
	if total == 0 {
		return 0
	}
	rank := int64(p*float64(total-1)) + 1
	var seen int64
	for b, n := range hist {
		if seen += n; seen >= rank {
			return min(bucketTop(b), most)
		}
	}
	return most
}

// derive returns s with the figures derived from its counts filled in for
// the time elapsed: the valid inputs per second and the percentiles of
// the repair times.
func (s Stats) derive(elapsed time.Duration) Stats {
	s.Elapsed = elapsed
	s.ValidPerSecond = 0
	if elapsed > 0 {
		s.ValidPerSecond = float64(s.Inputs-s.Rejected-s.Invalid) / elapsed.Seconds()
	}
	s.RepairP50 = percentile(s.RepairTimes, 0.5, s.RepairMax)
	s.RepairP99 = percentile(s.RepairTimes, 0.99, s.RepairMax)
	return s
}
