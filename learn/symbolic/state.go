package symbolic

import (
	"maps"

	"golang.org/x/tools/go/ssa"
)

// A segment is one level of an execution context: a call of a function from
// a call site, or one iteration of a loop in the function above it.
type segment struct {
	loop bool
	key  string        // the grammar symbol it becomes: callee and call site, or loop
	fn   *ssa.Function // the callee, or the function holding the loop
	act  int           // the activation: tells two calls (or loop runs) apart
	iter int           // the iteration of a loop, from 1
}

// A loopRun is a loop being executed in a frame.
type loopRun struct {
	l         *loop
	act, iter int
	readInput bool
	branched  bool // the path branched on the input in this iteration
}

type frame struct {
	fn       *ssa.Function
	env      map[ssa.Value]value
	block    *ssa.BasicBlock
	pc       int
	call     *ssa.Call // the call in the caller that this frame returns to (nil for the entry)
	site     string    // the call site's key (callee and position)
	seg      segment
	loops    []loopRun
	bindings []value // free variables of a closure
	entryAcc int     // the state's number of accesses when the call began
}

func (f *frame) clone() *frame {
	g := *f
	g.env = maps.Clone(f.env)
	g.loops = append([]loopRun(nil), f.loops...)
	return &g
}

// An access is one read of an input byte.
type access struct {
	pos, order int
	ctx        []segment
}

// A state is one path of the symbolic execution.
type state struct {
	frames   []*frame
	heap     []value
	globals  map[*ssa.Global]int
	sets     []byteSet // the possible values of input byte i
	lenLo    int       // the input's length is in lenLo..lenHi
	lenHi    int
	accesses []access
	acts     int
	steps    int
	seq      int // queue order
	prio     int // the frontier's order: input bytes read, plus a cost of call depth (see push)
	// inputLoops are the activations of loops whose last iteration
	// branched on the input: loops whose number of iterations the input
	// decides (a loop over a literal ends by its count alone).
	inputLoops []int
	result     value // the entry's results, once it returned
	// groups are the merge points at which this path went on as the
	// representative (see compose.go).
	groups []*group
}

func (s *state) clone() *state {
	t := *s
	t.frames = make([]*frame, len(s.frames))
	for i, f := range s.frames {
		t.frames[i] = f.clone()
	}
	t.heap = append([]value(nil), s.heap...)
	t.globals = maps.Clone(s.globals)
	t.sets = append([]byteSet(nil), s.sets...)
	t.accesses = s.accesses[:len(s.accesses):len(s.accesses)] // appends copy
	t.inputLoops = s.inputLoops[:len(s.inputLoops):len(s.inputLoops)]
	t.groups = s.groups[:len(s.groups):len(s.groups)]
	return &t
}

func (s *state) top() *frame { return s.frames[len(s.frames)-1] }

// set returns the possible values of input byte pos.
func (s *state) set(pos int) byteSet {
	if pos < len(s.sets) {
		return s.sets[pos]
	}
	return fullSet()
}

func (s *state) restrict(pos int, to byteSet) {
	for len(s.sets) <= pos {
		s.sets = append(s.sets, fullSet())
	}
	s.sets[pos] = to
}

// context returns the execution context at this point: every frame's call
// and running loops.
func (s *state) context() []segment {
	var ctx []segment
	for _, f := range s.frames {
		ctx = append(ctx, f.seg)
		for _, r := range f.loops {
			ctx = append(ctx, segment{loop: true, key: r.l.key, fn: f.fn, act: r.act, iter: r.iter})
		}
	}
	return ctx
}

// read records an access to input byte pos and returns its value.
func (s *state) read(pos int) value {
	s.accesses = append(s.accesses, access{pos: pos, order: len(s.accesses), ctx: s.context()})
	for _, f := range s.frames {
		for i := range f.loops {
			f.loops[i].readInput = true
		}
	}
	return byteFn{pos: pos, f: identity}
}

func (s *state) alloc(v value) int {
	s.heap = append(s.heap, v)
	return len(s.heap) - 1
}

// load returns the value p points to.
func (s *state) load(p pointer) value {
	v := s.heap[p.cell]
	for _, i := range p.path {
		a, ok := v.(aggregate)
		if !ok || i < 0 || i >= len(a) {
			return opaque{}
		}
		v = a[i]
	}
	return v
}

// store writes v where p points, copying the aggregates on the way.
func (s *state) store(p pointer, v value) bool {
	nv, ok := storeAt(s.heap[p.cell], p.path, v)
	if ok {
		s.heap[p.cell] = nv
	}
	return ok
}

func storeAt(old value, path []int, v value) (value, bool) {
	if len(path) == 0 {
		return v, true
	}
	a, ok := old.(aggregate)
	if !ok || path[0] < 0 || path[0] >= len(a) {
		return nil, false
	}
	inner, ok := storeAt(a[path[0]], path[1:], v)
	if !ok {
		return nil, false
	}
	b := append(aggregate(nil), a...)
	b[path[0]] = inner
	return b, true
}

// branchedOnInput notes a branch on the input in every running loop.
func (s *state) branchedOnInput() {
	for _, f := range s.frames {
		for i := range f.loops {
			f.loops[i].branched = true
		}
	}
}

// leave notes that the loop run r ends.
func (s *state) leave(r loopRun) {
	if r.branched {
		s.inputLoops = append(s.inputLoops, r.act)
	}
}
