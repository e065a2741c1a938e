package grammar

import (
	"fmt"
	"math"
	"math/bits"
	"sync/atomic"
	"unicode/utf8"
)

// This file compiles a grammar graph into the internal context-free grammar
// the Earley parser runs on: byte-level terminals, productions whose
// right-hand sides are flat lists of symbols, and for every production a
// template that rebuilds the graph-level derivation tree from the
// production's children.
//
// Graph nodes map to the internal grammar as follows:
//
//   - a literal becomes one byte terminal per byte, in the production that
//     holds it;
//   - a byte class, or a rune class of ASCII characters only, becomes one
//     terminal (a set of bytes); any other rune class becomes a nonterminal
//     with one production per UTF-8 byte-range sequence of its members;
//   - a concatenation is inlined into the production that holds it;
//   - an alternation becomes a nonterminal with one production per
//     alternative (nested alternations are flattened into it);
//   - a quantifier becomes a list nonterminal that derives the flat list of
//     repetitions: left-recursive for an unbounded maximum, a chain of
//     right-recursive helpers for a bounded one;
//   - a reference wraps the right-hand side of its rule, which is inlined when
//     it is a single symbol and otherwise becomes a nonterminal shared by all
//     references.
//
// Unit productions X -> Y are then replaced by Y's productions where Y has
// few of them, which saves one Earley item per level of nesting.

// A byteSet is a set of byte values.
type byteSet [4]uint64

func (s *byteSet) has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }
func (s *byteSet) add(b byte)      { s[b>>6] |= 1 << (b & 63) }
func (s *byteSet) addRange(lo, hi byte) {
	for c := int(lo); c <= int(hi); c++ {
		s.add(byte(c))
	}
}
func (s *byteSet) union(t *byteSet) bool {
	changed := false
	for i := range s {
		if u := s[i] | t[i]; u != s[i] {
			s[i] = u
			changed = true
		}
	}
	return changed
}

// Template operations. A production's template, run over the values of its
// right-hand side positions, yields the list of graph-level trees that the
// production derives: one tree for a node nonterminal, any number for a list
// nonterminal.
const (
	opOpen  uint8 = iota // open a tree node for graph node node
	opClose              // close the innermost open tree node
	opSlot               // splice the trees of the nonterminal at position a
	opLit                // a leaf for the literal node
	opSpan               // a leaf for the class node whose text is positions a..b-1
)

type tmplOp struct {
	code uint8
	node int32 // graph node ID for opOpen, opLit, opSpan
	a, b int32 // right-hand side positions
}

// A cprod is a production under construction.
type cprod struct {
	lhs    int32
	rhs    []int32 // >= 0: nonterminal; < 0: ^terminal
	labels []int32 // for terminal positions the graph node (literal or class) they belong to; -1 for nonterminals
	ops    []tmplOp
	mult   int // how many productions inlining made of the original one
}

func (p *cprod) open(n *Node) { p.ops = append(p.ops, tmplOp{code: opOpen, node: int32(n.ID)}) }
func (p *cprod) close()       { p.ops = append(p.ops, tmplOp{code: opClose}) }
func (p *cprod) slot(nt int32) {
	p.ops = append(p.ops, tmplOp{code: opSlot, a: int32(len(p.rhs))})
	p.rhs = append(p.rhs, nt)
	p.labels = append(p.labels, -1)
}
func (p *cprod) term(t int32, label int) {
	p.rhs = append(p.rhs, ^t)
	p.labels = append(p.labels, int32(label))
}

// appendProd appends the right-hand side and template of q to p, shifting
// q's positions.
func (p *cprod) appendProd(q *cprod) {
	off := int32(len(p.rhs))
	p.rhs = append(p.rhs, q.rhs...)
	p.labels = append(p.labels, q.labels...)
	for _, o := range q.ops {
		if o.code == opSlot || o.code == opSpan {
			o.a += off
			o.b += off
		}
		p.ops = append(p.ops, o)
	}
}

// Limits on the size of the internal grammar, which quantifiers with large
// bounded counts can blow up.
const (
	maxParserSymbols = 1 << 22 // right-hand side symbols over all productions
	maxInlineRepeat  = 16      // largest m*len(element) written out for x{m,}
	maxUnitInline    = 16      // most productions of Y copied into X -> Y
	maxInlineMult    = 32      // most productions one production may become by inlining
	maxUnitRounds    = 6
)

type ecompiler struct {
	gr      *Graph
	prods   []*cprod
	ntNames []string
	nodeNT  map[*Node]int32
	listNT  map[*Node]int32
	terms   []byteSet
	termID  map[byteSet]int32
	size    int
	err     error
}

