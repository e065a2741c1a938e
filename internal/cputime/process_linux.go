//go:build linux

package cputime

import (
	"io"
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

// threads lists the process's threads into buf, reading the directory
// *dir (opened on first use and kept open); it returns nil if it cannot.
func threads(dir **os.File, buf []int) []int {
	if *dir == nil {
		f, err := os.Open("/proc/self/task")
		if err != nil {
			return nil
		}
		*dir = f
	} else if _, err := (*dir).Seek(0, io.SeekStart); err != nil {
		return nil
	}
	names, err := (*dir).Readdirnames(-1)
	if err != nil {
		return nil
	}
	buf = buf[:0]
	for _, name := range names {
		if n, err := strconv.Atoi(name); err == nil {
			buf = append(buf, n)
		}
	}
	return buf
}

// startThreads reads the clock of every thread of the process; it reports
// false if it cannot. The threads are listed anew each time (a thread
// that started since the last interval counts from this one on).
func (p *Process) startThreads() bool {
	p.self = unix.Gettid()
	p.ms = runtimeThreads()
	p.tids = threads(&p.dir, p.tids)
	if !slices.Contains(p.tids, p.self) {
		return false
	}
	p.base = p.base[:0]
	self := -1
	for i, t := range p.tids {
		var d time.Duration // the caller's own: read below
		if t == p.self {
			self = i
		} else if c, ok := threadClock(t); ok {
			d = c
		} else {
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
	p.base[self] = own
	return true
}

// stopThreads reads the clocks startThreads read and returns the sum of
// the differences, plus the clocks of threads started since.
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
	if runtimeThreads() != p.ms {
		// A thread the runtime started since Start's list was read
		// has done all its work within the interval.
		for _, t := range threads(&p.dir, nil) {
			if !slices.Contains(p.tids, t) {
				if d, ok := threadClock(t); ok {
					sum += d
				}
			}
		}
	}
	return sum, true
}

// runtimeThreads is the number of threads the Go runtime has made; a
// change tells Stop to look for threads started during the interval.
func runtimeThreads() int {
	n, _ := runtime.ThreadCreateProfile(nil)
	return n
}
