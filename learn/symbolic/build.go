package symbolic

import (
	"fmt"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// consumptions returns, for every input position, the index of the access
// that consumed it: STALAGMITE's Algorithm 2. Starting from each position's
// last access, it backtracks the first position whose access breaks the
// longest non-decreasing subsequence to that position's previous access,
// until the chosen accesses are in order.
func consumptions(tr *trace) []int {
	orders := make([][]int, tr.n)
	for i, a := range tr.accesses {
		if a.pos < tr.n {
			orders[a.pos] = append(orders[a.pos], i)
		}
	}
	result := make([]int, tr.n)
	for round := 0; round <= len(tr.accesses)+tr.n; round++ {
		for p := range orders {
			if len(orders[p]) == 0 { // backtracking ran out
				if p == 0 {
					orders[p] = []int{0}
				} else {
					orders[p] = append([]int(nil), orders[p-1]...)
				}
			}
			result[p] = orders[p][len(orders[p])-1]
		}
		in := lis(result)
		if len(in) == len(result) {
			return result
		}
		inLIS := make([]bool, len(result))
		for _, i := range in {
			inLIS[i] = true
		}
		for p := range result {
			if !inLIS[p] {
				orders[p] = orders[p][:len(orders[p])-1]
				break
			}
		}
	}
	return result
}

// lis returns the indices of a longest non-decreasing subsequence of xs,
// the leftmost-ending one.
func lis(xs []int) []int {
	var tails []int // tails[k]: index of the smallest tail of a run of length k+1
	prev := make([]int, len(xs))
	for i, x := range xs {
		k := sort.Search(len(tails), func(j int) bool { return xs[tails[j]] > x })
		if k > 0 {
			prev[i] = tails[k-1]
		} else {
			prev[i] = -1
		}
		if k == len(tails) {
			tails = append(tails, i)
		} else {
			tails[k] = i
		}
	}
	out := make([]int, len(tails))
	for i, k := len(tails)-1, -1; i >= 0; i-- {
		if k == -1 {
			k = tails[len(tails)-1]
		}
		out[i] = k
		k = prev[k]
	}
	return out
}

// A tnode is a node of a trace's parse tree: a call or a loop iteration; its
// kids are nodes and leaves (one input byte each).
type tnode struct {
	seg  segment
	kids []tkid
}

type tkid struct {
	node *tnode
	leaf byteSet
}

// treeOf builds the parse tree of a trace from its consuming accesses.
func treeOf(tr *trace) *tnode {
	root := &tnode{}
	cons := consumptions(tr)
	for pos := 0; pos < tr.n; pos++ {
		var ctx []segment
		if len(tr.accesses) > 0 {
			ctx = tr.accesses[cons[pos]].ctx
		}
		cur := root
		if len(ctx) > 0 {
			root.seg = ctx[0]
			ctx = ctx[1:]
		}
		for _, seg := range ctx {
			if n := len(cur.kids); n > 0 {
				if k := cur.kids[n-1].node; k != nil && sameActivation(k.seg, seg) {
					cur = k
					continue
				}
			}
			k := &tnode{seg: seg}
			cur.kids = append(cur.kids, tkid{node: k})
			cur = k
		}
		cur.kids = append(cur.kids, tkid{leaf: tr.sets[pos]})
	}
	return root
}

// accessor is isAccessor(fn), remembered.
func (m *mined) accessor(fn *ssa.Function) bool {
	a, ok := m.isAcc[fn]
	if !ok {
		a = isAccessor(fn)
		m.isAcc[fn] = a
	}
	return a
}

// isAccessor reports whether fn is an input accessor: it has no loop and
// calls no other function of its package (peek, next, expect(c)). A parser's
// accessors are not nonterminals: a byte read by peek belongs to the caller
// that branched on it.
func isAccessor(fn *ssa.Function) bool {
	if fn == nil || len(findLoops(fn)) > 0 {
		return false
	}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if c, ok := in.(ssa.CallInstruction); ok {
				if callee := c.Common().StaticCallee(); callee != nil && callee.Pkg == fn.Pkg {
					return false
				}
				if c.Common().StaticCallee() == nil && !c.Common().IsInvoke() {
					if _, builtin := c.Common().Value.(*ssa.Builtin); !builtin {
						return false // a closure or function value
					}
				}
			}
		}
	}
	return true
}

func sameActivation(a, b segment) bool {
	return a.loop == b.loop && a.key == b.key && a.act == b.act && a.iter == b.iter
}

