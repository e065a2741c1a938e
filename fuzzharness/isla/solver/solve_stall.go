package solver

// DefaultStallFactor is the factor of StallFactor.
const DefaultStallFactor = 10

// minStallStates is the fewest states a search processes without a new
// solution before it counts as stalled, however few states the solutions
// took so far.
const minStallStates = 10

// stallHistCap caps the intervals the stall detector records: an interval
// of more states counts as stallHistCap.
const stallHistCap = 4096

// stallShrinks is the number of stalls in a row after which the restarted
// searches derive smaller trees: the first search after a stall derives
// trees of half the size (MaxSize), the next a quarter, the third an
// eighth; from the fourth on, the size is the full one again.
const stallShrinks = 3

// StallFactor sets when a search counts as stalled, for a solver with
// RestartEvery: once it has processed k times the median number of states
// between two new solutions so far (and at least 10) without finding a new
// one. The solver then abandons the search and starts over from the
// initial state. Its random choices go on from where they were, so the new
// search differs from the old one, and the same seed still gives the same
// solutions: the detection counts states, not time. The first searches
// after a stall derive smaller trees (half, a quarter, an eighth of
// MaxSize), the size is restored with the next new solution; each stall
// before a new solution doubles the number of states, so that a solution
// that needs a long search is still found (MaxStates still bounds the
// states per call of Next). The default is DefaultStallFactor; 0 switches
// the detection off. Without RestartEvery the solver never abandons a
// search.
//
// One search of the solver gets stuck now and then: Scriptsize-C's def-use
// constraint, on a large program, leaves an existential quantifier per use
// of a variable, and the cheapest states then differ only in the
// declaration each use refers to, thousands of them, most of them dead
// ends. Without the detection, such a search took up to several seconds
// for one solution, thousands of times the median.
func StallFactor(k int) Option { return func(c *config) { c.stall = max(k, 0) } }

// stallDetector counts the states between new solutions. All its counts are
// states, never time, so that its decisions are the same for the same seed.
type stallDetector struct {
	since  int   // states processed since the last new solution or restart
	hist   []int // hist[v]: the solutions found v states after the one before
	n      int   // the solutions recorded
	median int   // the median of the intervals recorded
	escal  int   // stalls since the last new solution
	size   int   // the generator's MaxSize before the stalls, 0 if none
}

// solved records a new solution.
func (d *stallDetector) solved() {
	if d.hist == nil {
		d.hist = make([]int, stallHistCap+1)
	}
	d.hist[min(d.since, stallHistCap)]++
	d.n++
	d.since, d.escal = 0, 0
	// The median, from the histogram: the smallest v with more than half
	// of the intervals at or below it.
	half, acc := d.n/2, 0
	for v, c := range d.hist {
		if acc += c; acc > half {
			d.median = v
			break
		}
	}
}

// limit returns the states a search may process without a new solution
// before it counts as stalled, for factor k.
func (d *stallDetector) limit(k int) int {
	return max(minStallStates, k*max(d.median, 1)) << min(d.escal, 20)
}

// stalled reports whether the current search has stalled.
func (s *Solver) stalled() bool {
	return s.cfg.restart > 0 && s.cfg.stall > 0 && s.stall.since >= s.stall.limit(s.cfg.stall)
}

// restartStalled abandons the current search and starts over, with
// smaller trees for the first stalls in a row.
func (s *Solver) restartStalled() {
	d := &s.stall
	d.escal++
	s.stats.Stalls++
	if d.size == 0 {
		d.size = s.gen.MaxSize
	}
	s.gen.MaxSize = d.size
	if d.escal <= stallShrinks {
		s.gen.MaxSize = max(d.size>>d.escal, 4*s.spec.Graph().Root.MinSize)
	}
	s.restart()
}

// solvedNew records a new solution: the search did not stall.
func (s *Solver) solvedNew() {
	s.stall.solved()
	if s.stall.size > 0 {
		s.gen.MaxSize, s.stall.size = s.stall.size, 0
	}
}