func (c *ecompiler) newNT(name string) int32 {
	c.ntNames = append(c.ntNames, name)
	return int32(len(c.ntNames) - 1)
}

func (c *ecompiler) add(p *cprod) {
	c.size += len(p.rhs) + 1
	if c.size > maxParserSymbols && c.err == nil {
		c.err = fmt.Errorf("grammar: the grammar is too large for the parser (more than %d symbols after expanding quantifiers)", maxParserSymbols)
	}
	c.prods = append(c.prods, p)
}

func (c *ecompiler) termOf(s byteSet) int32 {
	if t, ok := c.termID[s]; ok {
		return t
	}
	t := int32(len(c.terms))
	c.terms = append(c.terms, s)
	c.termID[s] = t
	return t
}

// simpleClass reports whether a class node matches exactly one byte, so
// that it can be a single terminal.
func simpleClass(n *Node) bool {
	return n.Class.Bytes || len(n.set) == 0 || n.set[len(n.set)-1].Hi < utf8.RuneSelf
}

func (c *ecompiler) classSet(n *Node) byteSet {
	var s byteSet
	for _, r := range n.set {
		s.addRange(byte(r.Lo), byte(r.Hi))
	}
	return s
}

// expand appends graph node n, as an element of a sequence, to production p.
func (c *ecompiler) expand(p *cprod, n *Node, depth int) {
	if c.err != nil {
		return
	}
	switch n.Kind {
	case KindLit:
		for i := 0; i < len(n.Lit); i++ {
			var s byteSet
			s.add(n.Lit[i])
			p.term(c.termOf(s), n.ID)
		}
		p.ops = append(p.ops, tmplOp{code: opLit, node: int32(n.ID)})
	case KindClass:
		if !simpleClass(n) {
			p.slot(c.nodeNonterminal(n))
			return
		}
		pos := int32(len(p.rhs))
		p.term(c.termOf(c.classSet(n)), n.ID)
		p.ops = append(p.ops, tmplOp{code: opSpan, node: int32(n.ID), a: pos, b: pos + 1})
	case KindRef:
		p.open(n)
		h := n.Children[0]
		switch {
		case h.Kind == KindSeq || (h.Kind == KindRef && depth >= 8):
			p.slot(c.nodeNonterminal(h))
		default:
			c.expand(p, h, depth+1)
		}
		p.close()
	case KindSeq:
		p.open(n)
		for _, ch := range n.Children {
			c.expand(p, ch, depth)
		}
		p.close()
	case KindAlt:
		p.slot(c.nodeNonterminal(n))
	case KindRepeat:
		p.open(n)
		p.slot(c.listNonterminal(n))
		p.close()
	}
}

// nodeNonterminal returns the nonterminal that derives exactly one tree for
// graph node n.
func (c *ecompiler) nodeNonterminal(n *Node) int32 {
	if nt, ok := c.nodeNT[n]; ok {
		return nt
	}
	nt := c.newNT(n.String())
	c.nodeNT[n] = nt
	switch n.Kind {
	case KindAlt:
		c.altProds(nt, n, nil)
	case KindClass:
		if simpleClass(n) {
			p := &cprod{mult: 1, lhs: nt}
			c.expand(p, n, 0)
			c.add(p)
			break
		}
		for _, seq := range utf8Sequences(n.set) {
			p := &cprod{mult: 1, lhs: nt}
			for _, br := range seq {
				var s byteSet
				s.addRange(br.lo, br.hi)
				p.term(c.termOf(s), n.ID)
			}
			p.ops = []tmplOp{{code: opSpan, node: int32(n.ID), a: 0, b: int32(len(seq))}}
			c.add(p)
		}
	default:
		p := &cprod{mult: 1, lhs: nt}
		c.expand(p, n, 0)
		c.add(p)
	}
	return nt
}

// altProds adds one production to nt for every alternative of n, flattening
// nested alternations; outer are the alternations around n.
func (c *ecompiler) altProds(nt int32, n *Node, outer []*Node) {
	outer = append(outer[:len(outer):len(outer)], n)
	for _, ch := range n.Children {
		if c.err != nil {
			return
		}
		if ch.Kind == KindAlt {
			c.altProds(nt, ch, outer)
			continue
		}
		p := &cprod{mult: 1, lhs: nt}
		for _, o := range outer {
			p.open(o)
		}
		c.expand(p, ch, 0)
		for range outer {
			p.close()
		}
		c.add(p)
	}
}

