package isla

import (
	"reflect"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// TestNewTreeView checks that NewTreeView, which collects the input while
// it builds the view, gives the view NewView gives of the tree's bytes,
// also in the memory of an earlier view, on random trees of grammars with
// ASCII, UTF-8 and binary texts, with the root virtual or not.
func TestNewTreeView(t *testing.T) {
	converted := 0 // views whose internal form differs from the input
	for _, name := range []string{"scriptsizec", "xml", "csv", "tar"} {
		gr := grammar.MustCompile(grammar.MustBuiltin(name))
		lb := NewLabels(gr, "start")
		gen := grammar.NewGenerator(gr, 1)
		gen.MaxSize = 3000
		var old *View
		for i := range 40 {
			tr, err := gen.Generate()
			if err != nil {
				t.Fatal(err)
			}
			virtual := i%2 == 0
			root := tr.Node.Rule
			if virtual {
				root = "start"
			}
			want := NewView(tr.Bytes(), tr, lb, root, virtual)
			got := NewTreeView(old, tr, lb, root, virtual)
			if got.input != want.input || got.text != want.text || !reflect.DeepEqual(got.Nodes, want.Nodes) ||
				!reflect.DeepEqual(got.ByLabel, want.ByLabel) || !reflect.DeepEqual(got.lines, want.lines) ||
				!reflect.DeepEqual(got.startIdx, want.startIdx) || !reflect.DeepEqual(got.atStart, want.atStart) {
				t.Fatalf("%s tree %d (%q): NewTreeView differs from NewView", name, i, tr)
			}
			if want.text != "" {
				converted++
			}
			old = got
		}
	}
	if converted == 0 {
		t.Error("no tree had a text of other than ASCII bytes")
	}
}
