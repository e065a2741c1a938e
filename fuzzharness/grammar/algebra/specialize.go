package algebra

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// An Algebra specializes one base grammar by patterns. Create one with New;
// it is safe for concurrent use.
type Algebra struct {
	b *base
}

// New returns an algebra over the base grammar g, which must pass
// grammar.Check. Patterns and specialized grammars refer to g's
// nonterminals. As in the paper, the base grammar should be unambiguous:
// on an ambiguous grammar an input belongs to a specialized grammar if one
// of its derivation trees satisfies the expression.
func New(g *grammar.Grammar) (*Algebra, error) {
	b, err := newBase(g)
	if err != nil {
		return nil, err
	}
	return &Algebra{b: b}, nil
}

// Grammar returns the base grammar.
func (a *Algebra) Grammar() *grammar.Grammar { return a.b.g }

// DefaultMaxRules is the default bound on the number of specialized
// nonterminals one specialization may build (Options.MaxRules).
const DefaultMaxRules = 5000

// Options configure Specialize.
type Options struct {
	// MaxRules bounds the specialized nonterminals built, and the
	// alternatives of any one of them; past it Specialize fails (the -max-rules
	// flag of kfuzz specialize). Zero means DefaultMaxRules.
	MaxRules int
	// NoSharing turns off hash-consing: identical pattern subtrees of
	// different patterns then get separate nonterminals, and specialized
	// nonterminals with identical definitions are not merged. Only for
	// measuring what sharing saves.
	NoSharing bool
}

// A Result is a specialized grammar with its size.
type Result struct {
	// Grammar is the specialized grammar: a plain grammar in kfuzz's
	// notation whose language is the inputs of the base grammar on which
	// the expression holds. Its start symbol is the base start symbol
	// specialized by the expression in disjunctive normal form, such as
	// <JSON-text:+E&-N>. It is usually ambiguous: parse with the Earley
	// parser.
	Grammar *grammar.Grammar
	// Rules and Symbols are the size of Grammar (see Size); BaseRules and
	// BaseSymbols that of the base grammar.
	Rules, Symbols         int
	BaseRules, BaseSymbols int
	// Built is the number of specialized nonterminals built before the
	// removal of non-productive and unreachable ones; Merged the number
	// merged into an identical one by sharing.
	Built, Merged int
}

// Size returns the size of a grammar: its number of rules and the number
// of literals, classes and references in their right-hand sides.
func Size(g *grammar.Grammar) (rules, symbols int) {
	var count func(grammar.Expr)
	count = func(e grammar.Expr) {
		switch e := e.(type) {
		case *grammar.Alt:
			for _, x := range e.X {
				count(x)
			}
		case *grammar.Seq:
			for _, x := range e.X {
				count(x)
			}
		case *grammar.Repeat:
			count(e.X)
		default:
			symbols++
		}
	}
	for _, r := range g.Rules {
		count(r.Expr)
	}
	return len(g.Rules), symbols
}

// An UnsatisfiableError reports an expression that no input of the base
// grammar satisfies.
type UnsatisfiableError struct {
	Expr    string   // the expression
	Reasons []string // one per disjunct of its normal form
}

func (e *UnsatisfiableError) Error() string {
	return fmt.Sprintf("algebra: %s is unsatisfiable: %s", e.Expr, strings.Join(e.Reasons, "; and "))
}

// A LimitError reports a specialization that would exceed Options.MaxRules.
type LimitError struct {
	Limit int
	What  string
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("algebra: the specialized grammar needs more than %d %s; raise the limit with -max-rules (Options.MaxRules)", e.Limit, e.What)
}

// Specialize builds the grammar of the inputs of the base grammar on which
// the expression e over the given patterns holds. Every name in e must be
// the name of one of the patterns.
func (a *Algebra) Specialize(patterns []*Pattern, e *Expr, opts *Options) (*Result, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.MaxRules <= 0 {
		o.MaxRules = DefaultMaxRules
	}
	sp, err := a.newRun(patterns, e, o)
	if err != nil {
		return nil, err
	}
	d, err := sp.exprDNF(e, false)
	if err != nil {
		return nil, err
	}
	g, built, err := sp.build(d)
	if err != nil {
		return nil, err
	}
	if g == nil {
		return nil, sp.diagnose(e, d)
	}
	res := &Result{Grammar: g, Built: built}
	if !o.NoSharing {
		res.Merged = mergeIdentical(g, sp.kinds)
	}
	res.Rules, res.Symbols = Size(g)
	res.BaseRules, res.BaseSymbols = Size(a.b.g)
	return res, nil
}

