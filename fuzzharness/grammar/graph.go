package grammar

import (
	"fmt"
	"strconv"
	"sync"
	"unicode/utf8"
)

// NodeKind tells what a grammar graph node stands for.
type NodeKind uint8

// The node kinds. References, literals and character classes are symbolic
// (they were named by the grammar's author); alternations, concatenations and
// quantifiers are synthetic (they only arrange symbolic nodes).
const (
	KindRef    NodeKind = iota // a reference to a nonterminal; its child is the rule's right-hand side
	KindLit                    // a literal; no children
	KindClass                  // a character class; no children, derives one character
	KindAlt                    // an alternation; one child is derived
	KindSeq                    // a concatenation; all children are derived in order
	KindRepeat                 // a quantifier; its one child is derived Min..Max times
)

var kindNames = [...]string{"ref", "lit", "class", "alt", "seq", "repeat"}

func (k NodeKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "NodeKind(" + strconv.Itoa(int(k)) + ")"
}

// Symbolic reports whether nodes of kind k are symbolic (count toward k-paths).
func (k NodeKind) Symbolic() bool { return k <= KindClass }

// A Node is one node of a grammar graph: one occurrence of a grammar element,
// as TRIBBLE defines it. Nodes are created by Compile and must not be modified.
type Node struct {
	ID       int      // unique within the graph; Graph.Nodes[ID] == node
	Kind     NodeKind //
	Name     string   // KindRef: the referenced nonterminal
	Lit      string   // KindLit: the literal's bytes
	Class    *Class   // KindClass: the class as written
	Min, Max int      // KindRepeat: repetition bounds; Max is Unbounded or >= Min
	// Children: for KindRef the right-hand side of the referenced rule (one
	// node, shared by all references to that rule); for KindAlt the
	// alternatives; for KindSeq the elements; for KindRepeat the repeated
	// element.
	Children []*Node
	Rule     string // the nonterminal in whose right-hand side this occurrence stands
	Pos      Pos    // source position of the element
	Sym      int    // symbol index (see Graph.Symbols) for symbolic nodes, -1 for synthetic ones

	// MinDepth is the least derivation depth of a complete subtree rooted
	// here: the most references on any root-to-leaf path of that subtree.
	MinDepth int
	// MinSize is the least number of tree nodes in a complete subtree rooted
	// here.
	MinSize int
	// MinLen is the least number of bytes a complete subtree rooted here
	// derives.
	MinLen int

	set      []Range // KindClass: members after negation
	setCount int     // KindClass: number of members
}

// Symbolic reports whether n is a symbolic node.
func (n *Node) Symbolic() bool { return n.Kind.Symbolic() }

// Label is a short human-readable name: <name>, a quoted literal, a class, or
// the synthetic node's kind.
func (n *Node) Label() string {
	switch n.Kind {
	case KindRef:
		return "<" + n.Name + ">"
	case KindLit:
		return strconv.Quote(n.Lit)
	case KindClass:
		return ExprString(n.Class)
	case KindRepeat:
		return "repeat" + repeatSuffix(n.Min, n.Max)
	default:
		return n.Kind.String()
	}
}

// String returns the label with the node ID, e.g. <AddExpr>#0.
func (n *Node) String() string { return n.Label() + "#" + strconv.Itoa(n.ID) }

func repeatSuffix(lo, hi int) string {
	switch {
	case lo == 0 && hi == 1:
		return "?"
	case lo == 0 && hi == Unbounded:
		return "*"
	case lo == 1 && hi == Unbounded:
		return "+"
	case hi == Unbounded:
		return fmt.Sprintf("{%d,}", lo)
	case lo == hi:
		return fmt.Sprintf("{%d}", lo)
	default:
		return fmt.Sprintf("{%d,%d}", lo, hi)
	}
}

// Identity selects which symbolic nodes count as the same symbol in k-paths.
type Identity uint8

