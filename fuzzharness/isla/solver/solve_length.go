package solver

import (
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
	"math/bits"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// Deriving a nonterminal with a given length: for every graph node, the set
// of lengths (in characters, up to a bound) its complete subtrees can have,
// computed to a fixed point; then a random derivation top down, choosing at
// every alternative, concatenation and repetition only among the choices
// that can still reach the length.

// lenSet is a set of lengths 0..bound as a bitset.
type lenSet []uint64

func newLenSet(bound int) lenSet { return make(lenSet, bound/64+1) }

func (s lenSet) has(n int) bool { return n >= 0 && n/64 < len(s) && s[n/64]&(1<<(n%64)) != 0 }
func (s lenSet) add(n int) {
	if n >= 0 && n/64 < len(s) {
		s[n/64] |= 1 << (n % 64)
	}
}

func (s lenSet) equal(t lenSet) bool {
	for i := range s {
		if s[i] != t[i] {
			return false
		}
	}
	return true
}

// conv returns {a+b : a in s, b in t, a+b <= bound}.
func (s lenSet) conv(t lenSet, bound int) lenSet {
	out := newLenSet(bound)
	for i, w := range s {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			w &^= 1 << b
			a := i*64 + b
			for j, v := range t {
				for v != 0 {
					c := bits.TrailingZeros64(v)
					v &^= 1 << c
					if a+j*64+c > bound {
						break
					}
					out.add(a + j*64 + c)
				}
			}
		}
	}
	return out
}

func (s lenSet) members() []int {
	var out []int
	for i, w := range s {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			w &^= 1 << b
			out = append(out, i*64+b)
		}
	}
	return out
}

// lengthTable holds the length sets of the nodes below one nonterminal.
type lengthTable struct {
	bound int
	sets  map[*grammar.Node]lenSet
	suf   map[*grammar.Node][]lenSet // Seq: the lengths of children i..
	reps  map[*grammar.Node][]lenSet // Repeat: the lengths of k repetitions
}

// maxLengthBound bounds the lengths the solver derives this way.
const maxLengthBound = 4096

func (s *Solver) lengthTable(rhs *grammar.Node, bound int) *lengthTable {
	key := lengthKey{rhs, bound}
	if lt, ok := s.lengths[key]; ok {
		return lt
	}
	lt := &lengthTable{bound: bound, sets: map[*grammar.Node]lenSet{}, suf: map[*grammar.Node][]lenSet{}, reps: map[*grammar.Node][]lenSet{}}
	var nodes []*grammar.Node
	seen := map[*grammar.Node]bool{}
	var collect func(n *grammar.Node)
	collect = func(n *grammar.Node) {
		if seen[n] {
			return
		}
		seen[n] = true
		nodes = append(nodes, n)
		lt.sets[n] = newLenSet(bound)
		for _, c := range n.Children {
			collect(c)
		}
	}
	collect(rhs)
	for changed := true; changed; {
		changed = false
		for k := len(nodes) - 1; k >= 0; k-- {
			n := nodes[k]
			v := lt.compute(n)
			if !v.equal(lt.sets[n]) {
				lt.sets[n] = v
				changed = true
			}
		}
	}
	if s.lengths == nil {
		s.lengths = map[lengthKey]*lengthTable{}
	}
	s.lengths[key] = lt
	return lt
}

type lengthKey struct {
	n     *grammar.Node
	bound int
}

func (lt *lengthTable) compute(n *grammar.Node) lenSet {
	out := newLenSet(lt.bound)
	switch n.Kind {
	case grammar.KindLit:
		out.add(smtlib.RuneCount(smtlib.FromBytes(n.Lit)))
	case grammar.KindClass:
		if n.ClassLen() > 0 {
			out.add(1)
		}
	case grammar.KindRef:
		copy(out, lt.sets[n.Children[0]])
	case grammar.KindAlt:
		for _, c := range n.Children {
			for i, w := range lt.sets[c] {
				out[i] |= w
			}
		}
	case grammar.KindSeq:
		suf := make([]lenSet, len(n.Children)+1)
		suf[len(n.Children)] = newLenSet(lt.bound)
		suf[len(n.Children)].add(0)
		for i := len(n.Children) - 1; i >= 0; i-- {
			suf[i] = lt.sets[n.Children[i]].conv(suf[i+1], lt.bound)
		}
		lt.suf[n] = suf
		copy(out, suf[0])
	case grammar.KindRepeat:
		f := lt.sets[n.Children[0]]
		cur := newLenSet(lt.bound)
		cur.add(0)
		reps := []lenSet{cur}
		limit := n.Min + lt.bound + 1
		for k := 1; (n.Max == grammar.Unbounded || k <= n.Max) && k <= limit; k++ {
			next := cur.conv(f, lt.bound)
			reps = append(reps, next)
			if k > n.Min && next.equal(cur) {
				break
			}
			cur = next
		}
		lt.reps[n] = reps
		for k := n.Min; k < len(reps); k++ {
			for i, w := range reps[k] {
				out[i] |= w
			}
		}
	}
	return out
}

