package grammar

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// A Forest is a shared packed parse forest: all derivations of one input,
// as Parser.Parse returns them. Derivations share their common parts, so a
// forest stays small (at most cubic in the input length) even when the
// number of derivations is exponential or, for grammars with cycles,
// infinite. Count, Ambiguous, Tree, Trees and PathTable.ForestPaths read it
// without enumerating derivations where they can.
//
// A Forest is immutable and safe for concurrent use.
type Forest struct {
	g     *egrammar
	input []byte
	items []item
	links linkStore // further links, sorted by item
	multi []uint64  // bitmap of the items with further links
	root  int32

	size       int       // Size, before expansion
	maxItems   int       // the parser's item limit
	toks       []tokSpan // the spans scanned by automata (nil in an expanded forest)
	expandOnce sync.Once
	exp        atomic.Pointer[Forest] // the expanded forest, once made (see expanded)
	first      atomic.Pointer[Forest] // the forest Tree made, if exp was not made before

	countOnce sync.Once
	count     uint64
	infinite  bool
}

// Input returns the parsed input. The caller must not modify it.
func (f *Forest) Input() []byte { return f.input }

// Graph returns the grammar graph the forest's trees are built from.
func (f *Forest) Graph() *Graph { return f.g.gr }

// Size returns the number of forest nodes (the Earley items kept from the
// parse, 16 bytes each) plus the number of further derivation links of
// ambiguous nodes and of spans scanned by automata (12 bytes each): a
// measure of the memory the forest takes as Parse returns it. The
// derivations inside spans that the parser scanned with automata (see
// ScanRegular) are not counted: they are rebuilt, and take memory, when
// the forest's trees or paths (or the count, for tokens that may be
// ambiguous) are first asked for.
func (f *Forest) Size() int { return f.size }

// Count returns the number n of derivation trees of the input, and whether
// n is exact. Counts are exact below math.MaxUint64; a larger count
// saturates: then n is math.MaxUint64, a lower bound, and exact is false. A
// forest with a cycle (a grammar that derives a nonterminal from itself,
// A =>+ A, over some part of the input) has infinitely many trees; then
// Count also returns math.MaxUint64 and false, and Infinite reports true.
func (f *Forest) Count() (n uint64, exact bool) {
	f.countOnce.Do(f.computeCount)
	return f.count, f.count < math.MaxUint64
}

// Infinite reports whether the input has infinitely many derivation trees.
func (f *Forest) Infinite() bool {
	f.countOnce.Do(f.computeCount)
	return f.infinite
}

// Ambiguous reports whether the input has more than one derivation tree.
func (f *Forest) Ambiguous() bool {
	n, _ := f.Count()
	return n > 1
}

// extra returns the range lo..hi of the further links of item i in
// f.links.
func (f *Forest) extra(i int32) (lo, hi int) {
	if int(i>>6) >= len(f.multi) || f.multi[i>>6]&(1<<(i&63)) == 0 {
		return 0, 0
	}
	return f.links.find(i)
}

// forEachLink calls fn for every link of item i, the first one first.
func (f *Forest) forEachLink(i int32, fn func(pred, child int32)) {
	it := &f.items[i]
	fn(it.pred, it.child)
	lo, hi := f.extra(i)
	for k := lo; k < hi; k++ {
		l := f.links.at(k)
		fn(l.pred, l.child)
	}
}

// numLinks returns the number of links of item i.
func (f *Forest) numLinks(i int32) int32 {
	lo, hi := f.extra(i)
	return 1 + int32(hi-lo)
}

// link returns the k-th link of item i.
func (f *Forest) link(i, k int32) (pred, child int32) {
	if k == 0 {
		it := &f.items[i]
		return it.pred, it.child
	}
	lo, _ := f.extra(i)
	l := f.links.at(lo + int(k) - 1)
	return l.pred, l.child
}