// A sym is a symbol of a mined rule: a nonterminal or one byte's set.
type sym struct {
	ref  string
	many bool // <ref>*
	opt  bool // the symbol is optional
	set  byteSet
	text string // a literal of several bytes, after simplification
}

type alt []sym

func (a alt) key() string {
	var b strings.Builder
	for _, s := range a {
		switch {
		case s.ref != "":
			fmt.Fprintf(&b, "<%s>", s.ref)
			if s.many {
				b.WriteByte('*')
			}
			if s.opt {
				b.WriteByte('?')
			}
		case s.text != "":
			fmt.Fprintf(&b, "%q", s.text)
		default:
			fmt.Fprintf(&b, "%x", s.set)
			if s.opt {
				b.WriteByte('?')
			}
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// mined is a grammar under construction: nonterminals in order of
// appearance, each with its alternatives (no duplicates).
type mined struct {
	order []string
	alts  map[string][]alt
	seen  map[string]map[string]bool
	names map[string]string // segment key -> nonterminal
	taken map[string]bool
	isAcc map[*ssa.Function]bool // isAccessor, computed once per function
	// mergeSites names a function's nonterminal after the function alone,
	// not its call site.
	mergeSites bool
	// prefix starts every nonterminal's name (the token's, in a token grammar).
	prefix string
	// tokens, for a parser with a lexing stage, names the token identifiers:
	// a leaf is then a set of tokens, a reference to each token's rule.
	tokens map[int]string
}

func newMined() *mined {
	return &mined{alts: map[string][]alt{}, seen: map[string]map[string]bool{}, names: map[string]string{},
		taken: map[string]bool{}, isAcc: map[*ssa.Function]bool{}}
}

func (m *mined) add(nt string, a alt) bool {
	if m.seen[nt] == nil {
		m.seen[nt] = map[string]bool{}
		if _, ok := m.alts[nt]; !ok {
			m.order = append(m.order, nt)
		}
	}
	k := a.key()
	if m.seen[nt][k] {
		return false
	}
	m.seen[nt][k] = true
	m.alts[nt] = append(m.alts[nt], a)
	return true
}

// name returns the nonterminal of a segment key: the function's name, with a
// number added when another call site of it was named first.
func (m *mined) name(key, base string) string {
	if n, ok := m.names[key]; ok {
		return n
	}
	base = strings.NewReplacer(".", "-", "$", "-", "(", "", ")", "", "*", "").Replace(base)
	if !strings.HasPrefix(base, m.prefix) {
		base = m.prefix + base
	}
	n := base
	for i := 2; m.taken[n]; i++ {
		n = fmt.Sprintf("%s-%d", base, i)
	}
	m.taken[n] = true
	m.names[key] = n
	return n
}

// addTree adds the rules of one parse tree (STALAGMITE's Algorithm 3): a call
// node's kids form an alternative of its function's nonterminal. live holds
// the loop runs whose exit the input decided: their iterations become a
// reference to the loop's nonterminal, <L> ::= <L-cont>* <L-exit>, where the
// last iteration is an alternative of <L-exit> and the others of <L-cont>.
// The iterations of other loops (a fixed count, as in ranging over a literal)
// stay in sequence. It reports whether anything was new.
func (m *mined) addTree(n *tnode, nt string, live map[int]bool) bool {
	a, added := m.symbols(n.kids, nt, live)
	return m.add(nt, a) || added
}

func (m *mined) symbols(kids []tkid, nt string, live map[int]bool) (a alt, added bool) {
	for i := 0; i < len(kids); i++ {
		k := kids[i]
		switch {
		case k.node == nil:
			a = append(a, sym{set: k.leaf})
		case !k.node.seg.loop && m.accessor(k.node.seg.fn):
			// An accessor (peek, next, expect): its bytes stay in the
			// caller's alternative, tied to what the caller did with them.
			sub, ad := m.symbols(k.node.kids, nt, live)
			a, added = append(a, sub...), added || ad
		case !k.node.seg.loop:
			key := k.node.seg.key
			if m.mergeSites {
				key = symbolName(k.node.seg.fn)
			}
			name := m.name(key, symbolName(k.node.seg.fn))
			added = m.addTree(k.node, name, live) || added
			a = append(a, sym{ref: name})
		case !live[k.node.seg.act]:
			sub, ad := m.symbols(k.node.kids, nt, live)
			a, added = append(a, sub...), added || ad
		default:
			// A run of iterations of the same loop activation.
			j := i
			for j+1 < len(kids) && kids[j+1].node != nil && kids[j+1].node.seg.loop &&
				kids[j+1].node.seg.key == k.node.seg.key && kids[j+1].node.seg.act == k.node.seg.act {
				j++
			}
			l := m.name(nt+"/"+k.node.seg.key, nt+"-"+loopSuffix(k.node.seg.key))
			for x := i; x <= j; x++ {
				part := l + "-cont"
				if x == j {
					part = l + "-exit"
				}
				added = m.addTree(kids[x].node, part, live) || added
			}
			added = m.add(l, nil) || added // defined in finish, once all iterations are known
			a = append(a, sym{ref: l})
			i = j
		}
	}
	return a, added
}

func loopSuffix(key string) string {
	if i := strings.LastIndex(key, "-loop"); i >= 0 {
		return key[i+1:]
	}
	return "loop"
}

// finish defines the loop nonterminals and simplifies.
func (m *mined) finish() {
	for _, nt := range m.order {
		as := m.alts[nt]
		if len(as) != 1 || len(as[0]) != 0 || !m.isLoop(nt) {
			continue
		}
		var body alt
		if _, ok := m.alts[nt+"-cont"]; ok {
			body = alt{{ref: nt + "-cont", many: true}}
		}
		m.alts[nt] = []alt{append(body, sym{ref: nt + "-exit"})}
	}
}

func (m *mined) isLoop(nt string) bool {
	_, ok := m.alts[nt+"-exit"]
	return ok
}

// simplify merges single-byte alternatives into classes and alternatives that
// differ in one byte position, and inlines nonterminals with one alternative,
// to a fixed point.
func (m *mined) simplify(keep map[string]bool) {
	for changed := true; changed; {
		changed = false
		for _, nt := range m.order {
			if merged, ok := mergeAlts(m.alts[nt]); ok {
				m.alts[nt] = merged
				changed = true
			}
			if merged, ok := mergeOptional(m.alts[nt]); ok {
				m.alts[nt] = merged
				changed = true
			}
		}
		for _, nt := range m.order {
			as := m.alts[nt]
			if keep[nt] || len(as) != 1 || m.refersTo(nt, nt, map[string]bool{}) {
				continue
			}
			if m.inline(nt, as[0]) {
				changed = true
			}
		}
	}
}

// mergeAlts merges two alternatives of equal length that differ only in one
// single-byte position into one with the union of the two sets.
func mergeAlts(as []alt) ([]alt, bool) {
	for i := 0; i < len(as); i++ {
		for j := i + 1; j < len(as); j++ {
			if k, ok := differAt(as[i], as[j]); ok {
				merged := append(alt(nil), as[i]...)
				merged[k].set = as[i][k].set.union(as[j][k].set)
				out := append([]alt(nil), as[:j]...)
				out = append(out, as[j+1:]...)
				out[i] = merged
				return dedupe(out), true
			}
		}
	}
	return as, false
}

// mergeOptional merges two alternatives that are equal but for one symbol
// more in one of them into one where that symbol is optional: the paper's
// optional generalization (x <B> y | x y becomes x <B>? y).
func mergeOptional(as []alt) ([]alt, bool) {
	for i := 0; i < len(as); i++ {
		for j := 0; j < len(as); j++ {
			if i == j || len(as[i]) != len(as[j])+1 {
				continue
			}
			long, short := as[i], as[j]
			k := 0
			for k < len(short) && long[k] == short[k] {
				k++
			}
			if !equalAlt(long[k+1:], short[k:]) {
				continue
			}
			merged := append(alt(nil), long...)
			if !merged[k].many {
				merged[k].opt = true
			}
			var out []alt
			for x, a := range as {
				switch x {
				case i:
					out = append(out, merged)
				case j:
				default:
					out = append(out, a)
				}
			}
			return dedupe(out), true
		}
	}
	return as, false
}

func equalAlt(a, b alt) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func dedupe(as []alt) []alt {
	seen := map[string]bool{}
	var out []alt
	for _, a := range as {
		if k := a.key(); !seen[k] {
			seen[k] = true
			out = append(out, a)
		}
	}
	return out
}

func differAt(a, b alt) (int, bool) {
	if len(a) != len(b) {
		return 0, false
	}
	at := -1
	for k := range a {
		if a[k] == b[k] {
			continue
		}
		if at >= 0 || a[k].ref != "" || b[k].ref != "" || a[k].text != "" || b[k].text != "" || a[k].opt != b[k].opt {
			return 0, false
		}
		at = k
	}
	return at, at >= 0
}

func (m *mined) refersTo(from, to string, seen map[string]bool) bool {
	if seen[from] {
		return false
	}
	seen[from] = true
	for _, a := range m.alts[from] {
		for _, s := range a {
			if s.ref == "" {
				continue
			}
			if s.ref == to || m.refersTo(s.ref, to, seen) {
				return true
			}
		}
	}
	return false
}

// inline replaces every plain reference to nt by body and drops nt.
func (m *mined) inline(nt string, body alt) bool {
	used := false
	for _, other := range m.order {
		for _, a := range m.alts[other] {
			for _, s := range a {
				if s.ref == nt && (s.many || s.opt) && len(body) != 1 {
					return false // a repeated or optional reference cannot take a sequence inline
				}
				if s.ref == nt {
					used = true
				}
			}
		}
	}
	if !used {
		return false
	}
	for _, other := range m.order {
		as := m.alts[other]
		for i, a := range as {
			var out alt
			for _, s := range a {
				if s.ref == nt {
					if s.many || s.opt {
						one := body[0]
						one.many = one.many || s.many
						one.opt = (one.opt || s.opt) && !one.many
						out = append(out, one)
						continue
					}
					out = append(out, body...)
				} else {
					out = append(out, s)
				}
			}
			as[i] = out
		}
		m.alts[other] = dedupe(as)
	}
	delete(m.alts, nt)
	var order []string
	for _, o := range m.order {
		if o != nt {
			order = append(order, o)
		}
	}
	m.order = order
	return true
}

// grammar returns the mined grammar in kfuzz's notation.
func (m *mined) grammar(start string) *grammar.Grammar {
	g := &grammar.Grammar{Start: "start"}
	g.Rules = append(g.Rules, &grammar.Rule{Name: "start", Expr: &grammar.Ref{Name: start}})
	for _, nt := range m.order {
		as := m.alts[nt]
		var xs []grammar.Expr
		for _, a := range as {
			xs = append(xs, m.seqExpr(a))
		}
		var e grammar.Expr
		switch len(xs) {
		case 0:
			continue
		case 1:
			e = xs[0]
		default:
			e = &grammar.Alt{X: xs}
		}
		g.Rules = append(g.Rules, &grammar.Rule{Name: nt, Expr: e})
	}
	return g
}

func (m *mined) seqExpr(a alt) grammar.Expr {
	var xs []grammar.Expr
	var lit []byte
	flush := func() {
		if lit != nil {
			xs = append(xs, &grammar.Lit{S: string(lit)})
			lit = nil
		}
	}
	for _, s := range a {
		if s.ref == "" && !s.many && !s.opt && s.set.count() == 1 && m.tokens == nil {
			lit = append(lit, byte(s.set.ranges()[0][0]))
			continue
		}
		flush()
		var x grammar.Expr
		switch {
		case s.ref != "":
			x = &grammar.Ref{Name: s.ref}
		case m.tokens != nil:
			x = m.tokenExpr(s.set)
		case s.set.count() == 1:
			x = &grammar.Lit{S: string([]byte{byte(s.set.ranges()[0][0])})}
		default:
			x = classOf(s.set)
		}
		switch {
		case s.many:
			x = &grammar.Repeat{X: x, Min: 0, Max: grammar.Unbounded}
		case s.opt:
			x = &grammar.Repeat{X: x, Min: 0, Max: 1}
		}
		xs = append(xs, x)
	}
	flush()
	switch len(xs) {
	case 0:
		return &grammar.Lit{S: ""}
	case 1:
		return xs[0]
	}
	return &grammar.Seq{X: xs}
}

// classOf returns the character class of a byte set: a rune class when all
// members are ASCII, a byte class otherwise.
func classOf(s byteSet) *grammar.Class {
	c := &grammar.Class{}
	for _, r := range s.ranges() {
		c.Ranges = append(c.Ranges, grammar.Range{Lo: rune(r[0]), Hi: rune(r[1])})
		if r[1] >= 0x80 {
			c.Bytes = true
		}
	}
	return c
}

// tokenExpr returns the tokens of a set of token identifiers: a reference to
// each token's rule.
func (m *mined) tokenExpr(set byteSet) grammar.Expr {
	var xs []grammar.Expr
	for _, r := range set.ranges() {
		for id := r[0]; id <= r[1]; id++ {
			xs = append(xs, &grammar.Ref{Name: m.tokens[id]})
		}
	}
	if len(xs) == 1 {
		return xs[0]
	}
	return &grammar.Alt{X: xs}
}