const (
	// ByOccurrence makes every symbolic node its own symbol, as TRIBBLE
	// defines k-paths: the "+" of a binary sum and the "+" of a unary plus
	// differ.
	ByOccurrence Identity = iota
	// ByNonterminal makes all references to one nonterminal one symbol, as
	// ISLa's k-paths do; literals and character classes stay per occurrence.
	ByNonterminal
)

// A Symbol is what a k-path element stands for: one symbolic node, or under
// ByNonterminal all references to one nonterminal.
type Symbol struct {
	ID    int     // index in Graph.Symbols
	Nodes []*Node // the symbolic nodes that are this symbol, in ID order

	nonterminal bool // all references to one nonterminal (ByNonterminal)
}

// Label is a human-readable name of the symbol.
func (s *Symbol) Label() string { return s.Nodes[0].Label() }

// String returns the label with an ID that makes it unique: the node ID under
// ByOccurrence, nothing more for a nonterminal under ByNonterminal.
func (s *Symbol) String() string {
	if s.nonterminal {
		return s.Label()
	}
	return s.Nodes[0].String()
}

// A Graph is the grammar graph of a grammar, as TRIBBLE defines it: one node
// per occurrence of a grammar element, with synthetic nodes for alternations,
// concatenations and quantifiers, and a reference's child being the
// right-hand side of the referenced rule. A Graph is immutable and safe for
// concurrent use.
type Graph struct {
	Grammar  *Grammar
	Root     *Node     // the right-hand side of the start rule
	Nodes    []*Node   // all nodes, indexed by ID; Nodes[0] is Root
	Symbols  []*Symbol // the k-path alphabet under Identity
	Identity Identity

	index map[string]int32 // rule name -> number (the checker's)
	rhsOf []*Node          // rule number -> right-hand side, nil if not in the graph

	distOnce sync.Once
	dist     []int32 // len(Nodes) x len(Symbols): shortest distance, -1 if unreachable

	kpathMu sync.Mutex
	kpaths  map[int]*PathTable
}

// CompileOption configures Compile.
type CompileOption func(*compileConfig)

type compileConfig struct {
	identity Identity
	start    string
}

// WithIdentity sets the node identity used for k-paths (default ByOccurrence).
func WithIdentity(id Identity) CompileOption {
	return func(c *compileConfig) { c.identity = id }
}

// WithStart compiles the graph from the given nonterminal instead of the
// grammar's start symbol.
func WithStart(name string) CompileOption {
	return func(c *compileConfig) { c.start = name }
}

// Compile checks g and builds its grammar graph. Only rules reachable from the
// start symbol become part of the graph. It fails if Check reports an error
// (warnings such as unreachable rules are ignored).
func Compile(g *Grammar, opts ...CompileOption) (*Graph, error) {
	cfg := compileConfig{start: g.Start}
	for _, o := range opts {
		o(&cfg)
	}
	c := g.check(false)
	if err := c.err(); err != nil {
		return nil, err
	}
	start, ok := c.index[cfg.start]
	if !ok {
		return nil, fmt.Errorf("grammar: start symbol <%s> is not defined", cfg.start)
	}
	gr := &Graph{Grammar: g, Identity: cfg.identity, index: c.index, rhsOf: make([]*Node, len(c.defs))}
	b := newBuilder(c, gr, start)
	gr.Root = b.build(start)
	gr.symbols(b.refRules)
	if err := gr.minima(); err != nil {
		return nil, err
	}
	return gr, nil
}

// MustCompile is like Compile but panics on error. It is meant for grammars
// known to be valid, such as the built-in ones.
func MustCompile(g *Grammar, opts ...CompileOption) *Graph {
	gr, err := Compile(g, opts...)
	if err != nil {
		panic(err)
	}
	return gr
}

// A builder builds a graph from the checker's flat form of a grammar that
// has no errors, with the expressions for what the flat form leaves out.
type builder struct {
	c        *grammarChecker
	gr       *Graph
	nodes    []Node  // all nodes, allocated at once
	kids     []*Node // all Children slices, allocated at once
	entered  []bool  // per rule: its right-hand side is being or was built
	refs     []int32 // the IDs of the references, in ID order
	refRules []int32 // the rule each of refs refers to
}

