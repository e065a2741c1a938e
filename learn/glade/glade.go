package glade

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/learn/oracle"
)

// DefaultMaxQueries is the default limit on oracle queries (WithMaxQueries).
const DefaultMaxQueries = 2_000_000

// DefaultBatch is the default number of candidates whose checks are sent to
// the oracle in one batch (WithBatch).
const DefaultBatch = 8

// DefaultAlphabet is the alphabet of character generalization unless
// WithAlphabet says otherwise: the printable ASCII characters, tab, line
// feed and carriage return.
var DefaultAlphabet = func() []byte {
	b := []byte{'\t', '\n', '\r'}
	for c := byte(' '); c <= '~'; c++ {
		b = append(b, c)
	}
	return b
}()

// An Option configures Synthesize.
type Option func(*config)

type config struct {
	recursion  bool
	chars      bool
	alphabet   []byte
	maxQueries int
	batch      int
	progress   func(Progress)
	trace      bool
	extra      bool
	trees      bool
	guard      bool
}

// WithRecursion turns the recursion stage on or off (default on). The stage
// runs after GLADE's phase two and generalizes beyond it, in the spirit of
// Arvada and TreeVada: see the package documentation.
func WithRecursion(on bool) Option { return func(c *config) { c.recursion = on } }

// WithTrees replaces GLADE's phases one and two and the recursion stage
// with the tree stage (default off), after Arvada and TreeVada: the seeds
// become trees pre-structured by brackets, sibling sequences are bubbled
// into new nonterminals and nonterminals are merged when the oracle
// accepts each one's strings in the other's contexts, until nothing more
// merges; then, with WithCharGeneralization, each nonterminal deriving
// single bytes tries the alphabet's other bytes. See the package
// documentation.
func WithTrees(on bool) Option { return func(c *config) { c.trees = on } }

// WithPrecisionGuard turns the tree stage's precision guard on or off
// (default off): a merge that passes its checks is kept only if, of 200
// inputs generated from the grammar after it, the oracle rejects at most
// twice as many plus 4 as of 200 generated before it. It raises precision
// on some languages and costs recall on others (see docs/glade.md).
func WithPrecisionGuard(on bool) Option { return func(c *config) { c.guard = on } }

// WithExtraContexts turns extra contexts on or off (default on). With them,
// as in the GLADE authors' implementation (not in the paper), a bracket
// below a repetition or an alternation has a second context in which the
// enclosing repetitions are taken zero times and an alternative stands
// alone, and every check of phase one, character generalization, phase two
// and the recursion stage is made in both. This rejects many
// generalizations that hold in the seed's context only. Off, the checks are
// exactly the paper's (see the golden test of Figures 2 and 3).
func WithExtraContexts(on bool) Option { return func(c *config) { c.extra = on } }

// WithCharGeneralization turns GLADE's character generalization (section 6.2
// of the paper) on or off (default on).
func WithCharGeneralization(on bool) Option { return func(c *config) { c.chars = on } }

// WithAlphabet sets the characters that character generalization tries in
// place of each terminal (default DefaultAlphabet).
func WithAlphabet(chars []byte) Option {
	return func(c *config) { c.alphabet = append([]byte(nil), chars...) }
}

// WithMaxQueries limits the oracle queries (cache hits not counted) to n
// (default DefaultMaxQueries); Synthesize fails with an *ErrMaxQueries when
// the limit is reached.
func WithMaxQueries(n int) Option { return func(c *config) { c.maxQueries = n } }

// WithBatch sets how many candidates are checked in one batch of oracle
// queries (default DefaultBatch). Larger batches use more cores at once but
// may query checks of candidates that are never needed; the result does not
// depend on the batch size, the number of queries does (and is the same in
// every run with the same size).
func WithBatch(n int) Option { return func(c *config) { c.batch = max(n, 1) } }

// WithProgress has f called after every generalization step, from the
// goroutine that called Synthesize.
func WithProgress(f func(Progress)) Option { return func(c *config) { c.progress = f } }

// WithTrace has Synthesize record every step, its candidates and their
// checks in Result.Trace.
func WithTrace(on bool) Option { return func(c *config) { c.trace = on } }

