package islearn

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/learn/oracle"
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
	// Pattern is the name of the catalog pattern it instantiates; the
	// names of a disjunction's parts are joined by "|", those of a
	// conjunction's by "+".
	Pattern string
	// Recall is the share of positive samples the constraint accepts.
	Recall float64
	// Specificity is the share of negative samples it rejects, or -1 if
	// no negative samples were given.
	Specificity float64
	// Rejection is the share of random grammar inputs (see Generated) it
	// rejects: a stand-in for specificity that ranks candidates without
	// negative samples; -1 if no inputs were generated.
	Rejection float64

	accepts []bool // by positive sample
	rejects []bool // by negative sample
	genRej  []bool // by generated input
}

type config struct {
	catalog        []*Pattern
	minRecall      float64
	minSpecificity float64
	maxDisjunction int
	maxDisjuncts   int
	seed           uint64
	generated      int
	maxCandidates  int
	preds          []isla.Predicate
	oracle         oracle.Oracle
	oracleInputs   int
	mutations      int
	solverInputs   *isla.Spec
	solverN        int
}

// An Option configures Learn.
type Option func(*config)

// WithCatalog makes Learn instantiate the given patterns instead of the
// default catalog.
func WithCatalog(ps []*Pattern) Option { return func(c *config) { c.catalog = ps } }

// MinRecall sets the least recall a candidate needs (default 1: it must
// accept every positive sample).
func MinRecall(r float64) Option { return func(c *config) { c.minRecall = r } }

// MinSpecificity drops the candidates whose specificity is below s when
// negative samples are given (default 0: none is dropped).
func MinSpecificity(s float64) Option { return func(c *config) { c.minSpecificity = s } }

// MaxDisjunction sets the most candidates a disjunction combines (default
// 1: no disjunctions). A disjunction of instances that each accept only
// some positive samples, such as "the graph is a digraph" or "every edge
// is undirected", is kept when it reaches MinRecall and accepts more
// positive samples than each of its parts.
func MaxDisjunction(n int) Option { return func(c *config) { c.maxDisjunction = n } }

// DefaultMaxDisjuncts bounds the instances below MinRecall that Learn
// combines into disjunctions: those of the highest sum of recall and
// specificity.
const DefaultMaxDisjuncts = 4000

// Seed sets the seed of the grammar inputs Learn generates and mutates
// (default 1).
func Seed(s uint64) Option { return func(c *config) { c.seed = s } }

// Generated sets how many grammar inputs Learn generates to rank
// candidates by Rejection (default DefaultGenerated; 0 turns it off).
func Generated(n int) Option { return func(c *config) { c.generated = n } }

// MaxCandidates bounds the number of pattern instances Learn checks
// (default DefaultMaxCandidates); Learn fails when a catalog has more.
func MaxCandidates(n int) Option { return func(c *config) { c.maxCandidates = n } }

// WithPredicates makes semantic predicates, such as InternetChecksum,
// available to the catalog's patterns. A pattern that calls a predicate
// that is not given has no instances.
func WithPredicates(ps ...isla.Predicate) Option {
	return func(c *config) { c.preds = append(c.preds, ps...) }
}

// DefaultOracleInputs is the default number of random grammar inputs that
// kfuzz mine isla's -oracle labels (its -oracle-inputs flag).
const DefaultOracleInputs = 200

// WithOracle makes Learn label inputs by asking the program (any
// oracle.Oracle: a Go function, a command, a fuzz target): n random
// grammar inputs, the Mutations of the positive samples and the
// SolverInputs; those it rejects become negative samples, those it accepts
// positive ones.
func WithOracle(o oracle.Oracle, n int) Option {
	return func(c *config) { c.oracle, c.oracleInputs = o, n }
}

// Mutations sets how many mutants of the positive samples Learn makes for
// the oracle of WithOracle (default 0): each replaces one subtree of a
// sample's derivation by a random one of the same nonterminal, chosen
// among the nonterminals of the sample with equal chances each (so that
// rare nonterminals are mutated as often as frequent ones). The mutation
// is k-path-aware: of four such mutants, the one with the most 3-paths
// that neither the samples nor the earlier mutants have is kept.
func Mutations(n int) Option { return func(c *config) { c.mutations = n } }