// passThrough reports whether flat node n is built as its only child: an
// alternation or concatenation of one element is that element.
func passThrough(n *flatNode) bool {
	return (n.kind == flatAlt || n.kind == flatSeq) && n.nkids == 1
}

// newBuilder returns a builder with the nodes and children of the rules
// reachable from start allocated, counted on the flat form.
func newBuilder(c *grammarChecker, gr *Graph, start int32) *builder {
	seen := make([]bool, len(c.defs))
	seen[start] = true
	queue := []int32{start}
	nodes, kids, refs := 0, 0, 0
	for len(queue) > 0 {
		r := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		end := int32(len(c.nodes))
		if int(r)+1 < len(c.roots) {
			end = c.roots[r+1]
		}
		for i := c.roots[r]; i < end; i++ {
			n := &c.nodes[i]
			if passThrough(n) {
				continue
			}
			nodes++
			switch n.kind {
			case flatAlt, flatSeq, flatRepeat:
				kids += int(n.nkids)
			case flatRef:
				kids++
				refs++
				if !seen[n.ref] {
					seen[n.ref] = true
					queue = append(queue, n.ref)
				}
			}
		}
	}
	gr.Nodes = make([]*Node, 0, nodes)
	return &builder{
		c:        c,
		gr:       gr,
		nodes:    make([]Node, 0, nodes),
		kids:     make([]*Node, 0, kids),
		refs:     make([]int32, 0, refs),
		refRules: make([]int32, 0, refs),
	}
}

// node adds a node of the given kind, rule and position to the graph.
func (b *builder) node(kind NodeKind, rule string, pos Pos) *Node {
	id := len(b.nodes)
	b.nodes = append(b.nodes, Node{ID: id, Kind: kind, Rule: rule, Pos: pos, Sym: -1})
	n := &b.nodes[id]
	b.gr.Nodes = append(b.gr.Nodes, n)
	return n
}

// children returns a slice of k children for a node.
func (b *builder) children(k int) []*Node {
	l := len(b.kids)
	b.kids = b.kids[:l+k]
	return b.kids[l : l+k : l+k]
}

// A buildTask builds the expression e, whose flat node is flat, of rule
// into *dst; or, if finish is set, completes the rule whose right-hand side
// was built into *dst.
type buildTask struct {
	e      Expr
	flat   int32
	rule   int32
	dst    **Node
	finish bool
}

// build builds the right-hand side of the rule start and everything it
// reaches, numbering the nodes in depth-first pre-order, as a recursive
// descent through expressions and, at a first reference, into the
// referenced rule would. It keeps an explicit stack, so that chains of
// rules of any length do not exhaust the goroutine stack. References get
// their child, the referenced rule's right-hand side, once all rules are
// built.
func (b *builder) build(start int32) *Node {
	c := b.c
	b.entered = make([]bool, len(c.defs))
	var root *Node
	var stack []buildTask
	enter := func(r int32, dst **Node) {
		b.entered[r] = true
		stack = append(stack, buildTask{rule: r, dst: dst, finish: true}, buildTask{e: c.defs[r].Expr, flat: c.roots[r], rule: r, dst: dst})
	}
	enter(start, &root)
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if t.finish {
			b.gr.rhsOf[t.rule] = *t.dst
			continue
		}
		fn := &c.nodes[t.flat]
		if passThrough(fn) {
			stack = append(stack, buildTask{e: onlyElement(t.e), flat: c.kids[fn.kids], rule: t.rule, dst: t.dst})
			continue
		}
		name := c.defs[t.rule].Name
		var n *Node
		var kids []Expr
		var one [1]Expr
		switch e := t.e.(type) {
		case *Alt:
			n, kids = b.node(KindAlt, name, e.P), e.X
		case *Seq:
			n, kids = b.node(KindSeq, name, e.P), e.X
		case *Repeat:
			n = b.node(KindRepeat, name, e.P)
			n.Min, n.Max = e.Min, e.Max
			one[0] = e.X
			kids = one[:]
		case *Lit:
			n = b.node(KindLit, name, e.P)
			n.Lit = e.S
		case *Class:
			n = b.node(KindClass, name, e.P)
			n.Class = e
			n.set = e.Set()
			for _, r := range n.set {
				n.setCount += int(r.Hi-r.Lo) + 1
			}
		case *Ref:
			n = b.node(KindRef, name, e.P)
			n.Name = e.Name
			n.Children = b.children(1)
			b.refs = append(b.refs, int32(n.ID))
			b.refRules = append(b.refRules, fn.ref)
			if !b.entered[fn.ref] {
				enter(fn.ref, &n.Children[0])
			}
		default:
			panic(fmt.Sprintf("grammar: unknown expression type %T", e))
		}
		*t.dst = n
		if len(kids) > 0 {
			n.Children = b.children(len(kids))
			// Push in reverse, so that the first child is built first.
			flat := c.kids[fn.kids : fn.kids+fn.nkids]
			for i := len(kids) - 1; i >= 0; i-- {
				stack = append(stack, buildTask{e: kids[i], flat: flat[i], rule: t.rule, dst: &n.Children[i]})
			}
		}
	}
	for k, id := range b.refs {
		b.nodes[id].Children[0] = b.gr.rhsOf[b.refRules[k]]
	}
	return root
}

