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

// ProcessTotal returns the CPU time the whole process has used so far
// (user and system), and whether it could be read. The kernel adds a
// thread running on another core at its next accounting, so the
// difference of two readings is exact only over intervals long against a
// scheduler tick; over shorter ones use a Process.
func ProcessTotal() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