// listNonterminal returns the nonterminal that derives the flat list of
// repetitions of quantifier n.
func (c *ecompiler) listNonterminal(n *Node) int32 {
	if nt, ok := c.listNT[n]; ok {
		return nt
	}
	name := n.String()
	// Register before expanding the element, which may refer back to n.
	q := c.newNT(name)
	c.listNT[n] = q
	elem := &cprod{}
	c.expand(elem, n.Children[0], 0)
	lo, hi := n.Min, n.Max
	if hi == Unbounded {
		// Q -> elem^lo | Q elem
		base := &cprod{mult: 1, lhs: q}
		c.appendCopies(base, elem, lo, name)
		c.add(base)
		rec := &cprod{mult: 1, lhs: q}
		rec.slot(q)
		rec.appendProd(elem)
		c.add(rec)
		return q
	}
	// Bounded: Q -> elem^lo R_{hi-lo}, with R_k -> ε | elem R_{k-1} and
	// R_0 the empty list. For lo = 0, Q is R_hi itself.
	k := hi - lo
	top := k
	if lo == 0 {
		top = k - 1
	}
	var r int32 = -1
	for i := 1; i <= top && c.err == nil; i++ {
		ri := c.newNT(fmt.Sprintf("%s/%d", name, i))
		c.add(&cprod{mult: 1, lhs: ri})
		p := &cprod{mult: 1, lhs: ri}
		p.appendProd(elem)
		if r >= 0 {
			p.slot(r)
		}
		c.add(p)
		r = ri
	}
	if lo == 0 {
		c.add(&cprod{mult: 1, lhs: q})
		if k > 0 {
			p := &cprod{mult: 1, lhs: q}
			p.appendProd(elem)
			if r >= 0 {
				p.slot(r)
			}
			c.add(p)
		}
		return q
	}
	p := &cprod{mult: 1, lhs: q}
	c.appendCopies(p, elem, lo, name)
	if r >= 0 {
		p.slot(r)
	}
	c.add(p)
	return q
}

// appendCopies appends m repetitions of elem to p: written out when short,
// otherwise as a chain of helper nonterminals X_k -> X_{k-1} elem.
func (c *ecompiler) appendCopies(p, elem *cprod, m int, name string) {
	if m*max(len(elem.rhs), 1) <= maxInlineRepeat {
		for range m {
			p.appendProd(elem)
		}
		return
	}
	var x int32 = -1
	for k := 1; k <= m && c.err == nil; k++ {
		xk := c.newNT(fmt.Sprintf("%s#%d", name, k))
		q := &cprod{mult: 1, lhs: xk}
		if x >= 0 {
			q.slot(x)
		}
		q.appendProd(elem)
		c.add(q)
		x = xk
	}
	if x >= 0 {
		p.slot(x)
	}
}

// inlineAt returns p with the nonterminal at position pos replaced by the
// right-hand side of q, one of its productions; the templates compose.
func inlineAt(p *cprod, pos int, q *cprod) *cprod {
	shift := int32(len(q.rhs) - 1)
	r := &cprod{lhs: p.lhs, mult: p.mult}
	r.rhs = make([]int32, 0, len(p.rhs)+len(q.rhs)-1)
	r.rhs = append(append(append(r.rhs, p.rhs[:pos]...), q.rhs...), p.rhs[pos+1:]...)
	r.labels = make([]int32, 0, len(r.rhs))
	r.labels = append(append(append(r.labels, p.labels[:pos]...), q.labels...), p.labels[pos+1:]...)
	r.ops = make([]tmplOp, 0, len(p.ops)+len(q.ops))
	for _, o := range p.ops {
		switch {
		case o.code == opSlot && o.a == int32(pos):
			for _, qo := range q.ops {
				if qo.code == opSlot || qo.code == opSpan {
					qo.a += int32(pos)
					qo.b += int32(pos)
				}
				r.ops = append(r.ops, qo)
			}
			continue
		case (o.code == opSlot || o.code == opSpan) && o.a > int32(pos):
			o.a += shift
			o.b += shift
		}
		r.ops = append(r.ops, o)
	}
	return r
}

func (c *ecompiler) byLHS() [][]*cprod {
	out := make([][]*cprod, len(c.ntNames))
	for _, p := range c.prods {
		out[p.lhs] = append(out[p.lhs], p)
	}
	return out
}

