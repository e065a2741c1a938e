package solver

import (
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// TestPackedSubtreeIsFromTree checks that a packed parse tree unpacks to
// the stree fromTree makes of the tree itself: the same graph nodes,
// texts, open counts and sizes, and the same ids given in the same order.
func TestPackedSubtreeIsFromTree(t *testing.T) {
	for _, name := range []string{"xml", "scriptsizec", "csv"} {
		gr := grammar.MustCompile(grammar.MustBuiltin(name))
		gen := grammar.NewGenerator(gr, 3)
		for i := range 50 {
			tree, err := gen.GenerateFrom(gr.Root)
			if err != nil {
				t.Fatal(err)
			}
			text := string(tree.Bytes())
			p, ok := pack(tree, text, gr.Nodes)
			if !ok {
				t.Fatalf("%s #%d: %q does not pack", name, i, text)
			}
			a, b := idSource{next: 7}, idSource{next: 7}
			want, got := a.fromTree(tree, nil), b.fromPacked(p, text, gr.Nodes)
			if d := strDiff(got, want); d != "" {
				t.Fatalf("%s #%d: %q: %s", name, i, text, d)
			}
			if a.next != b.next {
				t.Fatalf("%s #%d: %d ids given, want %d", name, i, b.next, a.next)
			}
		}
	}
	// What the form cannot hold is refused.
	gr := grammar.MustCompile(grammar.MustBuiltin("csv"))
	tree, err := grammar.NewGenerator(gr, 1).GenerateFrom(gr.Root)
	if err != nil {
		t.Fatal(err)
	}
	text := string(tree.Bytes())
	if _, ok := pack(tree, text+"x", gr.Nodes); ok {
		t.Error("a tree packed with a text longer than it derives")
	}
	if _, ok := pack(tree, text, gr.Nodes[:1]); ok && len(gr.Nodes) > 1 {
		t.Error("a tree packed with nodes missing from the node table")
	}
	tree.Open = true
	if _, ok := pack(tree, text, gr.Nodes); ok {
		t.Error("an open tree packed")
	}
}

// strDiff returns how two strees differ, "" if they do not.
func strDiff(got, want *stree) string {
	if got.id != want.id || got.g != want.g || got.val != want.val || got.open != want.open ||
		got.nopen != want.nopen || got.size != want.size || len(got.kids) != len(want.kids) {
		return "node " + want.g.String() + " differs"
	}
	for i := range want.kids {
		if d := strDiff(got.kids[i], want.kids[i]); d != "" {
			return d
		}
	}
	return ""
}
