package cputime

import (
	"os"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestProcessShortIntervals checks that a short interval is charged only
// work done during it, while another thread runs all the time: no
// interval may read more CPU time than all the threads could use in its
// wall-clock time. (On Linux the process clock breaks this: it adds the
// other thread's time in lumps of up to a scheduler tick.)
func TestProcessShortIntervals(t *testing.T) {
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer close(done)
		for !stop.Load() {
			spin(100 * time.Microsecond)
		}
	}()
	defer func() { stop.Store(true); <-done }()
	threads := runtime.NumCPU() + 8
	if es, err := os.ReadDir("/proc/self/task"); err == nil {
		threads = len(es) + 2
	}
	var p Process
	var total time.Duration
	for i := range 2000 {
		w0 := time.Now()
		if !p.Start() {
			t.Skip("no process CPU clock on this system")
		}
		spin(50 * time.Microsecond)
		d, ok := p.Stop()
		wall := time.Since(w0)
		if !ok {
			t.Fatalf("interval %d: Stop failed after Start succeeded", i)
		}
		if d < 0 || d > time.Duration(threads)*wall {
			t.Fatalf("interval %d: %v of CPU time in %v of wall time with at most %d threads", i, d, wall, threads)
		}
		total += d
	}
	if total == 0 {
		t.Error("2,000 intervals of work measured no CPU time")
	}
}

// TestProcessCountsOtherThreads checks that work another thread does
// within the interval counts.
func TestProcessCountsOtherThreads(t *testing.T) {
	var p Process
	if !p.Start() {
		t.Skip("no process CPU clock on this system")
	}
	worked := make(chan time.Duration)
	go func() {
		tm := Start()
		for tm.Elapsed() < 30*time.Millisecond {
			spin(time.Millisecond)
		}
		worked <- tm.Stop()
	}()
	w := <-worked // the calling thread waits, using next to no CPU
	d, ok := p.Stop()
	if !ok {
		t.Fatal("Stop failed after Start succeeded")
	}
	if d < w*9/10 {
		t.Errorf("another thread's %v of work measured %v", w, d)
	}
}

// TestProcessUnlocks checks that Stop releases the thread Start locked:
// a goroutine locked to its thread that exits takes the thread with it,
// so a leftover lock would end the test's main thread.
func TestProcessUnlocks(t *testing.T) {
	done := make(chan int)
	go func() {
		var p Process
		p.Start()
		p.Stop()
		p.Start()
		p.Stop()
		n, _ := runtime.ThreadCreateProfile(nil)
		done <- n
	}()
	before := <-done
	// The goroutine exited unlocked, so its thread stays for reuse.
	runtime.GC()
	after, _ := runtime.ThreadCreateProfile(nil)
	if after < before {
		t.Errorf("a thread exited with the goroutine: %d threads before, %d after", before, after)
	}
}
