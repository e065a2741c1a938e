package symbolic

import (
	"container/heap"
	"context"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"hash/maphash"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/tools/go/ssa"
)

// outcome is how a path ended.
type outcome int

const (
	running outcome = iota
	accepted
	rejected   // the entry returned an error, or the program panicked
	terminated // a bound or an unsupported construct stopped the path
	merged     // the path stopped at a call's return to wait for an equivalent one's continuation
)

// executor explores the paths of one entry function.
type executor struct {
	cfg     Config
	prog    *ssa.Program
	local   map[*ssa.Package]bool // the packages whose code is executed
	loops   map[*ssa.Function]map[*ssa.BasicBlock]*loop
	entry   *ssa.Function
	stats   Stats
	unsupp  map[string]string // position -> what, reported once each
	work    []*state          // states forked off the running one, to be queued
	queue   frontier
	seq     int
	bytesIn bool // the input is a []byte
	mined   *mined
	entryNT string
	stale   int // accepted paths in a row that added nothing to the grammar
	// lexer is the parser's lexing stage, whose calls the proxy replaces.
	lexer *lexing
	// tokens, when analysing a lexer's harness, are the grammars of the
	// token instances by token identifier, named by tokenNames.
	tokens     map[int]*mined
	tokenNames map[int]string
	// composing merges paths at the returns of calls (compose.go); groups
	// are the merge points by summary, ids number program objects for
	// the summaries.
	composing bool
	groups    map[sumKey]*group
	ids       map[any]int
	tables    map[*[256]int64]sumKey
	seeds     [2]maphash.Seed
	sumBuf    []byte
}

// A trace is an accepted path: every input access and what each byte may be.
type trace struct {
	accesses []access
	sets     []byteSet
	n        int // the input length used for the grammar
}

func (e *executor) unsupported(pos token.Pos, what string) {
	p := e.prog.Fset.Position(pos).String()
	if p == "-" || p == "" {
		p = "?"
	}
	if _, ok := e.unsupp[p]; !ok {
		e.unsupp[p] = what
	}
}

func (e *executor) loopsOf(fn *ssa.Function) map[*ssa.BasicBlock]*loop {
	ls, ok := e.loops[fn]
	if !ok {
		ls = findLoops(fn)
		e.loops[fn] = ls
	}
	return ls
}

// explore runs the paths from s, shortest input first: the queued state
// that has read the fewest input bytes runs next, until it ends or forks. So
// the first accepting paths are those of the shortest inputs, which are all
// the grammar's generalisation needs; exploring stops when MaxPaths paths have
// ended or when Saturation accepting paths in a row added nothing to the
// grammar.
func (e *executor) explore(ctx context.Context, s *state, progress func(Stats)) error {
	e.push(s)
	for e.queue.Len() > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		s := heap.Pop(&e.queue).(*state)
		o := e.run(s)
		for _, t := range e.work {
			e.push(t)
		}
		e.work = e.work[:0]
		switch o {
		case accepted:
			e.stats.Accepted++
			e.record(s)
		case rejected:
			e.stats.Rejected++
		case terminated:
			e.stats.Terminated++
		case merged:
			continue // not a path's end: it ends with its group's continuation
		}
		e.stats.Paths++
		if progress != nil && e.stats.Paths%1024 == 0 {
			progress(e.stats)
		}
		if e.stats.Paths >= e.cfg.MaxPaths {
			e.stats.Truncated = true
			return nil
		}
		if e.cfg.Saturation > 0 && e.stale >= e.cfg.Saturation {
			e.stats.Saturated = true
			return nil
		}
	}
	return nil
}

func (e *executor) push(s *state) {
	if e.queue.Len() >= e.cfg.MaxStates {
		e.stats.Dropped++
		return
	}
	e.seq++
	s.seq = e.seq
	s.prio = s.lenLo + e.cfg.DepthCost*len(s.frames)
	heap.Push(&e.queue, s)
}

// frontier is a priority queue of states: fewest input bytes read first
// (plus Config.DepthCost per frame of call depth), then first queued first.
type frontier []*state

func (q frontier) Len() int { return len(q) }
func (q frontier) Less(i, j int) bool {
	if q[i].prio != q[j].prio {
		return q[i].prio < q[j].prio
	}
	return q[i].seq < q[j].seq
}
func (q frontier) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *frontier) Push(x any)   { *q = append(*q, x.(*state)) }
func (q *frontier) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

func (e *executor) record(s *state) {
	n := s.lenLo
	sets := make([]byteSet, n)
	for i := range sets {
		sets[i] = s.set(i)
	}
	t := &trail{trace: trace{accesses: s.accesses, sets: sets, n: n}, inputLoops: s.inputLoops}
	var added bool
	if e.composing {
		added = e.completed(t, s.groups)
	} else {
		added = e.recordTrace(&t.trace, s.inputLoops, s)
	}
	e.saturating(added)
}

// saturating counts the accepted paths in a row that added nothing to the
// grammar (with the traces completed from them, see compose.go).
func (e *executor) saturating(added bool) {
	if added {
		e.stale = 0
	} else {
		e.stale++
	}
}

// recordTrace adds the tree of an accepted trace to the grammar and reports
// whether it added anything; s is its path, needed for a token's harness
// (nil for a trace completed from a merged path, see compose.go).
func (e *executor) recordTrace(tr *trace, inputLoops []int, s *state) bool {
	live := map[int]bool{}
	for _, act := range inputLoops {
		live[act] = true
	}
	tree := treeOf(tr)
	var added bool
	if e.tokens != nil {
		added = e.recordToken(s, tree, live)
	} else {
		added = e.mined.addTree(tree, e.entryNT, live)
	}
	return added
}

