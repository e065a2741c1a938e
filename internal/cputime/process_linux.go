//go:build linux

package cputime

import (
	"os"
	"runtime"
	"slices"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// threadClock returns the CPU clock of thread tid (the kernel's
// MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)).
func threadClock(tid int) (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(int32(^tid<<3|6), &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// threads lists the process's threads, or returns nil.
func threads(buf []int) []int {
	es, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil
	}
	buf = buf[:0]
	for _, e := range es {
		if n, err := strconv.Atoi(e.Name()); err == nil {
			buf = append(buf, n)
		}
	}
	return buf
}

// runtimeThreads is the number of threads the Go runtime has; it changes
// when a thread starts or exits, which is when tids is read again.
func runtimeThreads() int {
	n, _ := runtime.ThreadCreateProfile(nil)
	return n
}

// startThreads reads every thread's clock; it reports false if it
// cannot.
func (p *Process) startThreads() bool {
	p.self = unix.Gettid()
	if ms := runtimeThreads(); ms != p.ms || !slices.Contains(p.tids, p.self) {
		p.tids, p.ms = threads(p.tids), ms
	}
	if !slices.Contains(p.tids, p.self) {
		return false
	}
	p.base = p.base[:0]
	for _, t := range p.tids {
		d, ok := threadClock(t)
		if !ok {
			d = -1 // gone: not counted at Stop
		}
		p.base = append(p.base, d)
	}
	// The caller's own clock last, so that reading the others is not
	// charged to the interval.
	own, ok := threadTime()
	if !ok {
		return false
	}
	p.base[slices.Index(p.tids, p.self)] = own
	return true
}

// stopThreads reads the clocks startThreads read, and those of threads
// started since, and returns the sum of the differences.
func (p *Process) stopThreads() (time.Duration, bool) {
	own, ok := threadTime() // first, for the same reason
	if !ok || len(p.base) != len(p.tids) {
		return 0, false
	}
	var sum time.Duration
	for i, t := range p.tids {
		switch {
		case t == p.self:
			sum += own - p.base[i]
		case p.base[i] >= 0:
			if d, ok := threadClock(t); ok {
				sum += d - p.base[i]
			}
		}
	}
	if ms := runtimeThreads(); ms != p.ms {
		// Threads started during the interval count whole.
		for _, t := range threads(nil) {
			if !slices.Contains(p.tids, t) {
				if d, ok := threadClock(t); ok {
					sum += d
				}
			}
		}
	}
	return sum, true
}
