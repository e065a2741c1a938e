package learn

import (
	"slices"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// tinyGraph is a grammar with a few independent features:
//
//	<s> ::= <a> <b> ;  <a> ::= "x" | "y" ;  <b> ::= "" | "!" ;
func tinyGraph(t testing.TB) (*grammar.Graph, *grammar.PathTable) {
	t.Helper()
	g, err := grammar.Parse("tiny.bnf", []byte(`<s> ::= <a> <b> ; <a> ::= "x" | "y" ; <b> ::= "" | "!" ;`))
	if err != nil {
		t.Fatal(err)
	}
	gr := grammar.MustCompile(g)
	pt, err := gr.PathTable(2)
	if err != nil {
		t.Fatal(err)
	}
	return gr, pt
}

// derive returns the tree of the tiny grammar for a ("x" or "y") and b
// ("" or "!").
func tinyTree(gr *grammar.Graph, a, b string) *grammar.Tree {
	t := grammar.NewOpen(gr.Root)
	var fill func(u *grammar.Tree)
	fill = func(u *grammar.Tree) {
		n := u.Node
		u.Open = false
		switch n.Kind {
		case grammar.KindLit:
			u.Value = n.Lit
		case grammar.KindAlt:
			for _, c := range n.Children {
				if c.Kind == grammar.KindLit && (c.Lit == a && n.Rule == "a" || c.Lit == b && n.Rule == "b") {
					u.Children = []*grammar.Tree{grammar.NewOpen(c)}
				}
			}
		default:
			for _, c := range n.Children {
				u.Children = append(u.Children, grammar.NewOpen(c))
			}
		}
		for _, c := range u.Children {
			fill(c)
		}
	}
	fill(t)
	return t
}

func TestDatasetDropsConstants(t *testing.T) {
	gr, pt := tinyGraph(t)
	var samples []Sample
	for _, in := range []struct {
		a, b    string
		covered []string
	}{
		{"x", "", []string{"main", "onX"}},
		{"y", "", []string{"main"}},
		{"x", "!", []string{"main", "onX", "bang", "main"}},
		{"y", "!", []string{"main", "bang"}},
	} {
		tr := tinyTree(gr, in.a, in.b)
		if tr.String() != in.a+in.b {
			t.Fatalf("tinyTree(%q, %q) derives %q", in.a, in.b, tr)
		}
		samples = append(samples, NewSample(pt, tr, in.covered))
	}
	ds, err := NewDataset(pt, samples, []string{"unused", "main"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ds.Funcs, []string{"bang", "onX"}) || !slices.Equal(ds.Always, []string{"main"}) || !slices.Equal(ds.Never, []string{"unused"}) {
		t.Errorf("funcs %v, always %v, never %v", ds.Funcs, ds.Always, ds.Never)
	}
	// Every sample has <a>, <b>, <s>'s root paths; the features are the
	// literals and the paths to them.
	var labels []string
	for _, id := range ds.Features {
		labels = append(labels, PathLabel(gr, pt.Path(id)))
	}
	want := []string{`"x"#3`, `"y"#4`, `""#7`, `"!"#8`, `<a>#1 -> "x"#3`, `<a>#1 -> "y"#4`, `<b>#5 -> ""#7`, `<b>#5 -> "!"#8`}
	if !slices.Equal(labels, want) {
		t.Errorf("features\n%q\nwant\n%q", labels, want)
	}
	if ds.Len() != 4 || ds.NonZeros() != 16 {
		t.Errorf("%d rows, %d non-zeros", ds.Len(), ds.NonZeros())
	}
	for i := range ds.Len() {
		if got := len(ds.Row(i)); got != 4 {
			t.Errorf("row %d has %d features", i, got)
		}
	}
	if !ds.Covers(2, 0) || ds.Covers(1, 0) || ds.Positives(1) != 2 {
		t.Errorf("labels wrong")
	}
}

func TestDatasetErrors(t *testing.T) {
	_, pt := tinyGraph(t)
	_, other := exprSetup(t)
	if _, err := NewDataset(pt, nil, nil); err == nil {
		t.Error("no samples: no error")
	}
	if _, err := NewDataset(nil, []Sample{{}}, nil); err == nil {
		t.Error("no table: no error")
	}
	if _, err := NewDataset(pt, []Sample{{Paths: other.NewPathSet()}}, nil); err == nil {
		t.Error("path set of another table: no error")
	}
}
