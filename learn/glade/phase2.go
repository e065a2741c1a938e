package glade

import (
	"fmt"
	"strconv"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// phaseTwo merges repetition subexpressions (section 5 of the paper): for
// every pair of stars (A'i, A'j), in the order of their steps, it equates
// the two if the checks γi ρj δi and γj ρi δj pass, where (γ, δ) is the
// context of a star's body and ρ its body's string repeated twice. Once
// stars are merged, a candidate equates their classes, and the checks are
// those of every pair of stars across the two classes.
func (s *synth) phaseTwo() error {
	s.class = make([]int, len(s.stars))
	for i := range s.class {
		s.class[i] = i
	}
	k := 0
	for i := range s.stars {
		for j := i + 1; j < len(s.stars); j++ {
			if s.find(i) == s.find(j) {
				continue
			}
			a, b := s.stars[i], s.stars[j]
			// The candidate equates the classes of A'i and A'j: every star
			// of one must stand where every star of the other stands.
			var checks []string
			for x := range s.stars {
				if s.find(x) != s.find(i) {
					continue
				}
				for y := range s.stars {
					if s.find(y) != s.find(j) {
						continue
					}
					p, q := s.stars[x].star, s.stars[y].star
					checks = append(checks, p.ctx.wrap(q.ex+q.ex)...)
					checks = append(checks, q.ctx.wrap(p.ex+p.ex)...)
				}
			}
			k++
			step := Step{Name: fmt.Sprintf("C%d", k)}
			if s.cfg.trace {
				step.Bracket = "(" + starName(a) + ", " + starName(b) + ")"
			}
			i, j := i, j
			merge := cand{gen: "merge " + starName(a) + " " + starName(b), checks: uniq(checks...), apply: func() {
				s.class[s.find(j)] = s.find(i)
				s.stats.Merges++
			}}
			keep := cand{gen: "keep", last: true, apply: func() {}}
			n := 0
			err := s.choose(step, func() (cand, bool) {
				n++
				switch n {
				case 1:
					return merge, true
				case 2:
					return keep, true
				}
				return cand{}, false
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *synth) find(i int) int {
	for s.class[i] != i {
		s.class[i] = s.class[s.class[i]]
		i = s.class[i]
	}
	return i
}

// starName names the repetition subexpression of a star as the paper does:
// A'R<step>, with the seed number for seeds after the first.
func starName(n *node) string {
	if n.seed > 0 {
		return fmt.Sprintf("A'S%dR%d", n.seed+1, n.step)
	}
	return fmt.Sprintf("A'R%d", n.step)
}

// regexGrammar translates the merged expressions into a grammar: <start>
// derives the union of the seeds' expressions, and each class of merged
// stars is a nonterminal <repN> deriving the union of its stars.
func (s *synth) regexGrammar() *grammar.Grammar {
	return s.exprGrammar(func(*node) (string, bool) { return "", false }).g
}

// A builtGrammar is a grammar under construction and the naming of the
// nodes that have their own nonterminal.
type builtGrammar struct {
	g     *grammar.Grammar
	named func(*node) (string, bool)
}

// exprGrammar builds the <start> and <repN> rules; a node for which named
// returns a name appears as a reference to it (the caller adds its rule).
func (s *synth) exprGrammar(named func(*node) (string, bool)) builtGrammar {
	s.repNames = map[int]string{}
	var order []int
	for i := range s.stars {
		c := s.find(i)
		if _, ok := s.repNames[c]; !ok {
			s.repNames[c] = "rep" + strconv.Itoa(len(order)+1)
			order = append(order, c)
		}
	}
	s.starIndex = map[*node]int{}
	for i, st := range s.stars {
		s.starIndex[st] = i
	}
	g := &grammar.Grammar{Start: "start"}
	var starts []grammar.Expr
	for _, r := range s.roots {
		starts = append(starts, s.ref(r, named))
	}
	g.Rules = append(g.Rules, &grammar.Rule{Name: "start", Expr: alt(starts)})
	for _, c := range order {
		var xs []grammar.Expr
		for i, st := range s.stars {
			if s.find(i) == c {
				xs = append(xs, &grammar.Repeat{X: s.ref(st.star, named), Min: 0, Max: grammar.Unbounded})
			}
		}
		g.Rules = append(g.Rules, &grammar.Rule{Name: s.repNames[c], Expr: alt(xs)})
	}
	return builtGrammar{g: g, named: named}
}

// ref is a reference to n's nonterminal if it has one, else its expression.
func (s *synth) ref(n *node, named func(*node) (string, bool)) grammar.Expr {
	if nm, ok := named(n); ok {
		return &grammar.Ref{Name: nm}
	}
	return s.nodeExpr(n, named)
}

// nodeExpr is the expression of n, with references for the nodes below it
// that have a nonterminal.
func (s *synth) nodeExpr(n *node, named func(*node) (string, bool)) grammar.Expr {
	switch n.kind {
	case kindSeq:
		var xs []grammar.Expr
		xs = append(xs, setsExprs(n.pre)...)
		if n.star != nil {
			xs = append(xs, &grammar.Ref{Name: s.repNames[s.find(s.starIndex[n])]})
		}
		if n.rest != nil {
			xs = append(xs, s.ref(n.rest, named))
		}
		return seq(xs)
	case kindAlt:
		var xs []grammar.Expr
		for m := n; ; m = m.second {
			if m.kind != kindAlt {
				xs = append(xs, s.ref(m, named))
				break
			}
			xs = append(xs, s.ref(m.first, named))
			if _, ok := named(m.second); ok {
				xs = append(xs, s.ref(m.second, named))
				break
			}
		}
		return alt(xs)
	}
	return &grammar.Lit{S: n.ex}
}

// setsExprs turns terminal sets into literals (runs of single characters)
// and classes.
func setsExprs(sets []charSet) []grammar.Expr {
	var out []grammar.Expr
	var lit []byte
	flush := func() {
		if len(lit) > 0 {
			out = append(out, &grammar.Lit{S: string(lit)})
			lit = nil
		}
	}
	for _, set := range sets {
		if c, ok := set.only(); ok {
			lit = append(lit, c)
			continue
		}
		flush()
		out = append(out, classOf(set))
	}
	flush()
	return out
}

func classOf(set charSet) *grammar.Class {
	c := &grammar.Class{}
	for b := 0; b < 256; b++ {
		if !set.has(byte(b)) {
			continue
		}
		if b > 0x7f {
			c.Bytes = true
		}
		if n := len(c.Ranges); n > 0 && c.Ranges[n-1].Hi == rune(b-1) {
			c.Ranges[n-1].Hi = rune(b)
			continue
		}
		c.Ranges = append(c.Ranges, grammar.Range{Lo: rune(b), Hi: rune(b)})
	}
	return c
}

// seq makes a concatenation of xs, flattening nested ones and dropping empty
// literals; one element is itself, none the empty literal.
func seq(xs []grammar.Expr) grammar.Expr {
	var out []grammar.Expr
	for _, x := range xs {
		switch x := x.(type) {
		case *grammar.Seq:
			out = append(out, x.X...)
			continue
		case *grammar.Lit:
			if x.S == "" {
				continue
			}
			if n := len(out); n > 0 {
				if l, ok := out[n-1].(*grammar.Lit); ok {
					out[n-1] = &grammar.Lit{S: l.S + x.S}
					continue
				}
			}
		}
		out = append(out, x)
	}
	switch len(out) {
	case 0:
		return &grammar.Lit{}
	case 1:
		return out[0]
	}
	return &grammar.Seq{X: out}
}

// alt makes an alternation of xs without duplicates, flattening nested
// ones; one alternative is itself.
func alt(xs []grammar.Expr) grammar.Expr {
	var out []grammar.Expr
	add := func(x grammar.Expr) {
		for _, y := range out {
			if grammar.EqualExpr(x, y) {
				return
			}
		}
		out = append(out, x)
	}
	for _, x := range xs {
		if a, ok := x.(*grammar.Alt); ok {
			for _, y := range a.X {
				add(y)
			}
			continue
		}
		add(x)
	}
	if len(out) == 1 {
		return out[0]
	}
	return &grammar.Alt{X: out}
}