// inline replaces nonterminals by their productions where that saves
// Earley items (one for every completion of the nonterminal) without making
// the parser derive the same prefix in parallel: a unit production X -> Y
// by Y's productions if Y has at most maxUnitInline; a non-recursive Y with
// a single production wherever it occurs; and a non-recursive Y with at
// most maxUnitInline productions that distinctStarts where it is the first
// symbol, as long as no original production becomes more than
// maxInlineMult. The productions of a left-recursive production L -> L ...
// are left alone.
//
// With tokens set, a regular nonterminal (see regularKinds) is not inlined
// into a production of a nonterminal that is not: it stays whole, so that
// the parser scans it with one automaton.
func (c *ecompiler) inline(keep int32, tokens bool) {
	budget := 4*c.size + 4096
	for round := 0; round < maxUnitRounds; round++ {
		of := c.byLHS()
		rec := recursiveNonterminals(len(c.ntNames), func(v int32) []int32 {
			var out []int32
			for _, p := range of[v] {
				for _, s := range p.rhs {
					if s >= 0 {
						out = append(out, s)
					}
				}
			}
			return out
		})
		var kind []int8
		if tokens {
			kind = regularKinds(rightHandSides(of), keep)
		}
		// whole reports whether y stays a nonterminal in the productions
		// of x.
		whole := func(x, y int32) bool {
			return kind != nil && kind[y] != regNone && kind[x] == regNone
		}
		changed := false
		var out []*cprod
		for _, p := range c.prods {
			pos := -1
			leftRec := len(p.rhs) > 0 && p.rhs[0] == p.lhs
			switch {
			case p.lhs == keep || c.size >= budget:
			case leftRec:
				// L -> L ... y: y's productions after L, if one byte
				// picks them (the repetition of a list).
				last := len(p.rhs) - 1
				if y := p.rhs[last]; last > 0 && y >= 0 && y != p.lhs && !rec[y] && !whole(p.lhs, y) {
					if k := len(of[y]); k <= maxUnitInline && p.mult*k <= maxInlineMult && c.distinctStarts(of[y]) {
						pos = last
					}
				}
			case len(p.rhs) == 1 && p.rhs[0] >= 0 && len(of[p.rhs[0]]) <= maxUnitInline && !whole(p.lhs, p.rhs[0]):
				pos = 0
			default:
				for i := len(p.rhs) - 1; i >= 0; i-- {
					y := p.rhs[i]
					if y < 0 || y == p.lhs || rec[y] || whole(p.lhs, y) {
						continue
					}
					if k := len(of[y]); k == 1 || (i == 0 && k <= maxUnitInline && p.mult*k <= maxInlineMult && c.distinctStarts(of[y])) {
						pos = i
						break
					}
				}
			}
			if pos < 0 {
				out = append(out, p)
				continue
			}
			for _, q := range of[p.rhs[pos]] {
				r := inlineAt(p, pos, q)
				r.mult = p.mult * len(of[p.rhs[pos]])
				c.size += len(r.rhs) + 1
				out = append(out, r)
			}
			changed = true
		}
		c.prods = out
		if !changed {
			return
		}
	}
}

// distinctStarts reports whether every production of ps starts with a
// terminal and no byte starts two of them: then one byte of lookahead picks
// the production, and inlining them before other symbols adds no items
// that run in parallel (which would also hide deterministic reduction paths
// from Leo's optimization).
func (c *ecompiler) distinctStarts(ps []*cprod) bool {
	var seen byteSet
	for _, p := range ps {
		if len(p.rhs) == 0 || p.rhs[0] >= 0 {
			return false
		}
		t := &c.terms[^p.rhs[0]]
		for i := range seen {
			if seen[i]&t[i] != 0 {
				return false
			}
		}
		seen.union(t)
	}
	return true
}

// recursiveNonterminals reports for every vertex of a graph whether it lies
// on a cycle.
func recursiveNonterminals(n int, succ func(int32) []int32) []bool {
	rec := make([]bool, n)
	for _, comp := range sccs(n, succ) {
		if len(comp) > 1 {
			for _, v := range comp {
				rec[v] = true
			}
			continue
		}
		for _, w := range succ(comp[0]) {
			if w == comp[0] {
				rec[w] = true
			}
		}
	}
	return rec
}

// sccs returns the strongly connected components of a graph
// with vertices 0..n-1 in reverse topological order (a component after
// all components it reaches), by Tarjan's algorithm without recursion.
func sccs[V int | int32](n int, succ func(V) []V) [][]V {
	const unvisited = -1
	index := make([]V, n)
	low := make([]V, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = unvisited
	}
	type frame struct {
		v    V
		succ []V
		i    int
	}
	var comps [][]V
	var stack []V
	next := V(0)
	visit := func(v V, call []frame) []frame {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		return append(call, frame{v: v, succ: succ(v)})
	}
	for v0 := V(0); int(v0) < n; v0++ {
		if index[v0] != unvisited {
			continue
		}
		call := visit(v0, nil)
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.i < len(f.succ) {
				w := f.succ[f.i]
				f.i++
				if index[w] == unvisited {
					call = visit(w, call)
				} else if onStack[w] {
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] != index[v] {
				continue
			}
			var comp []V
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			comps = append(comps, comp)
		}
	}
	return comps
}

