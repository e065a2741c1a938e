package grammar

import (
	"errors"
	"testing"
)

// TestRecognizeAfterItemLimit parses after a parse that the item limit
// stopped: the reused state must not keep anything of the stopped parse
// (it once kept pending waiters and panicked with an index out of range).
// The grammar is one a grammar miner produced for grep's regular
// expressions, highly ambiguous.
func TestRecognizeAfterItemLimit(t *testing.T) {
	g, err := Load("testdata/item-limit-reuse.bnf")
	if err != nil {
		t.Fatal(err)
	}
	gr, err := Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewParser(gr, MaxItems(1<<16))
	if err != nil {
		t.Fatal(err)
	}
	stopped := []byte(`^\(\|^\|^$\)[joF-Qz]\{3,8\}\(\|\).\{1,\}*\|^..*|.*\|\(\)***[vm-vY]\{2,6\}.\{7\}*\{2,5\}\{6\}\[\{8\}$\|.****g$\|`)
	if err := p.Recognize(stopped); !errors.Is(err, ErrItemLimit) {
		t.Fatalf("first parse: %v, want the item limit", err)
	}
	if err := p.Recognize([]byte(`\|\]\{2,7\}*\{3,9\}\{9\}[1-7]`)); err != nil && !errors.Is(err, ErrItemLimit) {
		t.Fatalf("after a stopped parse: %v", err)
	}
}