// fork returns a copy of s to explore later (queued when the running state
// stops), and s itself to go on with.
func (e *executor) fork(s *state) *state {
	t := s.clone()
	e.work = append(e.work, t)
	e.stats.Forks++
	return t
}

// run executes s until it ends or forks; a fork pushes the other branch.
func (e *executor) run(s *state) outcome {
	for {
		s.steps++
		if s.steps > e.cfg.MaxSteps {
			e.unsupported(s.top().fn.Pos(), fmt.Sprintf("path longer than %d steps (-max-steps)", e.cfg.MaxSteps))
			return terminated
		}
		f := s.top()
		if f.pc >= len(f.block.Instrs) {
			return terminated // malformed block: cannot happen in SSA
		}
		instr := f.block.Instrs[f.pc]
		f.pc++
		if o := e.step(s, f, instr); o != running {
			return o
		}
	}
}

// jump moves f to block to, updating its loops and evaluating phis.
func (e *executor) jump(s *state, f *frame, to *ssa.BasicBlock) outcome {
	from := f.block
	for len(f.loops) > 0 && !f.loops[len(f.loops)-1].l.body[to] {
		s.leave(f.loops[len(f.loops)-1])
		f.loops = f.loops[:len(f.loops)-1]
	}
	if l := e.loopsOf(f.fn)[to]; l != nil {
		if n := len(f.loops); n > 0 && f.loops[n-1].l == l {
			r := &f.loops[n-1]
			r.iter++
			r.branched = false
			if r.readInput && r.iter > e.cfg.LoopBound+1 {
				return terminated
			}
			if r.iter > e.cfg.MaxSteps {
				return terminated
			}
		} else {
			s.acts++
			f.loops = append(f.loops, loopRun{l: l, act: s.acts, iter: 1})
		}
	}
	// Phis read their operands simultaneously, as the edge is taken.
	pred := -1
	for i, p := range to.Preds {
		if p == from {
			pred = i
			break
		}
	}
	var phis []*ssa.Phi
	var vals []value
	for _, in := range to.Instrs {
		phi, ok := in.(*ssa.Phi)
		if !ok {
			break
		}
		phis = append(phis, phi)
		if pred < 0 {
			vals = append(vals, opaque{})
		} else {
			vals = append(vals, e.val(s, f, phi.Edges[pred]))
		}
	}
	for i, phi := range phis {
		f.env[phi] = vals[i]
	}
	f.block = to
	f.pc = len(phis)
	return running
}

func (e *executor) val(s *state, f *frame, v ssa.Value) value {
	switch v := v.(type) {
	case *ssa.Const:
		return constValue(v)
	case *ssa.Function:
		return v
	case *ssa.Builtin:
		return v
	case *ssa.Global:
		c, ok := s.globals[v]
		if !ok {
			c = s.alloc(zero(v.Type().(*types.Pointer).Elem()))
			s.globals[v] = c
		}
		return pointer{cell: c}
	case *ssa.FreeVar:
		for i, fv := range f.fn.FreeVars {
			if fv == v && i < len(f.bindings) {
				return f.bindings[i]
			}
		}
		return opaque{}
	}
	if x, ok := f.env[v]; ok {
		return x
	}
	return opaque{}
}

func constValue(c *ssa.Const) value {
	if c.Value == nil {
		return zero(c.Type())
	}
	switch c.Value.Kind() {
	case constant.Bool:
		return constant.BoolVal(c.Value)
	case constant.String:
		return constant.StringVal(c.Value)
	case constant.Int:
		if x, ok := constant.Int64Val(c.Value); ok {
			return x
		}
		if x, ok := constant.Uint64Val(c.Value); ok {
			return int64(x)
		}
	}
	return opaque{}
}

// zero returns the zero value of t.
func zero(t types.Type) value {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return false
		case u.Info()&types.IsString != 0:
			return ""
		case u.Info()&types.IsInteger != 0:
			return int64(0)
		case u.Kind() == types.UnsafePointer:
			return nilValue{}
		}
		return opaque{}
	case *types.Struct:
		a := make(aggregate, u.NumFields())
		for i := range a {
			a[i] = zero(u.Field(i).Type())
		}
		return a
	case *types.Array:
		if u.Len() > 1<<16 {
			return opaque{}
		}
		a := make(aggregate, u.Len())
		z := zero(u.Elem())
		for i := range a {
			a[i] = z
		}
		return a
	}
	return nilValue{}
}

