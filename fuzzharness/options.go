package fuzzharness

import (
	"fmt"
	"math"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// Default bounds of a harness and a Codec. Like grammar.NewGenerator, the
// harness raises the default MaxDepth and MaxSize for a grammar whose
// smallest input needs more: to eight levels beyond its depth and four times
// its size. MaxDepth is the Generator's. MaxRepeat is larger than the
// Generator's, because the fuzzer picks counts uniformly and example inputs
// often repeat more than four times (the characters of a JSON string, the
// digits of a number). MaxSize is smaller than the Generator's: every byte of
// a harness input makes a decision, so inputs of up to 2000 nodes keep
// hundreds of meaningful bytes, and go test -fuzz minimizes every input that
// finds new coverage with an algorithm quadratic in its length; with 2000
// nodes the fuzzer spent most of its time minimizing (see kfuzz eval
// harness).
const (
	DefaultMaxDepth  = grammar.DefaultMaxDepth
	DefaultMaxSize   = 500
	DefaultMaxRepeat = 16
	// DefaultSeedK is the k of the k-path covering forest added as seeds.
	DefaultSeedK = 2
)

// Bounds limit the trees that a Codec decodes and encodes. A tree is within
// the bounds when its Tree.Depth is at most MaxDepth, its Tree.Size at most
// MaxSize, and every quantifier of it repeats its element at most MaxRepeat
// times beyond the quantifier's minimum. Decoding always yields a tree within
// the bounds; encoding accepts exactly the complete trees within them.
//
// MaxEdits is not a bound on trees: it allows the bytes after a tree's
// decisions to make up to MaxEdits byte edits (insert, delete, replace) of
// its text, so that the fuzzer also explores inputs just outside the
// language, where a parser's syntax errors are handled (see Input.Edited
// and the package documentation). The default 0 allows none: every input is
// in the language.
type Bounds struct {
	MaxDepth  int `json:"max_depth"`
	MaxSize   int `json:"max_size"`
	MaxRepeat int `json:"max_repeat"`
	MaxEdits  int `json:"max_edits,omitempty"`
}

// An Option configures a Harness, a Codec or Seeds. Options that concern
// only the harness (seeds, validity) are ignored by a Codec.
type Option func(*config)

type config struct {
	bounds   Bounds
	depthSet bool // bounds.MaxDepth was set by an option
	sizeSet  bool // bounds.MaxSize was set by an option
	k        int
	examples []string
	trees    []*grammar.Tree
	valid    func(*grammar.Tree) bool

	constraint      Constraint
	constraintSeeds int
	repairBudget    time.Duration
	invalidShare    float64 // WithInvalidShare
}

func newConfig(opts []Option) config {
	c := config{
		bounds: Bounds{MaxDepth: DefaultMaxDepth, MaxSize: DefaultMaxSize, MaxRepeat: DefaultMaxRepeat},
		k:      DefaultSeedK,

		constraintSeeds: DefaultConstraintSeeds,
		repairBudget:    DefaultRepairBudget,
	}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// validate reports an error in the options that the harness alone uses.
func (c *config) validate() error {
	if p := c.invalidShare; math.IsNaN(p) || p < 0 || p > 1 {
		return fmt.Errorf("fuzzharness: WithInvalidShare(%v): the share must be between 0 and 1", p)
	}
	return nil
}

// boundsFor returns the bounds for gr: the options' bounds, with the
// defaults of MaxDepth and MaxSize raised where gr's smallest tree needs
// more.
func (c *config) boundsFor(gr *grammar.Graph) Bounds {
	b := c.bounds
	if gr == nil {
		return b
	}
	if !c.depthSet {
		b.MaxDepth = max(b.MaxDepth, gr.Root.MinDepth+8)
	}
	if !c.sizeSet {
		b.MaxSize = max(b.MaxSize, 4*gr.Root.MinSize)
	}
	return b
}

// WithMaxDepth sets Bounds.MaxDepth, the most nested nonterminal expansions
// of a tree (default DefaultMaxDepth, or more for a grammar whose smallest
// tree is deep).
func WithMaxDepth(d int) Option {
	return func(c *config) { c.bounds.MaxDepth, c.depthSet = d, true }
}

// WithMaxSize sets Bounds.MaxSize, the most nodes of a tree (default
// DefaultMaxSize, or more for a grammar whose smallest tree is large).
func WithMaxSize(n int) Option {
	return func(c *config) { c.bounds.MaxSize, c.sizeSet = n, true }
}

// WithMaxRepeat sets Bounds.MaxRepeat, how many repetitions beyond its
// minimum a quantifier may derive (default DefaultMaxRepeat). Raise it when
// example inputs repeat more often, for example long strings.
func WithMaxRepeat(n int) Option { return func(c *config) { c.bounds.MaxRepeat = n } }

// WithMaxEdits sets Bounds.MaxEdits, the most byte edits that the bytes after
// a tree's decisions make to its text (default 0: none). A small number,
// such as 2, lets the fuzzer reach a parser's syntax-error handling while
// most inputs stay in the language: a random tail edits nothing with
// probability 1/(n+1). The target sees edited inputs like others; it can
// tell them by Input.Edited. Validity predicates and constraints judge the
// tree; the edits apply afterwards, to the repaired text if the constraint
// repaired it.
func WithMaxEdits(n int) Option { return func(c *config) { c.bounds.MaxEdits = n } }

// WithBounds sets all the bounds at once.
func WithBounds(b Bounds) Option {
	return func(c *config) { c.bounds, c.depthSet, c.sizeSet = b, true, true }
}

// WithKPathSeeds makes the harness seed the fuzzer with a k-path covering
// forest (TRIBBLE's Algorithm 1): a set of trees that together contain every
// k-path of the grammar. The default k is DefaultSeedK; k = 0 adds no such seeds.
func WithKPathSeeds(k int) Option { return func(c *config) { c.k = k } }

// WithExamples adds example inputs as seeds. Each is parsed with the grammar;
// an example outside the language, or whose tree exceeds the bounds, is an
// error that names it.
func WithExamples(inputs ...string) Option {
	return func(c *config) { c.examples = append(c.examples, inputs...) }
}

// WithSeedTrees adds derivation trees as seeds, for example trees made by a
// constraint solver. They must be complete trees of the harness's graph
// within the bounds.
func WithSeedTrees(trees ...*grammar.Tree) Option {
	return func(c *config) { c.trees = append(c.trees, trees...) }
}

// WithValidity sets a predicate that every decoded input must satisfy before
// the target runs; inputs it rejects are skipped and counted (see
// Harness.Stats). A constraint checker such as an ISLa validator plugs in
// here. The predicate must not modify the tree.
func WithValidity(valid func(*grammar.Tree) bool) Option {
	return func(c *config) { c.valid = valid }
}
