package solver

import (
	"slices"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// A finishing is a state without quantifiers whose atoms the solver solves
// in Go once per model (Models), each solve a solution. Next takes one
// solution per solve: the first when it processes the state, each other
// in a call of its own, so that every output pays for its own solve rather
// than the first paying for the whole batch and the others costing nothing.
// The solves run in the same order, with the same random choices, as if
// they were made at once: between them, Next only returns a solution.
type finishing struct {
	st     *state
	left   int  // solves left
	random bool // a solution came from random choices
	fresh  bool // a solution was not one returned before
	size   int  // the generator's MaxSize when the state was processed
	// c is the evaluation context of the state's tree, for the first solve
	// to start from (nil once taken).
	c *evalCtx
}

// solveModel solves the atoms of f's state until a solve gives a solution
// or none is left; done reports that none is left.
func (s *Solver) solveModel(f *finishing) (outs []*grammar.Tree, done bool) {
	// A new solution returned in between may have restored the size that
	// a stalled search had shrunk (solvedNew); the state's solves keep
	// the size they started with.
	saved := s.gen.MaxSize
	s.gen.MaxSize = f.size
	defer func() { s.gen.MaxSize = saved }()
	for f.left > 0 {
		f.left--
		root, rnd, rewrote, ok := s.csp(f.st, f.c)
		f.c = nil
		if !ok {
			f.left = 0
			break
		}
		f.random = f.random || rnd
		s.stats.GoSolved++
		if t, closed, ok := s.closeTree(root, rewrote); ok {
			f.random = f.random || closed
			return []*grammar.Tree{t}, f.left == 0
		}
	}
	return nil, true
}

// finishMore makes the next solve of the state in s.fin, and once none is
// left, ends it (finished).
func (s *Solver) finishMore() []*grammar.Tree {
	s.gen.Recycle() // as in step
	f := s.fin
	outs, done := s.solveModel(f)
	f.fresh = f.fresh || s.anyNew(outs)
	if done {
		s.fin = nil
		s.finished(f)
	}
	return outs
}

// finished ends the solves of a state. If its solutions came from random
// choices, the state may have further solutions: it is kept in reserve
// for more samples, once the queue is empty, as long as it gives new ones.
func (s *Solver) finished(f *finishing) {
	if !f.random {
		return
	}
	if f.fresh {
		if n := s.reserve.add(f.st); n > 0 {
			s.stats.Unreserved += n
			s.incomplete(LimitReserve, "the states kept for more random samples outgrew their memory bound")
		}
		return
	}
	s.incomplete(NoLimit, "the random completions of a state repeated earlier solutions")
}

// reserveNodes bounds the tree nodes of the states in reserve: the sum
// of their trees' sizes (nodes two trees share count twice), about 1.3
// MB of nodes. The solver samples the reserve only once its queue is
// empty, which a search rarely reaches before it restarts (RestartEvery
// clears the reserve): in the evaluation's searches (kfuzz eval isla) the
// reserve grew to 150-800 states between restarts, up to 80,000 nodes
// for reST and 440,000 for TAR, and was never sampled. That memory was
// live, so every garbage collection cycle scanned it.
const reserveNodes = 1 << 14

// A reserve holds the states whose solutions were random samples, for
// more samples once the queue is empty. Past reserveNodes, it drops the
// costliest states (the newest of equal cost): their further solutions
// are lost, so the search is incomplete.
type reserve struct {
	states []*state
	nodes  int // the sum of the states' tree sizes
}

// add adds a state and returns the number of states it dropped to stay
// within reserveNodes. It keeps at least the state added last.
func (r *reserve) add(st *state) (dropped int) {
	r.states = append(r.states, st)
	r.nodes += int(st.root.size)
	for r.nodes > reserveNodes && len(r.states) > 1 {
		worst := 0
		for i, c := range r.states {
			if w := r.states[worst]; c.cost > w.cost || c.cost == w.cost && c.seq > w.seq {
				worst = i
			}
		}
		r.nodes -= int(r.states[worst].root.size)
		r.states = slices.Delete(r.states, worst, worst+1)
		dropped++
	}
	return dropped
}

// reset empties the reserve, keeping its memory.
func (r *reserve) reset() {
	clear(r.states)
	r.states, r.nodes = r.states[:0], 0
}
