package solver

import (
	"strconv"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// The built-in predicate count(t, "<needle>", n) with a known n is solved
// in Go by deriving the open leaf of t that can still derive needles with
// exactly the number of needles missing: random sampling of the leaf rarely
// hits a count above a few. countTable holds, for one needle and bound k,
// which numbers of needles (0 to k) each graph node can derive.

// maxCountTarget bounds the needles a count-directed derivation makes.
const maxCountTarget = 1 << 10

// maxCountDepth bounds the depth of a count-directed derivation.
const maxCountDepth = 400

type countTable struct {
	needle string
	k      int
	ok     map[*grammar.Node][]bool
	has    map[*grammar.Node]bool // can derive a needle at all
}

func newCountTable(root *grammar.Node, needle string, k int) *countTable {
	t := &countTable{needle: needle, k: k, ok: map[*grammar.Node][]bool{}, has: map[*grammar.Node]bool{}}
	var nodes []*grammar.Node
	var collect func(n *grammar.Node)
	collect = func(n *grammar.Node) {
		if _, seen := t.ok[n]; seen {
			return
		}
		t.ok[n] = make([]bool, k+1)
		nodes = append(nodes, n)
		for _, c := range n.Children {
			collect(c)
		}
	}
	collect(root)
	for changed := true; changed; {
		changed = false
		for i := len(nodes) - 1; i >= 0; i-- {
			n := nodes[i]
			has := n.Kind == grammar.KindRef && n.Name == needle
			for _, c := range n.Children {
				has = has || t.has[c]
			}
			if has != t.has[n] {
				t.has[n] = has
				changed = true
			}
			next := t.compute(n)
			for j, v := range next {
				if v && !t.ok[n][j] {
					t.ok[n][j] = true
					changed = true
				}
			}
		}
	}
	return t
}

// sum returns the numbers a+b (up to k) for a in x and b in y.
func (t *countTable) sum(x, y []bool) []bool {
	out := make([]bool, t.k+1)
	for a, va := range x {
		if !va {
			continue
		}
		for b, vb := range y {
			if vb && a+b <= t.k {
				out[a+b] = true
			}
		}
	}
	return out
}

func (t *countTable) zero() []bool {
	z := make([]bool, t.k+1)
	z[0] = true
	return z
}

// maxReps bounds the repetitions of a quantifier a count-directed
// derivation makes.
func (t *countTable) maxReps(n *grammar.Node) int {
	m := n.Min + t.k + 2
	if n.Max != grammar.Unbounded {
		m = min(m, n.Max)
	}
	return m
}

// reps returns the numbers of needles reps from..maxReps repetitions of
// the quantifier n derive, with at least n.Min in all.
func (t *countTable) reps(n *grammar.Node, from int) []bool {
	elem := t.ok[n.Children[0]]
	cur, out := t.zero(), make([]bool, t.k+1)
	for m := 0; from+m <= t.maxReps(n); m++ {
		if from+m >= n.Min {
			for j, v := range cur {
				out[j] = out[j] || v
			}
		}
		cur = t.sum(cur, elem)
	}
	return out
}

func (t *countTable) compute(n *grammar.Node) []bool {
	switch n.Kind {
	case grammar.KindLit, grammar.KindClass:
		return t.zero()
	case grammar.KindRef:
		out := make([]bool, t.k+1)
		add := 0
		if n.Name == t.needle {
			add = 1
		}
		for j, v := range t.ok[n.Children[0]] {
			if v && j+add <= t.k {
				out[j+add] = true
			}
		}
		return out
	case grammar.KindAlt:
		out := make([]bool, t.k+1)
		for _, c := range n.Children {
			for j, v := range t.ok[c] {
				out[j] = out[j] || v
			}
		}
		return out
	case grammar.KindSeq:
		cur := t.zero()
		for _, c := range n.Children {
			cur = t.sum(cur, t.ok[c])
		}
		return cur
	case grammar.KindRepeat:
		return t.reps(n, 0)
	}
	return make([]bool, t.k+1)
}

// deriveCount returns a random tree of n with exactly j needles, nil if it
// finds none.
func (s *Solver) deriveCount(t *countTable, n *grammar.Node, j, depth int) *grammar.Tree {
	if j < 0 || j > t.k || !t.ok[n][j] || depth > maxCountDepth {
		return nil
	}
	if j == 0 && !t.has[n] {
		tr, err := s.gen.GenerateFrom(n)
		if err != nil {
			return nil
		}
		return tr
	}
	switch n.Kind {
	case grammar.KindRef:
		if n.Name == t.needle {
			j--
		}
		c := s.deriveCount(t, n.Children[0], j, depth+1)
		if c == nil {
			return nil
		}
		return &grammar.Tree{Node: n, Children: []*grammar.Tree{c}}
	case grammar.KindAlt:
		var opts []*grammar.Node
		for _, c := range n.Children {
			if t.ok[c][j] {
				opts = append(opts, c)
			}
		}
		if depth > maxCountDepth/2 {
			// Deep: the smallest alternatives, for the derivation to end.
			small := opts[:0:0]
			for _, c := range opts {
				if len(small) == 0 || c.MinSize < small[0].MinSize {
					small = append(small[:0], c)
				} else if c.MinSize == small[0].MinSize {
					small = append(small, c)
				}
			}
			opts = small
		}
		c := s.deriveCount(t, opts[s.rng.IntN(len(opts))], j, depth+1)
		if c == nil {
			return nil
		}
		return &grammar.Tree{Node: n, Children: []*grammar.Tree{c}}
	case grammar.KindSeq:
		// suffix[i]: the numbers children i.. derive together.
		suffix := make([][]bool, len(n.Children)+1)
		suffix[len(n.Children)] = t.zero()
		for i := len(n.Children) - 1; i >= 0; i-- {
			suffix[i] = t.sum(t.ok[n.Children[i]], suffix[i+1])
		}
		out := &grammar.Tree{Node: n}
		for i, c := range n.Children {
			a, ok := s.split(t.ok[c], suffix[i+1], j)
			if !ok {
				return nil
			}
			sub := s.deriveCount(t, c, a, depth+1)
			if sub == nil {
				return nil
			}
			out.Children = append(out.Children, sub)
			j -= a
		}
		return out
	case grammar.KindRepeat:
		out := &grammar.Tree{Node: n}
		elem := n.Children[0]
		for r := 0; ; r++ {
			if r >= n.Min && j == 0 && (r >= t.maxReps(n) || s.rng.IntN(2) == 0 || depth > maxCountDepth/2) {
				return out
			}
			if r >= t.maxReps(n) {
				return nil
			}
			a, ok := s.split(t.ok[elem], t.reps(n, r+1), j)
			if !ok {
				if r >= n.Min && j == 0 {
					return out
				}
				return nil
			}
			sub := s.deriveCount(t, elem, a, depth+1)
			if sub == nil {
				return nil
			}
			out.Children = append(out.Children, sub)
			j -= a
		}
	}
	return nil
}

// split chooses at random how many of j needles the first of two parts
// derives: a number the first can derive (in first) such that the second
// can derive the rest (in rest).
func (s *Solver) split(first, rest []bool, j int) (int, bool) {
	var picks []int
	for a := 0; a <= j; a++ {
		if first[a] && rest[j-a] {
			picks = append(picks, a)
		}
	}
	if len(picks) == 0 {
		return 0, false
	}
	return picks[s.rng.IntN(len(picks))], true
}

// solveCount derives the one open leaf of count's tree argument that can
// derive needles, so that the tree has the number of needles asked for.
// It reports progress, or a conflict if no derivation has that number.
func (r *cspRun) solveCount(c *evalCtx, it item, n *isla.CompiledPred) (progress, conflict bool) {
	if !c.readyExcept(it, n.Vars, n.Args[0].Slot) {
		return false, false
	}
	x, ok := it.env.lookup(n.Args[0].Slot)
	if !ok {
		return false, false
	}
	i, ok := c.idx.get(x)
	if !ok {
		return false, false
	}
	name, ok := cutNeedle(n.Args[1].Lit)
	if !ok {
		return false, false
	}
	label, ok := r.s.spec.Labels().IDs[name]
	if !ok {
		return false, false
	}
	c.bind(it)
	args, ok := c.predArgs(n, 0)
	if !ok || len(args[2].Num) > 7 {
		return false, false
	}
	want, err := strconv.Atoi(args[2].Num)
	if err != nil {
		return false, false
	}
	var leaf *stree
	have := 0
	for j := i; j < c.v.Nodes[i].End; j++ {
		if c.v.Nodes[j].Label == label {
			have++
		}
		if !c.isOpen(j) {
			continue
		}
		l := c.node(c.ids[j])
		if l == nil || !l.open || l == leaf {
			continue
		}
		if lbl := c.v.Nodes[j].Label; lbl == label || r.s.reach[lbl][label] {
			if leaf != nil {
				return false, false // several leaves: left to random values
			}
			leaf = l
		}
	}
	if leaf == nil {
		return false, false
	}
	target := want - have
	if target < 0 {
		return false, true
	}
	if target > maxCountTarget {
		return false, false
	}
	key := countKey{leaf.g.Children[0], name, target}
	tab := r.s.counts[key]
	if tab == nil {
		tab = newCountTable(leaf.g.Children[0], name, target)
		r.s.counts[key] = tab
	}
	r.random = true
	t := r.s.deriveCount(tab, leaf.g.Children[0], target, 0)
	if t == nil {
		return false, true
	}
	r.assignLeaf(leaf, mkNode(leaf.id, leaf.g, []*stree{r.s.ids.fromTree(t, nil)}, "", false))
	return true, false
}

type countKey struct {
	root   *grammar.Node
	needle string
	k      int
}

func cutNeedle(s string) (string, bool) {
	if len(s) > 2 && s[0] == '<' && s[len(s)-1] == '>' {
		return s[1 : len(s)-1], true
	}
	return "", false
}