// Atoms: predicates on a subtree.
const (
	atomReach = iota // the subtree contains a node of the pattern's nonterminal that matches the pattern (root q)
	atomMatch        // the subtree matches pattern node q; for a repeat, its repetitions from offset off on match q's
)

type atom struct {
	kind int
	q    int
	off  int
}

// A pnode is an interned pattern tree node: identical subtrees of patterns
// share one (hash-consing), unless Options.NoSharing.
type pnode struct {
	id    int
	pos   *position
	hole  bool
	alt   int
	kids  []int
	value string
}

// A slot is where an atom is evaluated: a nonterminal (ref), or a position
// of a right-hand side (pos), for a repeat at chain index chain: the
// repetitions from the chain-th on.
type slot struct {
	ref   string
	pos   *position
	chain int
}

func (a *Algebra) slotOf(p *position) slot {
	if p.kind == grammar.KindRef {
		return slot{ref: p.name}
	}
	return slot{pos: p}
}

// A def is a specialized nonterminal.
type def struct {
	name string
	s    slot
	d    []conj
	expr grammar.Expr
}

// run is one specialization.
type run struct {
	a         *Algebra
	opts      Options
	pats      map[string]*Pattern
	nodes     []*pnode
	nodeKey   map[string]int
	ptID      map[*ptree]int
	atoms     []atom
	atomKey   map[atom]int
	nodeNm    map[int]string // pattern node -> name such as E3 (first pattern that has it)
	reachOf   map[int]string // reach atom -> pattern name
	patRoot   map[string]int // pattern name -> reach atom
	defs      map[string]*def
	order     []*def
	queue     []*def
	used      map[string]bool   // names taken
	kinds     map[string]string // specialized nonterminal -> its kind (base nonterminal or repetition)
	unifyMemo map[[4]int]bool
}

func (a *Algebra) newRun(patterns []*Pattern, e *Expr, o Options) (*run, error) {
	sp := &run{a: a, opts: o, pats: map[string]*Pattern{}, nodeKey: map[string]int{}, ptID: map[*ptree]int{},
		atomKey: map[atom]int{}, nodeNm: map[int]string{}, reachOf: map[int]string{}, patRoot: map[string]int{},
		defs: map[string]*def{}, used: map[string]bool{}, kinds: map[string]string{}, unifyMemo: map[[4]int]bool{}}
	for n := range a.b.names {
		sp.used[n] = true
	}
	var errs grammar.ErrorList
	for _, p := range patterns {
		if sp.pats[p.Name] != nil {
			return nil, fmt.Errorf("algebra: pattern %s is defined twice", p.Name)
		}
		if p.root == nil || a.b.rhs[p.Nonterminal] != p.root.pos {
			return nil, fmt.Errorf("algebra: pattern %s was not parsed by this algebra", p.Name)
		}
		sp.pats[p.Name] = p
	}
	var check func(*Expr)
	check = func(x *Expr) {
		switch x.op {
		case opName:
			if sp.pats[x.name] == nil {
				errs.Add(grammar.Pos{File: "expr", Line: 1, Col: x.col, Offset: x.col - 1}, "undefined pattern "+x.name)
			}
		case opNot:
			check(x.x)
		default:
			check(x.x)
			check(x.y)
		}
	}
	check(e)
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	// Reach atoms first, in order of use, so that names list patterns in
	// that order.
	for _, n := range e.Names() {
		p := sp.pats[n]
		root := sp.intern(p.root, p.Name)
		id := sp.atomID(atom{kind: atomReach, q: root})
		sp.patRoot[n] = id
		if _, ok := sp.reachOf[id]; !ok {
			sp.reachOf[id] = n
		}
	}
	for _, n := range e.Names() {
		sp.number(sp.pats[n])
	}
	return sp, nil
}