// onlyElement returns the element of an alternation or concatenation of
// one element.
func onlyElement(e Expr) Expr {
	if a, ok := e.(*Alt); ok {
		return a.X[0]
	}
	return e.(*Seq).X[0]
}

// symbols numbers the symbols. refRules holds the rule of each reference,
// in ID order.
func (gr *Graph) symbols(refRules []int32) {
	byName := gr.Identity == ByNonterminal
	var symOfRule []int32 // ByNonterminal: the symbol of each rule's references, or -1
	if byName {
		symOfRule = make([]int32, len(gr.rhsOf))
		for i := range symOfRule {
			symOfRule[i] = -1
		}
	}
	// Count the symbols first, to allocate them at once.
	count, k := 0, 0
	for _, n := range gr.Nodes {
		switch {
		case !n.Symbolic():
		case byName && n.Kind == KindRef:
			if r := refRules[k]; symOfRule[r] < 0 {
				symOfRule[r] = -2
				count++
			}
			k++
		default:
			count++
		}
	}
	gr.Symbols = make([]*Symbol, 0, count)
	slab := make([]Symbol, 0, count)
	one := make([]*Node, 0, count) // the one-node lists
	k = 0
	for _, n := range gr.Nodes {
		if !n.Symbolic() {
			continue
		}
		if byName && n.Kind == KindRef {
			r := refRules[k]
			k++
			if s := symOfRule[r]; s >= 0 {
				sym := gr.Symbols[s]
				sym.Nodes = append(sym.Nodes, n)
				n.Sym = int(s)
				continue
			}
			symOfRule[r] = int32(len(gr.Symbols))
		}
		one = append(one, n)
		slab = append(slab, Symbol{ID: len(gr.Symbols), Nodes: one[len(one)-1 : len(one) : len(one)], nonterminal: byName && n.Kind == KindRef})
		s := &slab[len(slab)-1]
		gr.Symbols = append(gr.Symbols, s)
		n.Sym = s.ID
	}
}

// inf is the value of a minimum not (yet) known to be finite. Sums saturate
// at inf.
const inf = 1 << 40

func satAdd(a, b int) int {
	if a >= inf || b >= inf || a+b >= inf {
		return inf
	}
	return a + b
}

func satMul(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	if a >= inf || b >= inf || a > inf/b {
		return inf
	}
	return a * b
}

