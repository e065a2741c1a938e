package solver

import (
	"fmt"
	"testing"
)

func TestOutputSet(t *testing.T) {
	o := outputSet{}
	if o.has([]byte("")) || !o.add([]byte("")) || !o.has([]byte("")) {
		t.Fatal("the empty input: not added or not found")
	}
	for i := range 1000 {
		in := []byte(fmt.Sprint("input ", i))
		if o.has(in) {
			t.Fatalf("%q found before it was added", in)
		}
		if !o.add(in) {
			t.Fatalf("%q: add reported it present", in)
		}
		if o.add(in) {
			t.Fatalf("%q: a second add reported it new", in)
		}
	}
	if len(o) != 1001 {
		t.Errorf("%d entries, want 1001", len(o))
	}
	// The fingerprint depends on the input alone: a new set agrees.
	if fingerprint([]byte("input 7")) != fingerprint([]byte("input 7")) || fingerprint([]byte("a")) == fingerprint([]byte("b")) {
		t.Error("fingerprints are not a function of the input")
	}
}
