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
	var errs ErrorList
	for _, p := range g.Problems() {
		if p.Kind.IsError() {
			errs.Add(p.Pos, p.Msg)
		}
	}
	return errs.Err()
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
func (g *Grammar) Problems() []Problem {
	if g == nil {
		return []Problem{{Kind: ProblemInvalid, Msg: "nil grammar"}}
	}
	c := &grammarChecker{g: g, rules: make(map[string]*Rule)}
	c.checkRules()
	c.checkProductive()
	c.checkReachable()
	c.checkCycles()
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
	return c.problems
}

type grammarChecker struct {
	g        *Grammar
	rules    map[string]*Rule // the first rule of each name
	nullable map[string]bool
	problems []Problem
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

// checkRules checks names, the start symbol and each expression.
func (c *grammarChecker) checkRules() {
	for _, r := range c.g.Rules {
		if r == nil {
			c.add(Pos{}, ProblemInvalid, "nil rule")
			continue
		}
		if !validRuleName(r.Name) {
			c.add(r.Pos, ProblemInvalid, "invalid nonterminal name %q: expected a non-empty name without '<', '>' or white space", r.Name)
		}
		if first, dup := c.rules[r.Name]; dup {
			c.add(r.Pos, ProblemInvalid, "duplicate definition of <%s>: first defined at %s", r.Name, first.Pos)
			continue
		}
		c.rules[r.Name] = r
	}
	if len(c.g.Rules) == 0 {
		c.add(Pos{}, ProblemNoStart, "grammar has no rules: expected a rule for the start symbol <%s>", c.g.Start)
	} else if c.rules[c.g.Start] == nil {
		c.add(Pos{}, ProblemNoStart, "start symbol <%s> is not defined", c.g.Start)
	}
	for _, r := range c.g.Rules {
		if r != nil && r.Expr == nil {
			c.add(r.Pos, ProblemInvalid, "rule <%s> has no expression", r.Name)
		}
		if r != nil && c.rules[r.Name] == r {
			c.checkExpr(r.Expr)
		}
	}
}

func (c *grammarChecker) checkExpr(e Expr) {
	switch e := e.(type) {
	case *Alt:
		if len(e.X) == 0 {
			c.add(e.P, ProblemInvalid, "empty alternation: expected at least one alternative")
		}
		for _, x := range e.X {
			c.checkSub(x, e.P)
		}
	case *Seq:
		for _, x := range e.X {
			c.checkSub(x, e.P)
		}
	case *Repeat:
		switch {
		case e.Min < 0 || e.Max < Unbounded:
			c.add(e.P, ProblemBadRepeat, "repetition %s: expected counts of at least 0", quantifierString(e.Min, e.Max))
		case e.Min > maxRepeatCount || e.Max > maxRepeatCount:
			c.add(e.P, ProblemBadRepeat, "repetition %s: expected counts of at most %d", quantifierString(e.Min, e.Max), maxRepeatCount)
		case e.Max != Unbounded && e.Min > e.Max:
			c.add(e.P, ProblemBadRepeat, "repetition %s: expected the minimum not to exceed the maximum", quantifierString(e.Min, e.Max))
		}
		c.checkSub(e.X, e.P)
	case *Ref:
		if c.rules[e.Name] == nil {
			c.add(e.P, ProblemUndefined, "undefined nonterminal <%s>", e.Name)
		}
	case *Class:
		c.checkClass(e)
	}
}

func (c *grammarChecker) checkSub(x Expr, parent Pos) {
	if x == nil {
		c.add(parent, ProblemInvalid, "missing expression (nil)")
		return
	}
	c.checkExpr(x)
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

// checkProductive reports the nonterminals that derive no finite string.
func (c *grammarChecker) checkProductive() {
	productive := make(map[string]bool)
	var prod func(Expr) bool
	prod = func(e Expr) bool {
		switch e := e.(type) {
		case *Alt:
			if len(e.X) == 0 {
				return true // reported as invalid
			}
			for _, x := range e.X {
				if prod(x) {
					return true
				}
			}
			return false
		case *Seq:
			for _, x := range e.X {
				if !prod(x) {
					return false
				}
			}
			return true
		case *Repeat:
			return e.Min <= 0 || prod(e.X)
		case *Ref:
			return c.rules[e.Name] == nil || productive[e.Name]
		}
		return true // literals, classes and missing expressions
	}
	c.fixpoint(productive, prod)
	for _, r := range c.g.Rules {
		if r != nil && c.rules[r.Name] == r && !productive[r.Name] {
			c.add(r.Pos, ProblemUnproductive, "nonterminal <%s> derives no finite string: every derivation from it is infinite", r.Name)
		}
	}
}

// eachRef calls f for every reference in e.
func eachRef(e Expr, f func(*Ref)) {
	switch e := e.(type) {
	case *Alt:
		for _, x := range e.X {
			eachRef(x, f)
		}
	case *Seq:
		for _, x := range e.X {
			eachRef(x, f)
		}
	case *Repeat:
		eachRef(e.X, f)
	case *Ref:
		f(e)
	}
}

// checkReachable reports the rules unreachable from the start symbol.
func (c *grammarChecker) checkReachable() {
	if c.rules[c.g.Start] == nil {
		return
	}
	seen := map[string]bool{c.g.Start: true}
	queue := []string{c.g.Start}
	for len(queue) > 0 {
		r := c.rules[queue[0]]
		queue = queue[1:]
		eachRef(r.Expr, func(x *Ref) {
			if !seen[x.Name] && c.rules[x.Name] != nil {
				seen[x.Name] = true
				queue = append(queue, x.Name)
			}
		})
	}
	for _, r := range c.g.Rules {
		if r != nil && c.rules[r.Name] == r && !seen[r.Name] {
			c.add(r.Pos, ProblemUnreachable, "nonterminal <%s> is unreachable from the start symbol <%s>", r.Name, c.g.Start)
		}
	}
}

// computeNullable finds the nonterminals that derive the empty string.
func (c *grammarChecker) computeNullable() {
	c.nullable = make(map[string]bool)
	c.fixpoint(c.nullable, c.isNullable)
}

// fixpoint marks in set every rule whose expression satisfies holds, where
// holds depends monotonically on set for the nonterminals the expression
// references. A rule is evaluated again only when a nonterminal it
// references becomes marked.
func (c *grammarChecker) fixpoint(set map[string]bool, holds func(Expr) bool) {
	users := make(map[string][]*Rule) // the rules that reference a name
	var queue []*Rule
	for _, r := range c.g.Rules {
		if r == nil || c.rules[r.Name] != r {
			continue
		}
		queue = append(queue, r)
		seen := make(map[string]bool)
		eachRef(r.Expr, func(x *Ref) {
			if !seen[x.Name] {
				seen[x.Name] = true
				users[x.Name] = append(users[x.Name], r)
			}
		})
	}
	for len(queue) > 0 {
		r := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if set[r.Name] || !holds(r.Expr) {
			continue
		}
		set[r.Name] = true
		for _, u := range users[r.Name] {
			if !set[u.Name] {
				queue = append(queue, u)
			}
		}
	}
}

func (c *grammarChecker) isNullable(e Expr) bool {
	switch e := e.(type) {
	case *Alt:
		for _, x := range e.X {
			if c.isNullable(x) {
				return true
			}
		}
		return false
	case *Seq:
		for _, x := range e.X {
			if !c.isNullable(x) {
				return false
			}
		}
		return true
	case *Repeat:
		return e.Min <= 0 || c.isNullable(e.X)
	case *Lit:
		return e.S == ""
	case *Ref:
		return c.nullable[e.Name]
	}
	return false
}

// unitRefs calls f for every nonterminal B with e =>* B, that is, every
// reference that e can derive with everything around it deriving the empty
// string.
func (c *grammarChecker) unitRefs(e Expr, f func(string)) {
	switch e := e.(type) {
	case *Alt:
		for _, x := range e.X {
			c.unitRefs(x, f)
		}
	case *Seq:
		var solid []Expr
		for _, x := range e.X {
			if !c.isNullable(x) {
				solid = append(solid, x)
			}
		}
		switch len(solid) {
		case 0:
			for _, x := range e.X {
				c.unitRefs(x, f)
			}
		case 1:
			c.unitRefs(solid[0], f)
		}
	case *Repeat:
		if e.Max != 0 && (e.Min <= 1 || c.isNullable(e.X)) {
			c.unitRefs(e.X, f)
		}
	case *Ref:
		if c.rules[e.Name] != nil {
			f(e.Name)
		}
	}
}

// checkCycles reports each strongly connected component of the unit
// derivation graph A => B once, naming one of its cycles.
func (c *grammarChecker) checkCycles() {
	c.computeNullable()
	var names []string
	index := make(map[string]int)
	for _, r := range c.g.Rules {
		if r != nil && c.rules[r.Name] == r {
			index[r.Name] = len(names)
			names = append(names, r.Name)
		}
	}
	succ := make([][]int, len(names))
	for i, name := range names {
		seen := make(map[int]bool)
		c.unitRefs(c.rules[name].Expr, func(b string) {
			if j := index[b]; !seen[j] {
				seen[j] = true
				succ[i] = append(succ[i], j)
			}
		})
		sort.Ints(succ[i])
	}
	for _, comp := range sccs(len(succ), func(v int) []int { return succ[v] }) {
		first := comp[0]
		for _, v := range comp {
			first = min(first, v)
		}
		in := make(map[int]bool, len(comp))
		for _, v := range comp {
			in[v] = true
		}
		cycle := shortestUnitCycle(succ, first, in)
		if cycle == nil {
			continue // a single node without a self-loop
		}
		parts := make([]string, len(cycle)+1)
		for i, v := range cycle {
			parts[i] = "<" + names[v] + ">"
		}
		parts[len(cycle)] = parts[0]
		c.add(c.rules[names[first]].Pos, ProblemEmptyCycle, "empty cycle %s: %s derives itself with nothing around it, which makes the grammar infinitely ambiguous", strings.Join(parts, " => "), parts[0])
	}
}

// shortestUnitCycle returns the shortest cycle from start back to start that
// stays within in, as the list of its nodes starting with start, or nil.
func shortestUnitCycle(succ [][]int, start int, in map[int]bool) []int {
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