// minima computes MinDepth, MinSize and MinLen of every node. The graph is
// cyclic, and each minimum is the least fixpoint of equations whose
// right-hand sides never fall below their arguments (a minimum over the
// children of an Alt, sums and maxima otherwise). A few passes over the
// nodes usually find it; where they do not, Knuth's generalization of
// Dijkstra's algorithm settles every node once, cheapest first: in time
// O(E log V) for E edges and V nodes. Both work on a compact copy of the
// graph (see minGraph).
func (gr *Graph) minima() error {
	m := newMinGraph(gr)
	depth, size, length, ok := m.byPasses(4)
	if !ok {
		depth, size, length = m.knuth(minDepthOf), m.knuth(minSizeOf), m.knuth(minLenOf)
	}
	for i, n := range gr.Nodes {
		n.MinDepth, n.MinSize, n.MinLen = depth[i], size[i], length[i]
	}
	for _, n := range gr.Nodes {
		if n.MinSize >= inf {
			return fmt.Errorf("%s: %s derives no finite string", n.Pos, n.Label())
		}
	}
	return nil
}

// A minGraph is what the minima depend on, with nodes by ID and without
// pointers, which large graphs are several times faster to solve on.
type minGraph struct {
	kind  []NodeKind
	first []int32 // the children of node i are kids[first[i]:first[i+1]]
	kids  []int32
	// param is, for a Lit, its length; for a Class, the least length of
	// its characters, or inf if it has none; for a Repeat, its Min.
	param []int
	par   [][]int32 // the parents of each node, once per edge; made by knuth
}

func newMinGraph(gr *Graph) *minGraph {
	nn := len(gr.Nodes)
	m := &minGraph{kind: make([]NodeKind, nn), first: make([]int32, nn+1), param: make([]int, nn)}
	edges := 0
	for _, n := range gr.Nodes {
		edges += len(n.Children)
	}
	m.kids = make([]int32, 0, edges)
	for i, n := range gr.Nodes {
		m.kind[i] = n.Kind
		m.first[i] = int32(len(m.kids))
		for _, c := range n.Children {
			m.kids = append(m.kids, int32(c.ID))
		}
		switch n.Kind {
		case KindLit:
			m.param[i] = len(n.Lit)
		case KindClass:
			switch {
			case n.setCount == 0:
				m.param[i] = inf
			case !n.Class.Bytes && n.set[0].Lo >= 0x80:
				m.param[i] = utf8.RuneLen(n.set[0].Lo)
			default:
				m.param[i] = 1
			}
		case KindRepeat:
			m.param[i] = n.Min
		}
	}
	m.first[nn] = int32(len(m.kids))
	return m
}

// children returns the IDs of node i's children.
func (m *minGraph) children(i int32) []int32 { return m.kids[m.first[i]:m.first[i+1]] }

// byPasses tries to find the minima by at most passes passes over the
// nodes, children before parents as far as the node order allows, which
// usually converges after one or two. It reports whether it did.
func (m *minGraph) byPasses(passes int) (depth, size, length []int, ok bool) {
	nn := len(m.kind)
	depth, size, length = make([]int, nn), make([]int, nn), make([]int, nn)
	for i := range nn {
		depth[i], size[i], length[i] = inf, inf, inf
	}
	for range passes {
		changed := false
		for i := int32(nn - 1); i >= 0; i-- {
			if d := minDepthOf(m, i, depth); d < depth[i] {
				depth[i], changed = d, true
			}
			if s := minSizeOf(m, i, size); s < size[i] {
				size[i], changed = s, true
			}
			if l := minLenOf(m, i, length); l < length[i] {
				length[i], changed = l, true
			}
		}
		if !changed {
			return depth, size, length, true
		}
	}
	return nil, nil, nil, false
}

// minChild returns the least value in val of node i's children, inf if none.
func (m *minGraph) minChild(i int32, val []int) int {
	v := inf
	for _, c := range m.children(i) {
		v = min(v, val[c])
	}
	return v
}

// A minOf computes node i's minimum from its children's in val (for an Alt,
// from those known so far, the others being inf).
type minOf func(m *minGraph, i int32, val []int) int