func isErrorType(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

func (e *executor) step(s *state, f *frame, instr ssa.Instruction) outcome {
	switch in := instr.(type) {
	case *ssa.DebugRef:
	case *ssa.Jump:
		return e.jump(s, f, f.block.Succs[0])
	case *ssa.If:
		return e.branch(s, f, e.val(s, f, in.Cond), in)
	case *ssa.Return:
		return e.ret(s, f, in)
	case *ssa.Panic:
		return rejected
	case *ssa.Call:
		return e.call(s, f, in)
	case *ssa.Alloc:
		f.env[in] = pointer{cell: s.alloc(zero(in.Type().(*types.Pointer).Elem()))}
	case *ssa.Store:
		p, ok := e.val(s, f, in.Addr).(pointer)
		if !ok || !s.store(p, e.val(s, f, in.Val)) {
			if _, isNil := e.val(s, f, in.Addr).(nilValue); isNil {
				return rejected
			}
			e.unsupported(in.Pos(), "store through an untracked address")
			return terminated
		}
	case *ssa.UnOp:
		return e.unop(s, f, in)
	case *ssa.BinOp:
		f.env[in] = binop(in.Op, in.X.Type(), e.val(s, f, in.X), e.val(s, f, in.Y))
		if _, ok := f.env[in].(divByZero); ok {
			return rejected
		}
	case *ssa.Convert:
		f.env[in] = e.convert(s, in.X.Type(), in.Type(), e.val(s, f, in.X))
	case *ssa.ChangeType:
		f.env[in] = e.val(s, f, in.X)
	case *ssa.ChangeInterface:
		f.env[in] = e.val(s, f, in.X)
	case *ssa.MultiConvert:
		f.env[in] = opaque{}
	case *ssa.MakeInterface:
		f.env[in] = ifaceValue{t: in.X.Type(), v: e.val(s, f, in.X)}
	case *ssa.TypeAssert:
		return e.typeAssert(s, f, in)
	case *ssa.Extract:
		if t, ok := e.val(s, f, in.Tuple).(tuple); ok && in.Index < len(t) {
			f.env[in] = t[in.Index]
		} else {
			f.env[in] = opaque{}
		}
	case *ssa.FieldAddr:
		switch p := e.val(s, f, in.X).(type) {
		case pointer:
			f.env[in] = pointer{cell: p.cell, path: appendPath(p.path, in.Field)}
		case nilValue:
			return rejected
		default:
			e.unsupported(in.Pos(), "field of an untracked pointer")
			return terminated
		}
	case *ssa.Field:
		if a, ok := e.val(s, f, in.X).(aggregate); ok && in.Field < len(a) {
			f.env[in] = a[in.Field]
		} else {
			f.env[in] = opaque{}
		}
	case *ssa.IndexAddr:
		return e.indexAddr(s, f, in)
	case *ssa.Index:
		return e.index(s, f, in, e.val(s, f, in.X), e.val(s, f, in.Index))
	case *ssa.Lookup:
		return e.lookup(s, f, in)
	case *ssa.Slice:
		return e.slice(s, f, in)
	case *ssa.MakeSlice:
		n, ok := e.val(s, f, in.Len).(int64)
		c, ok2 := e.val(s, f, in.Cap).(int64)
		if !ok || !ok2 || n < 0 || c < n || c > 1<<20 {
			e.unsupported(in.Pos(), "make of a slice with an untracked length")
			return terminated
		}
		elem := in.Type().Underlying().(*types.Slice).Elem()
		a := make(aggregate, c)
		z := zero(elem)
		for i := range a {
			a[i] = z
		}
		f.env[in] = slice{cell: s.alloc(a), len: int(n), cap: int(c)}
	case *ssa.MakeMap:
		f.env[in] = mapValue{cell: s.alloc(&mapData{})}
	case *ssa.MapUpdate:
		m, ok := e.val(s, f, in.Map).(mapValue)
		k := e.val(s, f, in.Key)
		if !ok || !isConcrete(k) {
			e.unsupported(in.Pos(), "map update with an untracked map or key")
			return terminated
		}
		old := s.heap[m.cell].(*mapData)
		d := &mapData{keys: append([]value(nil), old.keys...), vals: append([]value(nil), old.vals...)}
		if i := d.find(k); i >= 0 {
			d.vals[i] = e.val(s, f, in.Value)
		} else {
			d.keys = append(d.keys, k)
			d.vals = append(d.vals, e.val(s, f, in.Value))
		}
		s.heap[m.cell] = d
	case *ssa.MakeClosure:
		c := closure{fn: in.Fn.(*ssa.Function)}
		for _, b := range in.Bindings {
			c.bindings = append(c.bindings, e.val(s, f, b))
		}
		f.env[in] = c
	case *ssa.Phi:
		// evaluated by jump
	case *ssa.Range:
		return e.rangeStart(s, f, in)
	case *ssa.Next:
		return e.next(s, f, in)
	case *ssa.RunDefers:
	case *ssa.Defer:
		if !recovers(in.Call.Value) {
			e.unsupported(in.Pos(), "defer (deferred calls are not run)")
		}
	case *ssa.SliceToArrayPointer:
		e.unsupported(in.Pos(), "slice to array pointer conversion")
		return terminated
	default:
		e.unsupported(instr.Pos(), fmt.Sprintf("%T", instr))
		return terminated
	}
	return running
}

func appendPath(p []int, i int) []int {
	q := make([]int, len(p)+1)
	copy(q, p)
	q[len(p)] = i
	return q
}

func isConcrete(v value) bool {
	switch v.(type) {
	case int64, bool, string:
		return true
	}
	return false
}

func (d *mapData) find(k value) int {
	for i, x := range d.keys {
		if x == k {
			return i
		}
	}
	return -1
}

// branch splits the path on a condition: where both ways are feasible, a copy
// takes the false way later and s goes on the true way.
func (e *executor) branch(s *state, f *frame, c value, in *ssa.If) outcome {
	yes, no := f.block.Succs[0], f.block.Succs[1]
	if b, ok := c.(bool); ok {
		if b {
			return e.jump(s, f, yes)
		}
		return e.jump(s, f, no)
	}
	s.branchedOnInput()
	canYes, canNo := assume(s, c, true, false), assume(s, c, false, false)
	switch {
	case !canYes && !canNo:
		return rejected
	case !canYes:
		assume(s, c, false, true)
		return e.jump(s, f, no)
	case !canNo:
		assume(s, c, true, true)
		return e.jump(s, f, yes)
	}
	other := e.fork(s)
	assume(other, c, false, true)
	if o := e.jump(other, other.top(), no); o != running {
		e.work = e.work[:len(e.work)-1]
		e.count(o)
	}
	assume(s, c, true, true)
	return e.jump(s, f, yes)
}

// assume reports whether the condition c can hold (or fail, when holds is
// false) on s, and if apply, restricts s accordingly. A condition the
// executor does not track can go either way and restricts nothing; so does
// the failure of "input == literal", an over-approximation that keeps every
// input the program accepts.
func assume(s *state, c value, holds, apply bool) bool {
	switch c := c.(type) {
	case bool:
		return c == holds
	case byteFn:
		var t byteSet
		set := s.set(c.pos)
		for b := 0; b < 256; b++ {
			if set.has(b) && (c.f[b] != 0) == holds {
				t.add(b)
			}
		}
		if apply && !t.empty() {
			s.restrict(c.pos, t)
		}
		return !t.empty()
	case lenCond:
		lo, hi := c.narrow(s.lenLo, s.lenHi, holds)
		if apply && lo <= hi {
			s.lenLo, s.lenHi = lo, hi
		}
		return lo <= hi
	case viewEq:
		if c.neg {
			holds = !holds
		}
		if !holds {
			return true
		}
		lo, hi := s.lenLo, s.lenHi
		end := c.v.off + len(c.lit)
		ok := true
		if c.v.end >= 0 {
			ok = c.v.end == end
			lo = max(lo, end)
		} else {
			lo, hi = max(lo, end), min(hi, end)
		}
		ok = ok && lo <= hi
		for i := 0; ok && i < len(c.lit); i++ {
			ok = s.set(c.v.off + i).has(int(c.lit[i]))
		}
		if ok && apply {
			for i := 0; i < len(c.lit); i++ {
				var one byteSet
				one.add(int(c.lit[i]))
				s.read(c.v.off + i)
				s.restrict(c.v.off+i, one)
			}
			s.lenLo, s.lenHi = lo, hi
		}
		return ok
	}
	return true
}

func (e *executor) count(o outcome) {
	e.stats.Paths++
	switch o {
	case rejected:
		e.stats.Rejected++
	case terminated:
		e.stats.Terminated++
	}
}

func (e *executor) ret(s *state, f *frame, in *ssa.Return) outcome {
	var res value
	switch len(in.Results) {
	case 0:
	case 1:
		res = e.val(s, f, in.Results[0])
	default:
		t := make(tuple, len(in.Results))
		for i, r := range in.Results {
			t[i] = e.val(s, f, r)
		}
		res = t
	}
	for _, r := range f.loops {
		s.leave(r)
	}
	s.frames = s.frames[:len(s.frames)-1]
	if len(s.frames) == 0 {
		s.result = res
		return e.accepts(s, in, res)
	}
	caller := s.top()
	if f.call != nil {
		caller.env[f.call] = res
	}
	if e.composes(s, f) && e.merge(s, f) {
		return merged
	}
	return running
}

// accepts decides whether the entry's results mean success: a nil error (the
// last result, if it is an error) or a true bool.
func (e *executor) accepts(s *state, in *ssa.Return, res value) outcome {
	sig := e.entry.Signature
	if sig.Results().Len() == 0 {
		return accepted
	}
	last := sig.Results().At(sig.Results().Len() - 1).Type()
	if t, ok := res.(tuple); ok {
		res = t[len(t)-1]
	}
	switch {
	case isErrorType(last):
		switch res.(type) {
		case nilValue:
			return accepted
		case ifaceValue:
			return rejected
		}
		// an error from an untracked call: may be nil
		return accepted
	case types.Identical(last.Underlying(), types.Typ[types.Bool]):
		if !assume(s, res, true, true) {
			return rejected
		}
	}
	return accepted
}

func (e *executor) call(s *state, f *frame, in *ssa.Call) outcome {
	common := in.Common()
	if common.IsInvoke() {
		return e.invoke(s, f, in)
	}
	var args []value
	for _, a := range common.Args {
		args = append(args, e.val(s, f, a))
	}
	var callee *ssa.Function
	var bindings []value
	switch c := e.val(s, f, common.Value).(type) {
	case *ssa.Builtin:
		return e.builtin(s, f, in, c, args)
	case *ssa.Function:
		callee = c
	case closure:
		callee, bindings = c.fn, c.bindings
	case nilValue:
		return rejected
	default:
		e.unsupported(in.Pos(), "call of an untracked function value")
		f.env[in] = e.untracked(in.Type())
		return running
	}
	if e.lexer != nil && callee == e.lexer.fn {
		return e.proxy(s, f, args)
	}
	if !e.executes(callee) {
		return e.external(s, f, in, callee, args)
	}
	site := fmt.Sprintf("%s@%d", symbolName(callee), in.Pos())
	depth := 0
	for _, g := range s.frames {
		if g.site == site {
			depth++
		}
	}
	if depth >= e.cfg.RecursionBound {
		return terminated
	}
	if len(s.frames) > 200 {
		e.unsupported(in.Pos(), "call depth above 200")
		return terminated
	}
	s.acts++
	g := &frame{
		fn:       callee,
		env:      map[ssa.Value]value{},
		block:    callee.Blocks[0],
		call:     in,
		site:     site,
		seg:      segment{key: site, fn: callee, act: s.acts},
		bindings: bindings,
		entryAcc: len(s.accesses),
	}
	for i, p := range callee.Params {
		if i < len(args) {
			g.env[p] = args[i]
		}
	}
	s.frames = append(s.frames, g)
	if l := e.loopsOf(callee)[g.block]; l != nil {
		s.acts++
		g.loops = append(g.loops, loopRun{l: l, act: s.acts, iter: 1})
	}
	return running
}

// executes reports whether calls of fn run its code (rather than a summary).
func (e *executor) executes(fn *ssa.Function) bool {
	if fn == nil || len(fn.Blocks) == 0 {
		return false
	}
	for p := fn; p != nil; p = p.Parent() {
		if p.Pkg != nil {
			return e.local[p.Pkg]
		}
		if p.Origin() != nil && p.Origin().Pkg != nil {
			return e.local[p.Origin().Pkg]
		}
	}
	return false
}

// untracked returns the value of an untracked result of type t.
func (e *executor) untracked(t types.Type) value {
	if tt, ok := t.(*types.Tuple); ok {
		r := make(tuple, tt.Len())
		for i := range r {
			r[i] = opaque{}
		}
		return r
	}
	return opaque{}
}

func (e *executor) invoke(s *state, f *frame, in *ssa.Call) outcome {
	common := in.Common()
	recv := e.val(s, f, common.Value)
	if iv, ok := recv.(ifaceValue); ok {
		if fn := e.prog.LookupMethod(iv.t, common.Method.Pkg(), common.Method.Name()); fn != nil && e.executes(fn) {
			// A method of a local type: run it with the receiver.
			return e.callDirect(s, f, in, fn, append([]value{iv.v}, e.args(s, f, common.Args)...))
		}
		if isErrorMethod(common.Method) {
			f.env[in] = opaque{}
			return running
		}
	}
	if _, ok := recv.(nilValue); ok {
		return rejected
	}
	e.unsupported(in.Pos(), "call of method "+common.Method.Name()+" through an interface")
	f.env[in] = e.untracked(in.Type())
	return running
}

func isErrorMethod(m *types.Func) bool { return m.Name() == "Error" }

func (e *executor) args(s *state, f *frame, as []ssa.Value) []value {
	var out []value
	for _, a := range as {
		out = append(out, e.val(s, f, a))
	}
	return out
}

func (e *executor) callDirect(s *state, f *frame, in *ssa.Call, fn *ssa.Function, args []value) outcome {
	site := fmt.Sprintf("%s@%d", symbolName(fn), in.Pos())
	s.acts++
	g := &frame{fn: fn, env: map[ssa.Value]value{}, block: fn.Blocks[0], call: in, site: site,
		seg: segment{key: site, fn: fn, act: s.acts}, entryAcc: len(s.accesses)}
	for i, p := range fn.Params {
		if i < len(args) {
			g.env[p] = args[i]
		}
	}
	s.frames = append(s.frames, g)
	return running
}

// external runs a summary of a function whose code is not executed.
func (e *executor) external(s *state, f *frame, in *ssa.Call, fn *ssa.Function, args []value) outcome {
	name := fn.String()
	switch name {
	case "errors.New", "fmt.Errorf":
		f.env[in] = ifaceValue{t: types.Universe.Lookup("error").Type(), v: opaque{}}
		return running
	case "strings.HasPrefix", "bytes.HasPrefix":
		if v, ok := args[0].(view); ok {
			if lit, ok := literal(args[1]); ok {
				f.env[in] = viewEq{v: view{off: v.off, end: v.off + len(lit)}, lit: lit, prefix: true}
				return running
			}
		}
	}
	if p, ok := unicodePredicates[name]; ok {
		pred := func(v int64) int64 { return b2i(p(rune(v))) }
		switch x := args[0].(type) {
		case byteFn:
			f.env[in] = x.apply(pred)
			return running
		case int64:
			f.env[in] = pred(x) != 0
			return running
		}
	}
	if strings.HasSuffix(name, ".init") {
		return running
	}
	if fn.Signature.Results().Len() == 0 {
		return running // assumed to have no effect on parsing
	}
	e.unsupported(in.Pos(), "call of "+name+" (not executed; its results are untracked)")
	f.env[in] = e.untracked(in.Type())
	return running
}

func literal(v value) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	}
	return "", false
}

