package solver

import (
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// TestRepairCacheKey checks that the cache tells apart trees of the same
// text with another shape, other graph nodes or other values, and seeds,
// that an equal tree built apart finds the repair of the first, and that
// a tree with an open node has no key; a tree too large to remember is
// still checked whole.
func TestRepairCacheKey(t *testing.T) {
	n1, n2, n3 := &grammar.Node{ID: 1}, &grammar.Node{ID: 2}, &grammar.Node{ID: 3}
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
		node(n1, leaf(n2, "abc")),
	}
	var c repairCache
	outs := map[*grammar.Tree]*grammar.Tree{}
	for i, tr := range trees {
		if tr.String() != "abc" {
			t.Fatalf("tree %d derives %q, want abc", i, tr)
		}
		for seed := range uint64(2) {
			k, ok := c.key(tr, seed)
			if !ok || !k.ok {
				t.Fatalf("tree %d: no key", i)
			}
			out := leaf(n3, "repair")
			c.put(k, tr, seed, out)
			outs[tr] = out
		}
	}
	for i, tr := range trees {
		for seed := range uint64(2) {
			k, _ := c.key(tr, seed)
			if out, ok := c.get(k, tr, seed); !ok || out == nil {
				t.Fatalf("tree %d, seed %d: not remembered", i, seed)
			}
		}
		k, _ := c.key(tr, 5)
		if _, ok := c.get(k, tr, 5); ok {
			t.Fatalf("tree %d: remembered with a seed never repaired", i)
		}
	}
	again := node(n1, leaf(n2, "a"), leaf(n2, "bc"))
	k, _ := c.key(again, 1)
	if out, ok := c.get(k, again, 1); !ok || out != outs[trees[1]] {
		t.Errorf("an equal tree built apart: %p, %v; want the repair %p", out, ok, outs[trees[1]])
	}
	if _, ok := c.key(node(n1, leaf(n2, "a"), &grammar.Tree{Node: n2, Open: true}), 0); ok {
		t.Error("a tree with an open node has a key")
	}
	// A tree too large to remember is not, but is checked whole.
	var kids []*grammar.Tree
	for range repairCacheMaxNodes {
		kids = append(kids, leaf(n2, "x"))
	}
	big := node(n1, kids...)
	if k, ok := c.key(big, 0); k.ok || !ok {
		t.Errorf("a tree of %d leaves: remembered %v, complete %v; want not remembered, complete", len(kids), k.ok, ok)
	}
	k, _ = c.key(big, 0)
	c.put(k, big, 0, leaf(n3, "x"))
	if _, ok := c.get(k, big, 0); ok {
		t.Error("a tree too large was remembered")
	}
	big.Children = append(big.Children, &grammar.Tree{Node: n2, Open: true})
	if _, ok := c.key(big, 0); ok {
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
		c.put(k, in, uint64(i), outs[i])
	}
	k0, _ := c.key(in, 0)
	if _, ok := c.get(k0, in, 0); ok {
		t.Error("the oldest repair is still remembered")
	}
	for i := 1; i < len(outs); i++ {
		k, _ := c.key(in, uint64(i))
		if out, ok := c.get(k, in, uint64(i)); !ok || out != outs[i] {
			t.Fatalf("repair %d: got %p, %v; want %p", i, out, ok, outs[i])
		}
	}
	if len(c.byKey) != repairCacheSize {
		t.Errorf("the cache holds %d repairs, want %d", len(c.byKey), repairCacheSize)
	}
	same := &grammar.Tree{Node: n, Value: "z"}
	k, _ := c.key(same, 7)
	c.put(k, same, 7, same)
	again := &grammar.Tree{Node: n, Value: "z"}
	k, _ = c.key(again, 7)
	if out, ok := c.get(k, again, 7); !ok || out != again {
		t.Errorf("a tree that held: got %p, %v; want the caller's %p", out, ok, again)
	}
}

// TestRepairCacheKeysOnly checks that the cache drops its trees after a
// window of lookups that rarely find their key, and keeps them again once
// one lookup in 50 does.
func TestRepairCacheKeysOnly(t *testing.T) {
	var c repairCache
	n := &grammar.Node{ID: 1}
	in := &grammar.Tree{Node: n, Value: "x"}
	out := &grammar.Tree{Node: n, Value: "y"}
	lookup := func(seed uint64) bool {
		k, _ := c.key(in, seed)
		_, ok := c.get(k, in, seed)
		if !ok {
			c.put(k, in, seed, out)
		}
		return ok
	}
	for seed := range uint64(repairCacheWindow) { // all new: no hit
		lookup(seed + 1000)
	}
	if !c.keysOnly {
		t.Fatal("a window without hits: trees kept")
	}
	for _, e := range c.byKey {
		if e.in != nil || e.out != nil {
			t.Fatal("a tree kept after a window without hits")
		}
	}
	// A window in which a tenth of the lookups repeat an earlier one:
	// no hit while keys only, but trees kept again after it.
	for i := range uint64(repairCacheWindow) {
		seed := i + 5000
		if i%10 == 0 {
			seed = 5000
		}
		if lookup(seed) {
			t.Fatal("a hit while the cache keeps keys only")
		}
	}
	if c.keysOnly {
		t.Fatal("a window with a tenth of repeats: keys only")
	}
	lookup(7)
	if !lookup(7) {
		t.Error("no hit on a repeated repair once trees are kept again")
	}
}
