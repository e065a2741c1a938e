package cputime

import (
	"os"
	"runtime"
	"time"
)

// A Process measures the CPU time of the whole process, all its threads,
// over intervals as short as one solver output.
//
// The process clocks of Linux, getrusage(RUSAGE_SELF) and
// CLOCK_PROCESS_CPUTIME_ID, add the time of a thread that is running on
// another core only when that thread is next accounted, at the latest at
// its scheduler tick (every 4 ms at HZ=250). An interval of 50 µs during
// which the garbage collector marks on the other core then reads either
// the caller's work alone or that plus up to a tick of the collector's.
// On Linux a Process reads each thread's own clock instead, which the
// kernel brings up to date when it is read, and sums them. Elsewhere, and
// where /proc cannot be read, it reads the process clock.
//
// A Process is reused from one interval to the next; it must be used by
// one goroutine at a time. The zero value is ready to use.
type Process struct {
	start  time.Duration // the process clock at Start, where there are no thread clocks
	tids   []int         // the threads at Start
	base   []time.Duration
	self   int      // the calling thread
	dir    *os.File // /proc/self/task, kept open
	ms     int      // the runtime's thread count at Start
	locked bool
	each   bool // this interval reads the threads' clocks
}

// Start begins an interval. It locks the calling goroutine to its OS
// thread until Stop. It reports false if no process CPU clock can be
// read here.
func (p *Process) Start() bool {
	runtime.LockOSThread()
	p.locked = true
	if p.each = p.startThreads(); p.each {
		return true
	}
	d, ok := ProcessTotal()
	p.start = d
	return ok
}

// Stop ends the interval begun by Start and returns the CPU time all of
// the process's threads used during it. A thread that exits within the
// interval loses its last part; one the runtime starts within it counts
// whole.
func (p *Process) Stop() (time.Duration, bool) {
	var d time.Duration
	var ok bool
	if p.each {
		d, ok = p.stopThreads()
	} else {
		d, ok = ProcessTotal()
		d -= p.start
	}
	if p.locked {
		runtime.UnlockOSThread()
		p.locked = false
	}
	return d, ok
}