// single reports whether the forest is one tree, which it is when no item
// has a further link and no item derives a nullable nonterminal with more
// than one ε-derivation: the first links of items never form a cycle (see
// Tree). Counting then needs no memory.
func (f *Forest) single() bool {
	if f.links.len() > 0 {
		return false
	}
	numNT := int32(f.g.numNT)
	for i := range f.items {
		// Children below childEps-numNT are Leo links of items that are
		// not part of the forest (materializeLeo resolves the others).
		if c := childEps - f.items[i].child; c >= 0 && c < numNT && f.g.epsCount[c] != 1 {
			return false
		}
	}
	return true
}

// tokensUnambiguous reports whether every span of f scanned by an
// automaton has exactly one derivation (see tokenDFA.unambiguous): then f
// need not be expanded to be counted.
func (f *Forest) tokensUnambiguous() bool {
	tok := f.g.tok
	for _, tk := range f.toks {
		if !tok[tk.sym].unambiguous {
			return false
		}
	}
	return true
}

func (f *Forest) computeCount() {
	x := f
	if !f.tokensUnambiguous() {
		x = f.expanded()
	}
	f.count, f.infinite = x.countTrees()
}

// countTrees counts the derivation trees of f, as Count and Infinite
// report them. A span scanned by an automaton (if f is not expanded) counts
// as one derivation: f must have only unambiguous tokens.
func (f *Forest) countTrees() (n uint64, inf bool) {
	const (
		white = iota
		gray
		black
	)
	g := f.g
	if f.single() {
		return 1, false
	}
	state := make([]uint8, len(f.items))
	cnt := make([]uint64, len(f.items))
	// The further links of item i are lo..hi-1 with lo = more[i]-1 and hi
	// where the item changes: looked up once here, not by a search per
	// visit.
	nl := f.links.len()
	more := make([]int32, len(f.items))
	for k, prev := 0, int32(-1); k < nl; k++ {
		if it := f.links.at(k).item; it != prev {
			more[it], prev = int32(k)+1, it
		}
	}
	linkRange := func(i int32) (lo, hi int) {
		if more[i] == 0 {
			return 0, 0
		}
		lo = int(more[i]) - 1
		for hi = lo + 1; hi < nl && f.links.at(hi).item == i; hi++ {
		}
		return lo, hi
	}
	stack := []int32{f.root}
	infinite := false
	for len(stack) > 0 && !infinite {
		i := stack[len(stack)-1]
		it := &f.items[i]
		lo, hi := 0, 0
		if state[i] != black {
			lo, hi = linkRange(i)
		}
		switch state[i] {
		case white:
			state[i] = gray
			for k := lo - 1; k < hi; k++ {
				pred, child := it.pred, it.child
				if k >= lo {
					l := f.links.at(k)
					pred, child = l.pred, l.child
				}
				if pred >= 0 {
					switch state[pred] {
					case white:
						stack = append(stack, pred)
					case gray:
						infinite = true
					}
				}
				switch {
				case child >= 0 && child < childSpan:
					switch state[child] {
					case white:
						stack = append(stack, child)
					case gray:
						infinite = true
					}
				case child <= childEps && g.epsInf[childEps-child]:
					infinite = true
				}
			}
		case gray:
			var total uint64
			for k := lo - 1; k < hi; k++ {
				pred, child := it.pred, it.child
				if k >= lo {
					l := f.links.at(k)
					pred, child = l.pred, l.child
				}
				c := uint64(1)
				if pred >= 0 {
					c = cnt[pred]
				}
				switch {
				case child >= 0 && child < childSpan:
					c = satMul64(c, cnt[child])
				case child <= childEps:
					c = satMul64(c, g.epsCount[childEps-child])
				}
				total = satAdd64(total, c)
			}
			cnt[i] = total
			state[i] = black
			stack = stack[:len(stack)-1]
		default:
			stack = stack[:len(stack)-1]
		}
	}
	if infinite {
		return math.MaxUint64, true
	}
	return cnt[f.root], false
}

// Tree returns one derivation tree of the input, in grammar-graph terms:
// its root is the right-hand side of the start rule, and for an
// unambiguous input it is the tree a Generator derived the input from,
// node for node. For an ambiguous input it is the first of Trees.
func (f *Forest) Tree() *Tree {
	b := &treeBuilder{f: f.firstForest()}
	t, _ := b.build()
	return t
}

