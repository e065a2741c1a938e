package grammar

import (
	"fmt"
	"math/rand/v2"
	"unicode/utf8"
)

// Default bounds of a Generator.
const (
	DefaultMaxDepth  = 24
	DefaultMaxSize   = 2000
	DefaultMaxRepeat = 4
)

// A Generator derives random trees from a grammar graph within a depth and a
// size limit (TRIBBLE's Algorithm 2, bounded tree generation). It is
// deterministic: the same graph, settings and seed give the same trees in the
// same order. A Generator is not safe for concurrent use; create one per
// goroutine.
//
// The choices the paper leaves open are made as follows. Open slots are filled
// in random order. An alternation picks uniformly among the alternatives
// whose smallest completion fits both limits. A quantifier draws its count
// uniformly from Min..Min+MaxRepeat (capped at Max and at what the size limit
// still allows). A character class picks, with probability 1/2, uniformly
// among its printable ASCII members (if it has any) and otherwise uniformly
// among all its members.
type Generator struct {
	// MaxDepth bounds Tree.Depth: the number of nested nonterminal expansions.
	MaxDepth int
	// MaxSize bounds Tree.Size: the number of tree nodes.
	MaxSize int
	// MaxRepeat is how many repetitions beyond its minimum a quantifier may
	// draw.
	MaxRepeat int
	// Blocks makes the generator allocate the nodes and child lists of
	// its trees in blocks that consecutive trees share (see treeSlab):
	// far fewer allocations, but a tree kept long keeps its blocks (up to
	// 256 nodes) alive. It suits a caller that converts or drops every
	// tree soon, as the ISLa solver does.
	Blocks bool

	graph      *Graph
	rng        *rand.Rand
	queue      []slot
	slab       treeSlab // with Blocks: the nodes and child lists of its trees
	sizes      []int32  // Graph.sizeTable(sizesDepth)
	sizesDepth int
}

type slot struct {
	t     *Tree
	depth int // references strictly above t
}

// NewGenerator returns a generator over gr seeded with seed, with the default
// bounds: DefaultMaxDepth, DefaultMaxSize and DefaultMaxRepeat, each raised
// where the grammar's smallest input needs more (to four times its size and eight
// levels beyond its depth), so that the defaults work for every grammar.
func NewGenerator(gr *Graph, seed uint64) *Generator {
	return &Generator{
		MaxDepth:  max(DefaultMaxDepth, gr.Root.MinDepth+8),
		MaxSize:   max(DefaultMaxSize, 4*gr.Root.MinSize),
		MaxRepeat: DefaultMaxRepeat,
		graph:     gr,
		rng:       rand.New(rand.NewPCG(seed, genStream)),
	}
}

// Reseed makes g draw from now on what a new generator over the same graph
// seeded with seed would draw with g's bounds. It keeps what g has computed
// from the graph (the least completion sizes for its MaxDepth), which a new
// generator computes again on its first tree: a caller that generates a
// few trees per seed reseeds one generator instead of making one per seed.
func (g *Generator) Reseed(seed uint64) {
	g.rng = rand.New(rand.NewPCG(seed, genStream))
	g.queue = g.queue[:0]
}

// genStream is the stream of a generator's random numbers.
const genStream = 0x6b66757a7a

// Generate returns a random complete tree rooted at the graph's root.
func (g *Generator) Generate() (*Tree, error) { return g.GenerateFrom(g.graph.Root) }

// GenerateFrom returns a random complete tree rooted at node n, for example
// the right-hand side of any nonterminal (Graph.RHS).
func (g *Generator) GenerateFrom(n *Node) (*Tree, error) {
	t := NewOpen(n)
	if err := g.Complete(t); err != nil {
		return nil, err
	}
	return t, nil
}