// SolverInputs adds n inputs that the solver produces for spec (compiled
// against the same grammar) to the inputs the oracle of WithOracle labels:
// inputs of a known constraint, say one mined before, that the generator
// rarely makes.
func SolverInputs(spec *isla.Spec, n int) Option {
	return func(c *config) { c.solverInputs, c.solverN = spec, n }
}

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
// by recall, then by rejection of generated inputs, then by simplicity
// (shorter formula first), then by text. With MaxDisjunction above 1,
// disjunctions of instances below MinRecall join them (see
// MaxDisjunction). When negative samples are given and no candidate
// rejects them all, the conjunction of candidates that rejects the most
// (greedily chosen, pattern names joined by "+") comes first. With
// WithOracle, the program labels generated and mutated inputs, which join
// the samples. The result is deterministic for a given seed (and an oracle
// that is).
//
// Every sample must be in the grammar's language.
func Learn(ctx context.Context, g *grammar.Grammar, positive, negative [][]byte, opts ...Option) ([]Candidate, error) {
	cfg := config{minRecall: 1, seed: 1, generated: DefaultGenerated, maxCandidates: DefaultMaxCandidates,
		maxDisjunction: 1, maxDisjuncts: DefaultMaxDisjuncts}
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
	if cfg.oracle != nil {
		morePos, moreNeg, err := augment(ctx, &cfg, gr, p, pos)
		if err != nil {
			return nil, err
		}
		pos = append(pos, morePos...)
		neg = append(neg, moreNeg...)
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
	copts := []isla.Option{isla.WithPredicates(cfg.preds...)}
	disj := cfg.maxDisjunction > 1

	var cands, parts []Candidate
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
			spec, err := isla.Compile(c, gr, copts...)
			if err != nil {
				continue
			}
			allowed := len(pos) - int(math.Ceil(cfg.minRecall*float64(len(pos))-1e-9))
			if disj {
				allowed = len(pos) - 1 // a part of a disjunction accepts some positive sample
			}
			acc := make([]bool, len(pos))
			fail := 0
			for i := range pos {
				if acc[i] = holds(spec, &pos[i]); !acc[i] {
					if fail++; fail > allowed {
						break
					}
				}
			}
			if fail > allowed || vacuous(c, gr, pos, copts) {
				continue
			}
			cand := Candidate{Formula: text, Pattern: pat.Name, Recall: share(acc), Specificity: -1, Rejection: -1, accepts: acc}
			if len(neg) > 0 {
				cand.rejects = rejections(spec, neg)
				cand.Specificity = share(cand.rejects)
			}
			if len(gen) > 0 {
				cand.genRej = rejections(spec, gen)
				cand.Rejection = share(cand.genRej)
			}
			if cand.Recall >= cfg.minRecall-1e-9 {
				cands = append(cands, cand)
			} else {
				parts = append(parts, cand)
			}
		}
	}
	if disj {
		cands = append(cands, disjoin(&cfg, parts)...)
	}
	if len(neg) > 0 && cfg.minSpecificity > 0 {
		cands = slices.DeleteFunc(cands, func(c Candidate) bool { return c.Specificity < cfg.minSpecificity-1e-9 })
	}
	rank(cands)
	if c, ok := conjoin(cands, cfg.minRecall); ok {
		cands = append([]Candidate{c}, cands...)
	}
	return cands, nil
}

// rank sorts candidates by specificity, recall, rejection of generated
// inputs, length and text.
func rank(cands []Candidate) {
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
}

func share(v []bool) float64 { return float64(count(v)) / float64(len(v)) }

func rejections(spec *isla.Spec, ss []sample) []bool {
	out := make([]bool, len(ss))
	for i := range ss {
		out[i] = !holds(spec, &ss[i])
	}
	return out
}

