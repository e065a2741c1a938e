package symbolic

import (
	"fmt"
	"sort"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// Token separation. A lexer's token rules put the white space it skips
// before every token (<doSym> ::= [\n ]* "do"), and the parser's rules only
// concatenate tokens, so the mined grammar lets two tokens touch where the
// lexer would read them as one (doa, where do is followed by the identifier
// a). separate learns, against the parser, which pairs of adjacent tokens
// need white space between them, and rewrites the grammar so that they have
// it: where a token B follows a token A that needs a separator before B, B
// is replaced by <B-sep> ::= [\n ] <B>. Which token comes before a
// nonterminal depends on the context it is used in, so the rules that can
// begin with such a B get a variant per class of the token before them
// (<statement-after-doSym>), and the rules whose last token decides what
// may follow them get a variant per class of their last token
// (<term-ends-id>). Tokens with the same set of tokens needing a separator
// after them form one class.

// sepEvidence counts the pairs of adjacent tokens seen without white space
// between them: accepted by the parser, or rejected while the same input
// with white space between them was accepted.
type sepEvidence struct {
	ok, need int
}

// maxSepQueries bounds the parser runs spent per pair of token kinds.
const maxSepQueries = 20

// tokenOcc is a token's occurrence in a sample: its kind, where its text
// starts, and how many bytes of white space begin it.
type tokenOcc struct {
	name       string
	start, end int
	skip       int
}

// separate returns g rewritten so that adjacent tokens the parser needs
// separated are (see above), and the number of token pairs that need it. It
// samples g (samples inputs, from seed) and adds the inputs the parser
// accepted to r.valid. tokens names the token nonterminals.
func (r *refiner) separate(g *grammar.Grammar, tokens []string, seed uint64) (*grammar.Grammar, int, error) {
	isTok := map[string]bool{}
	skip := map[string]*grammar.Class{}
	for _, t := range tokens {
		if g.Rule(t) == nil {
			continue
		}
		isTok[t] = true
		if c := leadingSkip(g, t, 0); c != nil && len(c.Set()) > 0 {
			skip[t] = c
		}
	}
	if len(skip) == 0 {
		return g, 0, nil
	}
	gr, err := grammar.Compile(g)
	if err != nil {
		return nil, 0, err
	}
	gen := grammar.NewGenerator(gr, seed)
	gen.MaxSize = r.cfg.MaxSize
	ev := map[[2]string]*sepEvidence{}
	queried := map[[2]string]int{}
	for range r.cfg.Samples {
		if err := r.ctx.Err(); err != nil {
			return nil, 0, err
		}
		t, err := gen.Generate()
		if err != nil {
			return nil, 0, err
		}
		in := t.Bytes()
		occ := tokenOccs(t, isTok, skip)
		valid := r.query(in)
		if valid {
			r.valid = append(r.valid, in)
		}
		for i := 1; i < len(occ); i++ {
			a, b := occ[i-1], occ[i]
			if skip[b.name] == nil || a.end != b.start {
				continue
			}
			key := [2]string{a.name, b.name}
			e := ev[key]
			if e == nil {
				e = &sepEvidence{}
				ev[key] = e
			}
			switch {
			case valid && b.skip == 0:
				e.ok++
			case valid && queried[key] < maxSepQueries:
				// The same input without the white space before b.
				queried[key]++
				joined := append(append([]byte(nil), in[:b.start]...), in[b.start+b.skip:]...)
				if r.query(joined) {
					e.ok++
					r.valid = append(r.valid, joined)
				} else {
					e.need++
				}
			case !valid && b.skip == 0 && queried[key] < maxSepQueries:
				// The same input with white space before b.
				queried[key]++
				spaced := append(append(append([]byte(nil), in[:b.start]...), classMember(skip[b.name])), in[b.start:]...)
				if r.query(spaced) {
					e.need++
					r.valid = append(r.valid, spaced)
				}
			}
		}
	}
	need := map[string]map[string]bool{}
	pairs := 0
	for k, e := range ev {
		if e.need > 0 && e.ok == 0 {
			if need[k[0]] == nil {
				need[k[0]] = map[string]bool{}
			}
			need[k[0]][k[1]] = true
			pairs++
		}
	}
	if pairs == 0 {
		return g, 0, nil
	}
	out := (&separator{g: g, isTok: isTok, skip: skip}).rewrite(tokens, need)
	if out == nil {
		return g, 0, nil // too many variants: left as it is
	}
	if err := out.Check(); err != nil {
		return nil, 0, fmt.Errorf("the separated grammar is malformed (a kfuzz bug): %v", err)
	}
	return out, pairs, nil
}

// tokenOccs returns the occurrences of tokens in t, in input order.
func tokenOccs(t *grammar.Tree, isTok map[string]bool, skip map[string]*grammar.Class) []tokenOcc {
	var occ []tokenOcc
	off := 0
	var walk func(n *grammar.Tree)
	walk = func(n *grammar.Tree) {
		if n.Node.Kind == grammar.KindRef && isTok[n.Node.Name] {
			text := n.Bytes()
			o := tokenOcc{name: n.Node.Name, start: off, end: off + len(text)}
			if c := skip[n.Node.Name]; c != nil {
				for o.skip < len(text)-1 && classHas(c, rune(text[o.skip])) {
					o.skip++
				}
			}
			occ = append(occ, o)
			off = o.end
			return
		}
		if len(n.Children) == 0 {
			off += len(n.Value)
			return
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(t)
	return occ
}

// leadingSkip returns the character class C when every string of rule name
// begins with C* (the white space a lexer skips), or nil.
func leadingSkip(g *grammar.Grammar, name string, depth int) *grammar.Class {
	r := g.Rule(name)
	if r == nil || depth > 8 {
		return nil
	}
	var first func(e grammar.Expr) *grammar.Class
	first = func(e grammar.Expr) *grammar.Class {
		switch e := e.(type) {
		case *grammar.Seq:
			return first(e.X[0])
		case *grammar.Alt:
			var c *grammar.Class
			for i, x := range e.X {
				ci := first(x)
				if ci == nil || i > 0 && !grammar.EqualExpr(c, ci) {
					return nil
				}
				c = ci
			}
			return c
		case *grammar.Ref:
			return leadingSkip(g, e.Name, depth+1)
		case *grammar.Repeat:
			if c, ok := e.X.(*grammar.Class); ok && e.Min == 0 && e.Max == grammar.Unbounded {
				return c
			}
		}
		return nil
	}
	return first(r.Expr)
}

func classHas(c *grammar.Class, r rune) bool {
	for _, x := range c.Set() {
		if x.Lo <= r && r <= x.Hi {
			return true
		}
	}
	return false
}

// classMember returns a byte of c: a blank if c has it, else its first.
func classMember(c *grammar.Class) byte {
	if classHas(c, ' ') {
		return ' '
	}
	return byte(c.Set()[0].Lo)
}

// A separator rewrites a grammar so that the token pairs that need white
// space between them have it.
type separator struct {
	g     *grammar.Grammar
	isTok map[string]bool
	skip  map[string]*grammar.Class
	// class numbers the token kinds by the set of tokens that need a
	// separator after them; class 0 needs none (and is the start's).
	class     map[string]int
	classes   [][]string // the tokens of each class
	needAfter []map[string]bool
	needed    map[string]bool // tokens that need a separator after some class
	info      map[string]sepInfo
	rules     []*grammar.Rule
	variants  map[variantKey]string
	names     map[string]bool
	pending   []variantKey
	reps      map[*grammar.Repeat]string
	cur       string // the rule whose variant is being written
	start     string
	alts      int // alternatives written, against maxSepAlts
}

// sepInfo is what a rule or expression can begin and end with: whether it
// derives the empty word (tokens count as nonempty), whether it can begin
// with a token that needs a separator after some class (its language then
// depends on the token before it), and the classes of its last token.
type sepInfo struct {
	nullable, sensitive bool
	last                uint64
}

// variantKey is a rule's variant: the class of the token before it (-1: any)
// and of its last token (-1: any).
type variantKey struct {
	name    string
	in, out int
}

// maxSepAlts bounds the alternatives written for the variants: each
// boundary of a concatenation where the class of the last token matters
// multiplies them by the classes that can end there.
const maxSepAlts = 1 << 14

// rewrite returns the separated grammar, or nil when it would be too large.
func (s *separator) rewrite(tokens []string, need map[string]map[string]bool) *grammar.Grammar {
	// Classes: tokens by their need sets; 0 is the empty set.
	s.class = map[string]int{}
	s.classes = [][]string{nil}
	s.needAfter = []map[string]bool{{}}
	s.needed = map[string]bool{}
	byKey := map[string]int{"": 0}
	for _, t := range tokens {
		if !s.isTok[t] {
			continue
		}
		var after []string
		for b := range need[t] {
			after = append(after, b)
			s.needed[b] = true
		}
		sort.Strings(after)
		k := strings.Join(after, " ")
		c, ok := byKey[k]
		if !ok {
			c = len(s.classes)
			byKey[k] = c
			s.classes = append(s.classes, nil)
			s.needAfter = append(s.needAfter, need[t])
		}
		s.class[t] = c
		s.classes[c] = append(s.classes[c], t)
	}
	if len(s.classes) > 64 {
		return nil
	}
	s.analyse()
	s.variants = map[variantKey]string{}
	s.names = map[string]bool{}
	for _, r := range s.g.Rules {
		s.names[r.Name] = true
	}
	s.reps = map[*grammar.Repeat]string{}
	// The start rule keeps its name; the token before it is none (class 0).
	start := s.g.Rule(s.g.Start)
	if start == nil {
		start = s.g.Rules[0]
	}
	s.start = start.Name
	s.variants[variantKey{start.Name, 0, -1}] = start.Name
	s.pending = append(s.pending, variantKey{start.Name, 0, -1})
	for len(s.pending) > 0 && s.alts <= maxSepAlts {
		k := s.pending[0]
		s.pending = s.pending[1:]
		r := s.g.Rule(k.name)
		s.cur = k.name
		s.rules = append(s.rules, &grammar.Rule{Name: s.variants[k], Expr: join(s.gen(r.Expr, k.in, k.out))})
	}
	// The token rules, and the separated tokens.
	tokRules := s.tokenRules()
	for _, r := range s.g.Rules {
		if tokRules[r.Name] {
			s.rules = append(s.rules, &grammar.Rule{Name: r.Name, Expr: cloneExpr(r.Expr)})
		}
	}
	for _, t := range tokens {
		if s.needed[t] && s.skip[t] != nil {
			s.rules = append(s.rules, &grammar.Rule{Name: s.sepName(t), Expr: &grammar.Seq{X: []grammar.Expr{cloneExpr(s.skip[t]), &grammar.Ref{Name: t}}}})
		}
	}
	if s.alts > maxSepAlts {
		return nil
	}
	out := &grammar.Grammar{Start: s.start, Rules: s.rules}
	prune(out)
	base := map[string]string{}
	for k, v := range s.variants {
		base[v] = k.name
	}
	mergeVariants(out, base)
	s.rename(out)
	return out
}

// rename gives a rule's name back to one of its variants where the rule
// itself is gone: the one after class 0, or the only one.
func (s *separator) rename(g *grammar.Grammar) {
	left := map[string]bool{}
	for _, r := range g.Rules {
		left[r.Name] = true
	}
	byBase := map[string][]variantKey{}
	for k, v := range s.variants {
		if left[v] {
			byBase[k.name] = append(byBase[k.name], k)
		}
	}
	to := map[string]string{}
	for b, ks := range byBase {
		if left[b] {
			continue
		}
		var pick *variantKey
		for i, k := range ks {
			if k.in <= 0 && k.out < 0 || len(ks) == 1 {
				pick = &ks[i]
			}
		}
		if pick != nil {
			to[s.variants[*pick]] = b
			left[b] = true
		}
	}
	for _, r := range g.Rules {
		if n, ok := to[r.Name]; ok {
			r.Name = n
		}
		renameRefs(r.Expr, to)
	}
}

func (s *separator) sepName(t string) string { return t + "-sep" }

// tokenRules returns the rules the token rules reach: a token's, and those
// of its instances.
func (s *separator) tokenRules() map[string]bool {
	in := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		if r := s.g.Rule(name); r != nil && !in[name] {
			in[name] = true
			for x := range grammar.Refs(r.Expr) {
				visit(x.Name)
			}
		}
	}
	for t := range s.isTok {
		visit(t)
	}
	return in
}

// analyse computes the sepInfo of every rule, to a fixed point.
func (s *separator) analyse() {
	s.info = map[string]sepInfo{}
	for changed := true; changed; {
		changed = false
		for _, r := range s.g.Rules {
			if s.isTok[r.Name] {
				continue
			}
			i := s.exprInfo(r.Expr)
			if i != s.info[r.Name] {
				s.info[r.Name] = i
				changed = true
			}
		}
	}
}

func (s *separator) exprInfo(e grammar.Expr) sepInfo {
	switch e := e.(type) {
	case *grammar.Ref:
		if s.isTok[e.Name] {
			return sepInfo{sensitive: s.needed[e.Name], last: 1 << s.class[e.Name]}
		}
		return s.info[e.Name]
	case *grammar.Lit:
		if e.S == "" {
			return sepInfo{nullable: true}
		}
		return sepInfo{last: 1}
	case *grammar.Class:
		return sepInfo{last: 1}
	case *grammar.Alt:
		var i sepInfo
		for _, x := range e.X {
			j := s.exprInfo(x)
			i.nullable = i.nullable || j.nullable
			i.sensitive = i.sensitive || j.sensitive
			i.last |= j.last
		}
		return i
	case *grammar.Seq:
		return s.seqInfo(e.X)
	case *grammar.Repeat:
		i := s.exprInfo(e.X)
		i.nullable = i.nullable || e.Min == 0
		return i
	}
	return sepInfo{}
}

func (s *separator) seqInfo(xs []grammar.Expr) sepInfo {
	i := sepInfo{nullable: true}
	for _, x := range xs {
		j := s.exprInfo(x)
		if i.nullable {
			i.sensitive = i.sensitive || j.sensitive
		}
		if j.nullable {
			i.last |= j.last
		} else {
			i.last = j.last
		}
		i.nullable = i.nullable && j.nullable
	}
	return i
}

// gen returns the alternatives deriving e's strings that may follow a token
// of class in (-1: e's language does not depend on it) and end with a token
// of class out (-1: any), none when there are none.
func (s *separator) gen(e grammar.Expr, in, out int) []grammar.Expr {
	switch e := e.(type) {
	case *grammar.Ref:
		if s.isTok[e.Name] {
			if out >= 0 && s.class[e.Name] != out {
				return nil
			}
			if in >= 0 && s.needAfter[in][e.Name] && s.skip[e.Name] != nil {
				return []grammar.Expr{&grammar.Ref{Name: s.sepName(e.Name)}}
			}
			return []grammar.Expr{&grammar.Ref{Name: e.Name}}
		}
		i := s.info[e.Name]
		if out >= 0 && !i.nullable {
			if i.last&(1<<out) == 0 {
				return nil
			}
			if i.last == 1<<out {
				out = -1 // it always ends so
			}
		}
		if !i.sensitive && !(i.nullable && out >= 0) {
			in = -1
		}
		return []grammar.Expr{&grammar.Ref{Name: s.variant(e.Name, in, out)}}
	case *grammar.Lit:
		if e.S == "" {
			if out >= 0 && in != out {
				return nil
			}
		} else if out > 0 {
			return nil
		}
		return []grammar.Expr{cloneExpr(e)}
	case *grammar.Class:
		if out > 0 {
			return nil
		}
		return []grammar.Expr{cloneExpr(e)}
	case *grammar.Alt:
		var alts []grammar.Expr
		for _, x := range e.X {
			alts = append(alts, s.gen(x, in, out)...)
		}
		return alts
	case *grammar.Seq:
		return s.genSeq(e.X, in, out)
	case *grammar.Repeat:
		return s.genRepeat(e, in, out)
	}
	return nil
}

// genSeq is gen of a concatenation: the class of the last token is tracked
// across the boundaries where the rest depends on it.
func (s *separator) genSeq(xs []grammar.Expr, in, out int) []grammar.Expr {
	if len(xs) == 0 {
		if out >= 0 && in != out {
			return nil
		}
		return []grammar.Expr{&grammar.Lit{}}
	}
	if len(xs) == 1 {
		return s.gen(xs[0], in, out)
	}
	rest := s.seqInfo(xs[1:])
	var alts []grammar.Expr
	if !rest.sensitive && !(rest.nullable && out >= 0) {
		head := s.gen(xs[0], in, -1)
		if len(head) == 0 {
			return nil
		}
		for _, tail := range s.genSeq(xs[1:], -1, out) {
			alts = append(alts, concat(join(head), tail))
		}
		return alts
	}
	for c := range s.classes {
		if s.alts > maxSepAlts {
			return nil
		}
		head := s.gen(xs[0], in, c)
		if len(head) == 0 {
			continue
		}
		for _, tail := range s.genSeq(xs[1:], c, out) {
			alts = append(alts, concat(join(head), tail))
		}
	}
	s.alts += len(alts)
	return alts
}

// genRepeat is gen of a quantifier: kept as one where its iterations do
// not depend on what precedes them or all end as they began; otherwise
// written as a recursive rule (X* as <R> ::= "" | X <R>), whose variants
// then track the class.
func (s *separator) genRepeat(e *grammar.Repeat, in, out int) []grammar.Expr {
	x := s.exprInfo(e.X)
	same := func(body []grammar.Expr) []grammar.Expr {
		if len(body) == 0 {
			if e.Min > 0 {
				return nil
			}
			return []grammar.Expr{&grammar.Lit{}}
		}
		return []grammar.Expr{&grammar.Repeat{X: join(body), Min: e.Min, Max: e.Max}}
	}
	if !x.sensitive && out < 0 {
		return same(s.gen(e.X, -1, -1))
	}
	if e.Max == 1 && out < 0 {
		return same(s.gen(e.X, in, -1))
	}
	if in >= 0 && !x.nullable && x.last&^(1<<in) == 0 && (out < 0 || out == in) {
		return same(s.gen(e.X, in, in))
	}
	// X{m,n} as m copies of X then at most n-m optional ones, or a
	// recursive rule for the unbounded rest.
	var xs []grammar.Expr
	for range e.Min {
		xs = append(xs, e.X)
	}
	if e.Max == grammar.Unbounded {
		name, ok := s.reps[e]
		if !ok {
			name = s.fresh(s.cur + "-rep")
			s.reps[e] = name
			r := &grammar.Rule{Name: name, Expr: &grammar.Alt{X: []grammar.Expr{&grammar.Lit{}, &grammar.Seq{X: []grammar.Expr{e.X, &grammar.Ref{Name: name}}}}}}
			s.g = withRule(s.g, r)
			s.analyse()
		}
		return s.genSeq(append(xs, &grammar.Ref{Name: name}), in, out)
	}
	if e.Max-e.Min > 8 {
		// Written out, X{m,n} would be too large: X as if no token
		// preceded it, a superset.
		return same(s.gen(e.X, -1, -1))
	}
	var alts []grammar.Expr
	for n := e.Min; n <= e.Max; n++ {
		alts = append(alts, s.genSeq(xs, in, out)...)
		xs = append(xs, e.X)
	}
	return alts
}

// withRule returns g with r added (g's rules are not changed).
func withRule(g *grammar.Grammar, r *grammar.Rule) *grammar.Grammar {
	c := *g
	c.Rules = append(append([]*grammar.Rule(nil), g.Rules...), r)
	return &c
}

// variant returns the name of rule name's variant after class in ending with
// class out, queuing its rule.
func (s *separator) variant(name string, in, out int) string {
	k := variantKey{name, in, out}
	if v, ok := s.variants[k]; ok {
		return v
	}
	v := name
	if in >= 0 {
		v += "-after-" + s.className(in)
	}
	if out >= 0 {
		v += "-ends-" + s.className(out)
	}
	if v != name || name == s.start {
		v = s.fresh(v)
	}
	s.variants[k] = v
	s.pending = append(s.pending, k)
	return v
}

func (s *separator) className(c int) string {
	if c == 0 {
		return "other"
	}
	return s.classes[c][0]
}

// fresh returns base, or base with a number, that names no rule yet.
func (s *separator) fresh(base string) string {
	name := base
	for i := 2; s.names[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	s.names[name] = true
	return name
}

// join makes one expression of alternatives (none: nil).
func join(alts []grammar.Expr) grammar.Expr {
	switch len(alts) {
	case 0:
		return nil
	case 1:
		return alts[0]
	}
	return &grammar.Alt{X: alts}
}

// concat concatenates a and b, flattening concatenations and dropping
// empty words.
func concat(a, b grammar.Expr) grammar.Expr {
	var xs []grammar.Expr
	for _, e := range []grammar.Expr{a, b} {
		switch e := e.(type) {
		case *grammar.Seq:
			xs = append(xs, e.X...)
		case *grammar.Lit:
			if e.S != "" {
				xs = append(xs, e)
			}
		default:
			xs = append(xs, e)
		}
	}
	switch len(xs) {
	case 0:
		return &grammar.Lit{}
	case 1:
		return xs[0]
	}
	return &grammar.Seq{X: xs}
}

// prune removes from g the rules that derive no string, the alternatives
// that refer to them, and the rules the start no longer reaches.
func prune(g *grammar.Grammar) {
	productive := map[string]bool{}
	var prod func(e grammar.Expr) bool
	prod = func(e grammar.Expr) bool {
		switch e := e.(type) {
		case nil:
			return false
		case *grammar.Ref:
			return productive[e.Name]
		case *grammar.Alt:
			for _, x := range e.X {
				if prod(x) {
					return true
				}
			}
			return false
		case *grammar.Seq:
			for _, x := range e.X {
				if !prod(x) {
					return false
				}
			}
			return true
		case *grammar.Repeat:
			return e.Min == 0 || prod(e.X)
		}
		return true
	}
	for changed := true; changed; {
		changed = false
		for _, r := range g.Rules {
			if !productive[r.Name] && prod(r.Expr) {
				productive[r.Name] = true
				changed = true
			}
		}
	}
	var cut func(e grammar.Expr) grammar.Expr
	cut = func(e grammar.Expr) grammar.Expr {
		if !prod(e) {
			return nil
		}
		switch e := e.(type) {
		case *grammar.Alt:
			var alts []grammar.Expr
			for _, x := range e.X {
				if y := cut(x); y != nil {
					alts = append(alts, y)
				}
			}
			return join(alts)
		case *grammar.Seq:
			for i, x := range e.X {
				e.X[i] = cut(x)
			}
		case *grammar.Repeat:
			if !prod(e.X) {
				return &grammar.Lit{}
			}
			e.X = cut(e.X)
		}
		return e
	}
	var kept []*grammar.Rule
	for _, r := range g.Rules {
		if productive[r.Name] {
			r.Expr = cut(r.Expr)
			kept = append(kept, r)
		}
	}
	g.Rules = reachable(kept)
}

// reachable returns the rules the first one reaches, in their order.
func reachable(rules []*grammar.Rule) []*grammar.Rule {
	if len(rules) == 0 {
		return nil
	}
	byName := map[string]*grammar.Rule{}
	for _, r := range rules {
		byName[r.Name] = r
	}
	seen := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		if r := byName[name]; r != nil && !seen[name] {
			seen[name] = true
			for x := range grammar.Refs(r.Expr) {
				visit(x.Name)
			}
		}
	}
	visit(rules[0].Name)
	var out []*grammar.Rule
	for _, r := range rules {
		if seen[r.Name] {
			out = append(out, r)
		}
	}
	return out
}

// mergeVariants replaces the variants of a rule (base maps them to it)
// whose right-hand sides are equal by the first of them, until none are
// left.
func mergeVariants(g *grammar.Grammar, base map[string]string) {
	for {
		first := map[string]string{}
		rename := map[string]string{}
		for _, r := range g.Rules[1:] {
			b, ok := base[r.Name]
			if !ok {
				continue
			}
			k := b + "\x00" + grammar.ExprString(r.Expr)
			if f, ok := first[k]; ok {
				rename[r.Name] = f
			} else {
				first[k] = r.Name
			}
		}
		if len(rename) == 0 {
			return
		}
		for _, r := range g.Rules {
			renameRefs(r.Expr, rename)
		}
		g.Rules = reachable(g.Rules)
	}
}

func renameRefs(e grammar.Expr, to map[string]string) {
	for x := range grammar.Refs(e) {
		if n, ok := to[x.Name]; ok {
			x.Name = n
		}
	}
}