func minDepthOf(m *minGraph, i int32, val []int) int {
	switch m.kind[i] {
	case KindLit:
		return 0
	case KindClass:
		if m.param[i] >= inf {
			return inf
		}
		return 0
	case KindRef:
		return satAdd(val[m.kids[m.first[i]]], 1)
	case KindAlt:
		return m.minChild(i, val)
	case KindSeq:
		d := 0
		for _, c := range m.children(i) {
			d = max(d, val[c])
		}
		return d
	case KindRepeat:
		if m.param[i] == 0 {
			return 0
		}
		return val[m.kids[m.first[i]]]
	}
	return inf
}

func minSizeOf(m *minGraph, i int32, val []int) int {
	switch m.kind[i] {
	case KindLit:
		return 1
	case KindClass:
		if m.param[i] >= inf {
			return inf
		}
		return 1
	case KindRef:
		return satAdd(val[m.kids[m.first[i]]], 1)
	case KindAlt:
		return satAdd(m.minChild(i, val), 1)
	case KindSeq:
		s := 1
		for _, c := range m.children(i) {
			s = satAdd(s, val[c])
		}
		return s
	case KindRepeat:
		if m.param[i] == 0 {
			return 1
		}
		return satAdd(1, satMul(m.param[i], val[m.kids[m.first[i]]]))
	}
	return inf
}

func minLenOf(m *minGraph, i int32, val []int) int {
	switch m.kind[i] {
	case KindLit, KindClass:
		return m.param[i]
	case KindRef:
		return val[m.kids[m.first[i]]]
	case KindAlt:
		return m.minChild(i, val)
	case KindSeq:
		l := 0
		for _, c := range m.children(i) {
			l = satAdd(l, val[c])
		}
		return l
	case KindRepeat:
		if m.param[i] == 0 {
			return 0
		}
		return satMul(m.param[i], val[m.kids[m.first[i]]])
	}
	return inf
}

// parents returns the parents of every node, once per edge.
func (m *minGraph) parents() [][]int32 {
	parents := make([][]int32, len(m.kind))
	for i := range m.kind {
		for _, c := range m.children(int32(i)) {
			parents[c] = append(parents[c], int32(i))
		}
	}
	return parents
}

// knuth solves one minimum for every node (see minima) by Knuth's
// algorithm. An Alt can be settled once its cheapest child is; any other
// node once all its children are. Nodes that derive no finite string keep
// inf.
func (m *minGraph) knuth(of minOf) []int {
	if m.par == nil {
		m.par = m.parents()
	}
	nn := len(m.kind)
	val := make([]int, nn)
	for i := range val {
		val[i] = inf
	}
	done := make([]bool, nn)
	waiting := make([]int32, nn) // children an and-node still waits for
	var h minHeap
	for i := range int32(nn) {
		nk := m.first[i+1] - m.first[i]
		switch k := m.kind[i]; {
		case k == KindAlt:
		case k == KindRepeat && m.param[i] == 0, nk == 0:
			if v := of(m, i, val); v < inf {
				h.push(v, i)
			}
		default:
			waiting[i] = nk
		}
	}
	for h.len() > 0 {
		v, id := h.pop()
		if done[id] {
			continue
		}
		done[id] = true
		val[id] = v
		for _, p := range m.par[id] {
			if done[p] {
				continue
			}
			switch k := m.kind[p]; {
			case k == KindAlt:
				if w := of(m, p, val); w < inf {
					h.push(w, p)
				}
			case k == KindRepeat && m.param[p] == 0:
			default:
				if waiting[p]--; waiting[p] == 0 {
					if w := of(m, p, val); w < inf {
						h.push(w, p)
					}
				}
			}
		}
	}
	return val
}

// minHeap is a binary heap of (value, node) pairs, smallest value first
// and, among equal values, smallest node.
type minHeap struct{ items []heapItem }

type heapItem struct {
	v  int
	id int32
}

func (h *minHeap) len() int { return len(h.items) }

func (a heapItem) less(b heapItem) bool { return a.v < b.v || a.v == b.v && a.id < b.id }

