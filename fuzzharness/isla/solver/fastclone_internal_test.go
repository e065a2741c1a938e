package solver

import (
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// TestCloneTree checks that cloneTree copies random trees of two grammars
// as Clone does: an equal tree, with no node of the original, and with
// the same nil and empty children lists.
func TestCloneTree(t *testing.T) {
	for _, name := range []string{"scriptsizec", "xml"} {
		gen := grammar.NewGenerator(grammar.MustCompile(grammar.MustBuiltin(name)), 5)
		for range 50 {
			tr, err := gen.Generate()
			if err != nil {
				t.Fatal(err)
			}
			c := cloneTree(tr)
			if !c.Equal(tr) || c.String() != tr.String() {
				t.Fatalf("cloneTree(%q) = %q, not equal", tr, c)
			}
			orig := map[*grammar.Tree]bool{}
			tr.Walk(func(u *grammar.Tree) bool { orig[u] = true; return true })
			var walk func(a, b *grammar.Tree)
			walk = func(a, b *grammar.Tree) {
				if orig[b] {
					t.Fatalf("cloneTree(%q) shares a node with its original", tr)
				}
				if (a.Children == nil) != (b.Children == nil) || a.Open != b.Open {
					t.Fatalf("cloneTree(%q): a node differs in its children list or Open", tr)
				}
				for i := range a.Children {
					walk(a.Children[i], b.Children[i])
				}
			}
			walk(tr, c)
		}
	}
}
