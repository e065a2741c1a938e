package glade

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/seed72891827/kfuzz/learn/oracle"
)

// synth is the state of one Synthesize call.
type synth struct {
	ctx     context.Context
	cfg     *config
	counter *oracle.Counter
	cache   *oracle.Cache
	start   time.Time
	stats   Stats
	trace   []Step
	phase   string
	seed    int
	seeds   int

	roots []*node // the phase-one expression of each generalized seed
	steps int     // phase-one steps so far (names R1, R2, ...)
	// stars are the seq nodes with a star, in the order of their steps:
	// the repetition subexpressions that phase two merges.
	stars []*node
	// class maps each star to its merge class (union-find by index).
	class []int
	// the recursion stage's grammar
	rec *recGrammar
	// the tree stage's trees (WithTrees)
	tree *forest
	// set by exprGrammar: the nonterminal of each class, the index of each star
	repNames  map[int]string
	starIndex map[*node]int
}

func newSynth(ctx context.Context, o oracle.Oracle, cfg *config, seeds int) *synth {
	counter := oracle.Counted(o)
	return &synth{
		ctx: ctx, cfg: cfg, counter: counter, cache: oracle.Cached(counter),
		start: time.Now(), seeds: seeds,
	}
}

// query answers inputs through the cache, failing once the query limit is
// reached.
func (s *synth) query(inputs [][]byte) ([]bool, error) {
	if err := s.ctx.Err(); err != nil {
		return nil, err
	}
	if q := s.counter.Stats().Queries; s.cfg.maxQueries > 0 && q >= int64(s.cfg.maxQueries) {
		return nil, &ErrMaxQueries{Limit: s.cfg.maxQueries}
	}
	return oracle.AcceptAll(s.ctx, s.cache, inputs)
}

// acceptsAll reports whether the oracle accepts every one of the strings
// (through query, so the cache and the query limit apply).
func (s *synth) acceptsAll(strs []string) (bool, error) {
	inputs := make([][]byte, len(strs))
	for i, c := range strs {
		inputs[i] = []byte(c)
	}
	oks, err := s.query(inputs)
	if err != nil {
		return false, err
	}
	return !slices.Contains(oks, false), nil
}

// A cand is a candidate under evaluation: its printed form, its checks and
// what choosing it does.
type cand struct {
	gen    string
	checks []string
	apply  func()
	last   bool // the candidate that keeps the language, taken when no other is
	// root, if not nil, is the current expression: checks in its language
	// are left out, and a candidate all of whose checks are in it is not
	// taken (it adds no string the oracle vetted). Membership is decided
	// only for candidates whose checks the oracle all accepts, since a
	// string of the current language is accepted anyway.
	root *node
}

// choose checks the candidates in order of preference, in batches of
// cfg.batch candidates, and applies the first whose checks all pass. The
// last candidate must be the one that keeps the language (it has no checks
// and always passes). It records a Step with the candidates up to the
// chosen one.
func (s *synth) choose(step Step, next func() (cand, bool)) error {
	var pending []cand
	done := false
	for {
		for !done && len(pending) < s.cfg.batch {
			c, ok := next()
			if !ok {
				done = true
				break
			}
			pending = append(pending, c)
		}
		if len(pending) == 0 {
			return fmt.Errorf("glade: internal error: no candidate left in step %s", step.Name)
		}
		var inputs [][]byte
		for _, c := range pending {
			for _, ch := range c.checks {
				inputs = append(inputs, []byte(ch))
			}
		}
		var oks []bool
		if len(inputs) > 0 {
			var err error
			if oks, err = s.query(inputs); err != nil {
				return err
			}
		}
		k := 0
		for _, c := range pending {
			pass := true
			cc := Candidate{Generalization: c.gen}
			first := k
			for range c.checks {
				pass = pass && oks[k]
				k++
			}
			for j, ch := range c.checks {
				if pass && c.root != nil && c.root.matches(ch) {
					continue // in the current language
				}
				cc.Checks = append(cc.Checks, Check{Input: ch, Accepted: oks[first+j]})
			}
			if pass && cc.Checks == nil && !c.last {
				continue // nothing the oracle could vet: not taken
			}
			if s.cfg.trace {
				step.Candidates = append(step.Candidates, cc)
			}
			if pass {
				c.apply()
				step.Chosen = c.gen
				s.record(step)
				return nil
			}
		}
		pending = pending[:0]
	}
}

func (s *synth) record(step Step) {
	s.stats.Steps++
	if s.cfg.trace {
		s.trace = append(s.trace, step)
	}
	if s.cfg.progress != nil {
		st := s.counter.Stats()
		s.cfg.progress(Progress{
			Phase: s.phase, Seed: s.seed, Seeds: s.seeds, Steps: s.stats.Steps,
			Queries: st.Queries, CacheHits: s.cache.Hits(), Elapsed: time.Since(s.start),
		})
	}
}

// run runs all phases.
func (s *synth) run(seeds [][]byte) error {
	if s.cfg.trees {
		s.phase = "trees"
		q := s.queries()
		err := s.treeStage(seeds)
		s.stats.RecurQuery = s.queries() - q - s.stats.CharsQuery
		return err
	}
	for i, seed := range seeds {
		s.seed = i
		if s.inLanguage(string(seed)) {
			continue
		}
		s.stats.SeedsUsed++
		q0 := s.queries()
		s.phase = "regex"
		root, err := s.phaseOne(i, string(seed))
		if err != nil {
			return err
		}
		q1 := s.queries()
		s.stats.RegexQuery += q1 - q0
		if s.cfg.chars {
			s.phase = "chars"
			if err := s.generalizeChars(root); err != nil {
				return err
			}
			s.stats.CharsQuery += s.queries() - q1
		}
		s.roots = append(s.roots, root)
	}
	s.phase = "merge"
	q := s.queries()
	if err := s.phaseTwo(); err != nil {
		return err
	}
	s.stats.MergeQuery = s.queries() - q
	if s.cfg.recursion {
		s.phase = "recursion"
		q = s.queries()
		if err := s.recursionStage(seeds); err != nil {
			return err
		}
		s.stats.RecurQuery = s.queries() - q
	}
	return nil
}

func (s *synth) queries() int64 { return s.counter.Stats().Queries }

// inLanguage reports whether str is in the union of the expressions of the
// seeds generalized so far.
func (s *synth) inLanguage(str string) bool {
	for _, r := range s.roots {
		if r.matches(str) {
			return true
		}
	}
	return false
}

func (s *synth) result() *Result {
	g := s.buildGrammar()
	st := s.counter.Stats()
	s.stats.Queries = st.Queries
	s.stats.Accepted = st.Accepted
	s.stats.OracleTime = st.Time
	s.stats.CacheHits = s.cache.Hits()
	s.stats.Duration = time.Since(s.start)
	s.stats.Seeds = s.seeds
	s.stats.Rules = len(g.Rules)
	return &Result{Grammar: g, Stats: s.stats, Trace: s.trace}
}
