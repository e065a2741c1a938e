package grammar

import (
	"encoding/binary"
	"fmt"
	"slices"
)

// This file finds the nonterminals of the compiled grammar whose language
// is regular and compiles each of them to a byte-level DFA (a token). When
// the parser predicts a token at position i it runs the DFA from i instead
// of predicting the token's productions, and completes the token at every
// end the DFA accepts (and the following byte can continue): one item per
// token instead of one or more per byte. The derivations inside a token
// are rebuilt when a forest's trees, count or paths are asked for, by
// parsing the token's span with the general algorithm (see
// Forest.expanded), so forests are the same with and without tokens; a
// count needs them only for tokens that may be ambiguous (see
// tokenBuilder.unambiguous).
//
// A nonterminal is regular here if everything it derives through is: it
// is not recursive, or it is directly left-linear (every production that
// mentions it is A -> A α) or directly right-linear (A -> α A), with α and
// the other productions using only regular nonterminals. The augmented
// start symbol never is. The DFA is built from a Thompson-style NFA by the
// subset construction, over the byte classes the token's terminals
// distinguish.

// A tokenDFA recognizes the non-empty words of a regular nonterminal.
type tokenDFA struct {
	class  [256]uint8 // byte -> byte class
	nclass int
	// trans maps row + class, where row is state*nclass, to the next
	// state's row times 2 plus 1 if that state accepts, or -1 (dead);
	// state 0 (row 0) starts.
	trans   []int32
	follow  byteSet // the bytes that can follow the nonterminal
	eofNext bool    // the end of the input can follow it
	// unambiguous is set if every word the automaton accepts has exactly
	// one derivation (see tokenBuilder.unambiguous).
	unambiguous bool
}

// Bounds on the automata, which keep compiling a large grammar linear.
const (
	maxTokenNFA    = 4096    // NFA states per token
	maxTokenDFA    = 512     // DFA states per token
	maxTokensNFA   = 1 << 20 // NFA states built for all tokens of a grammar, at most
	minTokensNFA   = 1 << 16 // NFA states any grammar may build for its tokens
	tokensNFAPer   = 8       // NFA states built for all tokens per right-hand side symbol of the grammar
	maxTokensBytes = 8 << 20 // transition table bytes of all tokens
)

type nfaEdge struct{ term, to int32 }

// tokenBuilder builds the NFA of one nonterminal at a time.
type tokenBuilder struct {
	g     *egrammar
	kind  []int8 // per nonterminal: regNone, regFlat, regLeft, regRight
	eps   [][]int32
	edges [][]nfaEdge
	over  bool
	built int // NFA states built over all tokens
	limit int // the most NFA states to build over all tokens
	// unambLeft is what remains of the steps that deciding whether
	// tokens are unambiguous may take over all tokens.
	unambLeft int
}

const (
	regNone int8 = iota
	regFlat
	regLeft
	regRight
)

// regularKinds classifies the nonterminals of g.
func (g *egrammar) regularKinds() []int8 {
	prods := make([][][]int32, g.numNT)
	for a, ps := range g.ntProds {
		for _, p := range ps {
			prods[a] = append(prods[a], g.rhs[g.prodBase[p]:g.prodBase[p]+g.prodLen[p]])
		}
	}
	return regularKinds(prods, g.start)
}

// regularKinds classifies the nonterminals of a grammar given by the
// right-hand sides of their productions (nonterminals >= 0); start is
// never regular.
func regularKinds(prods [][][]int32, start int32) []int8 {
	kind := make([]int8, len(prods))
	succ := func(a int32) []int32 {
		var out []int32
		for _, rhs := range prods[a] {
			for _, s := range rhs {
				if s >= 0 {
					out = append(out, s)
				}
			}
		}
		return out
	}
	for _, comp := range sccs(len(prods), succ) {
		a := comp[0]
		if len(comp) > 1 || a == start {
			continue
		}
		left, right, ok := true, true, true
		self := false
		for _, rhs := range prods[a] {
			occ := 0
			for _, s := range rhs {
				switch {
				case s == a:
					occ++
				case s >= 0 && kind[s] == regNone:
					ok = false
				}
			}
			if occ == 0 {
				continue
			}
			self = true
			left = left && occ == 1 && rhs[0] == a
			right = right && occ == 1 && rhs[len(rhs)-1] == a
		}
		switch {
		case !ok:
		case !self:
			kind[a] = regFlat
		case left:
			kind[a] = regLeft
		case right:
			kind[a] = regRight
		}
	}
	return kind
}

