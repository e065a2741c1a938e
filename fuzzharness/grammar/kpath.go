package grammar

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
)

// A KPath is a sequence of symbol IDs (indexes into Graph.Symbols): a path in
// the grammar graph or in a derivation tree that starts and ends at symbolic
// nodes and passes only synthetic nodes in between (TRIBBLE, Definition 3.1).
// Its length is its number of symbols, k.
type KPath []int32

// String formats the path with symbol labels, e.g. <AddExpr>#0 -> "+"#10.
func (p KPath) Format(gr *Graph) string {
	var b strings.Builder
	for i, s := range p {
		if i > 0 {
			b.WriteString(" -> ")
		}
		b.WriteString(gr.Symbols[s].String())
	}
	return b.String()
}

// successors returns, for every symbol, the symbols that can follow it in a
// k-path: the symbolic nodes reachable from one of its nodes through
// synthetic nodes only. The lists are sorted and free of duplicates.
func (gr *Graph) successors() [][]int32 {
	succ := make([][]int32, len(gr.Symbols))
	for _, sym := range gr.Symbols {
		var out []int32
		for _, n := range sym.Nodes {
			for _, c := range n.Children {
				out = appendSymbolic(out, c)
			}
		}
		slices.Sort(out)
		succ[sym.ID] = slices.Compact(out)
	}
	return succ
}

// appendSymbolic appends the symbols of the nearest symbolic nodes at or below
// n, not looking past symbolic nodes.
func appendSymbolic(out []int32, n *Node) []int32 {
	if n.Symbolic() {
		return append(out, int32(n.Sym))
	}
	for _, c := range n.Children {
		out = appendSymbolic(out, c)
	}
	return out
}

// CountKPaths returns |paths_k(G)|, the number of distinct k-paths of the
// graph, without enumerating them. The count saturates at math.MaxUint64.
func (gr *Graph) CountKPaths(k int) uint64 {
	if k < 1 {
		return 0
	}
	succ := gr.successors()
	count := make([]uint64, len(gr.Symbols)) // paths of length l starting at s
	for i := range count {
		count[i] = 1
	}
	for l := 2; l <= k; l++ {
		next := make([]uint64, len(count))
		for s, ss := range succ {
			var sum uint64
			for _, t := range ss {
				var carry uint64
				sum, carry = bits.Add64(sum, count[t], 0)
				if carry != 0 {
					sum = math.MaxUint64
					break
				}
			}
			next[s] = sum
		}
		count = next
	}
	var total uint64
	for _, c := range count {
		var carry uint64
		if total, carry = bits.Add64(total, c, 0); carry != 0 {
			return math.MaxUint64
		}
	}
	return total
}

// MaxPathTable is the largest number of paths a PathTable may hold.
const MaxPathTable = 1 << 24

// A PathTable interns paths_l(G) for every l from 1 to K: each l-path of the
// graph has a dense ID. IDs are ordered by length, then lexicographically by
// symbol IDs, so the l-paths have consecutive IDs. A PathTable is immutable
// and safe for concurrent use.
type PathTable struct {
	Graph *Graph
	K     int

	start []int32   // start[l-1]: first ID of length l; start[K] = total
	sym   []int32   // last symbol of each path
	pre   []int32   // ID of the path without its last symbol, -1 for 1-paths
	next  [][]int32 // next[id]: IDs of the extensions of path id, sorted by last symbol
	succ  [][]int32 // successor symbols of each symbol
}

// PathTable returns the table of all l-paths of the graph for l = 1..k,
// building it on first use. It fails if the table would hold more than
// MaxPathTable paths.
func (gr *Graph) PathTable(k int) (*PathTable, error) {
	if k < 1 {
		return nil, fmt.Errorf("grammar: k must be at least 1, not %d", k)
	}
	gr.kpathMu.Lock()
	defer gr.kpathMu.Unlock()
	if pt := gr.kpaths[k]; pt != nil {
		return pt, nil
	}
	var total uint64
	for l := 1; l <= k; l++ {
		c := gr.CountKPaths(l)
		if c > MaxPathTable || total+c > MaxPathTable {
			return nil, fmt.Errorf("grammar: the graph has %d %d-paths, more than a table holds (%d)", c, l, MaxPathTable)
		}
		if c == 0 {
			break // no longer paths either
		}
		total += c
	}
	pt := &PathTable{Graph: gr, K: k, succ: gr.successors()}
	pt.sym = make([]int32, 0, total)
	pt.pre = make([]int32, 0, total)
	for s := range gr.Symbols {
		pt.sym = append(pt.sym, int32(s))
		pt.pre = append(pt.pre, -1)
	}
	pt.start = []int32{0, int32(len(gr.Symbols))}
	for l := 2; l <= k; l++ {
		for id := pt.start[l-2]; id < pt.start[l-1]; id++ {
			for _, t := range pt.succ[pt.sym[id]] {
				pt.sym = append(pt.sym, t)
				pt.pre = append(pt.pre, id)
			}
		}
		pt.start = append(pt.start, int32(len(pt.sym)))
	}
	pt.next = make([][]int32, len(pt.sym))
	for id := pt.start[1]; id < int32(len(pt.sym)); id++ {
		p := pt.pre[id]
		pt.next[p] = append(pt.next[p], id)
	}
	if gr.kpaths == nil {
		gr.kpaths = map[int]*PathTable{}
	}
	gr.kpaths[k] = pt
	return pt, nil
}