// A TreeBuffer is the memory of the trees Forest.TreeIn builds, for a
// caller that checks input after input and drops each tree before it
// builds the next. Its zero value is ready to use; it is not safe for
// concurrent use.
type TreeBuffer struct {
	b treeBuilder
}

// TreeIn returns the tree Tree returns, built in the memory of buf: the
// trees built in buf before must not be used any more (their nodes and
// child lists are reused). A caller that builds one tree at a time in the
// same buffer allocates little for them.
func (f *Forest) TreeIn(buf *TreeBuffer) *Tree {
	b := &buf.b
	b.f = f.firstForest()
	b.choices, b.widths, b.pos = b.choices[:0], b.widths[:0], 0
	b.slab.rewind()
	t, _ := b.build()
	b.f = nil
	return t
}

// firstForest returns f expanded enough for Tree: the whole expansion if
// it was made, else the spans of the first derivation (made once).
func (f *Forest) firstForest() *Forest {
	// The first link of every item was made from items that existed
	// before it, and the first ε-production of a nullable nonterminal only
	// uses nonterminals that were known to be nullable before: following
	// first choices never meets a cycle, so the builder need not look for
	// one.
	x := f.exp.Load()
	if x == nil {
		x = f.first.Load()
	}
	if x == nil {
		// Two calls at once may both expand; the forests are the same.
		x = f.expandFirst()
		f.first.Store(x)
	}
	return x
}

// expandFirst returns f if it has no spans scanned by automata, and
// otherwise f with only the spans expanded that its first derivation (the
// first link of every item) uses: enough for Tree, and cheaper than the
// whole expansion when many spans are in no derivation or in others (an
// ambiguous grammar's tokens end at many places).
func (f *Forest) expandFirst() *Forest {
	if len(f.toks) == 0 {
		return f
	}
	sel := make([]bool, len(f.toks))
	seen := make([]bool, len(f.items))
	stack := []int32{f.root}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[i] {
			continue
		}
		seen[i] = true
		it := &f.items[i]
		if it.pred >= 0 {
			stack = append(stack, it.pred)
		}
		switch c := it.child; {
		case c >= childSpan:
			sel[c-childSpan] = true
		case c >= 0:
			stack = append(stack, c)
		}
	}
	return f.expandTokens(sel)
}

// maxTreeAttempts bounds the derivations Trees tries per tree it returns;
// in a cyclic forest most choices may lead into a cycle.
const maxTreeAttempts = 64

// Trees returns up to limit different derivation trees of the input, Tree
// first. If Count is finite and at most limit, it returns all of them. A
// cyclic forest has infinitely many trees; Trees then returns only trees in
// which no forest node derives itself (there are finitely many), and gives
// up after trying 64 derivations per tree asked for. The trees share no
// nodes. Trees takes time proportional to limit times the size of a tree.
func (f *Forest) Trees(limit int) []*Tree {
	f = f.expanded()
	var out []*Tree
	b := f.newBuilder()
	budget := maxTreeAttempts*limit + 1024
	for attempt := 0; len(out) < limit && attempt < budget; attempt++ {
		b.pos = 0
		if t, ok := b.build(); ok {
			out = append(out, t)
		}
		if !b.advance() {
			break
		}
	}
	return out
}

// A kid is one right-hand side position of a production in a derivation.
type kid struct {
	kind       uint8 // kidTerm, kidItem or kidEps
	ref        int32 // the complete item, or the nullable nonterminal
	start, end int32
}

const (
	kidTerm uint8 = iota
	kidItem
	kidEps
)

// A bframe is a production instance whose tree is being built.
type bframe struct {
	prod       int32
	item       int32 // the complete item, or -1 for an ε-derivation
	eps        int32 // the nonterminal of an ε-derivation
	start, end int32
	kids       int // offset of the kids in treeBuilder.kids; -1 until collected
	nkids      int
	next       int // next kid to build
}

