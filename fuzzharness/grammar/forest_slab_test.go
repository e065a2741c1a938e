package grammar

import (
	"runtime"
	"testing"
	"unsafe"
)

// The tree of a short text is built in small blocks: Forest.Tree of a
// three-digit parse allocates less than a quarter of the 256-node block the
// builder once took for every tree, and every call gives the same tree.
func TestShortTreeSmallBlocks(t *testing.T) {
	g, err := Parse("g.bnf", []byte(`<start> ::= <d>{3} ; <d> ::= [0-7] ;`))
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewParser(MustCompile(g))
	if err != nil {
		t.Fatal(err)
	}
	f, err := p.Parse([]byte("123"))
	if err != nil {
		t.Fatal(err)
	}
	want := f.Tree().String()
	const n = 200
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		if got := f.Tree().String(); got != want {
			t.Fatalf("tree %q, want %q", got, want)
		}
	}
	runtime.ReadMemStats(&after)
	per := (after.TotalAlloc - before.TotalAlloc) / n
	if bound := uint64(256*unsafe.Sizeof(Tree{})) / 4; per > bound {
		t.Errorf("a tree of 3 bytes allocates %d bytes, want at most %d", per, bound)
	}
	t.Logf("%d bytes per tree", per)
}