// egrammar is the compiled grammar the parser runs on.
type egrammar struct {
	gr       *Graph
	numNT    int
	start    int32 // the augmented start nonterminal S'
	rootDot  int32 // the dotted rule S' -> . X
	terms    []byteSet
	prodLHS  []int32
	prodBase []int32 // dotted rule of dot 0
	prodLen  []int32
	prodOps  [][]tmplOp
	prodLbl  [][]int32
	prodFst  []byteSet
	rhs      []int32 // right-hand sides, indexed by dotted rule (the symbol after the dot)
	dots     []dotInfo
	viable   []byteSet // per dotted rule, the lookahead bytes with which its items can be part of a parse

	ntProds    [][]int32
	ntFirst    []byteSet
	ntNullable []bool
	ntPredict  [][]int32 // nil, or 256 lists of dotted rules of dot 0 to predict per lookahead byte

	epsProds [][]int32 // the productions of a nullable nonterminal whose right-hand side is all nullable, the acyclic witness first
	epsCount []uint64  // number of ε-derivations, saturating
	epsInf   []bool    // infinitely many ε-derivations

	leo    bool        // some dotted rule has dotPenult: Leo's optimization can apply
	tok    []*tokenDFA // per nonterminal, its automaton if it is scanned as a token (see compileTokens)
	tokDot []int32     // per token, the complete dotted rule of its production A -> A
	skip   []int32     // nil, or per dotted rule its skipLA in skips, or -1
	skips  []skipLA

	// spanItems is the number of items per byte of the spans of the last
	// forest expanded whole with at least 1 KB of spans, in 16ths: the
	// next expansion reserves its items by it.
	spanItems atomic.Uint32
	// spanState is the parse state of the last expansion, for the next
	// (see Forest.expandTokens), nil while one runs.
	spanState atomic.Pointer[parseState]
}

// dotInfo describes a dotted rule: a production with a dot in its
// right-hand side.
type dotInfo struct {
	next  int32 // the symbol after the dot: >= 0 nonterminal, < 0 ^terminal; dotEnd if the dot is at the end
	lhs   int32
	prod  int32
	dot   int32
	flags uint8
}

const dotEnd = math.MinInt32

const (
	dotPenult    uint8 = 1 << iota // the symbol after the dot is the last one, and reduction paths from the rule can be long
	dotNullNext                    // the symbol after the dot is a nullable nonterminal
	dotViableEOF                   // an item of this rule can be part of a parse at the end of the input
	dotComplete                    // the dot is at the end
)

// compileEarley builds the parser's grammar for gr with start node start.
func compileEarley(gr *Graph, start *Node, tokens bool) (*egrammar, error) {
	c := &ecompiler{gr: gr, nodeNT: map[*Node]int32{}, listNT: map[*Node]int32{}, termID: map[byteSet]int32{}}
	sp := c.newNT("start'")
	root := &cprod{mult: 1, lhs: sp}
	root.slot(c.nodeNonterminal(start))
	c.add(root)
	if c.err != nil {
		return nil, c.err
	}
	c.inline(sp, tokens)
	if c.err != nil {
		return nil, c.err
	}
	if tokens {
		c.splitRegular(sp)
		c.extractRuns(sp)
	}
	return c.finish(sp, tokens)
}