// A treeBuilder builds one derivation tree of a forest at a time, making
// the choice between the links of an item (or the ε-productions of a
// nullable nonterminal) at every choice point as recorded in choices; an
// odometer over the choices enumerates all derivations.
type treeBuilder struct {
	f       *Forest
	choices []int32
	widths  []int32
	pos     int

	frames  []bframe
	kids    []kid
	vals    [][]*Tree // value of each kid, parallel to kids
	onStack []bool    // complete items on the frame stack, nil if cycles need no check
	epsOn   []bool    // nonterminals with an ε-frame on the stack
	open    []*Tree
	slab    treeSlab
}

// A treeSlab allocates tree nodes and short child lists in blocks. The
// blocks start small and double up to a bound, so that the tree of a short
// text (a solver parses many fields of a few bytes) does not hold a block
// made for a large one.
type treeSlab struct {
	nodes    []Tree
	ptrs     []*Tree
	nodeSize int // the size of the last block of nodes
	ptrSize  int // the capacity of the last block of child lists
	// With keep set, the slab records its blocks, which rewind hands out
	// again (see Generator.Recycle); nodeNext and ptrNext are the next
	// ones to hand out.
	keep              bool
	nodeBlocks        [][]Tree
	ptrBlocks         [][]*Tree
	nodeNext, ptrNext int
}

func (s *treeSlab) node(n *Node) *Tree {
	if len(s.nodes) == 0 {
		if s.nodeNext < len(s.nodeBlocks) {
			s.nodes = s.nodeBlocks[s.nodeNext]
			clear(s.nodes)
		} else {
			s.nodeSize = min(max(2*s.nodeSize, 16), 256)
			s.nodes = make([]Tree, s.nodeSize)
			if s.keep {
				s.nodeBlocks = append(s.nodeBlocks, s.nodes)
			}
		}
		if s.keep {
			s.nodeNext++
		}
	}
	t := &s.nodes[0]
	s.nodes = s.nodes[1:]
	t.Node = n
	return t
}

// rewind makes the slab hand out the blocks it recorded again, from the
// first: the trees it made since the last rewind must be dropped.
func (s *treeSlab) rewind() {
	s.keep = true
	s.nodes, s.ptrs = nil, nil
	s.nodeNext, s.ptrNext = 0, 0
}

// children returns an empty list with room for n trees.
func (s *treeSlab) children(n int) []*Tree {
	if n > 32 {
		return make([]*Tree, 0, n)
	}
	if cap(s.ptrs)-len(s.ptrs) < n {
		if s.ptrNext < len(s.ptrBlocks) {
			s.ptrs = s.ptrBlocks[s.ptrNext][:0]
			clear(s.ptrs[:cap(s.ptrs)])
		} else {
			s.ptrSize = min(max(2*s.ptrSize, 64), 1024)
			s.ptrs = make([]*Tree, 0, s.ptrSize)
			if s.keep {
				s.ptrBlocks = append(s.ptrBlocks, s.ptrs)
			}
		}
		if s.keep {
			s.ptrNext++
		}
	}
	k := len(s.ptrs)
	s.ptrs = s.ptrs[:k+n]
	return s.ptrs[k : k : k+n]
}

// byteStrings holds the one-byte strings, the values of most class leaves.
var byteStrings = func() (s [256]string) {
	for i := range s {
		s[i] = string(rune(i))
		if i >= 0x80 {
			s[i] = string([]byte{byte(i)})
		}
	}
	return s
}()

func (f *Forest) newBuilder() *treeBuilder {
	return &treeBuilder{f: f, onStack: make([]bool, len(f.items)), epsOn: make([]bool, f.g.numNT)}
}

// choose returns the choice at the next choice point with n alternatives.
func (b *treeBuilder) choose(n int32) int32 {
	if n <= 1 {
		return 0
	}
	if b.pos < len(b.choices) {
		c := b.choices[b.pos]
		b.pos++
		return c
	}
	b.choices = append(b.choices, 0)
	b.widths = append(b.widths, n)
	b.pos++
	return 0
}

