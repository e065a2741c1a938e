// Package cputime measures the CPU time of one goroutine's work, so that a
// time budget means work done and not time spent waiting for a core.
//
// A Timer locks its goroutine to the OS thread it runs on and reads that
// thread's CPU clock: on a loaded machine a descheduled thread does not
// use up its budget. Where the system has no per-thread CPU clock, a Timer
// measures wall-clock time.
package cputime

import (
	"runtime"
	"time"
)

// A Timer measures the CPU time used by the goroutine that started it,
// from Start to Stop. It must be used by that goroutine only, and the
// goroutine must not start another goroutine to do the measured work.
type Timer struct {
	cpu   bool
	start time.Duration // the thread's CPU clock at Start
	wall  time.Time     // the wall clock at Start
}

// Start locks the calling goroutine to its OS thread and starts a timer.
// Stop (or Release) must be called to unlock it.
func Start() *Timer {
	runtime.LockOSThread()
	t := &Timer{wall: time.Now()}
	t.start, t.cpu = threadTime()
	return t
}

// Elapsed returns the time measured since Start: the thread's CPU time, or
// the wall-clock time where there is no thread CPU clock.
func (t *Timer) Elapsed() time.Duration {
	if t.cpu {
		if now, ok := threadTime(); ok {
			return now - t.start
		}
	}
	return time.Since(t.wall)
}

// Exceeded reports whether Elapsed is above budget. A thread works for
// at most the wall-clock time that passes, so while that is within the
// budget, Exceeded reads only the wall clock, which costs less than the
// thread's CPU clock (a system call on Linux).
func (t *Timer) Exceeded(budget time.Duration) bool {
	if time.Since(t.wall) <= budget {
		return false
	}
	return t.Elapsed() > budget
}

// Stop returns Elapsed and unlocks the goroutine from its thread.
func (t *Timer) Stop() time.Duration {
	d := t.Elapsed()
	runtime.UnlockOSThread()
	return d
}

// Release ends the measurement as Stop does, for a caller that needs no
// final reading: it unlocks the goroutine from its thread without reading
// a clock.
func (t *Timer) Release() { runtime.UnlockOSThread() }

// ThreadCPU reports whether Timers measure thread CPU time on this system
// (false: wall-clock time).
func ThreadCPU() bool {
	_, ok := threadTime()
	return ok
}