// Count returns |paths_l(G)|, the number of l-paths in the table (0 if l is
// out of 1..K).
func (pt *PathTable) Count(l int) int {
	if l < 1 || l > pt.K {
		return 0
	}
	return int(pt.start[l] - pt.start[l-1])
}

// Len returns the total number of paths in the table, of all lengths.
func (pt *PathTable) Len() int { return len(pt.sym) }

// Range returns the IDs of the l-paths: lo <= id < hi.
func (pt *PathTable) Range(l int) (lo, hi int) {
	if l < 1 || l > pt.K {
		return 0, 0
	}
	return int(pt.start[l-1]), int(pt.start[l])
}

// Length returns the number of symbols of path id.
func (pt *PathTable) Length(id int) int {
	l, _ := slices.BinarySearch(pt.start, int32(id)+1)
	return l
}

// Path returns path id as symbols.
func (pt *PathTable) Path(id int) KPath {
	p := make(KPath, pt.Length(id))
	for i, x := len(p)-1, int32(id); i >= 0; i, x = i-1, pt.pre[x] {
		p[i] = pt.sym[x]
	}
	return p
}

// Prefix returns the ID of path id without its last symbol, or -1 for a
// 1-path.
func (pt *PathTable) Prefix(id int) int { return int(pt.pre[id]) }

// ID returns the ID of path p, and whether p is a path of the graph with
// length at most K.
func (pt *PathTable) ID(p KPath) (int, bool) {
	if len(p) == 0 || len(p) > pt.K || p[0] < 0 || int(p[0]) >= len(pt.Graph.Symbols) {
		return 0, false
	}
	id := p[0]
	for _, s := range p[1:] {
		var ok bool
		if id, ok = pt.extend(id, s); !ok {
			return 0, false
		}
	}
	return int(id), true
}

// extend returns the ID of path id followed by symbol s.
func (pt *PathTable) extend(id, s int32) (int32, bool) {
	next := pt.next[id]
	i, ok := slices.BinarySearchFunc(next, s, func(x, s int32) int { return int(pt.sym[x] - s) })
	if !ok {
		return 0, false
	}
	return next[i], true
}

// A PathSet is a set of path IDs of one PathTable, as a bitset.
type PathSet []uint64

// NewPathSet returns an empty set for the paths of pt.
func (pt *PathTable) NewPathSet() PathSet { return make(PathSet, (pt.Len()+63)/64) }

// Add adds id to the set.
func (s PathSet) Add(id int) { s[id>>6] |= 1 << (id & 63) }

// Has reports whether id is in the set.
func (s PathSet) Has(id int) bool { return s[id>>6]&(1<<(id&63)) != 0 }

// Union adds all members of t to s. Both must come from the same table.
func (s PathSet) Union(t PathSet) {
	for i := range s {
		s[i] |= t[i]
	}
}

// CountRange returns the number of members in lo <= id < hi.
func (s PathSet) CountRange(lo, hi int) int {
	n := 0
	for id := lo; id < hi; {
		if id&63 == 0 && id+64 <= hi {
			n += bits.OnesCount64(s[id>>6])
			id += 64
			continue
		}
		if s.Has(id) {
			n++
		}
		id++
	}
	return n
}

// IDs returns the members in increasing order.
func (s PathSet) IDs() []int {
	var ids []int
	for w, word := range s {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			ids = append(ids, w*64+b)
			word &^= 1 << b
		}
	}
	return ids
}

// Paths returns the set of all paths of length 1..K in the tree. For a
// complete tree derived from the table's graph every path is found; paths
// through open slots end at the slot.
func (pt *PathTable) Paths(t *Tree) PathSet {
	s := pt.NewPathSet()
	pt.AddPaths(s, t)
	return s
}

// AddPaths adds all paths of length 1..K in the tree to s.
func (pt *PathTable) AddPaths(s PathSet, t *Tree) {
	var stack []*Tree
	t.Walk(func(u *Tree) bool {
		if u.Node.Symbolic() {
			id := int32(u.Node.Sym)
			s.Add(int(id))
			if pt.K > 1 && !u.Open {
				stack = pt.descend(s, u, id, 2, stack)
			}
		}
		return true
	})
}

// descend adds the extensions of path id (of length l-1, ending at tree node
// u) by the symbolic nodes below u.
func (pt *PathTable) descend(s PathSet, u *Tree, id int32, l int, stack []*Tree) []*Tree {
	base := len(stack)
	for i := len(u.Children) - 1; i >= 0; i-- {
		stack = append(stack, u.Children[i])
	}
	for len(stack) > base {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !v.Node.Symbolic() {
			for i := len(v.Children) - 1; i >= 0; i-- {
				stack = append(stack, v.Children[i])
			}
			continue
		}
		ext, ok := pt.extend(id, int32(v.Node.Sym))
		if !ok {
			continue // the tree does not belong to this graph
		}
		s.Add(int(ext))
		if l < pt.K && !v.Open {
			stack = pt.descend(s, v, ext, l+1, stack)
		}
	}
	return stack
}

// Coverage returns how many of the graph's k-paths the trees contain together
// and how many k-paths the graph has (TRIBBLE, Definitions 3.3 and 3.4):
// pathcov_k = covered / total. k must be at most K.
func (pt *PathTable) Coverage(k int, trees ...*Tree) (covered, total int) {
	s := pt.NewPathSet()
	for _, t := range trees {
		pt.AddPaths(s, t)
	}
	lo, hi := pt.Range(k)
	return s.CountRange(lo, hi), hi - lo
}