// disjoin combines the parts (candidates below MinRecall) into
// disjunctions of up to MaxDisjunction of them, as ISLearn does: a
// disjunction is kept when it reaches MinRecall and every part adds
// positive samples that the others do not accept. Only the
// DefaultMaxDisjuncts parts of the highest sum of recall and specificity
// (or rejection of generated inputs, without negative samples) take part.
func disjoin(cfg *config, parts []Candidate) []Candidate {
	rank(parts)
	score := func(c Candidate) float64 { return c.Recall + max(c.Specificity, c.Rejection, 0) }
	sort.SliceStable(parts, func(i, j int) bool { return score(parts[i]) > score(parts[j]) })
	if len(parts) > cfg.maxDisjuncts {
		parts = parts[:cfg.maxDisjuncts]
	}
	if len(parts) == 0 {
		return nil
	}
	n := len(parts[0].accepts)
	need := int(math.Ceil(cfg.minRecall*float64(n) - 1e-9))
	bits := make([]bitset, len(parts))
	for i, p := range parts {
		bits[i] = newBitset(p.accepts)
	}
	var out []Candidate
	var rec func(start int, idx []int, cur bitset, curN int)
	rec = func(start int, idx []int, cur bitset, curN int) {
		for i := start; i < len(parts); i++ {
			u := cur.or(bits[i])
			un := u.count()
			if un <= curN || un <= bits[i].count() {
				continue // p adds nothing, or the others add nothing to p
			}
			next := append(idx[:len(idx):len(idx)], i)
			if un >= need {
				out = append(out, disjunction(parts, next))
			} else if len(next) < cfg.maxDisjunction {
				rec(i+1, next, u, un)
			}
		}
	}
	for i := range parts {
		rec(i+1, []int{i}, bits[i], bits[i].count())
	}
	return out
}

// disjunction returns the disjunction of the parts at idx.
func disjunction(parts []Candidate, idx []int) Candidate {
	d := parts[idx[0]]
	var f, pat []string
	for k, i := range idx {
		p := parts[i]
		f = append(f, "("+p.Formula+")")
		pat = append(pat, p.Pattern)
		if k > 0 {
			d.accepts = or(d.accepts, p.accepts)
			d.rejects = and(d.rejects, p.rejects)
			d.genRej = and(d.genRej, p.genRej)
		}
	}
	d.Formula = "(" + strings.Join(f, " or\n") + ")"
	d.Pattern = strings.Join(pat, "|")
	d.Recall = share(d.accepts)
	d.Specificity, d.Rejection = -1, -1
	if d.rejects != nil {
		d.Specificity = share(d.rejects)
	}
	if d.genRej != nil {
		d.Rejection = share(d.genRej)
	}
	return d
}

// A bitset is a set of sample indices.
type bitset []uint64

func newBitset(v []bool) bitset {
	b := make(bitset, (len(v)+63)/64)
	for i, x := range v {
		if x {
			b[i/64] |= 1 << (i % 64)
		}
	}
	return b
}

func (b bitset) or(c bitset) bitset {
	out := make(bitset, len(b))
	for i := range b {
		out[i] = b[i] | c[i]
	}
	return out
}

func (b bitset) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

func or(a, b []bool) []bool {
	if a == nil || b == nil {
		return nil
	}
	out := make([]bool, len(a))
	for i := range a {
		out[i] = a[i] || b[i]
	}
	return out
}

func and(a, b []bool) []bool {
	if a == nil || b == nil {
		return nil
	}
	out := make([]bool, len(a))
	for i := range a {
		out[i] = a[i] && b[i]
	}
	return out
}

// maxConjoined bounds the candidates whose pairs conjoin tries: the most
// specific ones.
const maxConjoined = 200

// conjoin combines candidates when no single one rejects every negative
// sample. It starts from the best candidate, or from the pair of
// candidates (among the maxConjoined best) whose conjunction rejects the
// most negatives, whichever rejects more, and adds the candidate that
// rejects the most negatives not rejected yet while the conjunction keeps
// a recall of at least minRecall, until all negatives are rejected or no
// candidate adds any. It reports false if it would not beat the best
// candidate.
func conjoin(cands []Candidate, minRecall float64) (Candidate, bool) {
	if len(cands) == 0 || cands[0].rejects == nil || cands[0].Specificity == 1 {
		return Candidate{}, false
	}
	parts := []int{0}
	covered, acc := cands[0].rejects, cands[0].accepts
	best := count(covered)
	top := cands[:min(len(cands), maxConjoined)]
	for i := range top {
		for j := i + 1; j < len(top); j++ {
			a := and(top[i].accepts, top[j].accepts)
			if share(a) < minRecall-1e-9 {
				continue
			}
			c := or(top[i].rejects, top[j].rejects)
			if n := count(c); n > best {
				best, parts, covered, acc = n, []int{i, j}, c, a
			}
		}
	}
	for {
		next, gain := -1, 0
		for i, c := range cands {
			if share(and(acc, c.accepts)) < minRecall-1e-9 {
				continue
			}
			g := 0
			for j, r := range c.rejects {
				if r && !covered[j] {
					g++
				}
			}
			if g > gain {
				next, gain = i, g
			}
		}
		if next < 0 {
			break
		}
		parts = append(parts, next)
		covered = or(covered, cands[next].rejects)
		acc = and(acc, cands[next].accepts)
	}
	if len(parts) == 1 {
		return Candidate{}, false
	}
	var f, pat []string
	gen := cands[parts[0]].genRej
	for _, i := range parts {
		p := cands[i]
		f = append(f, "("+p.Formula+")")
		pat = append(pat, p.Pattern)
		gen = or(gen, p.genRej)
	}
	c := Candidate{
		Formula:     strings.Join(f, "\nand\n"),
		Pattern:     strings.Join(pat, "+"),
		Recall:      share(acc),
		Specificity: share(covered),
		Rejection:   -1,
		accepts:     acc,
		rejects:     covered,
		genRej:      gen,
	}
	if gen != nil {
		c.Rejection = share(gen)
	}
	return c, true
}

