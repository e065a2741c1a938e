package solver

import (
	"fmt"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"slices"
	"unicode/utf8"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// Match expressions, for the solver, are pattern trees: the derivations,
// from the quantified nonterminal, of the pattern's text with its
// nonterminals as open leaves (holes). A node matches if a pattern tree is
// a prefix of its derivation tree, as ISLa defines matching (the
// validator's matching by text cuts is the same on complete trees). On an
// open tree, matching is three-valued: an open leaf where the pattern goes
// on below it may still match or not.

// ptree is a node of a pattern tree.
type ptree struct {
	g    *grammar.Node
	kids []*ptree
	val  string
	hole bool // an open leaf of the pattern: matches any subtree
	bind int  // for a hole, the binder index, or -1
}

// ptok is a token of a pattern: a byte of text or a nonterminal.
type ptok struct {
	b     byte
	hole  bool
	label string
	bind  int
}

// maxPatternTrees bounds the derivations of one pattern. A pattern with
// more derivations would make the solver miss matches, so it is an error.
const maxPatternTrees = 64

// patternTrees returns the pattern trees of a match expression for the
// nonterminal typ: the derivations of each variant.
func (s *Solver) patternTrees(m *isla.CompiledMatch, typ string) ([]*ptree, error) {
	rhs := s.spec.Graph().RHS(typ)
	if rhs == nil {
		return nil, fmt.Errorf("match expressions on <%s> are not supported by the solver", typ)
	}
	var out []*ptree
	for _, variant := range m.Variants {
		var toks []ptok
		for _, e := range variant {
			if e.Label < 0 {
				for i := 0; i < len(e.Lit); i++ {
					toks = append(toks, ptok{b: e.Lit[i], bind: -1})
				}
				continue
			}
			toks = append(toks, ptok{hole: true, label: s.spec.Labels().Names[e.Label], bind: e.Bind})
		}
		p := newPatternParser(s.spec.Graph(), rhs, toks)
		trees := p.derive(rhs, 0, len(toks), maxPatternTrees+1)
		if len(trees)+len(out) > maxPatternTrees {
			return nil, fmt.Errorf("a match expression on <%s> has more than %d derivations", typ, maxPatternTrees)
		}
		out = append(out, trees...)
	}
	return out, nil
}

type pkey struct {
	node *grammar.Node
	i    int
}

// patternParser finds the derivations of a token sequence, a sentential
// form of the grammar, with a chart of the ends each graph node can reach
// from each start, computed to a fixed point (the graph is cyclic).
type patternParser struct {
	toks  []ptok
	nodes []*grammar.Node
	ends  map[pkey][]int
	stack map[[3]int]bool
}

func newPatternParser(gr *grammar.Graph, root *grammar.Node, toks []ptok) *patternParser {
	p := &patternParser{toks: toks, ends: map[pkey][]int{}, stack: map[[3]int]bool{}}
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

func (p *patternParser) get(n *grammar.Node, i int) []int { return p.ends[pkey{n, i}] }

func addEnd(set []int, j int) []int {
	k, found := slices.BinarySearch(set, j)
	if found {
		return set
	}
	return slices.Insert(set, k, j)
}

// classEnd returns where a character of class n read at token i ends, or -1.
func (p *patternParser) classEnd(n *grammar.Node, i int) int {
	var buf []byte
	for k := i; k < len(p.toks) && k < i+utf8.UTFMax && !p.toks[k].hole; k++ {
		buf = append(buf, p.toks[k].b)
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

func (p *patternParser) compute(n *grammar.Node, i int) []int {
	var out []int
	toks := p.toks
	switch n.Kind {
	case grammar.KindLit:
		if i+len(n.Lit) > len(toks) {
			return nil
		}
		for k := 0; k < len(n.Lit); k++ {
			if toks[i+k].hole || toks[i+k].b != n.Lit[k] {
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
		if i < len(toks) && toks[i].hole && toks[i].label == n.Name {
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

func (p *patternParser) reaches(n *grammar.Node, i, j int) bool {
	_, ok := slices.BinarySearch(p.get(n, i), j)
	return ok
}

// derive returns up to limit derivation trees of tokens [i, j) from n.
func (p *patternParser) derive(n *grammar.Node, i, j, limit int) []*ptree {
	if limit <= 0 || !p.reaches(n, i, j) {
		return nil
	}
	key := [3]int{n.ID, i, j}
	if p.stack[key] {
		return nil // a cycle: derivations through it were found without it
	}
	p.stack[key] = true
	defer delete(p.stack, key)
	toks := p.toks
	var out []*ptree
	switch n.Kind {
	case grammar.KindLit:
		out = append(out, &ptree{g: n, val: n.Lit, bind: -1})
	case grammar.KindClass:
		b := make([]byte, j-i)
		for k := range b {
			b[k] = toks[i+k].b
		}
		out = append(out, &ptree{g: n, val: string(b), bind: -1})
	case grammar.KindRef:
		if j == i+1 && toks[i].hole && toks[i].label == n.Name {
			out = append(out, &ptree{g: n, hole: true, bind: toks[i].bind})
		}
		for _, sub := range p.derive(n.Children[0], i, j, limit-len(out)) {
			out = append(out, &ptree{g: n, kids: []*ptree{sub}, bind: -1})
		}
	case grammar.KindAlt:
		for _, c := range n.Children {
			for _, sub := range p.derive(c, i, j, limit-len(out)) {
				out = append(out, &ptree{g: n, kids: []*ptree{sub}, bind: -1})
			}
		}
	case grammar.KindSeq:
		for _, kids := range p.seq(n.Children, i, j, limit) {
			out = append(out, &ptree{g: n, kids: kids, bind: -1})
		}
	case grammar.KindRepeat:
		for _, kids := range p.rep(n, 0, i, j, limit) {
			out = append(out, &ptree{g: n, kids: kids, bind: -1})
		}
	}
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

// seqEnds reports whether the nodes cs can derive tokens [i, j) in order.
func (p *patternParser) seqCan(cs []*grammar.Node, i, j int) bool {
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

func (p *patternParser) seq(cs []*grammar.Node, i, j, limit int) [][]*ptree {
	if len(cs) == 0 {
		if i == j {
			return [][]*ptree{nil}
		}
		return nil
	}
	var out [][]*ptree
	for _, m := range p.get(cs[0], i) {
		if m > j || !p.seqCan(cs[1:], m, j) {
			continue
		}
		heads := p.derive(cs[0], i, m, limit-len(out))
		for _, h := range heads {
			for _, rest := range p.seq(cs[1:], m, j, limit-len(out)) {
				out = append(out, append([]*ptree{h}, rest...))
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
func (p *patternParser) rep(n *grammar.Node, k, i, j, limit int) [][]*ptree {
	var out [][]*ptree
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
		for _, h := range p.derive(c, i, m, limit-len(out)) {
			for _, rest := range p.rep(n, k+1, m, j, limit-len(out)) {
				out = append(out, append([]*ptree{h}, rest...))
				if len(out) >= limit {
					return out
				}
			}
		}
	}
	return out
}

// matchTree matches the pattern tree p against the node t at the same
// place: triTrue with the binders set in binds, triFalse if t can never
// match, triUnknown if open leaves of t decide.
func matchTree(p *ptree, t *stree, binds []int32) tri {
	if p.g != t.g {
		return triFalse
	}
	if p.hole {
		if p.bind >= 0 {
			binds[p.bind] = t.id
		}
		return triTrue
	}
	if t.open {
		return triUnknown
	}
	switch p.g.Kind {
	case grammar.KindLit:
		return triTrue
	case grammar.KindClass:
		return triOf(p.val == t.val)
	}
	if len(p.kids) != len(t.kids) {
		return triFalse
	}
	r := triTrue
	for i, k := range p.kids {
		switch matchTree(k, t.kids[i], binds) {
		case triFalse:
			return triFalse
		case triUnknown:
			r = triUnknown
		}
	}
	return r
}

// internalRefs adds the reference nodes inside pattern trees that are not
// holes: occurrences whose derivation a pattern fixes.
func internalRefs(p *ptree, set map[*grammar.Node]bool) {
	if p.hole {
		return
	}
	if p.g.Kind == grammar.KindRef {
		set[p.g] = true
	}
	for _, k := range p.kids {
		internalRefs(k, set)
	}
}
