package solver

import "github.com/seed72891827/kfuzz/fuzzharness/grammar"

// A treeArena holds the memory of a grammar tree made only to be read at
// once and dropped (the k-paths of a state's tree, see cost): each tree it
// makes reuses the memory of the one before, which must not be used any
// more.
type treeArena struct {
	nodes []grammar.Tree
	kids  []*grammar.Tree
	paths grammar.PathSet
}

// tree converts an stree into a grammar tree, as toTree(nil) does, in the
// arena's memory.
func (a *treeArena) tree(n *stree) *grammar.Tree {
	// Room for every node up front: the nodes are not moved once made.
	size := int(n.size)
	if cap(a.nodes) < size {
		a.nodes = make([]grammar.Tree, 0, size)
		a.kids = make([]*grammar.Tree, 0, size)
	}
	clear(a.nodes[:cap(a.nodes)])
	clear(a.kids[:cap(a.kids)])
	a.nodes, a.kids = a.nodes[:0], a.kids[:0]
	return a.add(n)
}

// add adds the tree of n.
func (a *treeArena) add(n *stree) *grammar.Tree {
	a.nodes = append(a.nodes, grammar.Tree{Node: n.g, Value: n.val, Open: n.open})
	t := &a.nodes[len(a.nodes)-1]
	if len(n.kids) > 0 {
		lo := len(a.kids)
		a.kids = a.kids[:lo+len(n.kids)]
		t.Children = a.kids[lo:len(a.kids):len(a.kids)]
		for i, k := range n.kids {
			t.Children[i] = a.add(k)
		}
	}
	return t
}

// pathsOf returns the k-paths of the tree of n, in the arena's memory.
func (a *treeArena) pathsOf(pt *grammar.PathTable, n *stree) grammar.PathSet {
	if a.paths == nil {
		a.paths = pt.NewPathSet()
	}
	clear(a.paths)
	pt.AddPaths(a.paths, a.tree(n))
	return a.paths
}
