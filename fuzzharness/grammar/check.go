package grammar

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A ProblemKind classifies a problem that Problems finds in a grammar.
// Some kinds are errors, which make a grammar unusable; the others are
// warnings about grammars that work but are probably not what was meant.
type ProblemKind int

const (
	// ProblemUndefined is a reference to a nonterminal that no rule defines
	// (an error).
	ProblemUndefined ProblemKind = iota + 1
	// ProblemNoStart is a start symbol that no rule defines (an error).
	ProblemNoStart
	// ProblemUnproductive is a nonterminal from which no finite string can
	// be derived (an error).
	ProblemUnproductive
	// ProblemBadRepeat is a quantifier with negative counts, counts above
	// the notation's limit, or a minimum above the maximum (an error).
	ProblemBadRepeat
	// ProblemEmptyClass is a character class that matches no character (an
	// error).
	ProblemEmptyClass
	// ProblemInvalid is a malformed hand-built grammar: an invalid or
	// duplicate rule name, a missing expression, an empty alternation, or
	// a class range that is reversed or out of range (an error).
	ProblemInvalid
	// ProblemUnreachable is a rule that cannot be reached from the start
	// symbol (a warning).
	ProblemUnreachable
	// ProblemEmptyCycle is a cycle of nonterminals each deriving the next
	// with nothing else around it (A =>+ A), which makes the grammar
	// infinitely ambiguous (a warning).
	ProblemEmptyCycle
)

var problemKindNames = [...]string{
	ProblemUndefined:    "undefined nonterminal",
	ProblemNoStart:      "undefined start symbol",
	ProblemUnproductive: "unproductive nonterminal",
	ProblemBadRepeat:    "bad repetition",
	ProblemEmptyClass:   "empty class",
	ProblemInvalid:      "invalid grammar",
	ProblemUnreachable:  "unreachable nonterminal",
	ProblemEmptyCycle:   "empty cycle",
}

// String names the kind, e.g. "undefined nonterminal".
func (k ProblemKind) String() string {
	if k > 0 && int(k) < len(problemKindNames) {
		return problemKindNames[k]
	}
	return fmt.Sprintf("ProblemKind(%d)", int(k))
}

// IsError reports whether problems of this kind are errors rather than
// warnings.
func (k ProblemKind) IsError() bool {
	return k != ProblemUnreachable && k != ProblemEmptyCycle
}

// A Problem is an error or a warning about a grammar, at the position of the
// rule or expression concerned.
type Problem struct {
	Pos  Pos
	Kind ProblemKind
	Msg  string
}

// String formats the problem as "file:line:col: error: message" or
// "file:line:col: warning: message".
func (p Problem) String() string {
	sev := "warning"
	if p.Kind.IsError() {
		sev = "error"
	}
	return p.Pos.String() + ": " + sev + ": " + p.Msg
}

// Check returns the errors among g's problems as an ErrorList, or nil if
// there are none. Warnings (unreachable rules, empty cycles) are left out;
// call Problems to see them.
func (g *Grammar) Check() error {
	if g == nil {
		return ErrorList{{Msg: "nil grammar"}}.Err()
	}
	return g.check(false).err()
}

// Problems returns the errors and warnings about g, sorted by position:
// references to undefined nonterminals, an undefined start symbol,
// nonterminals that derive no finite string, bad quantifiers, empty classes,
// malformed hand-built rules, rules unreachable from the start symbol, and
// empty cycles A =>+ A.
//
// To avoid cascades, an undefined nonterminal, an empty class or a bad
// quantifier is reported once, where it occurs, and does not make the rules
// that use it unproductive as well.
func (g *Grammar) Problems() []Problem { return g.problems(true) }

// problems returns the errors and, if warnings is set, the warnings about
// g, sorted by position.
func (g *Grammar) problems(warnings bool) []Problem {
	if g == nil {
		return []Problem{{Kind: ProblemInvalid, Msg: "nil grammar"}}
	}
	return g.check(warnings).problems
}