func (e *executor) builtin(s *state, f *frame, in *ssa.Call, b *ssa.Builtin, args []value) outcome {
	switch b.Name() {
	case "len", "cap":
		switch x := args[0].(type) {
		case string:
			f.env[in] = int64(len(x))
		case view:
			if x.end >= 0 {
				f.env[in] = int64(x.end - x.off)
			} else {
				f.env[in] = lenFn{k: -int64(x.off)}
			}
		case slice:
			if b.Name() == "len" {
				f.env[in] = int64(x.len)
			} else {
				f.env[in] = int64(x.cap)
			}
		case nilValue:
			f.env[in] = int64(0)
		case mapValue:
			f.env[in] = int64(len(s.heap[x.cell].(*mapData).keys))
		case aggregate:
			f.env[in] = int64(len(x))
		case pointer:
			if a, ok := s.load(x).(aggregate); ok {
				f.env[in] = int64(len(a))
			} else {
				f.env[in] = opaque{}
			}
		default:
			f.env[in] = opaque{}
		}
	case "append":
		return e.appendCall(s, f, in, args)
	case "panic":
		return rejected
	case "print", "println", "clear":
	case "recover":
		f.env[in] = nilValue{}
	case "ssa:wrapnilchk":
		if _, ok := args[0].(nilValue); ok {
			return rejected
		}
		f.env[in] = args[0]
	case "min", "max":
		f.env[in] = minmax(b.Name() == "min", args)
	case "copy":
		e.unsupported(in.Pos(), "copy (the destination becomes untracked)")
		f.env[in] = opaque{}
		if d, ok := args[0].(slice); ok {
			a := append(aggregate(nil), s.heap[d.cell].(aggregate)...)
			for i := d.off; i < d.off+d.len && i < len(a); i++ {
				a[i] = opaque{}
			}
			s.heap[d.cell] = a
		}
	default:
		e.unsupported(in.Pos(), "builtin "+b.Name())
		f.env[in] = opaque{}
	}
	return running
}

