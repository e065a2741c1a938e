package islearn

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// DefaultMaxCandidates bounds the number of pattern instances Learn checks.
const DefaultMaxCandidates = 20000

// DefaultGenerated is the number of grammar inputs Learn generates to rank
// candidates when no negative samples are given.
const DefaultGenerated = 200

// maxStringLen and maxStrings bound the texts a {string} placeholder takes
// per nonterminal: the most frequent ones, short and printable.
const (
	maxStringLen = 32
	maxStrings   = 8
)

// A Candidate is a mined constraint.
type Candidate struct {
	// Formula is the ISLa constraint (simplified syntax), ready for
	// isla.Parse.
	Formula string
	// Pattern is the name of the catalog pattern it instantiates.
	Pattern string
	// Recall is the share of positive samples the constraint accepts.
	Recall float64
	// Specificity is the share of negative samples it rejects, or -1 if
	// no negative samples were given.
	Specificity float64
	// Rejection is the share of random grammar inputs (see Generated) it
	// rejects: a stand-in for specificity that ranks candidates without
	// negative samples; -1 for a conjunction, which is not measured.
	Rejection float64

	rejects []bool // by negative sample
}

type config struct {
	catalog       []*Pattern
	minRecall     float64
	seed          uint64
	generated     int
	maxCandidates int
}

// An Option configures Learn.
type Option func(*config)

// WithCatalog makes Learn instantiate the given patterns instead of the
// default catalog.
func WithCatalog(ps []*Pattern) Option { return func(c *config) { c.catalog = ps } }

// MinRecall sets the least recall a candidate needs (default 1: it must
// accept every positive sample).
func MinRecall(r float64) Option { return func(c *config) { c.minRecall = r } }

// Seed sets the seed of the grammar inputs Learn generates (default 1).
func Seed(s uint64) Option { return func(c *config) { c.seed = s } }

// Generated sets how many grammar inputs Learn generates to rank
// candidates by Rejection (default DefaultGenerated; 0 turns it off).
func Generated(n int) Option { return func(c *config) { c.generated = n } }

// MaxCandidates bounds the number of pattern instances Learn checks
// (default DefaultMaxCandidates); Learn fails when a catalog has more.
func MaxCandidates(n int) Option { return func(c *config) { c.maxCandidates = n } }

// sample is one input with its derivation trees and their views, built
// once for the labels and root of the specs it is checked against.
type sample struct {
	input []byte
	trees []*grammar.Tree
	views []*isla.View
	key   viewKey
}

// viewKey says what a view was built for.
type viewKey struct {
	labels  *isla.Labels
	root    string
	virtual bool
}

// facts are what the positive samples show about the nonterminals.
type facts struct {
	present []string            // nonterminals occurring, sorted
	child   map[[2]string]bool  // {a, b}: an <a> is a direct child of a <b>
	in      map[[2]string]bool  // {a, b}: an <a> is strictly below a <b>
	texts   map[string][]string // the most frequent texts per nonterminal
	count   map[string]map[string]int
}