// finish drops unreachable nonterminals, numbers productions and dotted
// rules, and computes the parse tables.
func (c *ecompiler) finish(sp int32, tokens bool) (*egrammar, error) {
	of := c.byLHS()
	// Reachability from the start, renumbering nonterminals in discovery
	// order.
	newID := make([]int32, len(c.ntNames))
	for i := range newID {
		newID[i] = -1
	}
	order := []int32{sp}
	newID[sp] = 0
	for i := 0; i < len(order); i++ {
		for _, p := range of[order[i]] {
			for _, s := range p.rhs {
				if s >= 0 && newID[s] < 0 {
					newID[s] = int32(len(order))
					order = append(order, s)
				}
			}
		}
	}
	g := &egrammar{gr: c.gr, numNT: len(order), start: 0, terms: c.terms}
	g.ntProds = make([][]int32, len(order))
	np, nr := 0, 0
	for _, old := range order {
		for _, p := range of[old] {
			np, nr = np+1, nr+len(p.rhs)+1
		}
	}
	g.prodLHS = make([]int32, 0, np)
	g.prodBase = make([]int32, 0, np)
	g.prodLen = make([]int32, 0, np)
	g.prodOps = make([][]tmplOp, 0, np)
	g.prodLbl = make([][]int32, 0, np)
	g.rhs = make([]int32, 0, nr)
	for i, old := range order {
		for _, p := range of[old] {
			id := int32(len(g.prodLHS))
			g.ntProds[i] = append(g.ntProds[i], id)
			g.prodLHS = append(g.prodLHS, int32(i))
			g.prodBase = append(g.prodBase, int32(len(g.rhs)))
			g.prodLen = append(g.prodLen, int32(len(p.rhs)))
			g.prodOps = append(g.prodOps, p.ops)
			g.prodLbl = append(g.prodLbl, p.labels)
			for _, s := range p.rhs {
				if s >= 0 {
					s = newID[s]
				}
				g.rhs = append(g.rhs, s)
			}
			g.rhs = append(g.rhs, dotEnd)
		}
	}
	g.rootDot = g.prodBase[g.ntProds[0][0]]
	g.nullableAndFirst()
	follow, followEOF := g.follow()
	g.dotRules(follow, followEOF)
	g.predictTables()
	g.epsilon()
	if tokens {
		g.compileTokens(follow, followEOF)
	}
	return g, nil
}

// nullableAndFirst computes which nonterminals derive the empty string and
// the bytes each nonterminal and each production can start with, by
// worklists: each production is looked at a bounded number of times, so the
// cost is linear in the grammar (times 256 for the byte sets at most).
func (g *egrammar) nullableAndFirst() {
	np := len(g.prodLHS)
	g.ntNullable = make([]bool, g.numNT)
	g.ntFirst = make([]byteSet, g.numNT)
	g.epsProds = make([][]int32, g.numNT)
	// Nullable, counting per production the symbols not yet known to be
	// nullable, and recording the production that first made each
	// nonterminal nullable: it only uses nonterminals that were nullable
	// before, so following witnesses never loops.
	missing := make([]int32, np)
	occurs := make([][]int32, g.numNT) // the productions a nonterminal occurs in, once per occurrence
	var queue []int32                  // nonterminals newly found nullable
	complete := func(p int32) {
		if a := g.prodLHS[p]; !g.ntNullable[a] {
			g.ntNullable[a] = true
			g.epsProds[a] = []int32{p}
			queue = append(queue, a)
		}
	}
	for p := range np {
		for r := g.prodBase[p]; g.rhs[r] != dotEnd; r++ {
			if s := g.rhs[r]; s < 0 {
				missing[p] = -1 // a terminal: never nullable
				break
			}
			missing[p]++
		}
		if missing[p] > 0 {
			for r := g.prodBase[p]; g.rhs[r] != dotEnd; r++ {
				occurs[g.rhs[r]] = append(occurs[g.rhs[r]], int32(p))
			}
		}
	}
	for p := range np {
		if missing[p] == 0 {
			complete(int32(p))
		}
	}
	for len(queue) > 0 {
		a := queue[0]
		queue = queue[1:]
		for _, p := range occurs[a] {
			if missing[p]--; missing[p] == 0 {
				complete(p)
			}
		}
	}
	for p := range np {
		a := g.prodLHS[p]
		if g.ntNullable[a] && g.allNullable(int32(p)) && g.epsProds[a][0] != int32(p) {
			g.epsProds[a] = append(g.epsProds[a], int32(p))
		}
	}
	// First: a nonterminal starts with the terminals at the start of its
	// productions (after nullable nonterminals) and with what the
	// nonterminals there start with.
	users := make([][]int32, g.numNT) // B -> the nonterminals A with First(A) ⊇ First(B)
	for p := range np {
		a := g.prodLHS[p]
		for r := g.prodBase[p]; g.rhs[r] != dotEnd; r++ {
			s := g.rhs[r]
			if s < 0 {
				g.ntFirst[a].union(&g.terms[^s])
				break
			}
			users[s] = append(users[s], a)
			if !g.ntNullable[s] {
				break
			}
		}
	}
	propagateBytes(g.ntFirst, nil, users)
	g.prodFst = make([]byteSet, np)
	for p := range g.prodFst {
		g.prodFst[p] = g.seqFirst(g.prodBase[p])
	}
}

