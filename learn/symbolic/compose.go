package symbolic

import (
	"encoding/binary"
	"go/types"
	"hash/maphash"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Compositional exploration.
//
// Exploring shortest input first, every path through a call of a parse
// function goes on after the call with the caller's continuation: an object
// whose key the parser can read in 40 ways and whose value in 40 ways is
// explored in 1,600 paths, although the grammar needs each way of the key
// once and the continuation once. So when a call returns, the path's state
// is summarised by what the continuation can depend on: the frames and heap
// reachable from them, the input's length, and the possible values of every
// input byte except those the call consumed (its last read of them was in the
// call). Input bytes are symbolic sets, so two ways of reading the key that
// end at the same position leave the same state. The first path to reach a
// summary (the representative) goes on; the others stop there (merged) and
// wait. When a continuation of the representative is accepted, every merged
// path is completed with it: its accesses up to the return, then the
// continuation's, whose activations are renumbered after the merged path's.
// That is the trace the merged path would have had, so its call becomes an
// alternative of the callee's nonterminal and the continuation is explored
// once per summary, not once per way of reading the callee.
//
// The continuation may read again a byte the call consumed (a lookahead):
// the merged path is completed only where its set of values for that byte is
// within the representative's (then the continuation's branches are the same
// on it), intersected with what the continuation required; otherwise the
// merged path is explored on its own, from its return.

// A group holds the paths that reached one summary at a call's return.
type group struct {
	idx, acts, loops int     // the representative's accesses, activations and input loops at the return
	from, last, len  int     // the call's first and last consumed positions, the input's length (lenLo)
	drops            []*drop // merged paths not completed yet
	cont             *trail  // the first accepted continuation of the representative
}

// A drop is a merged path: what its completion needs.
type drop struct {
	accesses   []access
	sets       []byteSet // its sets of the positions from its call's first to its last consumed one
	last, len  int
	acts       int
	inputLoops []int
	groups     []*group // the groups it went on from as the representative
}

// A trail is an accepted trace with what its grammar needs.
type trail struct {
	trace
	inputLoops []int
}

// composes reports whether the return of the call f on s is a point where
// paths merge: a call of a parse function (not an accessor) that read input.
func (e *executor) composes(s *state, f *frame) bool {
	return e.composing && f.call != nil && f.entryAcc < len(s.accesses) && !e.mined.accessor(f.fn)
}

// merge is called when a call returns (f is the callee's frame, already
// popped from s): it groups s with the paths that reached the same summary,
// and reports whether s stops there. A path whose set of a consumed byte is
// not within the representative's goes on: the representative's
// continuations might not be all of its own.
func (e *executor) merge(s *state, f *frame) bool {
	region := consumed(s, f.entryAcc)
	from, last := region[0], region[len(region)-1]
	key := e.summary(s, region)
	g, ok := e.groups[key]
	if !ok {
		g = &group{idx: len(s.accesses), acts: s.acts, loops: len(s.inputLoops), from: from, last: last, len: s.lenLo}
		e.groups[key] = g
		s.groups = append(s.groups[:len(s.groups):len(s.groups)], g)
		return false
	}
	d := &drop{accesses: s.accesses, sets: make([]byteSet, last-from+1), last: last, len: s.lenLo, acts: s.acts,
		inputLoops: s.inputLoops, groups: s.groups}
	for p := from; p <= last; p++ {
		d.sets[p-from] = s.set(p)
	}
	e.stats.Merged++
	if g.cont != nil {
		if t, ok := splice(g, g.cont, d); ok {
			e.stats.Spliced++
			e.saturating(e.completed(t, d.groups))
			return true
		}
	}
	g.drops = append(g.drops, d)
	return true
}

// consumed returns the positions whose last access is among s's accesses
// from index from on (those of the call that returned), ascending.
func consumed(s *state, from int) []int {
	var out []int
	for _, a := range s.accesses[from:] {
		out = append(out, a.pos)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// completed records an accepted trace (of a path or completed from a merged
// one), gives it to the groups whose representative it continues, and
// completes their merged paths in turn. It reports whether any of these
// traces added to the grammar: saturation counts them as one.
func (e *executor) completed(t *trail, groups []*group) bool {
	type item struct {
		t      *trail
		groups []*group
	}
	work := []item{{t, groups}}
	added := false
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		added = e.recordTrace(&it.t.trace, it.t.inputLoops, nil) || added
		for _, g := range it.groups {
			if g.cont == nil {
				g.cont = it.t
			}
			if len(g.drops) == 0 {
				continue
			}
			// A continuation that needs a value of a consumed byte a
			// merged path excludes does not complete it; a later one may.
			keep := g.drops[:0]
			for _, d := range g.drops {
				if dt, ok := splice(g, it.t, d); ok {
					e.stats.Spliced++
					work = append(work, item{dt, d.groups})
				} else {
					keep = append(keep, d)
				}
			}
			clear(g.drops[len(keep):])
			g.drops = keep
		}
	}
	return added
}

// splice completes the merged path d with the continuation c of its group's
// representative: d's accesses, then c's after the return, with c's new
// activations renumbered after d's and its positions from the call's last
// consumed one on moved by the difference of the two paths' lengths; c's
// sets but on the positions d's call consumed, where d's hold (narrowed by
// c's where c reads them again). A continuation that reads again another
// position the representative's call consumed does not complete d.
func splice(g *group, c *trail, d *drop) (*trail, bool) {
	delta := d.len - g.len
	move := func(p int) (int, bool) {
		switch {
		case p < g.from:
			return p, true
		case p >= g.last:
			return p + delta, true
		}
		return 0, false
	}
	rest := c.accesses[g.idx:]
	sets := make([]byteSet, c.n+delta)
	for p := range sets {
		switch {
		case p < g.from:
			sets[p] = c.sets[p]
		case p <= d.last:
			sets[p] = d.sets[p-g.from]
		default:
			sets[p] = c.sets[p-delta]
		}
	}
	shift := d.acts - g.acts
	renumber := func(act int) int {
		if act > g.acts {
			return act + shift
		}
		return act
	}
	acc := make([]access, 0, len(d.accesses)+len(rest))
	acc = append(acc, d.accesses...)
	for _, a := range rest {
		p, ok := move(a.pos)
		if !ok {
			return nil, false
		}
		if p >= g.from && p <= d.last { // read again: c's condition on it holds too
			sets[p] = intersect(sets[p], c.sets[a.pos])
			if sets[p].empty() {
				return nil, false
			}
		}
		ctx := a.ctx
		if shift != 0 {
			ctx = make([]segment, len(a.ctx))
			for i, seg := range a.ctx {
				seg.act = renumber(seg.act)
				ctx[i] = seg
			}
		}
		acc = append(acc, access{pos: p, order: len(acc), ctx: ctx})
	}
	loops := append([]int(nil), d.inputLoops...)
	for _, act := range c.inputLoops[g.loops:] {
		loops = append(loops, renumber(act))
	}
	return &trail{trace: trace{accesses: acc, sets: sets, n: c.n + delta}, inputLoops: loops}, true
}

func subset(a, b byteSet) bool {
	return a[0]&^b[0]|a[1]&^b[1]|a[2]&^b[2]|a[3]&^b[3] == 0
}

func intersect(a, b byteSet) byteSet {
	return byteSet{a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]}
}

// A sumKey is a summary's key: two hashes of its encoding.
type sumKey [2]uint64

// summary returns the key of what a path's continuation from s can depend
// on, the sets of the region's positions excepted (unless a value of s is
// a function of one of them). Positions from the region's first on are
// written relative to the input's length (lenLo), so that paths whose calls
// consumed inputs of different lengths have the same summary: input bytes
// after the call are symbolic sets, the same at any position. Integers of
// the heap (fields, variables whose address is taken) between the region's
// first position and the input's length are taken for positions too (the
// parser's cursor); other values, such as results and error codes, are
// compared as they are.
func (e *executor) summary(s *state, region []int) sumKey {
	w := &sigWriter{buf: e.sumBuf[:0], s: s, e: e, region: region, from: region[0], base: s.lenLo, cells: map[int]int{}}
	w.int(int64(w.from))
	w.pos(region[len(region)-1])
	if s.lenHi >= e.cfg.MaxLen {
		w.tag('m')
	} else {
		w.pos(s.lenHi)
	}
	full := fullSet()
	for p, set := range s.sets {
		if set != full && !w.inRegion(p) {
			w.pos(p)
			w.set(set)
		}
	}
	w.int(int64(len(s.frames)))
	for _, f := range s.frames {
		w.frame(f)
	}
	globals := make([]*ssa.Global, 0, len(s.globals))
	for g := range s.globals {
		globals = append(globals, g)
	}
	slices.SortFunc(globals, func(a, b *ssa.Global) int { return cmpString(a.RelString(nil), b.RelString(nil)) })
	for _, g := range globals {
		w.id(g)
		w.cell(s.globals[g])
	}
	e.sumBuf = w.buf
	return sumKey{maphash.Bytes(e.seeds[0], w.buf), maphash.Bytes(e.seeds[1], w.buf)}
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// A sigWriter writes a state's summary into a hash; heap cells are numbered
// in the order they are reached, so that states differing only in the cells
// a finished call allocated have the same summary.
type sigWriter struct {
	buf    []byte
	s      *state
	e      *executor
	region []int
	from   int // the region's first position
	base   int // the input's length: positions from from on are relative to it
	cells  map[int]int
	inHeap bool // writing a heap cell's value: its integers may be the cursor
}

func (w *sigWriter) inRegion(p int) bool {
	_, ok := slices.BinarySearch(w.region, p)
	return ok
}

func (w *sigWriter) int(x int64) { w.buf = binary.AppendVarint(w.buf, x) }

func (w *sigWriter) tag(b byte) { w.buf = append(w.buf, b) }

func (w *sigWriter) str(s string) {
	w.int(int64(len(s)))
	w.buf = append(w.buf, s...)
}

func (w *sigWriter) set(b byteSet) {
	for _, x := range b {
		w.int(int64(x))
	}
}

// id writes an identity of a program object (a function, block, loop, type).
func (w *sigWriter) id(x any) {
	n, ok := w.e.ids[x]
	if !ok {
		n = len(w.e.ids) + 1
		w.e.ids[x] = n
	}
	w.int(int64(n))
}

// valueID numbers an SSA value, once.
func (e *executor) valueID(v ssa.Value) int {
	n, ok := e.ids[v]
	if !ok {
		n = len(e.ids) + 1
		e.ids[v] = n
	}
	return n
}

// pos writes an input position a value depends on (see off), with its set
// when the position is one of the region's.
func (w *sigWriter) pos(p int) {
	w.off(p)
	if w.inRegion(p) {
		w.set(w.s.set(p))
	}
}

// off writes an offset into the input, relative to the input's length from
// the region on.
func (w *sigWriter) off(p int) {
	if p < w.from {
		w.tag('a')
		w.int(int64(p))
		return
	}
	w.tag('r')
	w.int(int64(p - w.base))
}

// table writes a byte function's table, by a hash of its contents
// (remembered for the table, which is immutable).
func (w *sigWriter) table(t *[256]int64) {
	h, ok := w.e.tables[t]
	if !ok {
		if len(w.e.tables) >= 1<<16 {
			clear(w.e.tables)
		}
		var b [256 * 8]byte
		for i, x := range t {
			binary.LittleEndian.PutUint64(b[8*i:], uint64(x))
		}
		h = [2]uint64{maphash.Bytes(w.e.seeds[0], b[:]), maphash.Bytes(w.e.seeds[1], b[:])}
		w.e.tables[t] = h
	}
	w.int(int64(h[0]))
	w.int(int64(h[1]))
}

func (w *sigWriter) frame(f *frame) {
	w.id(f.fn)
	w.id(f.block)
	w.int(int64(f.pc))
	w.str(f.site)
	w.str(f.seg.key)
	w.int(int64(f.seg.act))
	if f.call != nil {
		w.id(f.call)
	} else {
		w.int(0)
	}
	w.int(int64(len(f.loops)))
	for _, r := range f.loops {
		w.id(r.l)
		w.int(int64(r.act))
		w.int(int64(r.iter))
		w.int(b2i(r.readInput)<<1 | b2i(r.branched))
	}
	w.int(int64(len(f.bindings)))
	for _, b := range f.bindings {
		w.value(b)
	}
	keys := make([]ssa.Value, 0, len(f.env))
	for k := range f.env {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b ssa.Value) int { return w.e.valueID(a) - w.e.valueID(b) })
	for _, k := range keys {
		w.int(int64(w.e.valueID(k)))
		w.value(f.env[k])
	}
}

func (w *sigWriter) cell(c int) {
	if n, ok := w.cells[c]; ok {
		w.tag('@')
		w.int(int64(n))
		return
	}
	w.cells[c] = len(w.cells)
	w.tag('c')
	if c < 0 || c >= len(w.s.heap) {
		w.tag('?')
		return
	}
	saved := w.inHeap
	w.inHeap = true
	w.value(w.s.heap[c])
	w.inHeap = saved
}

func (w *sigWriter) value(v value) {
	switch v := v.(type) {
	case nil:
		w.tag(0)
	case int64:
		if w.inHeap && v >= int64(w.from) && v <= int64(w.base) {
			w.tag('c') // a cursor
			w.int(v - int64(w.base))
			return
		}
		w.tag('i')
		w.int(v)
	case bool:
		w.tag('b')
		w.int(b2i(v))
	case string:
		w.tag('s')
		w.str(v)
	case nilValue:
		w.tag('n')
	case opaque:
		w.tag('o')
	case divByZero:
		w.tag('z')
	case byteFn:
		w.tag('f')
		w.pos(v.pos)
		w.table(v.f)
	case lenFn:
		w.tag('l')
		w.off(int(-v.k))
	case lenCond:
		w.tag('L')
		w.int(v.k)
		w.int(int64(v.op))
		w.int(v.c)
	case view:
		w.tag('v')
		w.off(v.off)
		if v.end < 0 {
			w.tag('e')
		} else {
			w.off(v.end)
		}
		w.int(b2i(v.bytes))
	case viewEq:
		w.tag('=')
		w.value(v.v)
		w.str(v.lit)
		w.int(b2i(v.neg)<<1 | b2i(v.prefix))
	case ifaceValue:
		w.tag('I')
		w.str(types.TypeString(v.t, nil))
		w.value(v.v)
	case aggregate:
		w.tag('a')
		w.int(int64(len(v)))
		for _, x := range v {
			w.value(x)
		}
	case tuple:
		w.tag('t')
		w.int(int64(len(v)))
		for _, x := range v {
			w.value(x)
		}
	case pointer:
		w.tag('p')
		w.cell(v.cell)
		w.int(int64(len(v.path)))
		for _, x := range v.path {
			w.int(int64(x))
		}
	case slice:
		w.tag('S')
		w.cell(v.cell)
		w.int(int64(v.off))
		w.int(int64(v.len))
		w.int(int64(v.cap))
	case mapValue:
		w.tag('m')
		w.cell(v.cell)
	case *mapData:
		w.tag('M')
		w.int(int64(len(v.keys)))
		for i := range v.keys {
			w.value(v.keys[i])
			w.value(v.vals[i])
		}
	case closure:
		w.tag('C')
		w.id(v.fn)
		w.int(int64(len(v.bindings)))
		for _, x := range v.bindings {
			w.value(x)
		}
	case *ssa.Function:
		w.tag('F')
		w.id(v)
	case *ssa.Builtin:
		w.tag('B')
		w.str(v.Name())
	case inputAddr:
		w.tag('A')
		w.pos(v.pos)
	case indexed:
		w.tag('x')
		w.value(v.base)
		w.value(v.idx)
	case rangeIter:
		w.tag('r')
		w.cell(v.cell)
		w.value(v.over)
	case tokenSym:
		w.tag('T')
		w.pos(v.pos)
	default:
		// A value this summary does not know: never equal to another.
		w.tag('?')
		w.int(int64(len(w.e.ids)))
		w.e.ids[new(int)] = len(w.e.ids) + 1
	}
}