// deriveLength derives the open leaf l with a length in [lo, hi] (hi < 0:
// at most lo+8), chosen at random among the lengths it can have.
func (s *Solver) deriveLength(l *stree, lo, hi int) (*stree, bool) {
	top := hi
	if top < 0 {
		top = lo + 8
	}
	top = min(top, maxLengthBound)
	if lo > top {
		return nil, false
	}
	rhs := l.g.Children[0]
	lt := s.lengthTable(rhs, top)
	var choices []int
	for _, n := range lt.sets[rhs].members() {
		if n >= lo && n <= top {
			choices = append(choices, n)
		}
	}
	if len(choices) == 0 {
		return nil, false
	}
	n := choices[s.rng.IntN(len(choices))]
	t, ok := s.sampleLength(lt, rhs, n, 0)
	if !ok {
		return nil, false
	}
	return mkNode(l.id, l.g, []*stree{s.ids.fromTree(t, nil)}, "", false), true
}

// maxSampleDepth bounds the recursion of sampleLength.
const maxSampleDepth = 200

// sampleLength derives a random tree of exactly n characters from node g.
func (s *Solver) sampleLength(lt *lengthTable, g *grammar.Node, n, depth int) (*grammar.Tree, bool) {
	if depth > maxSampleDepth || !lt.sets[g].has(n) {
		return nil, false
	}
	t := &grammar.Tree{Node: g}
	switch g.Kind {
	case grammar.KindLit:
		t.Value = g.Lit
	case grammar.KindClass:
		t.Value = g.ClassMember(s.rng.IntN(g.ClassLen()))
	case grammar.KindRef:
		c, ok := s.sampleLength(lt, g.Children[0], n, depth+1)
		if !ok {
			return nil, false
		}
		t.Children = []*grammar.Tree{c}
	case grammar.KindAlt:
		var fit []*grammar.Node
		for _, c := range g.Children {
			if lt.sets[c].has(n) {
				fit = append(fit, c)
			}
		}
		s.rng.Shuffle(len(fit), func(a, b int) { fit[a], fit[b] = fit[b], fit[a] })
		// Prefer alternatives that do not recurse deeply.
		for _, c := range fit {
			if sub, ok := s.sampleLength(lt, c, n, depth+1); ok {
				t.Children = []*grammar.Tree{sub}
				return t, true
			}
		}
		return nil, false
	case grammar.KindSeq:
		suf := lt.suf[g]
		rest := n
		for i, c := range g.Children {
			var splits []int
			for _, a := range lt.sets[c].members() {
				if a <= rest && suf[i+1].has(rest-a) {
					splits = append(splits, a)
				}
			}
			if len(splits) == 0 {
				return nil, false
			}
			a := splits[s.rng.IntN(len(splits))]
			sub, ok := s.sampleLength(lt, c, a, depth+1)
			if !ok {
				return nil, false
			}
			t.Children = append(t.Children, sub)
			rest -= a
		}
	case grammar.KindRepeat:
		reps := lt.reps[g]
		var counts []int
		for k := g.Min; k < len(reps); k++ {
			if reps[k].has(n) {
				counts = append(counts, k)
			}
		}
		if len(counts) == 0 {
			return nil, false
		}
		k := counts[s.rng.IntN(len(counts))]
		rest := n
		f := lt.sets[g.Children[0]]
		for i := k; i > 0; i-- {
			var splits []int
			for _, a := range f.members() {
				if a <= rest && reps[i-1].has(rest-a) {
					splits = append(splits, a)
				}
			}
			if len(splits) == 0 {
				return nil, false
			}
			a := splits[s.rng.IntN(len(splits))]
			sub, ok := s.sampleLength(lt, g.Children[0], a, depth+1)
			if !ok {
				return nil, false
			}
			t.Children = append(t.Children, sub)
			rest -= a
		}
	}
	return t, true
}
