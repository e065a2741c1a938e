//go:build linux || darwin || freebsd || netbsd || openbsd

package cputime

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadTime returns the CPU time of the calling thread.
func threadTime() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// processClock returns the CPU time of the whole process.
func processClock() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