func (b *tokenBuilder) state() int32 {
	if len(b.eps) >= maxTokenNFA || b.built >= b.limit {
		b.over = true
	}
	b.built++
	b.eps = append(b.eps, nil)
	b.edges = append(b.edges, nil)
	return int32(len(b.eps) - 1)
}

// nt connects s to t by the words of nonterminal a. No fragment adds
// edges into its s or out of its t, so fragments compose (also with s ==
// t, for a loop).
func (b *tokenBuilder) nt(a, s, t int32) {
	if b.over {
		return
	}
	g := b.g
	switch b.kind[a] {
	case regFlat:
		for _, p := range g.ntProds[a] {
			b.chain(g.prodBase[p], g.prodBase[p]+g.prodLen[p], s, t)
		}
	case regLeft: // A -> β | A α: β α*
		mid := b.state()
		for _, p := range g.ntProds[a] {
			base, end := g.prodBase[p], g.prodBase[p]+g.prodLen[p]
			if end > base && g.rhs[base] == a {
				b.chain(base+1, end, mid, mid)
			} else {
				b.chain(base, end, s, mid)
			}
		}
		b.eps[mid] = append(b.eps[mid], t)
	case regRight: // A -> α A | β: α* β
		mid := b.state()
		b.eps[s] = append(b.eps[s], mid)
		for _, p := range g.ntProds[a] {
			base, end := g.prodBase[p], g.prodBase[p]+g.prodLen[p]
			if end > base && g.rhs[end-1] == a {
				b.chain(base, end-1, mid, mid)
			} else {
				b.chain(base, end, mid, t)
			}
		}
	}
}

// chain connects s to t by the symbols of dotted rules lo..hi-1.
func (b *tokenBuilder) chain(lo, hi, s, t int32) {
	if lo == hi {
		b.eps[s] = append(b.eps[s], t)
		return
	}
	cur := s
	for r := lo; r < hi && !b.over; r++ {
		next := t
		if r < hi-1 {
			next = b.state()
		}
		if sym := b.g.rhs[r]; sym < 0 {
			b.edges[cur] = append(b.edges[cur], nfaEdge{term: ^sym, to: next})
		} else {
			b.nt(sym, cur, next)
		}
		cur = next
	}
}

// closure extends the sorted state set in to its ε-closure, sorted.
func (b *tokenBuilder) closure(set []int32, mark []bool) []int32 {
	for _, q := range set {
		mark[q] = true
	}
	for i := 0; i < len(set); i++ {
		for _, r := range b.eps[set[i]] {
			if !mark[r] {
				mark[r] = true
				set = append(set, r)
			}
		}
	}
	for _, q := range set {
		mark[q] = false
	}
	slices.Sort(set)
	return set
}

