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

// TestExceeded checks that Exceeded tells a budget reached by work from
// one that is not, including when the wall clock passes the budget while
// the thread waits.
func TestExceeded(t *testing.T) {
	tm := Start()
	defer tm.Stop()
	if tm.Exceeded(time.Hour) {
		t.Error("an hour's budget exceeded at once")
	}
	// Work until the timer has measured 20 ms (however long that takes
	// on a loaded machine).
	for tm.Elapsed() < 20*time.Millisecond {
		spin(time.Millisecond)
	}
	if !tm.Exceeded(5 * time.Millisecond) {
		t.Error("20 ms of work within a 5 ms budget")
	}
	if !ThreadCPU() {
		return
	}
	w := Start()
	defer w.Stop()
	time.Sleep(50 * time.Millisecond)
	if w.Exceeded(20 * time.Millisecond) {
		t.Errorf("a 50 ms sleep exceeded a 20 ms budget of CPU time (%v)", w.Elapsed())
	}
}

// BenchmarkExceeded measures Exceeded within the budget, as a repair
// checks it between its steps, against Elapsed.
func BenchmarkExceeded(b *testing.B) {
	tm := Start()
	defer tm.Stop()
	b.Run("Exceeded", func(b *testing.B) {
		for b.Loop() {
			tm.Exceeded(time.Hour)
		}
	})
	b.Run("Elapsed", func(b *testing.B) {
		for b.Loop() {
			_ = tm.Elapsed() > time.Hour
		}
	})
}
