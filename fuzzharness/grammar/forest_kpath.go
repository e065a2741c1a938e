package grammar

// ForestPaths returns the paths of length 1..K that occur in any derivation
// tree of the forest (CODEINE, section 5.1: a k-path is a feature of an
// input if some derivation of it contains the path). For an unambiguous
// input it equals pt.Paths(f.Tree()). The forest is walked once per forest
// node and context (the last K-1 symbols above the node), never per tree,
// so this takes time linear in the forest for unambiguous inputs and
// terminates on cyclic forests. pt must be a table of the forest's graph;
// ForestPaths panics otherwise.
func (pt *PathTable) ForestPaths(f *Forest) PathSet {
	s := pt.NewPathSet()
	pt.AddForestPaths(s, f)
	return s
}

// ForestPathIDs returns the IDs of ForestPaths in increasing order: the
// input's sparse feature vector.
func (pt *PathTable) ForestPathIDs(f *Forest) []int { return pt.ForestPaths(f).IDs() }

// AddForestPaths adds the paths of ForestPaths to s.
func (pt *PathTable) AddForestPaths(s PathSet, f *Forest) {
	if pt.Graph != f.g.gr {
		panic("grammar: ForestPaths with a path table of another graph")
	}
	f = f.expanded()
	w := &forestPathWalker{
		pt:       pt,
		f:        f,
		s:        s,
		ctxPaths: [][]int32{nil},
		ctxByKey: map[int32]int32{},
		seen:     make([]int32, len(f.items)),
	}
	for i := range w.seen {
		w.seen[i] = -1
	}
	w.walk()
}

// A forestPathWalker visits every (forest node, context) pair reachable from
// the root of a forest. A context is the list of paths that end at the
// nearest symbolic node above: one of each length 1..K-1, all suffixes of
// the longest one, which identifies the context.
type forestPathWalker struct {
	pt *PathTable
	f  *Forest
	s  PathSet

	ctxPaths [][]int32       // context -> its paths, by increasing length
	ctxByKey map[int32]int32 // longest path -> context
	prodMemo pairMap         // (production, context) -> index in slotArena
	slotMem  []int32         // contexts of right-hand side positions
	opens    []int32

	seen     []int32 // the first context each item was visited in, -1 for none
	seenMore pairMap // further (item, context) pairs
	epsSeen  pairMap // (nullable nonterminal, context) pairs
	stack    []walkEntry
}

type walkEntry struct {
	node, ctx int32
	eps       bool // node is a nullable nonterminal standing for its ε-derivations
}

