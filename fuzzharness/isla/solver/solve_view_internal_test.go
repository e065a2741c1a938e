package solver

import (
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// TestSolverViewMatchesView checks that the view the solver builds from
// its own trees (and reuses the memory of) is the view the validator
// builds of the same derivation: the same nodes, labels, spans, links and
// open leaves, the same label index, and Node.Tree giving the same
// grammar nodes and texts. (ViewBuilder.Done builds the other indexes from
// the nodes alike for both.)
func TestSolverViewMatchesView(t *testing.T) {
	g, err := grammar.Builtin("scriptsizec")
	if err != nil {
		t.Fatal(err)
	}
	gr, err := grammar.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, virtual := range []bool{false, true} {
		lb := isla.NewLabels(gr, "start")
		start := gr.Root.Rule
		rootLabel := start
		if virtual {
			rootLabel = "start"
		}
		rhs := gr.RHS(start)
		rootRef := &grammar.Node{ID: -1, Kind: grammar.KindRef, Name: start, Children: []*grammar.Node{rhs}, Rule: start, Sym: -1}
		gen := grammar.NewGenerator(gr, 7)
		var ids idSource
		var sv solverView
		for i := range 40 {
			t0, err := gen.GenerateFrom(rhs)
			if err != nil {
				t.Fatal(err)
			}
			// Leave some references open, as the solver does.
			keep := func(n *grammar.Node) bool { return n.Kind == grammar.KindRef && n.Name == "id" && i%2 == 0 }
			root := mkNode(ids.id(), rootRef, []*stree{ids.fromTree(t0, keep)}, "", false)
			tree := root.kids[0].toTree(nil)
			want := isla.NewView(tree.Bytes(), tree, lb, rootLabel, virtual)
			sv.build(root, lb, rootLabel, virtual)
			got := sv.v
			gotText, wantText := got.Node(0).Text(), want.Node(0).Text()
			if gotText != wantText || len(got.Nodes) != len(want.Nodes) {
				t.Fatalf("input %q with %d nodes, want %q with %d", gotText, len(got.Nodes), wantText, len(want.Nodes))
			}
			for j := range want.Nodes {
				a, b := got.Nodes[j], want.Nodes[j]
				a.Tree, b.Tree = nil, nil
				if a != b {
					t.Fatalf("%q: node %d is %+v, want %+v", wantText, j, a, b)
				}
				ga, gb := got.Node(int32(j)).Tree(), want.Node(int32(j)).Tree()
				if ga.Node != gb.Node || ga.Open != gb.Open || ga.String() != gb.String() {
					t.Fatalf("%q: tree of node %d is %v %q, want %v %q", wantText, j, ga.Node.Label(), ga, gb.Node.Label(), gb)
				}
				if got.Node(int32(j)).Complete() != want.Node(int32(j)).Complete() {
					t.Fatalf("%q: node %d complete differs", wantText, j)
				}
			}
			for l := range want.ByLabel {
				if !equalInts(got.ByLabel[l], want.ByLabel[l]) {
					t.Fatalf("%q: byLabel[%d] = %v, want %v", wantText, l, got.ByLabel[l], want.ByLabel[l])
				}
			}
		}
	}
}

func equalInts(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