func (sp *run) intern(t *ptree, owner string) int {
	if id, ok := sp.ptID[t]; ok {
		return id
	}
	var kids []int
	for _, k := range t.kids {
		kids = append(kids, sp.intern(k, owner))
	}
	key := fmt.Sprintf("%d|%t|%d|%q|%v", t.pos.id, t.hole, t.alt, t.value, kids)
	if sp.opts.NoSharing {
		key += "|" + owner
	}
	id, ok := sp.nodeKey[key]
	if !ok {
		id = len(sp.nodes)
		sp.nodes = append(sp.nodes, &pnode{id: id, pos: t.pos, hole: t.hole, alt: t.alt, kids: kids, value: t.value})
		sp.nodeKey[key] = id
	}
	sp.ptID[t] = id
	return id
}

// number names the pattern's nodes that can appear in nonterminal names:
// the right-hand sides of its nonterminals (P0 the characteristic node, then
// in pre-order) and its repetitions.
func (sp *run) number(p *Pattern) {
	n := 0
	name := func(t *ptree) {
		id := sp.ptID[t]
		if _, ok := sp.nodeNm[id]; !ok {
			sp.nodeNm[id] = p.Name + strconv.Itoa(n)
		}
		n++
	}
	var walk func(t *ptree, named bool)
	walk = func(t *ptree, named bool) {
		if t.hole {
			return
		}
		if !named && (t.pos.kind == grammar.KindRepeat) {
			name(t)
		}
		if t.pos.kind == grammar.KindRef {
			name(t.kids[0])
			walk(t.kids[0], true)
			return
		}
		for _, k := range t.kids {
			walk(k, false)
		}
	}
	name(p.root)
	walk(p.root, true)
}

func (sp *run) atomID(a atom) int {
	if id, ok := sp.atomKey[a]; ok {
		return id
	}
	id := len(sp.atoms)
	sp.atoms = append(sp.atoms, a)
	sp.atomKey[a] = id
	return id
}

func (sp *run) matchLit(q, off int) literal {
	return posLit(sp.atomID(atom{kind: atomMatch, q: q, off: off}))
}

// childLit returns the literal that pattern node q puts on the slot it
// stands at; trivial if any derivation there matches (a hole or a literal).
func (sp *run) childLit(q int) (l literal, trivial bool) {
	n := sp.nodes[q]
	switch {
	case n.hole, n.pos.kind == grammar.KindLit:
		return 0, true
	case n.pos.kind == grammar.KindRef:
		return sp.childLit(n.kids[0])
	}
	return sp.matchLit(q, 0), false
}

// reaches reports whether a subtree at s can contain a node of nonterminal c.
func (sp *run) reaches(s slot, c string) bool {
	switch {
	case s.ref != "":
		return s.ref == c || sp.a.b.rhs[s.ref].reach[c]
	case s.pos.kind == grammar.KindRepeat:
		return s.pos.canGo(s.chain) && s.pos.kids[0].reach[c]
	}
	return s.pos.reach[c]
}

// productions returns the number of productions at s; slots the slots of
// one (nil and false if it cannot be used).
func (sp *run) productions(s slot) int {
	if s.ref == "" {
		switch s.pos.kind {
		case grammar.KindAlt:
			return len(s.pos.kids)
		case grammar.KindRepeat:
			return 2
		}
	}
	return 1
}

const prodEnd, prodGo = 0, 1 // the productions of a repeat

func (sp *run) slots(s slot, prod int) ([]slot, bool) {
	if s.ref != "" {
		return []slot{sp.a.slotOf(sp.a.b.rhs[s.ref])}, true
	}
	p := s.pos
	switch p.kind {
	case grammar.KindAlt:
		return []slot{sp.a.slotOf(p.kids[prod])}, true
	case grammar.KindSeq:
		var out []slot
		for _, k := range p.kids {
			out = append(out, sp.a.slotOf(k))
		}
		return out, true
	case grammar.KindRepeat:
		if prod == prodEnd {
			return nil, p.canEnd(s.chain)
		}
		if !p.canGo(s.chain) {
			return nil, false
		}
		return []slot{sp.a.slotOf(p.kids[0]), {pos: p, chain: p.chainNext(s.chain)}}, true
	}
	return nil, true
}