func minmax(isMin bool, args []value) value {
	var best int64
	for i, a := range args {
		x, ok := a.(int64)
		if !ok {
			return opaque{}
		}
		if i == 0 || (isMin && x < best) || (!isMin && x > best) {
			best = x
		}
	}
	return best
}

func (e *executor) appendCall(s *state, f *frame, in *ssa.Call, args []value) outcome {
	var elems []value
	switch x := args[0].(type) {
	case slice:
		a := s.heap[x.cell].(aggregate)
		elems = append(elems, a[x.off:x.off+x.len]...)
	case nilValue:
	default:
		e.unsupported(in.Pos(), "append to an untracked slice")
		f.env[in] = opaque{}
		return running
	}
	switch y := args[1].(type) {
	case slice:
		a := s.heap[y.cell].(aggregate)
		elems = append(elems, a[y.off:y.off+y.len]...)
	case string:
		for i := 0; i < len(y); i++ {
			elems = append(elems, int64(y[i]))
		}
	case nilValue:
	case view:
		if y.end < 0 {
			e.unsupported(in.Pos(), "append of the whole input")
			f.env[in] = opaque{}
			return running
		}
		for p := y.off; p < y.end; p++ {
			elems = append(elems, s.read(p))
		}
	default:
		e.unsupported(in.Pos(), "append of an untracked slice")
		f.env[in] = opaque{}
		return running
	}
	if len(elems) > 1<<20 {
		e.unsupported(in.Pos(), "slice above 1 MiB")
		return terminated
	}
	a := aggregate(elems)
	f.env[in] = slice{cell: s.alloc(a), len: len(a), cap: len(a)}
	return running
}