// compile returns the DFA of nonterminal a, or nil if it is too large.
func (b *tokenBuilder) compile(a int32) *tokenDFA {
	b.eps, b.edges, b.over = b.eps[:0], b.edges[:0], false
	s, t := b.state(), b.state()
	b.nt(a, s, t)
	if b.over {
		return nil
	}
	g := b.g
	d := &tokenDFA{unambiguous: b.unambiguous(s, t)}
	// Byte classes: bytes that every terminal of the NFA treats alike.
	var used []int32
	for _, es := range b.edges {
		for _, e := range es {
			used = append(used, e.term)
		}
	}
	slices.Sort(used)
	used = slices.Compact(used)
	// Refine the partition of the bytes by every terminal in turn.
	d.nclass = 1
	for _, term := range used {
		var split [256][2]int16 // (class, in term) -> new class + 1
		n := 0
		for c := 0; c < 256; c++ {
			in := 0
			if g.terms[term].has(byte(c)) {
				in = 1
			}
			x := &split[d.class[c]][in]
			if *x == 0 {
				n++
				*x = int16(n)
			}
			d.class[c] = uint8(*x - 1)
		}
		d.nclass = n
	}
	rep := make([]byte, d.nclass) // a byte of each class
	for c := 255; c >= 0; c-- {
		rep[d.class[c]] = byte(c)
	}
	mark := make([]bool, len(b.eps))
	start := b.closure([]int32{s}, mark)
	ids := map[string]int32{}
	var kb []byte
	key := func(set []int32) string {
		kb = kb[:0]
		for _, q := range set {
			kb = append(kb, byte(q), byte(q>>8))
		}
		return string(kb)
	}
	sets := [][]int32{start}
	ids[key(start)] = 0
	var accept []bool
	for i := 0; i < len(sets); i++ {
		cur := sets[i]
		accept = append(accept, slices.Contains(cur, t))
		for c := 0; c < d.nclass; c++ {
			var next []int32
			for _, q := range cur {
				for _, e := range b.edges[q] {
					if g.terms[e.term].has(rep[c]) && !mark[e.to] {
						mark[e.to] = true
						next = append(next, e.to)
					}
				}
			}
			for _, q := range next {
				mark[q] = false
			}
			if len(next) == 0 {
				d.trans = append(d.trans, -1)
				continue
			}
			next = b.closure(next, mark)
			id, ok := ids[key(next)]
			if !ok {
				if len(sets) >= maxTokenDFA {
					return nil
				}
				id = int32(len(sets))
				ids[key(next)] = id
				sets = append(sets, next)
			}
			d.trans = append(d.trans, id)
		}
	}
	for i, st := range d.trans {
		if st >= 0 {
			x := st * int32(d.nclass) << 1
			if accept[st] {
				x |= 1
			}
			d.trans[i] = x
		}
	}
	return d
}

// compileTokens picks the regular nonterminals that a non-regular
// production mentions (the outermost ones) and compiles them to DFAs; a
// nonterminal whose automaton is too large is parsed generally, and the
// regular nonterminals it mentions become candidates in turn. It then adds
// for every token A a production A -> A whose complete item stands for a
// scanned span of A in the parse; that span's derivations are its links
// once the forest is expanded.
func (g *egrammar) compileTokens(follow []byteSet, followEOF []bool) {
	kind := g.regularKinds()
	b := &tokenBuilder{g: g, kind: kind, limit: min(maxTokensNFA, tokensNFAPer*len(g.rhs)+minTokensNFA)}
	b.unambLeft = unambWorkPerState * b.limit
	g.tok = make([]*tokenDFA, g.numNT)
	g.tokDot = make([]int32, g.numNT)
	queued := make([]bool, g.numNT)
	var queue []int32
	mentions := func(a int32) {
		for _, p := range g.ntProds[a] {
			for r := g.prodBase[p]; g.rhs[r] != dotEnd; r++ {
				if s := g.rhs[r]; s >= 0 && kind[s] != regNone && !queued[s] {
					queued[s] = true
					queue = append(queue, s)
				}
			}
		}
	}
	for a := range g.numNT {
		if kind[a] == regNone {
			mentions(int32(a))
		}
	}
	bytes := 0
	for len(queue) > 0 {
		a := queue[0]
		queue = queue[1:]
		var d *tokenDFA
		if b.built < b.limit && bytes < maxTokensBytes {
			d = b.compile(a)
		}
		if d == nil {
			mentions(a)
			continue
		}
		bytes += 4*len(d.trans) + 256
		g.tok[a] = d
	}
	g.tokFollow(follow, followEOF)
	g.skipLookahead()
	for i, d := range g.tok {
		if d == nil {
			continue
		}
		a := int32(i)
		// The production A -> A, with the dotted rules A -> . A and A -> A .
		p := int32(len(g.prodLHS))
		base := int32(len(g.rhs))
		g.prodLHS = append(g.prodLHS, a)
		g.prodBase = append(g.prodBase, base)
		g.prodLen = append(g.prodLen, 1)
		g.prodOps = append(g.prodOps, []tmplOp{{code: opSlot, a: 0}})
		g.prodLbl = append(g.prodLbl, []int32{-1})
		g.prodFst = append(g.prodFst, g.ntFirst[a])
		g.rhs = append(g.rhs, a, dotEnd)
		g.dots = append(g.dots, dotInfo{next: a, lhs: a, prod: p}, dotInfo{next: dotEnd, lhs: a, prod: p, dot: 1, flags: dotComplete})
		g.viable = append(g.viable, g.ntFirst[a], d.follow)
		if d.eofNext {
			g.dots[base+1].flags |= dotViableEOF
		}
		g.tokDot[a] = base + 1
	}
}