// Learn mines ISLa constraints for grammar g from positive (valid) and
// negative (invalid) samples: it instantiates the catalog's patterns with
// the nonterminals and texts that occur in the positive samples, in the
// relations the patterns ask for, keeps the instances whose recall reaches
// MinRecall and that are not vacuous (a universal pattern must have an
// instance in some positive sample), and ranks them by specificity, then
// by rejection of generated inputs, then by simplicity (shorter formula
// first), then by text. When negative samples are given and no candidate
// of recall 1 rejects them all, the conjunction of candidates of recall 1
// that rejects the most (greedily chosen, pattern names joined by "+")
// comes first. The result is deterministic for a given seed.
//
// Every sample must be in the grammar's language.
func Learn(ctx context.Context, g *grammar.Grammar, positive, negative [][]byte, opts ...Option) ([]Candidate, error) {
	cfg := config{minRecall: 1, seed: 1, generated: DefaultGenerated, maxCandidates: DefaultMaxCandidates}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.catalog == nil {
		cfg.catalog = DefaultCatalog()
	}
	if len(positive) == 0 {
		return nil, fmt.Errorf("islearn: no positive samples")
	}
	gr, err := grammar.Compile(g)
	if err != nil {
		return nil, err
	}
	p, err := grammar.NewParser(gr)
	if err != nil {
		return nil, err
	}
	parse := func(kind string, in [][]byte) ([]sample, error) {
		out := make([]sample, len(in))
		for i, b := range in {
			f, err := p.Parse(b)
			if err != nil {
				return nil, fmt.Errorf("%s sample %d: %w", kind, i+1, err)
			}
			out[i] = sample{input: b, trees: f.Trees(isla.DefaultMaxDerivations)}
		}
		return out, nil
	}
	pos, err := parse("positive", positive)
	if err != nil {
		return nil, err
	}
	neg, err := parse("negative", negative)
	if err != nil {
		return nil, err
	}
	var gen []sample
	if cfg.generated > 0 {
		gn := grammar.NewGenerator(gr, cfg.seed)
		for range cfg.generated {
			t, err := gn.Generate()
			if err != nil {
				continue
			}
			if f, err := p.Parse(t.Bytes()); err == nil {
				gen = append(gen, sample{input: t.Bytes(), trees: f.Trees(isla.DefaultMaxDerivations)})
			}
		}
	}
	fs := collect(g.Start, pos)

	var cands []Candidate
	seen := map[string]bool{}
	checked := 0
	for _, pat := range cfg.catalog {
		var insts []string
		err := instantiate(pat, fs, func(text string) error {
			if checked++; checked > cfg.maxCandidates {
				return fmt.Errorf("islearn: more than %d pattern instances (raise the limit with -max-candidates)", cfg.maxCandidates)
			}
			insts = append(insts, text)
			return nil
		})
		if err != nil {
			return nil, err
		}
		for _, text := range insts {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			c, err := isla.Parse(pat.Name, []byte(text))
			if err != nil {
				continue // an instance the translation rejects, such as an XPath step that is no child
			}
			key := c.String()
			if seen[key] {
				continue
			}
			seen[key] = true
			spec, err := isla.Compile(c, gr)
			if err != nil {
				continue
			}
			allowed := len(pos) - int(math.Ceil(cfg.minRecall*float64(len(pos))-1e-9))
			acc, fail := 0, 0
			for i := range pos {
				if holds(spec, &pos[i]) {
					acc++
				} else if fail++; fail > allowed {
					break
				}
			}
			if fail > allowed {
				continue
			}
			if vacuous(c, gr, pos) {
				continue
			}
			cand := Candidate{Formula: text, Pattern: pat.Name, Recall: float64(acc) / float64(len(pos)), Specificity: -1}
			if len(neg) > 0 {
				cand.rejects = make([]bool, len(neg))
				n := 0
				for i := range neg {
					if !holds(spec, &neg[i]) {
						cand.rejects[i] = true
						n++
					}
				}
				cand.Specificity = float64(n) / float64(len(neg))
			}
			if len(gen) > 0 {
				cand.Rejection = rejected(spec, gen)
			}
			cands = append(cands, cand)
		}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		switch {
		case a.Specificity != b.Specificity:
			return a.Specificity > b.Specificity
		case a.Recall != b.Recall:
			return a.Recall > b.Recall
		case a.Rejection != b.Rejection:
			return a.Rejection > b.Rejection
		case len(a.Formula) != len(b.Formula):
			return len(a.Formula) < len(b.Formula)
		}
		return a.Formula < b.Formula
	})
	if c, ok := conjoin(cands); ok {
		cands = append([]Candidate{c}, cands...)
	}
	return cands, nil
}