// decompose returns the DNF over the production's slots of the conjunction
// c at s, given that s derives by production prod.
func (sp *run) decompose(s slot, prod int, slots []slot, c conj) []row {
	rows := trueRows(len(slots))
	for _, l := range c {
		d := sp.decLit(s, prod, slots, l)
		if len(rows)*len(d) > 4*sp.opts.MaxRules {
			// Too many to absorb: report the limit (alternatives checks).
			return make([]row, sp.opts.MaxRules+1)
		}
		rows = product(rows, d)
		if len(rows) == 0 {
			return nil
		}
	}
	// Drop rows that require one slot to match two pattern trees that
	// cannot both match (different alternatives, texts or counts): they
	// would only build non-productive nonterminals.
	kept := rows[:0]
	for _, r := range rows {
		if sp.consistent(r) {
			kept = append(kept, r)
		}
	}
	return kept
}

// consistent reports whether the positive match literals of every slot of
// r can hold together.
func (sp *run) consistent(r row) bool {
	for _, c := range r {
		for i, l := range c {
			a := sp.atoms[l.atom()]
			if l.negated() || a.kind != atomMatch {
				continue
			}
			for _, m := range c[i+1:] {
				b := sp.atoms[m.atom()]
				if m.negated() || b.kind != atomMatch {
					continue
				}
				if !sp.unifies(a.q, a.off, b.q, b.off) {
					return false
				}
			}
		}
	}
	return true
}

// unifies reports whether some tree matches both pattern nodes p and q
// (repetitions from the given offsets on).
func (sp *run) unifies(p, poff, q, qoff int) bool {
	if p == q && poff == qoff {
		return true
	}
	key := [4]int{p, poff, q, qoff}
	if v, ok := sp.unifyMemo[key]; ok {
		return v
	}
	a, b := sp.nodes[p], sp.nodes[q]
	ok := true
	switch {
	case a.hole || b.hole:
	case a.pos != b.pos || a.alt != b.alt || a.value != b.value:
		ok = false
	case a.pos.kind == grammar.KindRepeat:
		ok = len(a.kids)-poff == len(b.kids)-qoff
		for i := 0; ok && poff+i < len(a.kids); i++ {
			ok = sp.unifies(a.kids[poff+i], 0, b.kids[qoff+i], 0)
		}
	default:
		ok = len(a.kids) == len(b.kids)
		for i := 0; ok && i < len(a.kids); i++ {
			ok = sp.unifies(a.kids[i], 0, b.kids[i], 0)
		}
	}
	sp.unifyMemo[key] = ok
	return ok
}

func boolRows(b bool, slots int) []row {
	if b {
		return trueRows(slots)
	}
	return nil
}

func (sp *run) decLit(s slot, prod int, slots []slot, l literal) []row {
	a := sp.atoms[l.atom()]
	neg := l.negated()
	n := len(slots)
	if a.kind == atomReach {
		root := sp.nodes[a.q]
		c := root.pos.rule
		var lits []slotLit
		if s.ref == c {
			if root.hole {
				return boolRows(!neg, n)
			}
			rl, trivial := sp.childLit(root.id)
			if trivial {
				return boolRows(!neg, n)
			}
			lits = append(lits, slotLit{0, rl})
		}
		for i, sl := range slots {
			if sp.reaches(sl, c) {
				lits = append(lits, slotLit{i, l.atom2lit()})
			}
		}
		if !neg {
			var out []row
			for _, x := range lits {
				out = append(out, one(n, x.slot, x.l)...)
			}
			return absorb(out)
		}
		for i := range lits {
			lits[i].l = lits[i].l.not()
		}
		return conjunction(n, lits)
	}
	q := sp.nodes[a.q]
	if s.ref != "" {
		return one(n, 0, l)
	}
	var lits []slotLit
	switch s.pos.kind {
	case grammar.KindLit:
		return boolRows(!neg, n)
	case grammar.KindAlt:
		if q.alt != prod {
			return boolRows(neg, n)
		}
		if cl, trivial := sp.childLit(q.kids[0]); !trivial {
			lits = append(lits, slotLit{0, cl})
		}
	case grammar.KindSeq:
		for i, k := range q.kids {
			if cl, trivial := sp.childLit(k); !trivial {
				lits = append(lits, slotLit{i, cl})
			}
		}
	case grammar.KindRepeat:
		if prod == prodEnd {
			return boolRows((len(q.kids) == a.off) != neg, n)
		}
		if a.off >= len(q.kids) {
			return boolRows(neg, n)
		}
		if cl, trivial := sp.childLit(q.kids[a.off]); !trivial {
			lits = append(lits, slotLit{0, cl})
		}
		lits = append(lits, slotLit{1, sp.matchLit(q.id, a.off+1)})
	}
	if !neg {
		return conjunction(n, lits)
	}
	return negation(n, lits)
}