func (e *executor) unop(s *state, f *frame, in *ssa.UnOp) outcome {
	x := e.val(s, f, in.X)
	switch in.Op {
	case token.MUL:
		switch p := x.(type) {
		case pointer:
			f.env[in] = s.load(p)
			if t, ok := f.env[in].(tokenSym); ok {
				f.env[in] = s.read(t.pos)
			}
		case indexed:
			return e.loadIndexed(s, f, in, p)
		case inputAddr:
			f.env[in] = s.read(p.pos)
		case nilValue:
			return rejected
		default:
			e.unsupported(in.Pos(), "load through an untracked pointer")
			return terminated
		}
	case token.NOT:
		switch x := x.(type) {
		case bool:
			f.env[in] = !x
		case byteFn:
			f.env[in] = x.apply(func(v int64) int64 { return b2i(v == 0) })
		case lenCond:
			f.env[in] = x.not()
		case viewEq:
			x.neg = !x.neg
			f.env[in] = x
		default:
			f.env[in] = opaque{}
		}
	case token.SUB, token.XOR:
		neg := func(v int64) int64 { return wrap(in.Type(), -v) }
		if in.Op == token.XOR {
			neg = func(v int64) int64 { return wrap(in.Type(), ^v) }
		}
		switch x := x.(type) {
		case int64:
			f.env[in] = neg(x)
		case byteFn:
			f.env[in] = x.apply(neg)
		default:
			f.env[in] = opaque{}
		}
	default:
		e.unsupported(in.Pos(), "operator "+in.Op.String())
		return terminated
	}
	return running
}

func (e *executor) convert(s *state, from, to types.Type, x value) value {
	tb, ok := to.Underlying().(*types.Basic)
	if !ok {
		// string -> []byte or []rune
		if v, ok := x.(view); ok {
			if sl, ok := to.Underlying().(*types.Slice); ok {
				if eb, ok := sl.Elem().Underlying().(*types.Basic); ok && eb.Kind() == types.Byte {
					v.bytes = true
					return v
				}
			}
		}
		if str, ok := x.(string); ok {
			if sl, ok := to.Underlying().(*types.Slice); ok {
				if eb, ok := sl.Elem().Underlying().(*types.Basic); ok && eb.Kind() == types.Byte {
					a := make(aggregate, len(str))
					for i := range a {
						a[i] = int64(str[i])
					}
					return slice{cell: s.alloc(a), len: len(a), cap: len(a)}
				}
			}
		}
		return opaque{}
	}
	switch {
	case tb.Info()&types.IsInteger != 0:
		switch x := x.(type) {
		case int64:
			return wrap(to, x)
		case byteFn:
			return x.apply(func(v int64) int64 { return wrap(to, v) })
		}
	case tb.Info()&types.IsString != 0:
		switch x := x.(type) {
		case view:
			x.bytes = false
			return x
		case int64:
			return string(rune(x))
		case slice:
			a := s.heap[x.cell].(aggregate)
			b := make([]byte, 0, x.len)
			for _, v := range a[x.off : x.off+x.len] {
				c, ok := v.(int64)
				if !ok {
					return opaque{}
				}
				b = append(b, byte(c))
			}
			return string(b)
		}
	}
	return opaque{}
}

func (e *executor) typeAssert(s *state, f *frame, in *ssa.TypeAssert) outcome {
	x := e.val(s, f, in.X)
	match := func() (value, bool, bool) { // value, ok, known
		switch x := x.(type) {
		case ifaceValue:
			if _, isIface := in.AssertedType.Underlying().(*types.Interface); isIface {
				return x, types.Implements(x.t, in.AssertedType.Underlying().(*types.Interface)), true
			}
			return x.v, types.Identical(x.t, in.AssertedType), true
		case nilValue:
			return zero(in.AssertedType), false, true
		}
		return opaque{}, false, false
	}
	v, ok, known := match()
	if in.CommaOk {
		if !known {
			f.env[in] = tuple{opaque{}, opaque{}}
		} else {
			if !ok {
				v = zero(in.AssertedType)
			}
			f.env[in] = tuple{v, ok}
		}
		return running
	}
	if known && !ok {
		return rejected
	}
	f.env[in] = v
	return running
}

// inputAddr is the address of input byte pos in an input []byte.
type inputAddr struct{ pos int }

// indexed is the address of an element of an array chosen by an input byte.
type indexed struct {
	base pointer
	idx  byteFn
}