func count(v []bool) int {
	n := 0
	for _, b := range v {
		if b {
			n++
		}
	}
	return n
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

// vacuous reports whether a universal constraint has no instance in any
// positive sample: the constraint with the innermost body of its leading
// universal quantifiers (and the conclusions of their implications)
// replaced by false holds on all of them.
func vacuous(c *isla.Constraint, gr *grammar.Graph, pos []sample, opts []isla.Option) bool {
	f, ok := falsify(c.Formula)
	if !ok {
		return false
	}
	vc := *c
	vc.Formula = f
	spec, err := isla.Compile(&vc, gr, opts...)
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
	isText := func(n string) bool { return IsString(n) || IsStrings(n) }
	sort.SliceStable(names, func(i, j int) bool { return !isText(names[i]) && isText(names[j]) })
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
			case "sharestext":
				if !sharesText(fs, a, b) {
					return false
				}
			}
		}
		return true
	}
	var rec func(i int) error
	rec = func(i int) error {
		if i == len(names) {
			text := stringsRE.ReplaceAllStringFunc(p.Formula, func(m string) string {
				v := stringsRE.FindStringSubmatch(m)[1]
				var alts []string
				for _, s := range strings.Split(val["strings"], "\x00") {
					if s != "" {
						alts = append(alts, v+" = \""+escape(s)+"\"")
					}
				}
				if len(alts) == 0 {
					return "false"
				}
				return "(" + strings.Join(alts, " or ") + ")"
			})
			text = placeholderRE.ReplaceAllStringFunc(text, func(m string) string {
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
		if IsStrings(n) {
			domain = nil
			if set, ok := textSet(p, fs, val); ok {
				domain = []string{set}
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

// sharesText reports whether some text of an <a> in the positive samples
// is also the text of a <b>.
func sharesText(fs *facts, a, b string) bool {
	for s := range fs.count[a] {
		if fs.count[b][s] > 0 {
			return true
		}
	}
	return false
}

// maxTextSet bounds the texts of a {strings} placeholder: a set of more
// is no set of predefined names but the samples' texts.
const maxTextSet = 16

// textSet returns the value of the {strings} placeholder: the texts of the
// nonterminals of its textsof relations in the positive samples that are
// tokens (no white space), without those of its notextof relations,
// sorted and joined by NUL bytes. It reports false if there are more than
// maxTextSet of them.
func textSet(p *Pattern, fs *facts, val map[string]string) (string, bool) {
	set := map[string]bool{}
	for _, r := range p.Where {
		if r.Op == "textsof" {
			for s := range fs.count[val[r.B]] {
				if !strings.ContainsAny(s, " \t\r\n") {
					set[s] = true
				}
			}
		}
	}
	for _, r := range p.Where {
		if r.Op == "notextof" {
			for s := range fs.count[val[r.B]] {
				delete(set, s)
			}
		}
	}
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	if len(out) > maxTextSet {
		return "", false
	}
	sort.Strings(out)
	return strings.Join(out, "\x00"), true
}

// escape writes s as the inside of an ISLa string literal.
func escape(s string) string {
	q := strconv.Quote(s)
	return strings.TrimSuffix(strings.TrimPrefix(q, `"`), `"`)
}