func (l literal) atom2lit() literal { return posLit(l.atom()) }

// spec returns the expression for slot s specialized by c, nil if it
// derives nothing.
func (sp *run) spec(s slot, c conj) (grammar.Expr, error) {
	if len(c) == 0 {
		return sp.baseExpr(s), nil
	}
	if s.ref != "" {
		return sp.named(s, []conj{c})
	}
	switch s.pos.kind {
	case grammar.KindClass:
		return sp.classExpr(s.pos, c), nil
	case grammar.KindRepeat:
		// A repetition becomes a nonterminal (it recurs), unless it is
		// short, or a pattern fixes its elements: then it is written out.
		if (s.pos.max == grammar.Unbounded || s.pos.max > 2) && !sp.fixesCount(c) {
			return sp.named(s, []conj{c})
		}
	}
	alts, err := sp.alternatives(s, c)
	if err != nil || len(alts) == 0 {
		return nil, err
	}
	return altOf(alts), nil
}

// fixesCount reports whether c requires a repetition to be a pattern's.
func (sp *run) fixesCount(c conj) bool {
	for _, l := range c {
		if !l.negated() && sp.atoms[l.atom()].kind == atomMatch {
			return true
		}
	}
	return false
}

func altOf(alts []grammar.Expr) grammar.Expr {
	if len(alts) == 1 {
		return alts[0]
	}
	return &grammar.Alt{X: alts}
}

// alternatives returns the alternatives s derives under c.
func (sp *run) alternatives(s slot, c conj) ([]grammar.Expr, error) {
	var out []grammar.Expr
	seen := map[string]bool{}
	for prod := range sp.productions(s) {
		slots, ok := sp.slots(s, prod)
		if !ok {
			continue
		}
		rows := sp.decompose(s, prod, slots, c)
		if len(rows) > sp.opts.MaxRules {
			return nil, &LimitError{sp.opts.MaxRules, "alternatives in one rule"}
		}
		rows = resolve(rows)
	rows:
		for _, r := range rows {
			var seq []grammar.Expr
			for i, sl := range slots {
				e, err := sp.spec(sl, r[i])
				if err != nil {
					return nil, err
				}
				if e == nil {
					continue rows
				}
				switch x := e.(type) {
				case *grammar.Seq:
					seq = append(seq, x.X...)
				case *grammar.Lit:
					if x.S != "" { // "" is the identity of concatenation
						seq = append(seq, e)
					}
				default:
					seq = append(seq, e)
				}
			}
			var e grammar.Expr
			switch len(seq) {
			case 0:
				e = &grammar.Lit{}
			case 1:
				e = seq[0]
			default:
				e = &grammar.Seq{X: seq}
			}
			var list []grammar.Expr
			if x, ok := e.(*grammar.Alt); ok {
				list = x.X
			} else {
				list = []grammar.Expr{e}
			}
			for _, x := range list {
				k := grammar.ExprString(x)
				if !seen[k] {
					seen[k] = true
					out = append(out, x)
				}
			}
			if len(out) > sp.opts.MaxRules {
				return nil, &LimitError{sp.opts.MaxRules, "alternatives in one rule"}
			}
		}
	}
	return out, nil
}

// baseExpr returns the unspecialized expression of a slot.
func (sp *run) baseExpr(s slot) grammar.Expr {
	switch {
	case s.ref != "":
		return &grammar.Ref{Name: s.ref}
	case s.pos.kind == grammar.KindRepeat:
		return s.pos.rest(s.chain)
	}
	return s.pos.expr
}

