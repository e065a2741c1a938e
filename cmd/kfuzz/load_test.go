package main

import (
	"bytes"
	"testing"
	"time"
)

// TestSlowSteps checks that slow work shows its steps and quick work does
// not.
func TestSlowSteps(t *testing.T) {
	defer func(d time.Duration) { slowAfter = d }(slowAfter)
	var quick bytes.Buffer
	slowAfter = time.Hour
	s := startSlowSteps(&quick, "reading")
	s.next("compiling")
	s.done()
	if quick.Len() != 0 {
		t.Errorf("quick work wrote %q", quick.String())
	}

	var slow bytes.Buffer
	slowAfter = time.Millisecond
	s = startSlowSteps(&slow, "reading grammar g.json")
	time.Sleep(200 * time.Millisecond)
	s.next("checking and compiling grammar g.json (3 rules)")
	s.done()
	if want := "kfuzz: reading grammar g.json\nkfuzz: checking and compiling grammar g.json (3 rules)\n"; slow.String() != want {
		t.Errorf("slow work wrote %q, want %q", slow.String(), want)
	}
}