// conjoin combines candidates of recall 1 when no single one rejects every
// negative sample: starting from the best, it adds the candidate that
// rejects the most negatives not rejected yet, until all are or none adds
// any. The conjunction has recall 1 too. It reports false if it would not
// beat the best candidate.
func conjoin(cands []Candidate) (Candidate, bool) {
	if len(cands) == 0 || cands[0].rejects == nil || cands[0].Recall != 1 || cands[0].Specificity == 1 {
		return Candidate{}, false
	}
	covered := slices.Clone(cands[0].rejects)
	parts := []Candidate{cands[0]}
	for {
		best, gain := -1, 0
		for i, c := range cands {
			if c.Recall != 1 {
				continue
			}
			g := 0
			for j, r := range c.rejects {
				if r && !covered[j] {
					g++
				}
			}
			if g > gain {
				best, gain = i, g
			}
		}
		if best < 0 {
			break
		}
		parts = append(parts, cands[best])
		for j, r := range cands[best].rejects {
			covered[j] = covered[j] || r
		}
	}
	if len(parts) == 1 {
		return Candidate{}, false
	}
	var f, pat []string
	n := 0
	for _, p := range parts {
		f = append(f, "("+p.Formula+")")
		pat = append(pat, p.Pattern)
	}
	for _, c := range covered {
		if c {
			n++
		}
	}
	return Candidate{
		Formula:     strings.Join(f, "\nand\n"),
		Pattern:     strings.Join(pat, "+"),
		Recall:      1,
		Specificity: float64(n) / float64(len(covered)),
		Rejection:   -1,
		rejects:     covered,
	}, true
}

// holds reports whether some derivation of the sample satisfies spec. It
// builds the views of the sample's trees once for all specs of the same
// labels and root (all specs compiled against one graph share them).
func holds(spec *isla.Spec, s *sample) bool {
	k := viewKey{spec.Labels(), spec.RootLabel(), spec.VirtualRoot()}
	if s.views == nil || !sameKey(s.key, k) {
		s.key = k
		s.views = s.views[:0]
		for _, t := range s.trees {
			s.views = append(s.views, isla.NewView(s.input, t, k.labels, k.root, k.virtual))
		}
	}
	for _, v := range s.views {
		if isla.NewEvaluator(spec, v).Eval(spec.Formula()) {
			return true
		}
	}
	return false
}

func sameKey(a, b viewKey) bool {
	return a.root == b.root && a.virtual == b.virtual &&
		(a.labels == b.labels || slices.Equal(a.labels.Names, b.labels.Names))
}

func rejected(spec *isla.Spec, ss []sample) float64 {
	n := 0
	for i := range ss {
		if !holds(spec, &ss[i]) {
			n++
		}
	}
	return float64(n) / float64(len(ss))
}

// vacuous reports whether a universal constraint has no instance in any
// positive sample: the constraint with the innermost body of its leading
// universal quantifiers (and the conclusions of their implications)
// replaced by false holds on all of them.
func vacuous(c *isla.Constraint, gr *grammar.Graph, pos []sample) bool {
	f, ok := falsify(c.Formula)
	if !ok {
		return false
	}
	vc := *c
	vc.Formula = f
	spec, err := isla.Compile(&vc, gr)
	if err != nil {
		return false
	}
	for i := range pos {
		if !holds(spec, &pos[i]) {
			return false
		}
	}
	return true
}

func falsify(f isla.Formula) (isla.Formula, bool) {
	switch f := f.(type) {
	case *isla.Quantifier:
		if f.Exists {
			return &isla.SMT{Term: &isla.BoolLit{Value: false, P: f.P}}, true
		}
		body, _ := falsify(f.Body)
		q := *f
		q.Body = body
		return &q, true
	case *isla.Binary:
		if f.Op == isla.Implies {
			y, _ := falsify(f.Y)
			b := *f
			b.Y = y
			return &b, true
		}
	}
	return &isla.SMT{Term: &isla.BoolLit{Value: false}}, false
}