// tokFollow sets the follow bytes of every token to those that can follow
// it where the parser predicts it: in the productions of nonterminals that
// are not tokens. (Its follow set in the whole grammar also has the bytes
// that follow it inside itself: a left-recursive list L -> L x is followed
// by x, which would end a token at every repetition.)
func (g *egrammar) tokFollow(follow []byteSet, followEOF []bool) {
	for p := range g.prodLHS {
		a := g.prodLHS[p]
		if g.tok[a] != nil {
			continue
		}
		var after byteSet
		afterNullable := false
		g.suffixes(p, func(r int32, first *byteSet, nullable bool) {
			if b := g.rhs[r]; b >= 0 && g.tok[b] != nil {
				d := g.tok[b]
				d.follow.union(&after)
				if afterNullable {
					d.follow.union(&follow[a])
					d.eofNext = d.eofNext || followEOF[a]
				}
			}
			after, afterNullable = *first, nullable
		})
	}
}

// extractRuns replaces every run of two or more consecutive symbols that
// are terminals or regular nonterminals, in a production of a nonterminal
// that is not regular, by a new nonterminal with the run as its one
// production, so that the parser scans the whole run with one automaton
// (JSON's member <ws> <string> <ws> ":" becomes one token). A run is
// extracted only if the part of the production's template that builds it
// can move with it: a contiguous stretch of operations with balanced
// opens and closes. Equal runs share a nonterminal.
func (c *ecompiler) extractRuns(keep int32) {
	of := c.byLHS()
	prods := rightHandSides(of)
	kind := regularKinds(prods, keep)
	regular := func(s int32) bool { return s < 0 || kind[s] != regNone }
	hasRun := func(rhs []int32) bool {
		for i := 1; i < len(rhs); i++ {
			if regular(rhs[i-1]) && regular(rhs[i]) {
				return true
			}
		}
		return false
	}
	shared := map[string]int32{}
	var out []*cprod
	var at, size []int32
	for _, p := range c.prods {
		if kind[p.lhs] != regNone || p.lhs == keep || !hasRun(p.rhs) {
			out = append(out, p)
			continue
		}
		// The first right-hand side position of every operation, and how
		// many it consumes.
		at = slices.Grow(at[:0], len(p.ops))[:len(p.ops)]
		size = slices.Grow(size[:0], len(p.ops))[:len(p.ops)]
		var pos int32
		for i, o := range p.ops {
			at[i], size[i] = pos, 0
			switch o.code {
			case opSlot:
				size[i] = 1
			case opSpan:
				size[i] = o.b - o.a
			case opLit:
				size[i] = int32(len(c.gr.Nodes[o.node].Lit))
			}
			pos += size[i]
		}
		if int(pos) != len(p.rhs) {
			out = append(out, p) // not a template of this production's positions
			continue
		}
		// Runs from right to left, so that positions and operations
		// before a run keep their indices.
		for m := int32(len(p.rhs)); m > 0; {
			if !regular(p.rhs[m-1]) {
				m--
				continue
			}
			k := m - 1
			for k > 0 && regular(p.rhs[k-1]) {
				k--
			}
			if m-k >= 2 {
				if q := c.extractRun(p, k, m, at, size, shared); q != nil {
					out = append(out, q)
				}
			}
			m = k
		}
		out = append(out, p)
	}
	c.prods = out
}