// advance moves to the next choice sequence, and reports false when all
// have been tried.
func (b *treeBuilder) advance() bool {
	for i := len(b.choices) - 1; i >= 0; i-- {
		if b.choices[i]+1 < b.widths[i] {
			b.choices[i]++
			b.choices, b.widths = b.choices[:i+1], b.widths[:i+1]
			return true
		}
	}
	return false
}

// build builds the derivation the current choices select. It reports false
// if the choices lead into a cycle.
func (b *treeBuilder) build() (*Tree, bool) {
	f := b.f
	b.frames, b.kids, b.vals = b.frames[:0], b.kids[:0], b.vals[:0]
	b.pushItem(f.root, int32(len(f.input)))
	var result []*Tree
	ok := true
	for len(b.frames) > 0 {
		fr := &b.frames[len(b.frames)-1]
		if fr.kids < 0 {
			b.collect(fr)
		}
		if fr.next < fr.nkids {
			k := b.kids[fr.kids+fr.next]
			switch k.kind {
			case kidItem:
				if b.onStack != nil && b.onStack[k.ref] {
					ok = false
				} else {
					b.pushItem(k.ref, k.end)
				}
			case kidEps:
				if b.epsOn != nil && b.epsOn[k.ref] {
					ok = false
				} else {
					b.pushEps(k.ref, k.start)
				}
			default:
				fr.next++
			}
			if !ok {
				break
			}
			continue
		}
		v := b.apply(fr)
		if b.onStack != nil {
			if fr.item >= 0 {
				b.onStack[fr.item] = false
			} else {
				b.epsOn[fr.eps] = false
			}
		}
		b.kids, b.vals = b.kids[:fr.kids], b.vals[:fr.kids]
		b.frames = b.frames[:len(b.frames)-1]
		if len(b.frames) == 0 {
			result = v
			break
		}
		parent := &b.frames[len(b.frames)-1]
		b.vals[parent.kids+parent.next] = v
		parent.next++
	}
	if !ok {
		for _, fr := range b.frames {
			if fr.item >= 0 {
				b.onStack[fr.item] = false
			} else {
				b.epsOn[fr.eps] = false
			}
		}
		return nil, false
	}
	return result[0], true
}

func (b *treeBuilder) pushItem(i, end int32) {
	it := &b.f.items[i]
	if b.onStack != nil {
		b.onStack[i] = true
	}
	b.frames = append(b.frames, bframe{prod: b.f.g.dots[it.rule].prod, item: i, start: it.origin, end: end, kids: -1})
}

func (b *treeBuilder) pushEps(a, at int32) {
	g := b.f.g
	if b.epsOn != nil {
		b.epsOn[a] = true
	}
	ps := g.epsProds[a]
	p := ps[b.choose(int32(len(ps)))]
	b.frames = append(b.frames, bframe{prod: p, item: -1, eps: a, start: at, end: at, kids: -1})
}

// collect lists the kids of frame fr, choosing links along the way.
func (b *treeBuilder) collect(fr *bframe) {
	f := b.f
	g := f.g
	n := int(g.prodLen[fr.prod])
	fr.kids, fr.nkids = len(b.kids), n
	for range n {
		b.kids = append(b.kids, kid{})
		b.vals = append(b.vals, nil)
	}
	ks := b.kids[fr.kids:]
	if fr.item < 0 {
		for d := range n {
			ks[d] = kid{kind: kidEps, ref: g.rhs[g.prodBase[fr.prod]+int32(d)], start: fr.start, end: fr.start}
		}
		return
	}
	cur, end := fr.item, fr.end
	for d := n - 1; d >= 0; d-- {
		pred, child := f.link(cur, b.choose(f.numLinks(cur)))
		var k kid
		switch {
		case child >= 0:
			k = kid{kind: kidItem, ref: child, start: f.items[child].origin, end: end}
		case child == childTerm:
			k = kid{kind: kidTerm, start: end - 1, end: end}
		default:
			k = kid{kind: kidEps, ref: childEps - child, start: end, end: end}
		}
		ks[d] = k
		end = k.start
		cur = pred
	}
}