// collect gathers the facts of the positive samples' first derivations.
func collect(start string, pos []sample) *facts {
	fs := &facts{child: map[[2]string]bool{}, in: map[[2]string]bool{}, texts: map[string][]string{}, count: map[string]map[string]int{}}
	present := map[string]bool{start: true}
	var stack []string
	var walk func(t *grammar.Tree)
	walk = func(t *grammar.Tree) {
		pushed := false
		if t.Node.Kind == grammar.KindRef {
			nt := t.Node.Name
			present[nt] = true
			if len(stack) > 0 {
				fs.child[[2]string{nt, stack[len(stack)-1]}] = true
			}
			for _, a := range stack {
				fs.in[[2]string{nt, a}] = true
			}
			if s := t.String(); len(s) <= maxStringLen && printable(s) {
				if fs.count[nt] == nil {
					fs.count[nt] = map[string]int{}
				}
				fs.count[nt][s]++
			}
			stack = append(stack, nt)
			pushed = true
		}
		for _, k := range t.Children {
			walk(k)
		}
		if pushed {
			stack = stack[:len(stack)-1]
		}
	}
	for _, s := range pos {
		if len(s.trees) == 0 {
			continue
		}
		stack = append(stack[:0], start)
		walk(s.trees[0])
	}
	for nt := range present {
		fs.present = append(fs.present, nt)
	}
	sort.Strings(fs.present)
	for nt, m := range fs.count {
		var ts []string
		for s := range m {
			ts = append(ts, s)
		}
		sort.Slice(ts, func(i, j int) bool {
			if m[ts[i]] != m[ts[j]] {
				return m[ts[i]] > m[ts[j]]
			}
			return ts[i] < ts[j]
		})
		if len(ts) > maxStrings {
			ts = ts[:maxStrings]
		}
		fs.texts[nt] = ts
	}
	return fs
}

func printable(s string) bool {
	for _, r := range s {
		if r < ' ' || r > '~' {
			return false
		}
	}
	return s != ""
}

// instantiate calls emit with every instance of the pattern whose
// placeholder values satisfy its relations, in a deterministic order.
func instantiate(p *Pattern, fs *facts, emit func(string) error) error {
	// Nonterminal placeholders first: strings take the texts of them.
	names := append([]string(nil), p.Placeholders...)
	sort.SliceStable(names, func(i, j int) bool { return !IsString(names[i]) && IsString(names[j]) })
	val := map[string]string{}
	ok := func() bool {
		for _, r := range p.Where {
			a, okA := val[r.A]
			b, okB := val[r.B]
			if !okA || !okB {
				continue
			}
			switch r.Op {
			case "child":
				if !fs.child[[2]string{a, b}] {
					return false
				}
			case "in":
				if !fs.in[[2]string{a, b}] {
					return false
				}
			case "!=":
				if a == b {
					return false
				}
			case "<":
				if a >= b {
					return false
				}
			}
		}
		return true
	}
	var rec func(i int) error
	rec = func(i int) error {
		if i == len(names) {
			text := placeholderRE.ReplaceAllStringFunc(p.Formula, func(m string) string {
				n := m[1 : len(m)-1]
				if IsString(n) {
					return escape(val[n])
				}
				return val[n]
			})
			return emit(text)
		}
		n := names[i]
		domain := fs.present
		if IsString(n) {
			domain = nil
			for _, r := range p.Where {
				if r.Op == "textof" && r.A == n {
					domain = fs.texts[val[r.B]]
					break
				}
			}
		}
		for _, v := range domain {
			val[n] = v
			if ok() {
				if err := rec(i + 1); err != nil {
					return err
				}
			}
		}
		delete(val, n)
		return nil
	}
	return rec(0)
}

// escape writes s as the inside of an ISLa string literal.
func escape(s string) string {
	q := strconv.Quote(s)
	return strings.TrimSuffix(strings.TrimPrefix(q, `"`), `"`)
}