// extractRun replaces positions k..m-1 of p by a new nonterminal (or the
// one of an equal run in shared), returning its production if it is new,
// or leaves p alone if the run's operations cannot move.
func (c *ecompiler) extractRun(p *cprod, k, m int32, at, size []int32, shared map[string]int32) *cprod {
	first, last := -1, -1
	for i := range p.ops {
		if size[i] == 0 || at[i]+size[i] <= k || at[i] >= m {
			continue
		}
		if at[i] < k || at[i]+size[i] > m {
			return nil // a class span across the run's boundary
		}
		if first < 0 {
			first = i
		}
		last = i
	}
	if first < 0 {
		return nil
	}
	// The operations before first back to the previous consuming one, and
	// after last up to the next, may belong to the run.
	lo := first
	for lo > 0 && size[lo-1] == 0 {
		lo--
	}
	hi := last + 1
	for hi < len(p.ops) && size[hi] == 0 {
		hi++
	}
	balanced := func(x, y int) bool {
		d := 0
		for _, o := range p.ops[x:y] {
			switch o.code {
			case opOpen:
				d++
			case opClose:
				if d--; d < 0 {
					return false
				}
			}
		}
		return d == 0
	}
	x, y := -1, -1
	for xi := lo; xi <= first && x < 0; xi++ {
		for yi := hi; yi > last; yi-- {
			if balanced(xi, yi) {
				x, y = xi, yi
				break
			}
		}
	}
	if x < 0 {
		return nil
	}
	run := &cprod{mult: 1}
	run.rhs = append(run.rhs, p.rhs[k:m]...)
	run.labels = append(run.labels, p.labels[k:m]...)
	for _, o := range p.ops[x:y] {
		if o.code == opSlot || o.code == opSpan {
			o.a -= k
			o.b -= k
		}
		run.ops = append(run.ops, o)
	}
	key := runKey(run)
	nt, ok := shared[key]
	var made *cprod
	if !ok {
		nt = c.newNT(fmt.Sprintf("run%d", len(shared)))
		shared[key] = nt
		run.lhs = nt
		made = run
		c.size += len(run.rhs) + 1
	}
	shift := m - k - 1
	rhs := append(append(append([]int32{}, p.rhs[:k]...), nt), p.rhs[m:]...)
	labels := append(append(append([]int32{}, p.labels[:k]...), -1), p.labels[m:]...)
	ops := append([]tmplOp{}, p.ops[:x]...)
	ops = append(ops, tmplOp{code: opSlot, a: k})
	for _, o := range p.ops[y:] {
		if o.code == opSlot || o.code == opSpan {
			o.a -= shift
			o.b -= shift
		}
		ops = append(ops, o)
	}
	p.rhs, p.labels, p.ops = rhs, labels, ops
	return made
}

// runKey identifies a run's production by its symbols and template.
func runKey(p *cprod) string {
	b := make([]byte, 0, 8*len(p.rhs)+16*len(p.ops))
	for i, s := range p.rhs {
		b = binary.LittleEndian.AppendUint32(b, uint32(s))
		b = binary.LittleEndian.AppendUint32(b, uint32(p.labels[i]))
	}
	b = append(b, 0xff)
	for _, o := range p.ops {
		b = append(b, o.code)
		b = binary.LittleEndian.AppendUint32(b, uint32(o.node))
		b = binary.LittleEndian.AppendUint32(b, uint32(o.a))
		b = binary.LittleEndian.AppendUint32(b, uint32(o.b))
	}
	return string(b)
}

