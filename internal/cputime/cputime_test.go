package cputime

import (
	"testing"
	"time"
)

// spin does about d of CPU work.
func spin(d time.Duration) {
	end := time.Now().Add(d)
	x := 0
	for time.Now().Before(end) {
		x++
	}
	_ = x
}

// TestSleepIsNotWork checks that time spent blocked does not count: a
// sleep of 200 ms measures far less than 200 ms, while work does count.
func TestSleepIsNotWork(t *testing.T) {
	if !ThreadCPU() {
		t.Skip("no thread CPU clock on this system")
	}
	tm := Start()
	time.Sleep(200 * time.Millisecond)
	slept := tm.Elapsed()
	spin(30 * time.Millisecond)
	total := tm.Stop()
	if slept >= 100*time.Millisecond {
		t.Errorf("a 200 ms sleep measured %v of CPU time", slept)
	}
	if total <= slept {
		t.Errorf("30 ms of work measured %v after %v", total, slept)
	}
}

// TestMonotonic checks that readings never decrease.
func TestMonotonic(t *testing.T) {
	tm := Start()
	defer tm.Stop()
	prev := tm.Elapsed()
	for range 1000 {
		d := tm.Elapsed()
		if d < prev {
			t.Fatalf("Elapsed went back from %v to %v", prev, d)
		}
		prev = d
	}
}