// classExpr returns the class at p restricted by c: a literal if c fixes
// the character, the class minus the excluded characters otherwise.
func (sp *run) classExpr(p *position, c conj) grammar.Expr {
	fixed := ""
	var excluded []string
	for _, l := range c {
		v := sp.nodes[sp.atoms[l.atom()].q].value
		if !l.negated() {
			if fixed != "" && fixed != v {
				return nil
			}
			fixed = v
		} else {
			excluded = append(excluded, v)
		}
	}
	if fixed != "" {
		if slices.Contains(excluded, fixed) {
			return nil
		}
		return &grammar.Lit{S: fixed}
	}
	set := slices.Clone(p.set)
	for _, v := range excluded {
		r, _ := utf8.DecodeRuneInString(v)
		if p.class.Bytes {
			r = rune(v[0])
		}
		set = removeRune(set, r)
	}
	if len(set) == 0 {
		return nil
	}
	return &grammar.Class{Ranges: set, Bytes: p.class.Bytes}
}

func removeRune(set []grammar.Range, r rune) []grammar.Range {
	var out []grammar.Range
	for _, x := range set {
		switch {
		case r < x.Lo || r > x.Hi:
			out = append(out, x)
		default:
			if x.Lo < r {
				out = append(out, grammar.Range{Lo: x.Lo, Hi: r - 1})
			}
			if r < x.Hi {
				out = append(out, grammar.Range{Lo: r + 1, Hi: x.Hi})
			}
		}
	}
	return out
}

// named returns the name of the nonterminal for slot s specialized by the
// DNF d, creating it on first use.
func (sp *run) named(s slot, d []conj) (grammar.Expr, error) {
	var kb strings.Builder
	if s.ref != "" {
		kb.WriteString("r" + s.ref)
	} else {
		kb.WriteString(fmt.Sprintf("p%d.%d", s.pos.id, s.chain))
	}
	for _, c := range d {
		kb.WriteString("|" + c.key())
	}
	key := kb.String()
	if df, ok := sp.defs[key]; ok {
		return &grammar.Ref{Name: df.name}, nil
	}
	if len(sp.order) >= sp.opts.MaxRules {
		return nil, &LimitError{sp.opts.MaxRules, "specialized nonterminals"}
	}
	name := sp.nameFor(s, d)
	sp.kinds[name] = strings.SplitN(key, "|", 2)[0]
	df := &def{name: name, s: s, d: d}
	sp.defs[key] = df
	sp.order = append(sp.order, df)
	sp.queue = append(sp.queue, df)
	return &grammar.Ref{Name: name}, nil
}

func (sp *run) nameFor(s slot, d []conj) string {
	var b strings.Builder
	if s.ref != "" {
		b.WriteString(s.ref)
	} else {
		b.WriteString(s.pos.rule + "." + strconv.Itoa(s.pos.ord))
		if !(s.pos.min == 0 && s.pos.max == grammar.Unbounded) {
			b.WriteString("." + strconv.Itoa(s.chain))
		}
	}
	b.WriteByte(':')
	for i, c := range d {
		if i > 0 {
			b.WriteByte('|')
		}
		for j, l := range c {
			if j > 0 {
				b.WriteByte('&')
			}
			b.WriteString(sp.litName(l))
		}
	}
	name := b.String()
	for sp.used[name] {
		name += "'"
	}
	sp.used[name] = true
	return name
}

// litName names a literal: +P and -P for containing pattern P or not, P3
// and !P3 for matching pattern node P3 or not (P3.2: from the second
// repetition on).
func (sp *run) litName(l literal) string {
	a := sp.atoms[l.atom()]
	if a.kind == atomReach {
		if l.negated() {
			return "-" + sp.reachOf[l.atom()]
		}
		return "+" + sp.reachOf[l.atom()]
	}
	n, ok := sp.nodeNm[a.q]
	if !ok {
		n = "q" + strconv.Itoa(a.q)
	}
	if a.off > 0 {
		n += "." + strconv.Itoa(a.off)
	}
	if l.negated() {
		return "!" + n
	}
	return n
}

// exprDNF returns the disjunctive normal form of e (negated if neg) over
// reach atoms, as rows of one slot.
func (sp *run) exprDNF(e *Expr, neg bool) ([]row, error) {
	var out []row
	switch {
	case e.op == opName:
		l := posLit(sp.patRoot[e.name])
		if neg {
			l = l.not()
		}
		return one(1, 0, l), nil
	case e.op == opNot:
		return sp.exprDNF(e.x, !neg)
	default:
		x, err := sp.exprDNF(e.x, neg)
		if err != nil {
			return nil, err
		}
		y, err := sp.exprDNF(e.y, neg)
		if err != nil {
			return nil, err
		}
		if (e.op == opAnd) != neg {
			out = product(x, y)
		} else {
			out = resolve(absorb(append(x, y...)))
		}
	}
	if len(out) > sp.opts.MaxRules {
		return nil, &LimitError{sp.opts.MaxRules, "disjuncts in the normal form of the expression"}
	}
	return out, nil
}