// Complete fills every open slot of t with random derivations within the
// generator's limits, in place. The depth of an open slot counts the
// references above it in t. It fails, leaving t unchanged, if some open slot
// cannot be completed within the limits.
func (g *Generator) Complete(t *Tree) error {
	if g.sizes == nil || g.sizesDepth != g.MaxDepth {
		g.sizes, g.sizesDepth = g.graph.sizeTable(g.MaxDepth), g.MaxDepth
	}
	g.queue = g.queue[:0]
	closed, committed := 0, 0
	var walk func(u *Tree, depth int)
	walk = func(u *Tree, depth int) {
		if u.Open {
			g.queue = append(g.queue, slot{u, depth})
			committed = satAdd(committed, g.minSize(u.Node, depth))
			return
		}
		closed++
		if u.Node.Kind == KindRef {
			depth++
		}
		for _, c := range u.Children {
			walk(c, depth)
		}
	}
	walk(t, 0)
	for _, s := range g.queue {
		if g.minSize(s.t.Node, s.depth) >= inf {
			return fmt.Errorf("grammar: %s at depth %d cannot be completed within depth %d (it needs %d)",
				s.t.Node.Label(), s.depth, g.MaxDepth, s.depth+s.t.Node.MinDepth)
		}
	}
	if committed = satAdd(committed, closed); committed > g.MaxSize {
		return fmt.Errorf("grammar: the smallest completion has %d nodes, over the size limit %d", committed, g.MaxSize)
	}
	for len(g.queue) > 0 {
		i := g.rng.IntN(len(g.queue))
		s := g.queue[i]
		last := len(g.queue) - 1
		g.queue[i] = g.queue[last]
		g.queue = g.queue[:last]
		committed = g.expand(s, committed)
	}
	return nil
}

// minSize is the least size of a completion of n at the given depth within
// MaxDepth, or inf if there is none.
func (g *Generator) minSize(n *Node, depth int) int {
	budget := g.MaxDepth - depth
	if budget < 0 {
		return inf
	}
	v := g.sizes[n.ID*(g.MaxDepth+1)+budget]
	if v == inf32 {
		return inf
	}
	return int(v)
}

// sizeTable returns, for every node n and depth budget b in 0..maxDepth, the
// least size of a complete subtree rooted at n whose depth is at most b
// (inf32 if there is none), at index n.ID*(maxDepth+1)+b.
func (gr *Graph) sizeTable(maxDepth int) []int32 {
	if maxDepth < 0 {
		maxDepth = -1
	}
	w := maxDepth + 1
	tab := make([]int32, len(gr.Nodes)*w)
	at := func(n *Node, b int) int {
		if b < 0 {
			return inf
		}
		v := tab[n.ID*w+b]
		if v == inf32 {
			return inf
		}
		return int(v)
	}
	for b := 0; b <= maxDepth; b++ {
		// Children of synthetic nodes have higher IDs than their parents, and
		// references look at the budget below: one pass from the highest ID
		// settles the level.
		for i := len(gr.Nodes) - 1; i >= 0; i-- {
			n := gr.Nodes[i]
			v := inf
			switch n.Kind {
			case KindLit:
				v = 1
			case KindClass:
				if n.setCount > 0 {
					v = 1
				}
			case KindRef:
				v = satAdd(1, at(n.Children[0], b-1))
			case KindAlt:
				for _, c := range n.Children {
					v = min(v, at(c, b))
				}
				v = satAdd(v, 1)
			case KindSeq:
				v = 1
				for _, c := range n.Children {
					v = satAdd(v, at(c, b))
				}
			case KindRepeat:
				v = 1
				if n.Min > 0 {
					v = satAdd(1, satMul(n.Min, at(n.Children[0], b)))
				}
			}
			if v >= inf32 {
				tab[n.ID*w+b] = inf32
			} else {
				tab[n.ID*w+b] = int32(v)
			}
		}
	}
	return tab
}

const inf32 = 1<<31 - 1

// expand fills slot s with a random expansion that fits the limits, pushes
// the new open children and returns the new committed size.
func (g *Generator) expand(s slot, committed int) int {
	t, n := s.t, s.t.Node
	t.Open = false
	switch n.Kind {
	case KindLit:
		t.Value = n.Lit
	case KindClass:
		t.Value = g.pickChar(n)
	case KindRef:
		c := g.open(n.Children[0])
		t.Children = g.kids(1)
		t.Children[0] = c
		g.queue = append(g.queue, slot{c, s.depth + 1})
	case KindSeq:
		t.Children = g.kids(len(n.Children))
		for i, cn := range n.Children {
			c := g.open(cn)
			t.Children[i] = c
			g.queue = append(g.queue, slot{c, s.depth})
		}
	case KindAlt:
		// Alternatives cost what their smallest fitting completion adds to
		// the smallest completion of the slot; pick uniformly among those
		// that fit the room left.
		room := g.MaxSize - committed
		base := g.minSize(n, s.depth) - 1
		fits := 0
		for _, cn := range n.Children {
			if g.minSize(cn, s.depth)-base <= room {
				fits++
			}
		}
		k := g.rng.IntN(fits)
		for _, cn := range n.Children {
			if add := g.minSize(cn, s.depth) - base; add <= room {
				if k == 0 {
					c := g.open(cn)
					t.Children = g.kids(1)
					t.Children[0] = c
					g.queue = append(g.queue, slot{c, s.depth})
					committed += add
					break
				}
				k--
			}
		}
	case KindRepeat:
		cn := n.Children[0]
		hi := n.Min + g.MaxRepeat
		if n.Max != Unbounded {
			hi = min(hi, n.Max)
		}
		cs := g.minSize(cn, s.depth)
		if cs >= inf {
			hi = n.Min // only reachable with Min == 0, since the slot fitted
		} else if extra := (g.MaxSize - committed) / max(cs, 1); n.Min+extra < hi {
			hi = n.Min + extra
		}
		count := n.Min
		if hi > n.Min {
			count += g.rng.IntN(hi - n.Min + 1)
		}
		if count > n.Min {
			committed += (count - n.Min) * cs
		}
		if count > 0 {
			t.Children = g.kids(count)
		}
		for i := range count {
			c := g.open(cn)
			t.Children[i] = c
			g.queue = append(g.queue, slot{c, s.depth})
		}
	}
	return committed
}