// Progress is what WithProgress hears after each step.
type Progress struct {
	Phase     string // "regex", "chars", "merge" or "recursion"
	Seed      int    // the seed being generalized (0-based), in the phases that work per seed
	Seeds     int    // the number of seeds
	Steps     int    // steps done so far
	Queries   int64  // oracle queries so far
	CacheHits int64  // answers from the cache so far
	Elapsed   time.Duration
}

// Stats summarizes a synthesis.
type Stats struct {
	Queries    int64         // oracle queries (cache hits not counted)
	Accepted   int64         // queries the oracle accepted
	CacheHits  int64         // checks answered from the cache
	Duration   time.Duration // wall time of Synthesize
	OracleTime time.Duration // time spent in the oracle, summed over goroutines
	Seeds      int           // seeds given
	SeedsUsed  int           // seeds generalized (the others were in the language already)
	Steps      int           // generalization steps of all phases
	Merges     int           // merges accepted by phase two
	Recursions int           // generalizations accepted by the recursion stage
	Rules      int           // rules of the grammar
	RegexQuery int64         // queries of phase one
	CharsQuery int64         // queries of character generalization
	MergeQuery int64         // queries of phase two
	RecurQuery int64         // queries of the recursion stage
}

// Result is what Synthesize found.
type Result struct {
	// Grammar is the synthesized grammar in kfuzz's notation; its start
	// symbol is <start>. It passes grammar.Check.
	Grammar *grammar.Grammar
	Stats   Stats
	// Trace holds every step when WithTrace(true) was given.
	Trace []Step
}

// A Step is one generalization step of the trace: the bracketed string it
// generalized (or the merge it tried), the candidates it checked in order of
// preference up to the chosen one, and which it chose.
type Step struct {
	Name     string // "R1", "R2", ... in phase one; "C1", ... in phase two; "X1", ... for character generalization; "N1", ... in the recursion stage
	Seed     int    // the seed index of a phase-one or character step
	Language string // the current language before the step (phase one), or the merge pair
	Bracket  string // the bracketed string generalized, like [<a>hi</a>]rep
	Context  [2]string
	// Candidates are the candidates checked, in order of preference; the
	// last one is the chosen one.
	Candidates []Candidate
	Chosen     string // the chosen generalization, as in the paper's Figure 3
}

// A Candidate is one candidate generalization and its checks.
type Candidate struct {
	Generalization string  // the candidate replacement of the bracketed string
	Checks         []Check // the checks, in order; all passed if the candidate was chosen
}

// A Check is one check string and the oracle's answer.
type Check struct {
	Input    string
	Accepted bool
}

// ErrMaxQueries is returned when the query limit (WithMaxQueries) is
// reached.
type ErrMaxQueries struct{ Limit int }

func (e *ErrMaxQueries) Error() string {
	return fmt.Sprintf("glade: the limit of %d oracle queries is reached (raise it with -max-queries)", e.Limit)
}

// Synthesize learns a context-free grammar from seeds, valid inputs, and the
// membership oracle o. Every seed should be accepted by o; one that is not
// is an error. The result depends only on the seeds, the oracle's answers
// and the options, not on the number of cores.
func Synthesize(ctx context.Context, seeds [][]byte, o oracle.Oracle, opts ...Option) (*Result, error) {
	cfg := config{recursion: true, chars: true, extra: true, alphabet: DefaultAlphabet, maxQueries: DefaultMaxQueries, batch: DefaultBatch}
	for _, opt := range opts {
		opt(&cfg)
	}
	if len(seeds) == 0 {
		return nil, errors.New("glade: no seeds")
	}
	s := newSynth(ctx, o, &cfg, len(seeds))
	oks, err := s.query(seeds)
	if err != nil {
		return nil, err
	}
	for i, ok := range oks {
		if !ok {
			return nil, fmt.Errorf("glade: seed %d (%.40q) is rejected by the oracle", i+1, seeds[i])
		}
	}
	if err := s.run(seeds); err != nil {
		return nil, err
	}
	return s.result(), nil
}