func (e *executor) indexAddr(s *state, f *frame, in *ssa.IndexAddr) outcome {
	x, i := e.val(s, f, in.X), e.val(s, f, in.Index)
	switch i := i.(type) {
	case int64:
		switch x := x.(type) {
		case view: // &b[i] of an input []byte: loading it reads the input
			pos := x.off + int(i)
			if i < 0 || (x.end >= 0 && pos >= x.end) {
				return rejected
			}
			s.lenLo = max(s.lenLo, pos+1)
			if s.lenLo > s.lenHi {
				return rejected
			}
			f.env[in] = inputAddr{pos: pos}
		case pointer:
			a, ok := s.load(x).(aggregate)
			if !ok || i < 0 || i >= int64(len(a)) {
				return rejected
			}
			f.env[in] = pointer{cell: x.cell, path: appendPath(x.path, int(i))}
		case slice:
			if i < 0 || i >= int64(x.len) {
				return rejected
			}
			f.env[in] = pointer{cell: x.cell, path: []int{x.off + int(i)}}
		case nilValue:
			return rejected
		default:
			e.unsupported(in.Pos(), "index of an untracked slice")
			return terminated
		}
	case byteFn:
		switch x := x.(type) {
		case pointer:
			f.env[in] = indexed{base: x, idx: i}
		case slice:
			f.env[in] = indexed{base: pointer{cell: x.cell}, idx: i.apply(func(v int64) int64 {
				if v < 0 || v >= int64(x.len) {
					return -1
				}
				return v + int64(x.off)
			})}
		default:
			e.unsupported(in.Pos(), "index by an input byte into an untracked array")
			return terminated
		}
	default:
		e.unsupported(in.Pos(), "index by an untracked value")
		return terminated
	}
	return running
}

// loadIndexed loads table[b] for an input byte b: a function of b when the
// table's elements are concrete integers; bytes that index out of range
// would panic, so the path keeps only the others.
func (e *executor) loadIndexed(s *state, f *frame, in ssa.Instruction, p indexed) outcome {
	a, ok := s.load(p.base).(aggregate)
	if !ok {
		e.unsupported(in.Pos(), "index into an untracked array")
		return terminated
	}
	set := s.set(p.idx.pos)
	var keep byteSet
	var t [256]int64
	for b := 0; b < 256; b++ {
		if !set.has(b) {
			continue
		}
		k := p.idx.f[b]
		if k < 0 || k >= int64(len(a)) {
			continue
		}
		v, ok := a[k].(int64)
		if !ok {
			e.unsupported(in.Pos(), "index by an input byte into an array of non-integers")
			return terminated
		}
		keep.add(b)
		t[b] = v
	}
	if keep.empty() {
		return rejected
	}
	s.restrict(p.idx.pos, keep)
	f.env[in.(ssa.Value)] = byteFn{pos: p.idx.pos, f: &t}
	return running
}

func (e *executor) index(s *state, f *frame, in *ssa.Index, x, i value) outcome {
	switch x := x.(type) {
	case view:
		k, ok := i.(int64)
		if !ok {
			e.unsupported(in.Pos(), "input indexed by an untracked value")
			return terminated
		}
		pos := x.off + int(k)
		if k < 0 {
			return rejected
		}
		if x.end >= 0 {
			if pos >= x.end {
				return rejected
			}
		}
		if pos+1 > s.lenLo {
			s.lenLo = pos + 1
		}
		if s.lenLo > s.lenHi {
			return rejected
		}
		f.env[in] = s.read(pos)
		return running
	case string:
		if k, ok := i.(int64); ok {
			if k < 0 || k >= int64(len(x)) {
				return rejected
			}
			f.env[in] = int64(x[k])
			return running
		}
		if b, ok := i.(byteFn); ok {
			var t [256]int64
			for v := range t {
				if k := b.f[v]; k >= 0 && k < int64(len(x)) {
					t[v] = int64(x[k])
				}
			}
			f.env[in] = byteFn{pos: b.pos, f: &t}
			return running
		}
	case aggregate:
		if k, ok := i.(int64); ok {
			if k < 0 || k >= int64(len(x)) {
				return rejected
			}
			f.env[in] = x[k]
			return running
		}
		if b, ok := i.(byteFn); ok {
			c := s.alloc(x)
			return e.loadIndexed(s, f, in, indexed{base: pointer{cell: c}, idx: b})
		}
	}
	f.env[in] = opaque{}
	return running
}

func (e *executor) lookup(s *state, f *frame, in *ssa.Lookup) outcome {
	x, k := e.val(s, f, in.X), e.val(s, f, in.Index)
	if _, ok := in.X.Type().Underlying().(*types.Basic); ok { // string index
		return e.index(s, f, &ssa.Index{X: in.X, Index: in.Index}, x, k)
	}
	m, ok := x.(mapValue)
	var d *mapData
	if ok {
		d = s.heap[m.cell].(*mapData)
	} else if _, isNil := x.(nilValue); isNil {
		d = &mapData{}
	}
	if d == nil {
		f.env[in] = e.untracked(in.Type())
		return running
	}
	elem := in.X.Type().Underlying().(*types.Map).Elem()
	result := func(v value, ok bool) value {
		if in.CommaOk {
			return tuple{v, ok}
		}
		return v
	}
	if isConcrete(k) {
		if i := d.find(k); i >= 0 {
			f.env[in] = result(d.vals[i], true)
		} else {
			f.env[in] = result(zero(elem), false)
		}
		return running
	}
	if b, ok := k.(byteFn); ok {
		var vt, okt [256]int64
		z, _ := zero(elem).(int64)
		for v := range vt {
			vt[v] = z
			if i := d.find(b.f[v]); i >= 0 {
				x, ok := d.vals[i].(int64)
				if !ok {
					e.unsupported(in.Pos(), "map of non-integers looked up by an input byte")
					return terminated
				}
				vt[v], okt[v] = x, 1
			}
		}
		f.env[in] = byteFn{pos: b.pos, f: &vt}
		if in.CommaOk {
			f.env[in] = tuple{byteFn{pos: b.pos, f: &vt}, byteFn{pos: b.pos, f: &okt}}
		}
		return running
	}
	f.env[in] = e.untracked(in.Type())
	return running
}