// apply runs the template of frame fr over its kids' values. A kid's value
// is used once, so it is spliced in place where possible.
func (b *treeBuilder) apply(fr *bframe) []*Tree {
	f := b.f
	nodes := f.g.gr.Nodes
	ks := b.kids[fr.kids : fr.kids+fr.nkids]
	vs := b.vals[fr.kids : fr.kids+fr.nkids]
	var out []*Tree
	base := len(b.open)
	add := func(t *Tree) {
		if len(b.open) > base {
			p := b.open[len(b.open)-1]
			p.Children = append(p.Children, t)
		} else {
			if out == nil {
				out = b.slab.children(1)
			}
			out = append(out, t)
		}
	}
	for _, o := range f.g.prodOps[fr.prod] {
		switch o.code {
		case opOpen:
			n := nodes[o.node]
			t := b.slab.node(n)
			switch n.Kind {
			case KindSeq:
				t.Children = b.slab.children(len(n.Children))
			case KindAlt, KindRef:
				t.Children = b.slab.children(1)
			}
			b.open = append(b.open, t)
		case opClose:
			t := b.open[len(b.open)-1]
			b.open = b.open[:len(b.open)-1]
			add(t)
		case opSlot:
			v := vs[o.a]
			if len(b.open) > base {
				p := b.open[len(b.open)-1]
				if len(p.Children) == 0 && cap(p.Children) < len(v) {
					p.Children = v
				} else {
					p.Children = append(p.Children, v...)
				}
			} else if len(out) == 0 && cap(out) < len(v) {
				out = v
			} else {
				out = append(out, v...)
			}
		case opLit:
			n := nodes[o.node]
			t := b.slab.node(n)
			t.Value = n.Lit
			add(t)
		case opSpan:
			t := b.slab.node(nodes[o.node])
			if lo, hi := ks[o.a].start, ks[o.b-1].end; hi-lo == 1 {
				t.Value = byteStrings[f.input[lo]]
			} else {
				t.Value = string(f.input[lo:hi])
			}
			add(t)
		}
	}
	return out
}

// materializeLeo replaces the Leo links reachable from roots in f by
// the chains of items they stand for.
func (s *parseState) materializeLeo(f *Forest, roots []int32) error {
	g := s.g
	leoBase := childEps - int32(g.numNT)
	seen := make([]bool, len(f.items))
	stack := slices.Clone(roots)
	resolve := func(child int32) int32 {
		if child > leoBase {
			return child
		}
		ll := s.leos[leoBase-child]
		gi, prev := ll.group, ll.bottom
		top := s.groups[gi].top
		for gi != top {
			// Groups below the top wait with a stored item (a predicted
			// one has its origin in its own set, which ends a path).
			w := s.waiters[s.groups[gi].start]
			wt := f.items[w]
			f.items = append(f.items, item{rule: wt.rule + 1, origin: wt.origin, pred: w, child: prev})
			seen = append(seen, false)
			prev = int32(len(f.items) - 1)
			gi = s.findGroup(wt.origin, g.dots[wt.rule].lhs)
		}
		return prev
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[i] {
			continue
		}
		seen[i] = true
		if len(f.items)+f.links.len() > s.maxItems {
			return s.limitError(len(f.input))
		}
		it := &f.items[i]
		if it.child <= leoBase {
			c := resolve(it.child)
			f.items[i].child = c
		}
		it = &f.items[i]
		push := func(xs ...int32) {
			for _, x := range xs {
				if x >= 0 && x < childSpan && !seen[x] {
					stack = append(stack, x)
				}
			}
		}
		push(it.pred, it.child)
		lo, hi := f.extra(i)
		for k := lo; k < hi; k++ {
			l := f.links.at(k) // patched in place
			if l.child <= leoBase {
				l.child = resolve(l.child)
			}
			push(l.pred, l.child)
		}
	}
	return nil
}