// propagateBytes closes sets (and, if eof is not nil, the flags eof) under
// the edges users: each set includes the sets of the vertices whose users
// it is among. Every set grows at most 256 times, so the work is linear in
// the edges.
func propagateBytes(sets []byteSet, eof []bool, users [][]int32) {
	queue := make([]int32, 0, len(sets))
	queued := make([]bool, len(sets))
	for v := range sets {
		queue = append(queue, int32(v))
		queued[v] = true
	}
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		queued[b] = false
		for _, a := range users[b] {
			changed := sets[a].union(&sets[b])
			if eof != nil && eof[b] && !eof[a] {
				eof[a], changed = true, true
			}
			if changed && !queued[a] {
				queued[a] = true
				queue = append(queue, a)
			}
		}
	}
}

func (g *egrammar) allNullable(p int32) bool {
	for r := g.prodBase[p]; g.rhs[r] != dotEnd; r++ {
		if s := g.rhs[r]; s < 0 || !g.ntNullable[s] {
			return false
		}
	}
	return true
}

// seqFirst returns the bytes that can start a non-empty derivation of the
// symbols from dotted rule r to the end of its production.
func (g *egrammar) seqFirst(r int32) byteSet {
	var f byteSet
	for ; g.rhs[r] != dotEnd; r++ {
		s := g.rhs[r]
		if s < 0 {
			f.union(&g.terms[^s])
			return f
		}
		f.union(&g.ntFirst[s])
		if !g.ntNullable[s] {
			return f
		}
	}
	return f
}

// suffixes calls f for every dotted rule of production p, from the last to
// the first, with the bytes that can start a non-empty derivation of the
// symbols from it to the end of the production and whether they derive the
// empty string. It takes time linear in the production's length.
func (g *egrammar) suffixes(p int, f func(r int32, first *byteSet, nullable bool)) {
	base, n := g.prodBase[p], g.prodLen[p]
	var first byteSet
	nullable := true
	f(base+n, &first, true)
	for r := base + n - 1; r >= base; r-- {
		s := g.rhs[r]
		switch {
		case s < 0:
			first = g.terms[^s]
			nullable = false
		case g.ntNullable[s]:
			first.union(&g.ntFirst[s])
		default:
			first = g.ntFirst[s]
			nullable = false
		}
		f(r, &first, nullable)
	}
}

// follow computes for every nonterminal the bytes that can follow it, and
// whether the end of the input can.
func (g *egrammar) follow() ([]byteSet, []bool) {
	fol := make([]byteSet, g.numNT)
	eof := make([]bool, g.numNT)
	eof[g.start] = true
	users := make([][]int32, g.numNT) // A -> the nonterminals B with Follow(B) ⊇ Follow(A)
	for p := range g.prodLHS {
		a := g.prodLHS[p]
		// Visiting r, the suffix after it was visited just before.
		var after byteSet
		afterNullable := false
		g.suffixes(p, func(r int32, first *byteSet, nullable bool) {
			if b := g.rhs[r]; b >= 0 {
				fol[b].union(&after)
				if afterNullable {
					users[a] = append(users[a], b)
				}
			}
			after, afterNullable = *first, nullable
		})
	}
	propagateBytes(fol, eof, users)
	return fol, eof
}

func (g *egrammar) dotRules(follow []byteSet, followEOF []bool) {
	// Leo's optimization matters only where deterministic reduction paths
	// can be long: a path from a nonterminal A goes up to the nonterminals
	// whose productions end with A, and so on. up[a] is the longest such
	// path from a (math.MaxInt32 through a cycle: right recursion).
	users := make([][]int32, g.numNT)
	for a := range g.ntProds {
		for _, p := range g.ntProds[a] {
			if n := g.prodLen[p]; n > 0 {
				if last := g.rhs[g.prodBase[p]+n-1]; last >= 0 {
					users[last] = append(users[last], int32(a))
				}
			}
		}
	}
	up := make([]int32, g.numNT)
	for _, comp := range sccs(g.numNT, func(a int32) []int32 { return users[a] }) {
		longest := int32(0)
		for _, a := range comp {
			for _, x := range users[a] {
				if len(comp) > 1 || x == a {
					longest = math.MaxInt32
				} else {
					longest = max(longest, min(up[x], math.MaxInt32-1)+1)
				}
			}
		}
		for _, a := range comp {
			up[a] = longest
		}
	}
	g.dots = make([]dotInfo, len(g.rhs))
	g.viable = make([]byteSet, len(g.rhs))
	for p := range g.prodLHS {
		a := g.prodLHS[p]
		base := g.prodBase[p]
		n := g.prodLen[p]
		g.suffixes(p, func(r int32, first *byteSet, nullable bool) {
			d := r - base
			di := &g.dots[r]
			di.next, di.lhs, di.prod, di.dot = g.rhs[r], a, int32(p), d
			if d == n {
				di.flags |= dotComplete
			}
			if d == n-1 && g.rhs[r] >= 0 && up[a] >= leoMinChain-1 {
				di.flags |= dotPenult
				g.leo = true
			}
			if s := g.rhs[r]; s >= 0 && g.ntNullable[s] {
				di.flags |= dotNullNext
			}
			g.viable[r] = *first
			if nullable {
				g.viable[r].union(&follow[a])
				if followEOF[a] {
					di.flags |= dotViableEOF
				}
			}
		})
	}
}

