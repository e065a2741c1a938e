// Package pattern derives match expressions of ISLa: the derivation trees,
// from a nonterminal, of a sentential form, a sequence of bytes and
// nonterminals (the match expression's holes). The compiler uses it to
// reject match expressions that can never match, the solver to match and
// build trees.
package pattern

import (
	"slices"
	"unicode/utf8"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// Tree is a node of a pattern tree.
type Tree struct {
	G    *grammar.Node // the grammar node derived
	Kids []*Tree       // the derivations of its children
	Val  string        // a literal's or a character class's text
	Hole bool          // an open leaf of the pattern: matches any subtree
	Bind int           // for a hole, the binder index, or -1
}

// Token is a token of a pattern: a byte of text or a nonterminal.
type Token struct {
	B     byte   // the byte, unless Hole
	Hole  bool   // a nonterminal
	Label string // the nonterminal's name
	Bind  int    // the binder index of the nonterminal, or -1
}

// AppendText appends the bytes of text to toks.
func AppendText(toks []Token, text string) []Token {
	for i := 0; i < len(text); i++ {
		toks = append(toks, Token{B: text[i], Bind: -1})
	}
	return toks
}

type pkey struct {
	node *grammar.Node
	i    int
}

// A Parser finds the derivations of a token sequence, a sentential
// form of the grammar, with a chart of the ends each graph node can reach
// from each start, computed to a fixed point (the graph is cyclic).
type Parser struct {
	toks  []Token
	nodes []*grammar.Node
	ends  map[pkey][]int
	stack map[[3]int]bool
}

// NewParser computes which tokens each node of the graph below root can
// derive from each position.
func NewParser(gr *grammar.Graph, root *grammar.Node, toks []Token) *Parser {
	p := &Parser{toks: toks, ends: map[pkey][]int{}, stack: map[[3]int]bool{}}
	seen := map[*grammar.Node]bool{}
	var collect func(n *grammar.Node)
	collect = func(n *grammar.Node) {
		if seen[n] {
			return
		}
		seen[n] = true
		p.nodes = append(p.nodes, n)
		for _, c := range n.Children {
			collect(c)
		}
	}
	collect(root)
	for changed := true; changed; {
		changed = false
		for k := len(p.nodes) - 1; k >= 0; k-- {
			n := p.nodes[k]
			for i := 0; i <= len(toks); i++ {
				e := p.compute(n, i)
				if !slices.Equal(e, p.ends[pkey{n, i}]) {
					p.ends[pkey{n, i}] = e
					changed = true
				}
			}
		}
	}
	return p
}

func (p *Parser) get(n *grammar.Node, i int) []int { return p.ends[pkey{n, i}] }

func addEnd(set []int, j int) []int {
	k, found := slices.BinarySearch(set, j)
	if found {
		return set
	}
	return slices.Insert(set, k, j)
}

// classEnd returns where a character of class n read at token i ends, or -1.
func (p *Parser) classEnd(n *grammar.Node, i int) int {
	var buf []byte
	for k := i; k < len(p.toks) && k < i+utf8.UTFMax && !p.toks[k].Hole; k++ {
		buf = append(buf, p.toks[k].B)
	}
	if len(buf) == 0 {
		return -1
	}
	if n.Class.Bytes {
		if n.ClassIndex(string(buf[:1])) >= 0 {
			return i + 1
		}
		return -1
	}
	r, size := utf8.DecodeRune(buf)
	if r == utf8.RuneError && size <= 1 {
		return -1
	}
	if n.ClassIndex(string(buf[:size])) >= 0 {
		return i + size
	}
	return -1
}

func (p *Parser) compute(n *grammar.Node, i int) []int {
	var out []int
	toks := p.toks
	switch n.Kind {
	case grammar.KindLit:
		if i+len(n.Lit) > len(toks) {
			return nil
		}
		for k := 0; k < len(n.Lit); k++ {
			if toks[i+k].Hole || toks[i+k].B != n.Lit[k] {
				return nil
			}
		}
		return []int{i + len(n.Lit)}
	case grammar.KindClass:
		if j := p.classEnd(n, i); j >= 0 {
			return []int{j}
		}
		return nil
	case grammar.KindRef:
		if i < len(toks) && toks[i].Hole && toks[i].Label == n.Name {
			out = []int{i + 1}
		}
		for _, j := range p.get(n.Children[0], i) {
			out = addEnd(out, j)
		}
	case grammar.KindAlt:
		for _, c := range n.Children {
			for _, j := range p.get(c, i) {
				out = addEnd(out, j)
			}
		}
	case grammar.KindSeq:
		cur := []int{i}
		for _, c := range n.Children {
			var next []int
			for _, m := range cur {
				for _, j := range p.get(c, m) {
					next = addEnd(next, j)
				}
			}
			cur = next
			if len(cur) == 0 {
				return nil
			}
		}
		out = cur
	case grammar.KindRepeat:
		cur := []int{i}
		if n.Min == 0 {
			out = []int{i}
		}
		limit := n.Min + len(toks) + 1
		for k := 1; len(cur) > 0 && (n.Max == grammar.Unbounded || k <= n.Max) && k <= limit; k++ {
			var next []int
			for _, m := range cur {
				for _, j := range p.get(n.Children[0], m) {
					next = addEnd(next, j)
				}
			}
			cur = next
			if k >= n.Min {
				for _, j := range cur {
					out = addEnd(out, j)
				}
			}
		}
	}
	return out
}

// Reaches reports whether n derives tokens [i, j).
func (p *Parser) Reaches(n *grammar.Node, i, j int) bool {
	_, ok := slices.BinarySearch(p.get(n, i), j)
	return ok
}

// Derive returns up to limit derivation trees of tokens [i, j) from n.
func (p *Parser) Derive(n *grammar.Node, i, j, limit int) []*Tree {
	if limit <= 0 || !p.Reaches(n, i, j) {
		return nil
	}
	key := [3]int{n.ID, i, j}
	if p.stack[key] {
		return nil // a cycle: derivations through it were found without it
	}
	p.stack[key] = true
	defer delete(p.stack, key)
	toks := p.toks
	var out []*Tree
	switch n.Kind {
	case grammar.KindLit:
		out = append(out, &Tree{G: n, Val: n.Lit, Bind: -1})
	case grammar.KindClass:
		b := make([]byte, j-i)
		for k := range b {
			b[k] = toks[i+k].B
		}
		out = append(out, &Tree{G: n, Val: string(b), Bind: -1})
	case grammar.KindRef:
		if j == i+1 && toks[i].Hole && toks[i].Label == n.Name {
			out = append(out, &Tree{G: n, Hole: true, Bind: toks[i].Bind})
		}
		for _, sub := range p.Derive(n.Children[0], i, j, limit-len(out)) {
			out = append(out, &Tree{G: n, Kids: []*Tree{sub}, Bind: -1})
		}
	case grammar.KindAlt:
		for _, c := range n.Children {
			for _, sub := range p.Derive(c, i, j, limit-len(out)) {
				out = append(out, &Tree{G: n, Kids: []*Tree{sub}, Bind: -1})
			}
		}
	case grammar.KindSeq:
		for _, kids := range p.seq(n.Children, i, j, limit) {
			out = append(out, &Tree{G: n, Kids: kids, Bind: -1})
		}
	case grammar.KindRepeat:
		for _, kids := range p.rep(n, 0, i, j, limit) {
			out = append(out, &Tree{G: n, Kids: kids, Bind: -1})
		}
	}
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

// seqEnds reports whether the nodes cs can derive tokens [i, j) in order.
func (p *Parser) seqCan(cs []*grammar.Node, i, j int) bool {
	if len(cs) == 0 {
		return i == j
	}
	for _, m := range p.get(cs[0], i) {
		if m <= j && p.seqCan(cs[1:], m, j) {
			return true
		}
	}
	return false
}

func (p *Parser) seq(cs []*grammar.Node, i, j, limit int) [][]*Tree {
	if len(cs) == 0 {
		if i == j {
			return [][]*Tree{nil}
		}
		return nil
	}
	var out [][]*Tree
	for _, m := range p.get(cs[0], i) {
		if m > j || !p.seqCan(cs[1:], m, j) {
			continue
		}
		heads := p.Derive(cs[0], i, m, limit-len(out))
		for _, h := range heads {
			for _, rest := range p.seq(cs[1:], m, j, limit-len(out)) {
				out = append(out, append([]*Tree{h}, rest...))
				if len(out) >= limit {
					return out
				}
			}
		}
	}
	return out
}

// rep derives tokens [i, j) as repetitions number k+1, k+2, ... of a
// quantifier's element.
func (p *Parser) rep(n *grammar.Node, k, i, j, limit int) [][]*Tree {
	var out [][]*Tree
	if i == j && k >= n.Min {
		out = append(out, nil)
	}
	if n.Max != grammar.Unbounded && k >= n.Max {
		return out
	}
	c := n.Children[0]
	for _, m := range p.get(c, i) {
		if m > j || m == i && k >= n.Min {
			continue
		}
		for _, h := range p.Derive(c, i, m, limit-len(out)) {
			for _, rest := range p.rep(n, k+1, m, j, limit-len(out)) {
				out = append(out, append([]*Tree{h}, rest...))
				if len(out) >= limit {
					return out
				}
			}
		}
	}
	return out
}