// Recycle lets a generator with Blocks make its next trees in the memory
// of the trees it made since its last Recycle (or, the first time, from
// now on), which the caller must not use any more: a caller that converts
// every tree at once allocates nothing for them. Without Blocks it does
// nothing.
func (g *Generator) Recycle() {
	if g.Blocks {
		g.slab.rewind()
	}
}

// open returns a new open slot for node n.
func (g *Generator) open(n *Node) *Tree {
	if !g.Blocks {
		return &Tree{Node: n, Open: true}
	}
	c := g.slab.node(n)
	c.Open = true
	return c
}

// kids returns a new list of k children.
func (g *Generator) kids(k int) []*Tree {
	if !g.Blocks {
		return make([]*Tree, k)
	}
	return g.slab.children(k)[:k]
}

// pickChar chooses a member of a class node's set.
func (g *Generator) pickChar(n *Node) string {
	if !n.Class.Bytes && g.rng.IntN(2) == 0 {
		if printable := countIn(n.set, ' ', '~'); printable > 0 {
			return string(nthIn(n.set, ' ', '~', g.rng.IntN(printable)))
		}
	}
	return classChar(n, g.rng.IntN(n.setCount))
}

// classChar returns the i-th member of the class node's set as the bytes it
// derives.
func classChar(n *Node, i int) string {
	r := nthIn(n.set, 0, utf8.MaxRune, i)
	if n.Class.Bytes {
		return string([]byte{byte(r)})
	}
	return string(r)
}

// countIn counts the members of set within lo..hi.
func countIn(set []Range, lo, hi rune) int {
	c := 0
	for _, r := range set {
		a, b := max(r.Lo, lo), min(r.Hi, hi)
		if a <= b {
			c += int(b-a) + 1
		}
	}
	return c
}

// nthIn returns the i-th member of set within lo..hi.
func nthIn(set []Range, lo, hi rune, i int) rune {
	for _, r := range set {
		a, b := max(r.Lo, lo), min(r.Hi, hi)
		if a > b {
			continue
		}
		if w := int(b-a) + 1; i >= w {
			i -= w
			continue
		}
		return a + rune(i)
	}
	panic("grammar: class member index out of range")
}

// Shortest returns the smallest complete tree rooted at n: at every
// alternation the alternative with the fewest nodes (then the fewest bytes,
// then the first), every quantifier at its minimum, every class at its first
// member. It is TRIBBLE's terse close-off.
func Shortest(n *Node) *Tree {
	t := NewOpen(n)
	CloseShortest(t)
	return t
}

// CloseShortest fills every open slot of t, in place, with its smallest
// derivation, as Shortest does.
func CloseShortest(t *Tree) {
	if t.Open {
		t.Open = false
		n := t.Node
		switch n.Kind {
		case KindLit:
			t.Value = n.Lit
		case KindClass:
			t.Value = classChar(n, 0)
		case KindRef, KindSeq:
			t.Children = make([]*Tree, len(n.Children))
			for i, cn := range n.Children {
				t.Children[i] = NewOpen(cn)
			}
		case KindAlt:
			t.Children = []*Tree{NewOpen(shortestAlt(n))}
		case KindRepeat:
			if n.Min > 0 {
				t.Children = make([]*Tree, n.Min)
				for i := range t.Children {
					t.Children[i] = NewOpen(n.Children[0])
				}
			}
		}
	}
	for _, c := range t.Children {
		CloseShortest(c)
	}
}

func shortestAlt(n *Node) *Node {
	best := n.Children[0]
	for _, c := range n.Children[1:] {
		if c.MinSize < best.MinSize || (c.MinSize == best.MinSize && c.MinLen < best.MinLen) {
			best = c
		}
	}
	return best
}