// predictTables builds, for nonterminals with many productions, the
// productions to predict per lookahead byte.
func (g *egrammar) predictTables() {
	g.ntPredict = make([][]int32, g.numNT)
	for a, ps := range g.ntProds {
		if len(ps) <= 4 {
			continue
		}
		tab := make([]int32, 257)
		var list []int32
		for b := 0; b < 256; b++ {
			tab[b] = int32(len(list))
			for _, p := range ps {
				if g.prodFst[p].has(byte(b)) {
					list = append(list, g.prodBase[p])
				}
			}
		}
		tab[256] = int32(len(list))
		g.ntPredict[a] = append(tab, list...)
	}
}

// epsilon counts the ε-derivations of every nullable nonterminal, finding
// those with infinitely many (an ε-cycle is reachable).
func (g *egrammar) epsilon() {
	n := g.numNT
	g.epsCount = make([]uint64, n)
	g.epsInf = make([]bool, n)
	succ := func(v int32) []int32 {
		var out []int32
		for _, p := range g.epsProds[v] {
			for r := g.prodBase[p]; g.rhs[r] != dotEnd; r++ {
				out = append(out, g.rhs[r])
			}
		}
		return out
	}
	// Components come in reverse topological order: everything a component
	// derives ε through is counted before it.
	for _, comp := range sccs(n, succ) {
		v := comp[0]
		if !g.ntNullable[v] {
			continue
		}
		cyclic := len(comp) > 1
		for _, w := range succ(v) {
			cyclic = cyclic || w == v
		}
		if cyclic {
			for _, w := range comp {
				g.epsInf[w] = true
				g.epsCount[w] = math.MaxUint64
			}
			continue
		}
		var total uint64
		inf := false
		for _, p := range g.epsProds[v] {
			prod := uint64(1)
			for r := g.prodBase[p]; g.rhs[r] != dotEnd; r++ {
				s := g.rhs[r]
				inf = inf || g.epsInf[s]
				prod = satMul64(prod, g.epsCount[s])
			}
			total = satAdd64(total, prod)
		}
		g.epsCount[v], g.epsInf[v] = total, inf
	}
}

func satAdd64(a, b uint64) uint64 {
	s, carry := bits.Add64(a, b, 0)
	if carry != 0 {
		return math.MaxUint64
	}
	return s
}

func satMul64(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return math.MaxUint64
	}
	return lo
}

// A byteRange is an inclusive range of byte values.
type byteRange struct{ lo, hi byte }

// utf8Sequences returns the UTF-8 encodings of the runes in set (sorted,
// disjoint ranges without surrogates) as sequences of byte ranges: a byte
// string is the encoding of a member exactly if it matches one sequence, and
// it matches at most one.
func utf8Sequences(set []Range) [][]byteRange {
	var out [][]byteRange
	bounds := []rune{0x7F, 0x7FF, 0xFFFF, utf8.MaxRune}
	for _, r := range set {
		lo, hi := r.Lo, r.Hi
		for _, b := range bounds {
			if lo > hi {
				break
			}
			if lo > b {
				continue
			}
			top := min(hi, b)
			out = appendAligned(out, lo, top)
			lo = top + 1
		}
	}
	return out
}

// appendAligned appends the sequences for lo..hi, which have the same
// encoded length, splitting the range until every byte position ranges
// independently.
func appendAligned(out [][]byteRange, lo, hi rune) [][]byteRange {
	n := utf8.RuneLen(lo)
	for i := 1; i < n; i++ {
		m := rune(1)<<(6*i) - 1
		if lo&^m == hi&^m {
			continue
		}
		if lo&m != 0 {
			out = appendAligned(out, lo, lo|m)
			return appendAligned(out, (lo|m)+1, hi)
		}
		if hi&m != m {
			out = appendAligned(out, lo, (hi&^m)-1)
			return appendAligned(out, hi&^m, hi)
		}
	}
	var a, b [utf8.UTFMax]byte
	utf8.EncodeRune(a[:], lo)
	utf8.EncodeRune(b[:], hi)
	seq := make([]byteRange, n)
	for i := range seq {
		seq[i] = byteRange{a[i], b[i]}
	}
	return append(out, seq)
}
