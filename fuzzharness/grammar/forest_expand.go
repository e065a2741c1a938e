package grammar

import "math"

// expanded returns the forest with the derivations inside the spans the
// parser scanned with automata (see compileTokens) rebuilt: f itself if it
// has no such spans, and otherwise a forest made once, when the forest's
// trees, count or paths first need it. Each span of a token A from i to e
// becomes an item (A -> A, origin i) after the parse's items, and the links
// that named the span name that item. The span is parsed again as A with
// the general algorithm, the byte after the span as its last lookahead, and
// the complete items of A over the span become the links of the span's
// item: the expanded forest holds the same derivations as a parse without
// automata. f itself is not changed.
func (f *Forest) expanded() *Forest {
	if len(f.toks) == 0 {
		return f
	}
	f.expandOnce.Do(func() { f.exp.Store(f.expandTokens(nil)) })
	return f.exp.Load()
}

// maxExpandedItems bounds the items and links of an expanded forest, which
// are numbered with int32.
const maxExpandedItems = math.MaxInt32 / 2

// expandTokens returns f with the spans expanded as expanded describes:
// all of them if sel is nil. Otherwise it expands only the spans k for which
// sel[k] is set and keeps only the first link of every item: the result
// holds the first derivation (see Tree) if sel has the spans it uses, and
// the item of a span not selected has no link.
func (f *Forest) expandTokens(sel []bool) *Forest {
	g := f.g
	all := sel == nil
	s := g.spanState.Swap(nil)
	if s == nil {
		s = newParseState(g, maxExpandedItems)
	}
	defer g.keepSpanState(s)
	s.links = all
	spans := int32(len(f.items)) // the item of span k is spans+k
	if len(f.items)+len(f.toks)+f.links.len() > maxExpandedItems {
		panic("grammar: the forest's expansion needs more than 2^30 items")
	}
	// The spans' bytes, to reserve items for the rest of the spans by the
	// items per byte of those parsed (append grows large arrays by only
	// a quarter, copying them many times).
	total, done := 0, 0
	for k, tk := range f.toks {
		if all || sel[k] {
			total += int(tk.end - tk.origin)
		}
	}
	// The parse's items (which are not changed) and the spans' items,
	// copied once the last expansion (see egrammar.spanItems) or the first
	// span parsed tells how much room the spans take.
	var items []item
	base := len(f.items) + len(f.toks)
	start := func(size int) {
		if cap(s.spare) >= size { // the items of a recycled expansion
			items = s.spare[:len(f.items)]
		} else {
			items = make([]item, len(f.items), size)
		}
		s.spare = nil
		copy(items, f.items)
		for i := range items {
			if c := items[i].child; c >= childSpan {
				items[i].child = spans + c - childSpan
			}
		}
		for _, tk := range f.toks {
			items = append(items, item{rule: g.tokDot[tk.sym], origin: tk.origin, pred: -1, child: childTok})
		}
	}
	if perByte := g.spanItems.Load(); all && perByte > 0 {
		start(base + int(float64(perByte)/16*1.05*float64(total)) + 64)
	}
	var links linkStore
	if all {
		links = f.links.clone() // f's links are not changed
	}
	for k := range links.len() {
		if l := links.at(k); l.child >= childSpan {
			l.child = spans + l.child - childSpan
		}
	}
	var spanLinks []xlink // further links of span items, by item
	var subLinks []xlink  // links of the appended items, by item
	var roots []int32
	for k, tk := range f.toks {
		if !all && !sel[k] {
			continue
		}
		roots = s.parseSpan(f.input, tk.origin, tk.end, tk.sym, roots[:0])
		if len(roots) == 0 {
			panic("grammar: internal error: a token's automaton accepted a span its grammar does not derive")
		}
		done += int(tk.end - tk.origin)
		if need := max(len(items), base) + len(s.items); need > cap(items) {
			est := need + int(float64(need-base)/float64(done)*float64(total-done)*1.1)
			if items == nil {
				start(max(est, need, min(cap(s.spare), 2*max(est, need)+4096)))
			} else {
				grown := make([]item, len(items), max(est, need+need/4))
				copy(grown, items)
				items = grown
			}
		}
		off := int32(len(items))
		if len(items)+len(s.items)+len(subLinks)+links.len() > maxExpandedItems {
			panic("grammar: the forest's expansion needs more than 2^30 items")
		}
		shift := func(x int32) int32 {
			if x >= 0 {
				return x + off
			}
			return x
		}
		for _, it := range s.items {
			items = append(items, item{rule: it.rule, origin: it.origin + tk.origin, pred: shift(it.pred), child: shift(it.child)})
		}
		it := spans + int32(k)
		items[it].child = roots[0] + off
		if !all {
			continue
		}
		for k := range s.store.len() {
			l := s.store.at(k)
			subLinks = append(subLinks, xlink{item: l.item + off, pred: shift(l.pred), child: shift(l.child)})
		}
		for _, r := range roots[1:] {
			spanLinks = append(spanLinks, xlink{item: it, pred: -1, child: r + off})
		}
	}
	if items == nil {
		start(base)
	}
	if all && total >= 1024 {
		g.spanItems.Store(uint32((16*(len(items)-base) + total - 1) / total))
	}
	x := &Forest{g: g, input: f.input, items: items, links: links, root: f.root, size: f.size, maxItems: f.maxItems}
	if all {
		x.multi = f.multi
	}
	if len(spanLinks) == 0 && len(subLinks) == 0 {
		return x
	}
	// The parse's links, then the span items' and the appended items'
	// (each sorted by item, and the items in that order).
	x.links.append(spanLinks)
	x.links.append(subLinks)
	x.multi = make([]uint64, (len(items)+63)/64)
	for i := range x.links.len() {
		it := x.links.at(i).item
		x.multi[it>>6] |= 1 << (it & 63)
	}
	return x
}

// keepSpanState keeps s, the parse state of an expansion that is done,
// for the next expansion if its buffers are small (see putState).
func (g *egrammar) keepSpanState(s *parseState) {
	s.input, s.leos = nil, s.leos[:0]
	if s.scratchBytes() <= maxSpareScratch {
		g.spanState.Store(s)
	}
}

// parseSpan parses in[i:e] as nonterminal a with the general algorithm and
// appends to roots the complete items of a over the whole span; the items
// are those of s.items, with origins relative to i, and the further links
// those of s.store.
func (s *parseState) parseSpan(in []byte, i, e, a int32, roots []int32) []int32 {
	s.input = in[i:e]
	s.endLA = -1
	if int(e) < len(in) {
		s.endLA = int(in[e])
	}
	s.startNT = a
	s.items, s.multi, s.store = s.items[:0], s.multi[:0], linkStore{}
	if _, err := s.run(false); err != nil {
		return roots
	}
	g := s.g
	for _, p := range g.ntProds[a] {
		if n := g.prodLen[p]; n > 0 {
			if r := s.lookup(g.prodBase[p]+n, 0); r >= 0 {
				roots = append(roots, r)
			}
		}
	}
	if len(s.leos) > 0 {
		sf := &Forest{g: g, input: s.input, items: s.items, links: s.store, multi: s.multi}
		if err := s.materializeLeo(sf, roots); err != nil {
			return roots[:0]
		}
		s.items = sf.items
	}
	return roots
}
