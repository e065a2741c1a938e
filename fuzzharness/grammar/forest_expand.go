package grammar

import (
	"math"
	"slices"
)

// expand rebuilds the derivations inside the spans the parser scanned with
// automata (see compileTokens), once, before the forest's trees, count or
// paths are taken. Each span of a token A from i to e becomes an item
// (A -> A, origin i) after the parse's items, and the links that named the
// span name that item. The span is parsed again as A with the general
// algorithm, the byte after the span as its last lookahead, and the
// complete items of A over the span become the links of the span's item:
// the forest then holds the same derivations as a parse without automata.
func (f *Forest) expand() {
	f.expandOnce.Do(f.expandTokens)
}

// maxExpandedItems bounds the items and links of an expanded forest, which
// are numbered with int32.
const maxExpandedItems = math.MaxInt32 / 2

func (f *Forest) expandTokens() {
	if len(f.toks) == 0 {
		return
	}
	g := f.g
	s := newParseState(g, maxExpandedItems)
	s.links = true
	items := f.items
	spans := int32(len(items)) // the item of span k is spans+k
	if len(items)+len(f.toks)+f.links.len() > maxExpandedItems {
		panic("grammar: the forest's expansion needs more than 2^30 items")
	}
	for i := range items {
		if c := items[i].child; c >= childSpan {
			items[i].child = spans + c - childSpan
		}
	}
	for k := range f.links.len() {
		if l := f.links.at(k); l.child >= childSpan {
			l.child = spans + l.child - childSpan
		}
	}
	var spanLinks []xlink // further links of span items, by item
	var subLinks []xlink  // links of the appended items, by item
	var roots []int32
	// The spans' bytes, to reserve items for the rest of the spans by the
	// items per byte of those parsed (append grows large arrays by only
	// a quarter, copying them many times).
	total, done := 0, 0
	for _, tk := range f.toks {
		total += int(tk.end - tk.origin)
	}
	items = slices.Grow(items, len(f.toks))
	for _, tk := range f.toks {
		items = append(items, item{rule: g.tokDot[tk.sym], origin: tk.origin, pred: -1, child: childTok})
	}
	base := len(items)
	for k, tk := range f.toks {
		roots = s.parseSpan(f.input, tk.origin, tk.end, tk.sym, roots[:0])
		if len(roots) == 0 {
			panic("grammar: internal error: a token's automaton accepted a span its grammar does not derive")
		}
		done += int(tk.end - tk.origin)
		if need := len(items) + len(s.items); need > cap(items) {
			est := need + int(float64(need-base)/float64(done)*float64(total-done)*1.1)
			grown := make([]item, len(items), max(est, need+need/4))
			copy(grown, items)
			items = grown
		}
		off := int32(len(items))
		if len(items)+len(s.items)+len(subLinks)+f.links.len() > maxExpandedItems {
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
		for k := range s.store.len() {
			l := s.store.at(k)
			subLinks = append(subLinks, xlink{item: l.item + off, pred: shift(l.pred), child: shift(l.child)})
		}
		it := spans + int32(k)
		items[it].child = roots[0] + off
		for _, r := range roots[1:] {
			spanLinks = append(spanLinks, xlink{item: it, pred: -1, child: r + off})
		}
	}
	f.items, f.toks = items, nil
	if len(spanLinks) == 0 && len(subLinks) == 0 {
		return
	}
	// The parse's links, then the span items' and the appended items'
	// (each sorted by item, and the items in that order).
	f.links.append(spanLinks)
	f.links.append(subLinks)
	multi := make([]uint64, (len(items)+63)/64)
	for i := range f.links.len() {
		x := f.links.at(i).item
		multi[x>>6] |= 1 << (x & 63)
	}
	f.multi = multi
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