func (e *executor) slice(s *state, f *frame, in *ssa.Slice) outcome {
	x := e.val(s, f, in.X)
	bound := func(v ssa.Value, def int) (int, bool) {
		if v == nil {
			return def, true
		}
		k, ok := e.val(s, f, v).(int64)
		return int(k), ok
	}
	switch x := x.(type) {
	case view:
		lo, ok := bound(in.Low, 0)
		if !ok || lo < 0 {
			e.unsupported(in.Pos(), "input sliced by an untracked value")
			return terminated
		}
		v := view{off: x.off + lo, end: x.end, bytes: x.bytes}
		if in.High != nil {
			hi, ok := bound(in.High, 0)
			if !ok {
				e.unsupported(in.Pos(), "input sliced by an untracked value")
				return terminated
			}
			if hi < lo {
				return rejected
			}
			v.end = x.off + hi
		}
		need := v.off
		if v.end >= 0 {
			need = v.end
		}
		if x.end >= 0 {
			if need > x.end {
				return rejected
			}
		} else {
			s.lenLo = max(s.lenLo, need)
			if s.lenLo > s.lenHi {
				return rejected
			}
		}
		f.env[in] = v
	case string:
		lo, ok1 := bound(in.Low, 0)
		hi, ok2 := bound(in.High, len(x))
		if !ok1 || !ok2 {
			f.env[in] = opaque{}
			return running
		}
		if lo < 0 || hi > len(x) || lo > hi {
			return rejected
		}
		f.env[in] = x[lo:hi]
	case slice:
		lo, ok1 := bound(in.Low, 0)
		hi, ok2 := bound(in.High, x.len)
		if !ok1 || !ok2 {
			e.unsupported(in.Pos(), "slice bounds untracked")
			return terminated
		}
		if lo < 0 || hi > x.cap || lo > hi {
			return rejected
		}
		f.env[in] = slice{cell: x.cell, off: x.off + lo, len: hi - lo, cap: x.cap - lo}
	case pointer: // slicing an array
		a, ok := s.load(x).(aggregate)
		if !ok || len(x.path) != 0 {
			e.unsupported(in.Pos(), "slice of an untracked array")
			return terminated
		}
		lo, ok1 := bound(in.Low, 0)
		hi, ok2 := bound(in.High, len(a))
		if !ok1 || !ok2 || lo < 0 || hi > len(a) || lo > hi {
			return rejected
		}
		f.env[in] = slice{cell: x.cell, off: lo, len: hi - lo, cap: len(a) - lo}
	case nilValue:
		f.env[in] = nilValue{}
	default:
		e.unsupported(in.Pos(), "slice of an untracked value")
		return terminated
	}
	return running
}

// rangeIter is the state of a range loop over a string: the next index.
type rangeIter struct {
	cell int
	over value
}

func (e *executor) rangeStart(s *state, f *frame, in *ssa.Range) outcome {
	x := e.val(s, f, in.X)
	switch x.(type) {
	case view, string:
		f.env[in] = rangeIter{cell: s.alloc(int64(0)), over: x}
		return running
	}
	e.unsupported(in.Pos(), "range over a map or an untracked value")
	return terminated
}

func (e *executor) next(s *state, f *frame, in *ssa.Next) outcome {
	it, ok := e.val(s, f, in.Iter).(rangeIter)
	if !ok {
		e.unsupported(in.Pos(), "range over an untracked value")
		return terminated
	}
	i := s.heap[it.cell].(int64)
	switch x := it.over.(type) {
	case string:
		if int(i) >= len(x) {
			f.env[in] = tuple{false, int64(0), int64(0)}
			return running
		}
		r, size := utf8.DecodeRuneInString(x[i:])
		s.heap[it.cell] = i + int64(size)
		f.env[in] = tuple{true, i, int64(r)}
	case view:
		pos := x.off + int(i)
		end := x.end
		if end < 0 {
			// Fork on whether the input goes on.
			if s.lenHi <= pos {
				f.env[in] = tuple{false, int64(0), int64(0)}
				return running
			}
			if s.lenLo <= pos {
				s.branchedOnInput()
				other := e.fork(s)
				other.lenHi = pos
				other.top().env[in] = tuple{false, int64(0), int64(0)}
				s.lenLo = pos + 1
			}
		} else if pos >= end {
			f.env[in] = tuple{false, int64(0), int64(0)}
			return running
		}
		// A range loop decodes UTF-8; bytes are modelled as ASCII runes.
		var ascii byteSet
		set := s.set(pos)
		for b := 0; b < 0x80; b++ {
			if set.has(b) {
				ascii.add(b)
			}
		}
		if ascii.empty() {
			return rejected
		}
		s.restrict(pos, ascii)
		s.heap[it.cell] = i + 1
		f.env[in] = tuple{true, i, s.read(pos)}
	}
	return running
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// sortedUnsupported returns the unsupported constructs met, by position.
func (e *executor) sortedUnsupported() []Unsupported {
	var out []Unsupported
	for p, w := range e.unsupp {
		out = append(out, Unsupported{Pos: p, What: w})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pos < out[j].Pos })
	return out
}

// recovers reports whether a deferred function calls recover: it matters
// only on a panic, which rejects the path anyway (a parser turning its panics
// into errors).
func recovers(v ssa.Value) bool {
	var fn *ssa.Function
	switch v := v.(type) {
	case *ssa.Function:
		fn = v
	case *ssa.MakeClosure:
		fn, _ = v.Fn.(*ssa.Function)
	}
	if fn == nil {
		return false
	}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if c, ok := in.(*ssa.Call); ok {
				if b, ok := c.Call.Value.(*ssa.Builtin); ok && b.Name() == "recover" {
					return true
				}
			}
		}
	}
	return false
}
