package algebra

import (
	"fmt"
	"strconv"
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
	reach := reachable([]string{g.Start}, func(n string, visit func(string)) {
		for r := range grammar.Refs(byName[n].Expr) {
			visit(r.Name)
		}
	})
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
	case *grammar.Repeat:
		if !derives(x.X, productive) {
			return &grammar.Lit{}
		}
	}
	return mapKids(e, func(k grammar.Expr) grammar.Expr { return simplify(k, productive) })
}

// mergeIdentical merges specialized nonterminals that derive the same
// trees up to their names: the coarsest partition of the specialized
// nonterminals, each class of one kind (the same base nonterminal or
// repetition; kinds maps every specialized nonterminal to its kind), in
// which the nonterminals of a class have the same definition once every
// specialized nonterminal is replaced by its class (partition refinement,
// as in the minimization of automata). Each class is replaced by its first
// member, duplicate alternatives are dropped, and the number of
// nonterminals merged away is returned. Base rules are never merged.
func mergeIdentical(g *grammar.Grammar, kinds map[string]string) int {
	// A rule's signature is its kind, its definition with the specialized
	// nonterminals left out, and their classes in order.
	type shape struct {
		name, text string
		refs       []string
	}
	var shapes []shape
	for _, r := range g.Rules {
		kind, ok := kinds[r.Name]
		if !ok {
			continue
		}
		sh := shape{name: r.Name}
		text := grammar.ExprString(renameRefs(r.Expr, func(name string) string {
			if _, ok := kinds[name]; ok {
				sh.refs = append(sh.refs, name)
				return "§"
			}
			return name
		}))
		sh.text = kind + "\x00" + text
		shapes = append(shapes, sh)
	}
	class := map[string]int{}
	n := 0
	for {
		ids := map[string]int{}
		next := map[string]int{}
		for _, sh := range shapes {
			var b strings.Builder
			b.WriteString(strconv.Itoa(class[sh.name]))
			b.WriteString("\x00")
			b.WriteString(sh.text)
			for _, r := range sh.refs {
				b.WriteString("\x00")
				b.WriteString(strconv.Itoa(class[r]))
			}
			k := b.String()
			id, ok := ids[k]
			if !ok {
				id = len(ids)
				ids[k] = id
			}
			next[sh.name] = id
		}
		class = next
		if len(ids) == n {
			break
		}
		n = len(ids)
	}
	rep := map[int]string{}
	rename := map[string]string{}
	for _, r := range g.Rules {
		c, ok := class[r.Name]
		if !ok {
			continue
		}
		if first, ok := rep[c]; ok {
			rename[r.Name] = first
		} else {
			rep[c] = r.Name
		}
	}
	if len(rename) == 0 {
		return 0
	}
	var kept []*grammar.Rule
	for _, r := range g.Rules {
		if _, gone := rename[r.Name]; gone {
			continue
		}
		r.Expr = dedup(renameRefs(r.Expr, func(name string) string {
			if to, ok := rename[name]; ok {
				return to
			}
			return name
		}))
		kept = append(kept, r)
	}
	g.Rules = kept
	return len(rename)
}

// dedup drops repeated alternatives of a rule's top-level alternation.
func dedup(e grammar.Expr) grammar.Expr {
	x, ok := e.(*grammar.Alt)
	if !ok {
		return e
	}
	seen := map[string]bool{}
	var alts []grammar.Expr
	for _, a := range x.X {
		if k := grammar.ExprString(a); !seen[k] {
			seen[k] = true
			alts = append(alts, a)
		}
	}
	return altOf(alts)
}

func renameRefs(e grammar.Expr, rename func(string) string) grammar.Expr {
	if x, ok := e.(*grammar.Ref); ok {
		if n := rename(x.Name); n != x.Name {
			return &grammar.Ref{Name: n, P: x.P}
		}
		return e
	}
	return mapKids(e, func(k grammar.Expr) grammar.Expr { return renameRefs(k, rename) })
}

// mapKids returns a copy of an alternation, concatenation or repetition
// with f applied to its members, and other expressions as they are.
func mapKids(e grammar.Expr, f func(grammar.Expr) grammar.Expr) grammar.Expr {
	switch x := e.(type) {
	case *grammar.Alt:
		out := &grammar.Alt{P: x.P}
		for _, a := range x.X {
			out.X = append(out.X, f(a))
		}
		return out
	case *grammar.Seq:
		out := &grammar.Seq{P: x.P}
		for _, a := range x.X {
			out.X = append(out.X, f(a))
		}
		return out
	case *grammar.Repeat:
		return &grammar.Repeat{X: f(x.X), Min: x.Min, Max: x.Max, P: x.P}
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
