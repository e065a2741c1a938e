package solver

import (
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// TestRepairCacheKey checks that the key of a repair tells apart trees of
// the same text with another shape or other graph nodes, and seeds, and
// that equal trees built apart get equal keys; a tree with an open node
// has none.
func TestRepairCacheKey(t *testing.T) {
	n1, n2, n3 := &grammar.Node{ID: 1}, &grammar.Node{ID: 2}, &grammar.Node{ID: 3}
	lit := &grammar.Node{ID: 4, Kind: grammar.KindLit, Lit: "ab"}
	seq := &grammar.Node{ID: 5, Kind: grammar.KindSeq, Children: []*grammar.Node{n2, n2}}
	leaf := func(n *grammar.Node, v string) *grammar.Tree { return &grammar.Tree{Node: n, Value: v} }
	node := func(n *grammar.Node, kids ...*grammar.Tree) *grammar.Tree {
		return &grammar.Tree{Node: n, Children: kids}
	}
	trees := []*grammar.Tree{
		node(n1, leaf(n2, "ab"), leaf(n2, "c")),
		node(n1, leaf(n2, "a"), leaf(n2, "bc")),
		node(n1, leaf(n3, "ab"), leaf(n2, "c")),
		node(n1, node(n2, leaf(n2, "ab")), leaf(n2, "c")),
		node(n1, leaf(n2, "ab"), leaf(n2, "c"), leaf(n2, "")),
		// Nodes with the children and text their graph nodes imply, and
		// without.
		node(n1, leaf(lit, "ab"), leaf(n2, "c")),
		node(n1, leaf(lit, "a"), leaf(n2, "bc")),
		node(seq, leaf(n2, "ab"), leaf(n2, "c")),
		node(seq, leaf(n2, "abc")),
		node(seq, leaf(n2, "a"), leaf(n2, "b"), leaf(n2, "c")),
	}
	var c repairCache
	seen := map[string]int{}
	for i, tr := range trees {
		if tr.String() != "abc" {
			t.Fatalf("tree %d derives %q, want abc", i, tr)
		}
		for seed := range uint64(2) {
			k, ok := c.key(tr, seed)
			if !ok {
				t.Fatalf("tree %d: no key", i)
			}
			if j, dup := seen[string(k)]; dup {
				t.Fatalf("trees or seeds %d and %d share a key", j, 2*i+int(seed))
			}
			seen[string(k)] = 2*i + int(seed)
		}
	}
	k1, _ := c.key(node(n1, leaf(n2, "a"), leaf(n2, "bc")), 1)
	if seen[string(k1)] != 3 {
		t.Errorf("an equal tree built apart gets key of %d, want 3", seen[string(k1)])
	}
	if _, ok := c.key(node(n1, leaf(n2, "a"), &grammar.Tree{Node: n2, Open: true}), 0); ok {
		t.Error("a tree with an open node has a key")
	}
	// A tree too large to remember has no key, but is checked whole.
	var kids []*grammar.Tree
	for range repairCacheKeyMax {
		kids = append(kids, leaf(n2, "x"))
	}
	if k, ok := c.key(node(n1, kids...), 0); k != nil || !ok {
		t.Errorf("a tree of %d leaves: key of %d bytes, complete %v; want none, complete", len(kids), len(k), ok)
	}
	kids = append(kids, &grammar.Tree{Node: n2, Open: true})
	if _, ok := c.key(node(n1, kids...), 0); ok {
		t.Error("a large tree with an open node at its end is complete")
	}
}

// TestRepairCacheEvicts checks that the cache forgets its oldest repair
// once it holds repairCacheSize, and returns the caller's tree for one
// that held as it was.
func TestRepairCacheEvicts(t *testing.T) {
	var c repairCache
	n := &grammar.Node{ID: 1}
	in := &grammar.Tree{Node: n, Value: "x"}
	outs := make([]*grammar.Tree, repairCacheSize+1)
	for i := range outs {
		outs[i] = &grammar.Tree{Node: n, Value: "y"}
		k, _ := c.key(in, uint64(i))
		c.put(k, in, outs[i])
	}
	k0, _ := c.key(in, 0)
	if _, ok := c.get(k0, in); ok {
		t.Error("the oldest repair is still remembered")
	}
	for i := 1; i < len(outs); i++ {
		k, _ := c.key(in, uint64(i))
		if out, ok := c.get(k, in); !ok || out != outs[i] {
			t.Fatalf("repair %d: got %p, %v; want %p", i, out, ok, outs[i])
		}
	}
	same := &grammar.Tree{Node: n, Value: "z"}
	k, _ := c.key(same, 7)
	c.put(k, same, same)
	again := &grammar.Tree{Node: n, Value: "z"}
	k, _ = c.key(again, 7)
	if out, ok := c.get(k, again); !ok || out != again {
		t.Errorf("a tree that held: got %p, %v; want the caller's %p", out, ok, again)
	}
}
