package algebra

import (
	"fmt"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// prune removes from g the alternatives and nonterminals that derive
// nothing (empty and non-productive nonterminals, recursively), then the
// nonterminals not reachable from the start symbol. It reports false if the
// start symbol derives nothing.
func prune(g *grammar.Grammar) bool {
	productive := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for _, r := range g.Rules {
			if !productive[r.Name] && derives(r.Expr, productive) {
				productive[r.Name] = true
				changed = true
			}
		}
	}
	if !productive[g.Start] {
		return false
	}
	byName := map[string]*grammar.Rule{}
	for _, r := range g.Rules {
		if productive[r.Name] {
			r.Expr = simplify(r.Expr, productive)
			byName[r.Name] = r
		}
	}
	reach := map[string]bool{g.Start: true}
	stack := []string{g.Start}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		eachRef(byName[n].Expr, func(m string) {
			if !reach[m] {
				reach[m] = true
				stack = append(stack, m)
			}
		})
	}
	var kept []*grammar.Rule
	for _, r := range g.Rules {
		if reach[r.Name] {
			kept = append(kept, r)
		}
	}
	g.Rules = kept
	return true
}

// derives reports whether e derives some string given the productive
// nonterminals.
func derives(e grammar.Expr, productive map[string]bool) bool {
	switch e := e.(type) {
	case *grammar.Alt:
		for _, x := range e.X {
			if derives(x, productive) {
				return true
			}
		}
		return false
	case *grammar.Seq:
		for _, x := range e.X {
			if !derives(x, productive) {
				return false
			}
		}
		return true
	case *grammar.Repeat:
		return e.Min == 0 || derives(e.X, productive)
	case *grammar.Ref:
		return productive[e.Name]
	case *grammar.Class:
		return len(e.Set()) > 0
	}
	return true
}

// simplify drops the parts of e that derive nothing; e must derive
// something.
func simplify(e grammar.Expr, productive map[string]bool) grammar.Expr {
	switch x := e.(type) {
	case *grammar.Alt:
		var alts []grammar.Expr
		for _, a := range x.X {
			if derives(a, productive) {
				alts = append(alts, simplify(a, productive))
			}
		}
		return altOf(alts)
	case *grammar.Seq:
		out := &grammar.Seq{P: x.P}
		for _, a := range x.X {
			out.X = append(out.X, simplify(a, productive))
		}
		return out
	case *grammar.Repeat:
		if !derives(x.X, productive) {
			return &grammar.Lit{}
		}
		return &grammar.Repeat{X: simplify(x.X, productive), Min: x.Min, Max: x.Max, P: x.P}
	}
	return e
}

// mergeIdentical merges specialized nonterminals of the same kind (the
// same base nonterminal or repetition) whose definitions are identical once
// merged nonterminals are renamed, until none are left, and returns the
// number merged. kinds maps each specialized nonterminal to its kind; base
// rules are never merged away.
func mergeIdentical(g *grammar.Grammar, kinds map[string]string) int {
	merged := 0
	for {
		byDef := map[string]string{}
		rename := map[string]string{}
		for _, r := range g.Rules {
			kind, specialized := kinds[r.Name]
			if !specialized {
				continue
			}
			k := kind + "\x00" + grammar.ExprString(r.Expr)
			if other, ok := byDef[k]; ok && r.Name != g.Start {
				rename[r.Name] = other
				continue
			}
			if _, ok := byDef[k]; !ok {
				byDef[k] = r.Name
			}
		}
		if len(rename) == 0 {
			return merged
		}
		merged += len(rename)
		var kept []*grammar.Rule
		for _, r := range g.Rules {
			if _, gone := rename[r.Name]; gone {
				continue
			}
			r.Expr = renameRefs(r.Expr, rename)
			kept = append(kept, r)
		}
		g.Rules = kept
	}
}

func renameRefs(e grammar.Expr, rename map[string]string) grammar.Expr {
	switch x := e.(type) {
	case *grammar.Alt:
		out := &grammar.Alt{P: x.P}
		for _, a := range x.X {
			out.X = append(out.X, renameRefs(a, rename))
		}
		return out
	case *grammar.Seq:
		out := &grammar.Seq{P: x.P}
		for _, a := range x.X {
			out.X = append(out.X, renameRefs(a, rename))
		}
		return out
	case *grammar.Repeat:
		return &grammar.Repeat{X: renameRefs(x.X, rename), Min: x.Min, Max: x.Max, P: x.P}
	case *grammar.Ref:
		if n, ok := rename[x.Name]; ok {
			return &grammar.Ref{Name: n, P: x.P}
		}
	}
	return e
}

// diagnose explains why the DNF d of e is unsatisfiable: for every
// disjunct, the smallest set of its pattern literals (up to three) that no
// input satisfies together.
func (sp *run) diagnose(e *Expr, d []row) error {
	ue := &UnsatisfiableError{Expr: e.String()}
	if len(d) == 0 {
		ue.Reasons = []string{"it is false whatever the input"}
		return ue
	}
	for _, r := range d {
		c := r[0]
		reason := ""
		for size := 1; size <= min(3, len(c)) && reason == ""; size++ {
			subsets(c, size, func(sub conj) bool {
				g, _, err := sp.build([]row{{sub}})
				if err == nil && g == nil {
					reason = sp.explain(sub)
					return false
				}
				return true
			})
		}
		if reason == "" {
			reason = "no input satisfies " + sp.conjText(c)
		}
		ue.Reasons = append(ue.Reasons, reason)
	}
	return ue
}

// subsets calls f with every subset of c of the given size, until f
// returns false.
func subsets(c conj, size int, f func(conj) bool) {
	var rec func(start int, cur conj) bool
	rec = func(start int, cur conj) bool {
		if len(cur) == size {
			return f(append(conj(nil), cur...))
		}
		for i := start; i < len(c); i++ {
			if !rec(i+1, append(cur, c[i])) {
				return false
			}
		}
		return true
	}
	rec(0, nil)
}

func (sp *run) describePattern(atomID int) string {
	p := sp.pats[sp.reachOf[atomID]]
	return fmt.Sprintf("%s (<%s> is %s)", p.Name, p.Nonterminal, p.Text)
}

func (sp *run) conjText(c conj) string {
	var parts []string
	for _, l := range c {
		s := sp.reachOf[l.atom()]
		if l.negated() {
			s = "not " + s
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " and ")
}

// explain words an unsatisfiable conjunction of pattern literals.
func (sp *run) explain(c conj) string {
	start := "<" + sp.a.b.g.Start + ">"
	var pos, neg []int
	for _, l := range c {
		if l.negated() {
			neg = append(neg, l.atom())
		} else {
			pos = append(pos, l.atom())
		}
	}
	switch {
	case len(pos) == 1 && len(neg) == 0:
		p := sp.pats[sp.reachOf[pos[0]]]
		return fmt.Sprintf("no %s derives pattern %s: <%s> cannot occur in it, or not in the shape of the pattern", start, sp.describePattern(pos[0]), p.Nonterminal)
	case len(pos) == 0 && len(neg) == 1:
		return fmt.Sprintf("every %s contains pattern %s, but not %s forbids it", start, sp.describePattern(neg[0]), sp.reachOf[neg[0]])
	case len(pos) == 1 && len(neg) == 1:
		return fmt.Sprintf("every %s that contains %s also contains %s, but %s is forbidden", start, sp.describePattern(pos[0]), sp.describePattern(neg[0]), sp.reachOf[neg[0]])
	}
	return "no " + start + " satisfies " + sp.conjText(c)
}
