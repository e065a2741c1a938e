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
// arena's memory (toTree's blocks, kept from tree to tree).
func (a *treeArena) tree(n *stree) *grammar.Tree {
	size := int(n.size)
	if cap(a.nodes) < size {
		a.nodes = make([]grammar.Tree, size)
		a.kids = make([]*grammar.Tree, size)
	}
	// Cleared up to the capacity: a larger tree before this one left
	// pointers there.
	clear(a.nodes[:cap(a.nodes)])
	clear(a.kids[:cap(a.kids)])
	b := treeBlocks{nodes: a.nodes[:size], kids: a.kids[:size]}
	return b.tree(n, nil)
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