// splitRegular lets runs reach into recursive nonterminals. A nonterminal
// Y that is not regular but has regular productions (JSON's <value> has
// "true", <number>, <string>, ...; <element> then has <ws> <value> <ws>
// with such a value), where a production X -> α Y β has a terminal or a
// regular nonterminal next to Y, is split there: X -> α Y' β with Y' the
// other productions of Y, and X -> α R β with R the regular ones. The
// derivations of X are the same (each takes one production of Y, and the
// templates are Y's), but α R β is now a run that extractRuns makes one
// token: JSON's "," <ws> 12 <ws> in an array is scanned by one automaton
// instead of several tokens and the items between them. Y' goes on to be
// parsed as before. Y is split only if its regular productions are
// non-empty (a list's empty end would run a second path through every
// list) and the part of the run before Y is cheap to scan twice (see
// cheapPrefix), and the rounds repeat so that a split production can make
// X split in turn, up to maxUnitRounds and maxInlineMult productions from
// one original production.
func (c *ecompiler) splitRegular(keep int32) {
	budget := 2*c.size + 4096
	type halves struct{ rest, reg int32 }
	made := map[int32]halves{}
	var extra []*cprod // the productions of the halves made in a round
	for round := 0; round < maxUnitRounds; round++ {
		of := c.byLHS()
		prods := rightHandSides(of)
		kind := regularKinds(prods, keep)
		nullable := nullableNTs(prods)
		regular := func(s int32) bool { return s < 0 || kind[s] != regNone }
		regularProd := func(p *cprod) bool {
			for _, s := range p.rhs {
				if !regular(s) {
					return false
				}
			}
			return true
		}
		splittable := func(y int32) bool {
			if y == keep || kind[y] != regNone {
				return false
			}
			nreg := 0
			for _, q := range of[y] {
				if regularProd(q) {
					if len(q.rhs) == 0 {
						return false
					}
					nreg++
				}
			}
			return nreg > 0 && nreg < len(of[y])
		}
		split := func(y int32) halves {
			if h, ok := made[y]; ok {
				return h
			}
			h := halves{rest: c.newNT(c.ntNames[y] + "'"), reg: c.newNT(c.ntNames[y] + "/reg")}
			for _, q := range of[y] {
				r := &cprod{rhs: q.rhs, labels: q.labels, ops: q.ops, mult: q.mult, lhs: h.rest}
				if regularProd(q) {
					r.lhs = h.reg
				}
				c.size += len(r.rhs) + 1
				extra = append(extra, r)
			}
			made[y] = h
			return h
		}
		changed := false
		var out []*cprod
		extra = extra[:0]
		for _, p := range c.prods {
			pos := -1
			if kind[p.lhs] == regNone && p.lhs != keep && 2*p.mult <= maxInlineMult && c.size < budget {
				for i, y := range p.rhs {
					if y < 0 || y == p.lhs || !splittable(y) {
						continue
					}
					if (i > 0 && regular(p.rhs[i-1])) || (i+1 < len(p.rhs) && regular(p.rhs[i+1])) {
						if cheapPrefix(p.rhs[:i], regular, nullable) {
							pos = i
							break
						}
					}
				}
			}
			if pos < 0 {
				out = append(out, p)
				continue
			}
			h := split(p.rhs[pos])
			for _, y := range [2]int32{h.rest, h.reg} {
				r := &cprod{lhs: p.lhs, rhs: slices.Clone(p.rhs), labels: p.labels, ops: p.ops, mult: 2 * p.mult}
				r.rhs[pos] = y
				c.size += len(r.rhs) + 1
				out = append(out, r)
			}
			changed = true
		}
		c.prods = append(out, extra...)
		if !changed {
			return
		}
	}
}

// cheapPrefix reports whether the regular symbols at the end of rhs (the
// part of a run before a split nonterminal) are terminals or nullable
// nonterminals. Both halves of a split scan that part (the run's automaton
// and the tokens of the other half), so it is kept to single bytes and
// white space: a split after a token such as JSON's member name
// <ws> <string> <ws> ":" would scan every name twice.
func cheapPrefix(rhs []int32, regular func(int32) bool, nullable []bool) bool {
	for i := len(rhs) - 1; i >= 0 && regular(rhs[i]); i-- {
		if s := rhs[i]; s >= 0 && !nullable[s] {
			return false
		}
	}
	return true
}

// nullableNTs reports for every nonterminal of a grammar given by the
// right-hand sides of its productions whether it derives the empty word.
func nullableNTs(prods [][][]int32) []bool {
	null := make([]bool, len(prods))
	for changed := true; changed; {
		changed = false
		for a, ps := range prods {
			if null[a] {
				continue
			}
			for _, rhs := range ps {
				all := true
				for _, s := range rhs {
					if s < 0 || !null[s] {
						all = false
						break
					}
				}
				if all {
					null[a], changed = true, true
					break
				}
			}
		}
	}
	return null
}

