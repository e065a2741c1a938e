package solver

import (
	"slices"
	"testing"
)

// A Go solve's evaluation context whose view copies the subtrees an
// earlier view shows (buildFrom) is the context a full build makes: the
// same view nodes, label index, text and solver nodes, at every rebuild
// of the solves of 1,500 XML and 300 Scriptsize-C outputs with the
// evaluation's settings.
func TestViewCopiedAsBuilt(t *testing.T) {
	builds, copied := 0, 0
	var fresh solverView
	viewCheck = func(c *evalCtx) {
		builds++
		s := c.s
		fresh.build(c.st.root, s.spec.Labels(), s.spec.RootLabel(), s.spec.VirtualRoot())
		got, want := c.v, fresh.v
		if got.Node(0).Text() != want.Node(0).Text() || len(got.Nodes) != len(want.Nodes) {
			t.Fatalf("build %d: text %q with %d nodes, want %q with %d", builds, got.Node(0).Text(), len(got.Nodes), want.Node(0).Text(), len(want.Nodes))
		}
		for j := range want.Nodes {
			a, b := got.Nodes[j], want.Nodes[j]
			a.Tree, b.Tree = nil, nil
			if a != b || c.src[j] != fresh.src[j] {
				t.Fatalf("build %d: node %d is %+v, want %+v (same solver node: %v)", builds, j, a, b, c.src[j] == fresh.src[j])
			}
			if got.Node(int32(j)).Text() != want.Node(int32(j)).Text() {
				t.Fatalf("build %d: node %d has text %q, want %q", builds, j, got.Node(int32(j)).Text(), want.Node(int32(j)).Text())
			}
		}
		for l := range want.ByLabel {
			if !slices.Equal(got.ByLabel[l], want.ByLabel[l]) {
				t.Fatalf("build %d: ByLabel[%d] = %v, want %v", builds, l, got.ByLabel[l], want.ByLabel[l])
			}
		}
		if len(c.v.Nodes) > 100 {
			copied++
		}
	}
	defer func() { viewCheck = nil }()
	solveXMLAndC(t)
	if copied == 0 {
		t.Fatalf("%d views built copying from another, none of more than 100 nodes", builds)
	}
	t.Logf("%d views built copying from another, %d of more than 100 nodes", builds, copied)
}
