package solver

import (
	"fmt"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
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

// TestDuplicateStandIn checks that duplicate tells the trees whose input
// was returned before and stands in for them with a leaf of the same text,
// which emit's duplicate test and anyNew read alike.
func TestDuplicateStandIn(t *testing.T) {
	gen := grammar.NewGenerator(grammar.MustCompile(grammar.MustBuiltin("json")), 5)
	s := &Solver{seen: outputSet{}}
	var ids idSource
	for i := range 50 {
		tr, err := gen.Generate()
		if err != nil {
			t.Fatal(err)
		}
		n := ids.fromTree(tr, nil)
		in := tr.Bytes()
		if _, dup := s.duplicate(n); dup != s.seen.has(in) {
			t.Fatalf("%d %q: duplicate says %v, seen %v", i, in, dup, s.seen.has(in))
		}
		s.seen.add(in)
		got, dup := s.duplicate(n)
		if !dup || string(got.Bytes()) != string(in) || len(got.Children) != 0 || got.Node != tr.Node {
			t.Fatalf("%d %q: stand-in %v %q", i, in, dup, got.Bytes())
		}
		if s.anyNew([]*grammar.Tree{got}) {
			t.Fatalf("%d %q: anyNew finds the stand-in new", i, in)
		}
	}
}