// rightHandSides returns the right-hand sides of the productions of every
// nonterminal, as byLHS groups them.
func rightHandSides(of [][]*cprod) [][][]int32 {
	prods := make([][][]int32, len(of))
	for a, ps := range of {
		for _, p := range ps {
			prods[a] = append(prods[a], p.rhs)
		}
	}
	return prods
}

// A skipLA looks past white space: an item of its dotted rule waits for a
// nonterminal X all of whose productions start with the same token W,
// whose words are the non-empty strings of the bytes star (JSON's <ws>),
// followed by symbols that derive no empty word and start with a byte of
// after, never one of star. Then the item can take part in a parse only
// if the first byte after the run of star bytes at its set is in after.
type skipLA struct{ star, after byteSet }

// skipLookahead finds the dotted rules whose items a skipLA can drop:
// JSON's "," . <element> in an array, whose element is <ws> <value> <ws>
// with a value that starts with "[" or "{" once the scalars are split off
// (see splitRegular), is dropped when a number follows the comma and the
// white space. The parser uses it for the items a scanned terminal starts
// (one per array element there), with automata only: the general parser
// keeps its lookahead of one byte, and so its syntax errors.
func (g *egrammar) skipLookahead() {
	star := make(map[int32]byteSet) // tokens whose words are star+
	starOf := func(w int32) (byteSet, bool) {
		if st, ok := star[w]; ok {
			return st, true
		}
		d := g.tok[w]
		if d == nil || !g.ntNullable[w] {
			return byteSet{}, false
		}
		// Start state 0 goes on the classes of star to an accepting
		// state q, which loops on the same classes; all else is dead.
		n := int32(d.nclass)
		q := int32(-1)
		var cls [256]bool
		for c := range n {
			x := d.trans[c]
			if x < 0 {
				continue
			}
			if x&1 == 0 || (q >= 0 && x>>1 != q) {
				return byteSet{}, false
			}
			q = x >> 1
			cls[c] = true
		}
		if q < 0 || q == 0 {
			return byteSet{}, false
		}
		for c := range n {
			x := d.trans[q+c]
			if cls[c] != (x >= 0) || (x >= 0 && x>>1 != q) {
				return byteSet{}, false
			}
		}
		var st byteSet
		for b := range 256 {
			if cls[d.class[b]] {
				st.add(byte(b))
			}
		}
		star[w] = st
		return st, true
	}
	for r, d := range g.dots {
		x := d.next
		if x < 0 || g.tok[x] != nil || g.ntNullable[x] || len(g.ntProds[x]) == 0 {
			continue
		}
		var sk skipLA
		w := int32(-1)
		ok := true
		for _, p := range g.ntProds[x] {
			base := g.prodBase[p]
			if g.prodLen[p] < 2 || (w >= 0 && g.rhs[base] != w) {
				ok = false
				break
			}
			if w = g.rhs[base]; w < 0 {
				ok = false
				break
			}
			st, isStar := starOf(w)
			if !isStar || g.allNullable(p) {
				ok = false
				break
			}
			sk.star = st
			f := g.seqFirst(base + 1)
			sk.after.union(&f)
		}
		if !ok {
			continue
		}
		overlap := false
		for i := range sk.star {
			overlap = overlap || sk.star[i]&sk.after[i] != 0
		}
		if overlap {
			continue
		}
		if g.skip == nil {
			g.skip = make([]int32, len(g.dots))
			for i := range g.skip {
				g.skip[i] = -1
			}
		}
		g.skip[r] = int32(len(g.skips))
		g.skips = append(g.skips, sk)
	}
}

// skipViable reports whether an item of dotted rule r at set j can take
// part in a parse by r's skipLA (see skipLookahead).
func (s *parseState) skipViable(r int32, j int) bool {
	sk := &s.g.skips[s.g.skip[r]]
	in := s.input
	if j >= len(in) || !sk.star.has(in[j]) {
		return true // the lookahead filter decides
	}
	for j < len(in) && sk.star.has(in[j]) {
		j++
	}
	return j < len(in) && sk.after.has(in[j])
}