// check runs the checker on g (not nil), finding the errors and, if
// warnings is set, the warnings, sorted by position. Compile builds the
// graph from the checker's flat form.
func (g *Grammar) check(warnings bool) *grammarChecker {
	c := &grammarChecker{g: g}
	c.checkRules()
	c.checkProductive()
	if warnings {
		c.checkReachable()
		c.checkCycles()
	}
	sort.SliceStable(c.problems, func(i, j int) bool {
		a, b := c.problems[i].Pos, c.problems[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return c
}

// err returns the errors among the checker's problems as an ErrorList, or
// nil if there are none.
func (c *grammarChecker) err() error {
	var errs ErrorList
	for _, p := range c.problems {
		if p.Kind.IsError() {
			errs.Add(p.Pos, p.Msg)
		}
	}
	return errs.Err()
}

type grammarChecker struct {
	g        *Grammar
	problems []Problem

	// The flat form (see flatten).
	index    map[string]int32 // rule name -> number of its first definition
	defs     []*Rule          // the first rule of each name, by number
	roots    []int32          // the flat expression of each rule
	nodes    []flatNode
	kids     []int32
	nullable []bool // per flat node
}

func (c *grammarChecker) add(pos Pos, kind ProblemKind, format string, args ...any) {
	c.problems = append(c.problems, Problem{Pos: pos, Kind: kind, Msg: fmt.Sprintf(format, args...)})
}

// validRuleName reports whether name can be written as <name>.
func validRuleName(name string) bool {
	if name == "" || !utf8.ValidString(name) {
		return false
	}
	return !strings.ContainsFunc(name, func(r rune) bool {
		return r == '<' || r == '>' || unicode.IsSpace(r)
	})
}

// checkRules checks names, the start symbol and each expression, and
// builds the flat form of the first definition of every rule.
func (c *grammarChecker) checkRules() {
	c.index = make(map[string]int32, len(c.g.Rules))
	isDef := make([]bool, len(c.g.Rules))
	for k, r := range c.g.Rules {
		if r == nil {
			c.add(Pos{}, ProblemInvalid, "nil rule")
			continue
		}
		if !validRuleName(r.Name) {
			c.add(r.Pos, ProblemInvalid, "invalid nonterminal name %q: expected a non-empty name without '<', '>' or white space", r.Name)
		}
		if first, dup := c.index[r.Name]; dup {
			c.add(r.Pos, ProblemInvalid, "duplicate definition of <%s>: first defined at %s", r.Name, c.defs[first].Pos)
			continue
		}
		c.index[r.Name] = int32(len(c.defs))
		c.defs = append(c.defs, r)
		isDef[k] = true
	}
	if len(c.g.Rules) == 0 {
		c.add(Pos{}, ProblemNoStart, "grammar has no rules: expected a rule for the start symbol <%s>", c.g.Start)
	} else if _, ok := c.index[c.g.Start]; !ok {
		c.add(Pos{}, ProblemNoStart, "start symbol <%s> is not defined", c.g.Start)
	}
	c.roots = make([]int32, 0, len(c.defs))
	c.nodes = make([]flatNode, 0, 4*len(c.defs))
	c.kids = make([]int32, 0, 4*len(c.defs))
	for k, r := range c.g.Rules {
		if r != nil && r.Expr == nil {
			c.add(r.Pos, ProblemInvalid, "rule <%s> has no expression", r.Name)
		}
		if isDef[k] {
			c.roots = append(c.roots, c.flatten(r.Expr))
		}
	}
}

func (c *grammarChecker) checkClass(e *Class) {
	limit := rune(unicode.MaxRune)
	if e.Bytes {
		limit = 0xFF
	}
	for _, r := range e.Ranges {
		switch {
		case r.Lo > r.Hi:
			c.add(e.P, ProblemInvalid, "class %s: range %#x-%#x is reversed", ExprString(e), r.Lo, r.Hi)
			return
		case r.Lo < 0 || r.Hi > limit:
			c.add(e.P, ProblemInvalid, "class %s: range %#x-%#x is outside 0-%#x", ExprString(e), r.Lo, r.Hi, limit)
			return
		case !e.Bytes && (isSurrogateHalf(r.Lo) || isSurrogateHalf(r.Hi)):
			c.add(e.P, ProblemInvalid, "class %s: range %#x-%#x starts or ends at a surrogate half", ExprString(e), r.Lo, r.Hi)
			return
		}
	}
	if len(e.Set()) == 0 {
		c.add(e.P, ProblemEmptyClass, "class %s matches no character", ExprString(e))
	}
}

func isSurrogateHalf(r rune) bool { return 0xD800 <= r && r <= 0xDFFF }

// The analyses below (productive, reachable, nullable, unit cycles) work
// on the checker's flat form of the rules: every expression node of the
// first definition of each rule numbered, with its children and, for a
// reference, the number of the rule it refers to. Each takes time linear
// in the size of the grammar.

// flatKind is the kind of a node of the flat form.
type flatKind uint8

const (
	flatAlt flatKind = iota
	flatSeq
	flatRepeat
	flatLit
	flatClass
	flatRef
	flatNil // a missing expression
)

type flatNode struct {
	kind     flatKind
	emptyLit bool  // a Lit with the empty string
	min, max int32 // of a Repeat (clamped: only 0, 1 and more matter)
	ref      int32 // of a Ref: the rule referred to, or -1 if undefined
	kids     int32 // the children are c.kids[kids : kids+nkids]
	nkids    int32
}

// kidsOf returns the children of flat node n.
func (c *grammarChecker) kidsOf(n *flatNode) []int32 { return c.kids[n.kids : n.kids+n.nkids] }

// clampCount maps a repetition count to one that tells 0, 1, more and
// Unbounded apart, which is all the analyses need.
func clampCount(n int) int32 {
	if n < 0 {
		return -1
	}
	return int32(min(n, 2))
}

// flatten checks e and its subexpressions, adds them to the flat form and
// returns the number of e's node. The nodes of one rule are numbered in
// pre-order, so that they are consecutive, and the rules in the order of
// their definitions.
func (c *grammarChecker) flatten(e Expr) int32 {
	i := int32(len(c.nodes))
	c.nodes = append(c.nodes, flatNode{})
	n := flatNode{ref: -1}
	var sub []Expr
	var one [1]Expr
	switch e := e.(type) {
	case *Alt:
		if len(e.X) == 0 {
			c.add(e.P, ProblemInvalid, "empty alternation: expected at least one alternative")
		}
		n.kind, sub = flatAlt, e.X
	case *Seq:
		n.kind, sub = flatSeq, e.X
	case *Repeat:
		switch {
		case e.Min < 0 || e.Max < Unbounded:
			c.add(e.P, ProblemBadRepeat, "repetition %s: expected counts of at least 0", quantifierString(e.Min, e.Max))
		case e.Min > maxRepeatCount || e.Max > maxRepeatCount:
			c.add(e.P, ProblemBadRepeat, "repetition %s: expected counts of at most %d", quantifierString(e.Min, e.Max), maxRepeatCount)
		case e.Max != Unbounded && e.Min > e.Max:
			c.add(e.P, ProblemBadRepeat, "repetition %s: expected the minimum not to exceed the maximum", quantifierString(e.Min, e.Max))
		}
		one[0] = e.X
		n.kind, n.min, n.max, sub = flatRepeat, clampCount(e.Min), clampCount(e.Max), one[:]
	case *Lit:
		n.kind, n.emptyLit = flatLit, e.S == ""
	case *Class:
		n.kind = flatClass
		c.checkClass(e)
	case *Ref:
		n.kind = flatRef
		if id, ok := c.index[e.Name]; ok {
			n.ref = id
		} else {
			c.add(e.P, ProblemUndefined, "undefined nonterminal <%s>", e.Name)
		}
	default:
		n.kind = flatNil
	}
	// The children's numbers go into c.kids only after their own
	// subexpressions are flattened, so collect them first.
	var kids [8]int32
	ks := kids[:0]
	for _, x := range sub {
		if x == nil {
			c.add(e.Position(), ProblemInvalid, "missing expression (nil)")
		}
		ks = append(ks, c.flatten(x))
	}
	n.kids, n.nkids = int32(len(c.kids)), int32(len(ks))
	c.kids = append(c.kids, ks...)
	c.nodes[i] = n
	return i
}

// solve returns for every node of the flat form whether it has a property
// that is a least fixpoint: true for the leaves leaf says hold, and for the
// other nodes as their kind combines their children's (any for an Alt, all
// for a Seq, a Repeat with a positive minimum and a defined Ref). Each node
// is settled once, counting how many of its children still have to hold.
func (c *grammarChecker) solve(leaf func(n *flatNode) (v, isLeaf bool)) []bool {
	holds := make([]bool, len(c.nodes))
	need := make([]int32, len(c.nodes))
	parent := make([]int32, len(c.nodes))
	for i := range parent {
		parent[i] = -1
	}
	users := make([][]int32, len(c.defs)) // the references to each rule
	var queue []int32
	for i := range c.nodes {
		n := &c.nodes[i]
		for _, k := range c.kidsOf(n) {
			parent[k] = int32(i)
		}
		if v, isLeaf := leaf(n); isLeaf {
			if v {
				holds[i] = true
				queue = append(queue, int32(i))
			}
			continue
		}
		switch n.kind {
		case flatAlt:
			need[i] = 1
		case flatRef:
			need[i] = 1
			users[n.ref] = append(users[n.ref], int32(i))
		default:
			need[i] = n.nkids
		}
		if need[i] == 0 {
			holds[i] = true
			queue = append(queue, int32(i))
		}
	}
	ruleOf := make([]int32, len(c.nodes))
	for i := range ruleOf {
		ruleOf[i] = -1
	}
	for r, root := range c.roots {
		ruleOf[root] = int32(r)
	}
	notify := func(u int32) {
		if !holds[u] {
			if need[u]--; need[u] == 0 {
				holds[u] = true
				queue = append(queue, u)
			}
		}
	}
	for len(queue) > 0 {
		v := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if p := parent[v]; p >= 0 {
			notify(p)
		}
		if r := ruleOf[v]; r >= 0 {
			for _, u := range users[r] {
				notify(u)
			}
		}
	}
	return holds
}

// checkProductive reports the nonterminals that derive no finite string.
func (c *grammarChecker) checkProductive() {
	productive := c.solve(func(n *flatNode) (bool, bool) {
		switch n.kind {
		case flatAlt:
			return true, n.nkids == 0 // an empty one is reported as invalid
		case flatSeq:
			return false, false
		case flatRepeat:
			return true, n.min <= 0
		case flatRef:
			return true, n.ref < 0
		}
		return true, true // literals, classes and missing expressions
	})
	for i, r := range c.defs {
		if !productive[c.roots[i]] {
			c.add(r.Pos, ProblemUnproductive, "nonterminal <%s> derives no finite string: every derivation from it is infinite", r.Name)
		}
	}
}

// refs calls f for the rule of every defined reference in the flat
// expression i.
func (c *grammarChecker) refs(i int32, f func(rule int32)) {
	n := &c.nodes[i]
	if n.kind == flatRef && n.ref >= 0 {
		f(n.ref)
	}
	for _, k := range c.kidsOf(n) {
		c.refs(k, f)
	}
}

// checkReachable reports the rules unreachable from the start symbol.
func (c *grammarChecker) checkReachable() {
	start, ok := c.index[c.g.Start]
	if !ok {
		return
	}
	seen := make([]bool, len(c.defs))
	seen[start] = true
	queue := []int32{start}
	for len(queue) > 0 {
		r := queue[0]
		queue = queue[1:]
		c.refs(c.roots[r], func(x int32) {
			if !seen[x] {
				seen[x] = true
				queue = append(queue, x)
			}
		})
	}
	for i, r := range c.defs {
		if !seen[i] {
			c.add(r.Pos, ProblemUnreachable, "nonterminal <%s> is unreachable from the start symbol <%s>", r.Name, c.g.Start)
		}
	}
}

// computeNullable finds the expressions that derive the empty string.
func (c *grammarChecker) computeNullable() {
	c.nullable = c.solve(func(n *flatNode) (bool, bool) {
		switch n.kind {
		case flatAlt:
			return false, n.nkids == 0
		case flatSeq:
			return false, false
		case flatRepeat:
			return true, n.min <= 0
		case flatLit:
			return n.emptyLit, true
		case flatRef:
			return false, n.ref < 0
		}
		return false, true // classes and missing expressions
	})
}

// unitRefs calls f for every rule B with e =>* B, where e is the flat
// expression i: every reference that e can derive with everything around
// it deriving the empty string.
func (c *grammarChecker) unitRefs(i int32, f func(rule int32)) {
	n := &c.nodes[i]
	switch n.kind {
	case flatAlt:
		for _, k := range c.kidsOf(n) {
			c.unitRefs(k, f)
		}
	case flatSeq:
		solid, last := 0, int32(-1)
		for _, k := range c.kidsOf(n) {
			if !c.nullable[k] {
				solid, last = solid+1, k
			}
		}
		switch solid {
		case 0:
			for _, k := range c.kidsOf(n) {
				c.unitRefs(k, f)
			}
		case 1:
			c.unitRefs(last, f)
		}
	case flatRepeat:
		if kid := c.kids[n.kids]; n.max != 0 && (n.min <= 1 || c.nullable[kid]) {
			c.unitRefs(kid, f)
		}
	case flatRef:
		if n.ref >= 0 {
			f(n.ref)
		}
	}
}

// checkCycles reports each strongly connected component of the unit
// derivation graph A => B once, naming one of its cycles.
func (c *grammarChecker) checkCycles() {
	c.computeNullable()
	succ := make([][]int, len(c.defs))
	stamp := make([]int, len(c.defs)) // i+1 once i has j as a successor
	for i := range c.defs {
		c.unitRefs(c.roots[i], func(j int32) {
			if stamp[j] != i+1 {
				stamp[j] = i + 1
				succ[i] = append(succ[i], int(j))
			}
		})
		sort.Ints(succ[i])
	}
	in := make([]bool, len(c.defs))
	for _, comp := range sccs(len(succ), func(v int) []int { return succ[v] }) {
		first := comp[0]
		for _, v := range comp {
			first = min(first, v)
			in[v] = true
		}
		cycle := shortestUnitCycle(succ, first, in)
		for _, v := range comp {
			in[v] = false
		}
		if cycle == nil {
			continue // a single node without a self-loop
		}
		parts := make([]string, len(cycle)+1)
		for i, v := range cycle {
			parts[i] = "<" + c.defs[v].Name + ">"
		}
		parts[len(cycle)] = parts[0]
		c.add(c.defs[first].Pos, ProblemEmptyCycle, "empty cycle %s: %s derives itself with nothing around it, which makes the grammar infinitely ambiguous", strings.Join(parts, " => "), parts[0])
	}
}

// shortestUnitCycle returns the shortest cycle from start back to start that
// stays within in, as the list of its nodes starting with start, or nil.
func shortestUnitCycle(succ [][]int, start int, in []bool) []int {
	prev := map[int]int{}
	queue := []int{start}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range succ[v] {
			if w == start {
				var path []int
				for u := v; u != start; u = prev[u] {
					path = append(path, u)
				}
				path = append(path, start)
				for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				return path
			}
			if _, seen := prev[w]; !seen && in[w] {
				prev[w] = v
				queue = append(queue, w)
			}
		}
	}
	return nil
}