func pairKey(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

// descend returns the context below symbolic node sym in context ctx.
func (w *forestPathWalker) descend(ctx int32, sym int32) int32 {
	k := w.pt.K
	if k <= 1 {
		return 0
	}
	old := w.ctxPaths[ctx]
	paths := make([]int32, 1, min(len(old)+1, k-1))
	paths[0] = sym
	for _, a := range old {
		if len(paths) >= k-1 {
			break
		}
		ext, ok := w.pt.extend(a, sym)
		if !ok {
			break
		}
		paths = append(paths, ext)
	}
	key := paths[len(paths)-1]
	if c, ok := w.ctxByKey[key]; ok {
		return c
	}
	c := int32(len(w.ctxPaths))
	w.ctxPaths = append(w.ctxPaths, paths)
	w.ctxByKey[key] = c
	return c
}

// addSym adds the paths that end at symbolic node sym below context ctx.
func (w *forestPathWalker) addSym(ctx int32, sym int32) {
	w.s.Add(int(sym))
	for _, a := range w.ctxPaths[ctx] {
		if ext, ok := w.pt.extend(a, sym); ok {
			w.s.Add(int(ext))
		}
	}
}

// slots adds the paths of the graph nodes that production prod's template
// creates in context ctx (once per production and context) and returns the
// context of each right-hand side position.
func (w *forestPathWalker) slots(prod, ctx int32) []int32 {
	key := pairKey(prod, ctx)
	g := w.f.g
	n := g.prodLen[prod]
	if at, ok := w.prodMemo.get(key); ok {
		return w.slotMem[at : at+n]
	}
	nodes := g.gr.Nodes
	at := int32(len(w.slotMem))
	w.prodMemo.put(key, at)
	w.slotMem = append(w.slotMem, make([]int32, n)...)
	out := w.slotMem[at : at+n]
	cur := ctx
	w.opens = w.opens[:0]
	for _, o := range g.prodOps[prod] {
		switch o.code {
		case opOpen:
			w.opens = append(w.opens, cur)
			if n := nodes[o.node]; n.Symbolic() {
				w.addSym(cur, int32(n.Sym))
				cur = w.descend(cur, int32(n.Sym))
			}
		case opClose:
			cur = w.opens[len(w.opens)-1]
			w.opens = w.opens[:len(w.opens)-1]
		case opLit, opSpan:
			w.addSym(cur, int32(nodes[o.node].Sym))
		case opSlot:
			out[o.a] = cur
		}
	}
	return out
}

func (w *forestPathWalker) walk() {
	f := w.f
	g := f.g
	w.stack = append(w.stack[:0], walkEntry{node: f.root})
	for len(w.stack) > 0 {
		e := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		if e.eps {
			if !w.epsSeen.insert(pairKey(e.node, e.ctx)) {
				continue
			}
			for _, p := range g.epsProds[e.node] {
				sl := w.slots(p, e.ctx)
				for d, r := 0, g.prodBase[p]; g.rhs[r] != dotEnd; d, r = d+1, r+1 {
					w.stack = append(w.stack, walkEntry{node: g.rhs[r], ctx: sl[d], eps: true})
				}
			}
			continue
		}
		i := e.node
		switch first := w.seen[i]; {
		case first == e.ctx:
			continue
		case first < 0:
			w.seen[i] = e.ctx
		default:
			if !w.seenMore.insert(pairKey(i, e.ctx)) {
				continue
			}
		}
		d := &g.dots[f.items[i].rule]
		sl := w.slots(d.prod, e.ctx)
		pos := d.dot - 1
		f.forEachLink(i, func(pred, child int32) {
			if pred >= 0 {
				w.stack = append(w.stack, walkEntry{node: pred, ctx: e.ctx})
			}
			switch {
			case child >= 0:
				w.stack = append(w.stack, walkEntry{node: child, ctx: sl[pos]})
			case child <= childEps:
				w.stack = append(w.stack, walkEntry{node: childEps - child, ctx: sl[pos], eps: true})
			}
		})
	}
}

// A pairMap maps uint64 keys to int32 values by open addressing; it is a
// faster map for the walker's hot lookups.
type pairMap struct {
	keys []uint64 // key+1; 0 marks a free slot
	vals []int32
	n    int
}

func (m *pairMap) slot(key uint64) int {
	mask := len(m.keys) - 1
	h := int(hashKey(key)) & mask
	for m.keys[h] != 0 && m.keys[h] != key+1 {
		h = (h + 1) & mask
	}
	return h
}

func (m *pairMap) get(key uint64) (int32, bool) {
	if m.n == 0 {
		return 0, false
	}
	h := m.slot(key)
	return m.vals[h], m.keys[h] != 0
}

func (m *pairMap) put(key uint64, v int32) {
	if 2*(m.n+1) > len(m.keys) {
		old, oldv := m.keys, m.vals
		m.keys = make([]uint64, max(64, 2*len(old)))
		m.vals = make([]int32, len(m.keys))
		m.n = 0
		for i, k := range old {
			if k != 0 {
				m.put(k-1, oldv[i])
			}
		}
	}
	h := m.slot(key)
	if m.keys[h] == 0 {
		m.n++
	}
	m.keys[h], m.vals[h] = key+1, v
}

// insert adds key to the map as a set and reports whether it was new.
func (m *pairMap) insert(key uint64) bool {
	if _, ok := m.get(key); ok {
		return false
	}
	m.put(key, 0)
	return true
}