func (h *minHeap) push(v int, id int32) {
	h.items = append(h.items, heapItem{v, id})
	i := len(h.items) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h.items[i].less(h.items[p]) {
			break
		}
		h.items[i], h.items[p] = h.items[p], h.items[i]
		i = p
	}
}

func (h *minHeap) pop() (int, int32) {
	top := h.items[0]
	last := len(h.items) - 1
	h.items[0] = h.items[last]
	h.items = h.items[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < last && h.items[l].less(h.items[m]) {
			m = l
		}
		if r < last && h.items[r].less(h.items[m]) {
			m = r
		}
		if m == i {
			break
		}
		h.items[i], h.items[m] = h.items[m], h.items[i]
		i = m
	}
	return top.v, top.id
}

// RHS returns the right-hand side node of the named nonterminal, or nil if the
// rule is not part of the graph (undefined, or unreachable from the start).
func (gr *Graph) RHS(name string) *Node {
	if i, ok := gr.index[name]; ok {
		return gr.rhsOf[i]
	}
	return nil
}

// Nonterminals returns the names of the rules in the graph, in the order their
// right-hand sides were numbered.
func (gr *Graph) Nonterminals() []string {
	names := make([]string, 0, len(gr.rhsOf))
	seen := map[string]bool{}
	for _, n := range gr.Nodes {
		if !seen[n.Rule] {
			seen[n.Rule] = true
			names = append(names, n.Rule)
		}
	}
	return names
}

// Distance returns the length in edges of a shortest path from node from to
// any node of symbol sym (0 if from is such a node), or -1 if there is none.
// The table is computed on first use.
func (gr *Graph) Distance(from *Node, sym int) int {
	gr.distOnce.Do(gr.computeDistances)
	return int(gr.dist[from.ID*len(gr.Symbols)+sym])
}

func (gr *Graph) computeDistances() {
	nn, ns := len(gr.Nodes), len(gr.Symbols)
	parents := make([][]int32, nn)
	for _, n := range gr.Nodes {
		for _, c := range n.Children {
			parents[c.ID] = append(parents[c.ID], int32(n.ID))
		}
	}
	dist := make([]int32, nn*ns)
	for i := range dist {
		dist[i] = -1
	}
	queue := make([]int32, 0, nn)
	for s, sym := range gr.Symbols {
		queue = queue[:0]
		for _, n := range sym.Nodes {
			dist[n.ID*ns+s] = 0
			queue = append(queue, int32(n.ID))
		}
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			d := dist[int(v)*ns+s]
			for _, p := range parents[v] {
				if dist[int(p)*ns+s] < 0 {
					dist[int(p)*ns+s] = d + 1
					queue = append(queue, p)
				}
			}
		}
	}
	gr.dist = dist
}

// ClassLen returns the number of characters a class node can derive, or 0 for
// a node of another kind.
func (n *Node) ClassLen() int { return n.setCount }

// ClassMember returns the i-th character (0 <= i < ClassLen) of a class node's
// set, in increasing order, as the bytes it derives: one byte for a byte
// class, the UTF-8 encoding of a rune otherwise.
func (n *Node) ClassMember(i int) string { return classChar(n, i) }

// ClassIndex returns the index of the character s (as ClassMember gives it) in
// a class node's set, or -1 if s is not one of its characters.
func (n *Node) ClassIndex(s string) int {
	if n.Kind != KindClass || s == "" {
		return -1
	}
	var r rune
	if n.Class.Bytes {
		if len(s) != 1 {
			return -1
		}
		r = rune(s[0])
	} else {
		var size int
		r, size = utf8.DecodeRuneInString(s)
		if size != len(s) || (r == utf8.RuneError && size == 1) {
			return -1
		}
	}
	i := 0
	for _, rg := range n.set {
		if r < rg.Lo {
			return -1
		}
		if r <= rg.Hi {
			return i + int(r-rg.Lo)
		}
		i += int(rg.Hi-rg.Lo) + 1
	}
	return -1
}