// build constructs the grammar for the DNF d at the start symbol, and
// removes non-productive and unreachable nonterminals. It returns nil if
// the start symbol derives nothing.
func (sp *run) build(d []row) (*grammar.Grammar, int, error) {
	start := sp.a.b.g.Start
	if len(d) == 0 {
		return nil, 0, nil
	}
	var cs []conj
	for _, r := range d {
		if len(r[0]) == 0 { // true: the base grammar
			g := &grammar.Grammar{Start: start}
			sp.addBase(g, []string{start})
			return g, 0, nil
		}
		cs = append(cs, r[0])
	}
	return sp.buildFrom(slot{ref: start}, cs)
}

// buildFrom constructs the grammar whose start symbol is slot s
// specialized by the DNF cs.
func (sp *run) buildFrom(s slot, cs []conj) (*grammar.Grammar, int, error) {
	top, err := sp.named(s, cs)
	if err != nil {
		return nil, 0, err
	}
	for len(sp.queue) > 0 {
		df := sp.queue[0]
		sp.queue = sp.queue[1:]
		var alts []grammar.Expr
		seen := map[string]bool{}
		for _, c := range df.d {
			xs, err := sp.alternatives(df.s, c)
			if err != nil {
				return nil, 0, err
			}
			for _, x := range xs {
				if k := grammar.ExprString(x); !seen[k] {
					seen[k] = true
					alts = append(alts, x)
				}
			}
		}
		if len(alts) > 0 {
			df.expr = altOf(alts)
		}
	}
	g := &grammar.Grammar{Start: top.(*grammar.Ref).Name}
	var baseRefs []string
	for _, df := range sp.order {
		if df.expr == nil {
			continue
		}
		g.Rules = append(g.Rules, &grammar.Rule{Name: df.name, Expr: df.expr})
		for r := range grammar.Refs(df.expr) {
			if sp.a.b.names[r.Name] {
				baseRefs = append(baseRefs, r.Name)
			}
		}
	}
	sp.addBase(g, baseRefs)
	built := len(sp.order)
	if !prune(g) {
		return nil, built, nil
	}
	return g, built, nil
}

// addBase appends the base rules reachable from names, in base order.
func (sp *run) addBase(g *grammar.Grammar, names []string) {
	need := reachable(names, func(n string, visit func(string)) {
		for r := range grammar.Refs(sp.a.b.g.Rule(n).Expr) {
			visit(r.Name)
		}
	})
	for _, r := range sp.a.b.g.Rules {
		if need[r.Name] {
			g.Rules = append(g.Rules, &grammar.Rule{Name: r.Name, Expr: r.Expr, Pos: r.Pos})
		}
	}
}

// PatternGrammar returns the pattern grammar of p (Section IV.A of the
// paper): one nonterminal per nonterminal node of the pattern's tree, named
// after the pattern and the node's number in pre-order (<item:E0> for the
// characteristic node, <string:E1>, ...), each with the one derivation the
// pattern gives it; holes stay base nonterminals. Its start symbol is the
// characteristic node's, and its language the instances of the pattern.
func (a *Algebra) PatternGrammar(p *Pattern) *grammar.Grammar {
	sp, err := a.newRun([]*Pattern{p}, &Expr{op: opName, name: p.Name}, Options{MaxRules: DefaultMaxRules})
	if err != nil {
		panic(err) // p was parsed by a, so it fits
	}
	l, trivial := sp.childLit(sp.ptID[p.root])
	var cs []conj
	if !trivial {
		cs = []conj{{l}}
	}
	if trivial {
		g := &grammar.Grammar{Start: p.Nonterminal}
		sp.addBase(g, []string{p.Nonterminal})
		return g
	}
	g, _, err := sp.buildFrom(slot{ref: p.Nonterminal}, cs)
	if err != nil || g == nil {
		panic(fmt.Sprintf("algebra: pattern grammar of %s: %v", p.Name, err)) // a pattern derives its text
	}
	return g
}
