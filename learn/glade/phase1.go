package glade

import "fmt"

// phaseOne generalizes one seed into a regular expression (section 4 of the
// paper): it starts from [seed]rep and resolves one bracketed string per
// step, last created first, until none is left.
func (s *synth) phaseOne(seedIndex int, seed string) (*node, error) {
	root := &node{kind: kindHole, typ: holeRep, ex: seed, seed: seedIndex}
	stack := []*node{root}
	steps := 0
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		steps++
		h.step = steps
		step := Step{Name: fmt.Sprintf("R%d", steps), Seed: seedIndex, Context: [2]string{h.ctx.pre, h.ctx.post}}
		if s.cfg.trace {
			step.Language = root.String()
			step.Bracket = "[" + h.ex + "]" + h.typ.String()
		}
		var err error
		if h.typ == holeRep {
			err = s.choose(step, s.repCandidates(root, h, &stack))
		} else {
			err = s.choose(step, s.altCandidates(root, h, &stack))
		}
		if err != nil {
			return nil, err
		}
	}
	return root, nil
}

// checks returns the checks γρδ for the residuals (in both contexts with
// extra contexts); choose leaves out those in the current language.
func checks(c context2, residuals ...string) []string {
	var out []string
	for _, r := range residuals {
		out = append(out, c.wrap(r)...)
	}
	return uniq(out...)
}

// repCandidates yields the candidates of a repetition step on [α]rep in the
// paper's order: α = α1 α2 α3 with shorter α1 first, then longer α2, each as
// α1([α2]alt)*[α3]rep; last the constant α.
func (s *synth) repCandidates(root, h *node, stack *[]*node) func() (cand, bool) {
	ex, n := h.ex, len(h.ex)
	init, length := 0, n
	last := false
	return func() (cand, bool) {
		for init < n {
			i, l := init, length
			length--
			if length < 1 {
				init++
				length = n - init
			}
			a1, a2, a3 := ex[:i], ex[i:i+l], ex[i+l:]
			gen := a1 + "([" + a2 + "]alt)*"
			if a3 != "" {
				gen += "[" + a3 + "]rep"
			}
			return cand{
				gen:    gen,
				checks: checks(h.ctx, a1+a3, a1+a2+a2+a3),
				root:   root,
				apply: func() {
					c := h.ctx
					if !c.extra {
						c.xpre, c.xpost = c.pre, c.post
					}
					star := &node{kind: kindHole, typ: holeAlt, ex: a2, seed: h.seed,
						ctx: context2{c.pre + a1, a3 + c.post, c.xpre + a1, a3 + c.xpost, c.extra}}
					h.kind, h.pre, h.star, h.restEx = kindSeq, constSets(a1), star, a3
					*stack = append(*stack, star)
					if a3 != "" {
						h.rest = &node{kind: kindHole, typ: holeRep, ex: a3, seed: h.seed,
							ctx: context2{c.pre + a1 + a2, c.post, c.xpre + a1, c.xpost, s.cfg.extra}}
						*stack = append(*stack, h.rest)
					}
					s.stars = append(s.stars, h)
				},
			}, true
		}
		if last {
			return cand{}, false
		}
		last = true
		return cand{gen: ex, last: true, apply: func() { h.kind, h.pre = kindSeq, constSets(ex) }}, true
	}
}

// altCandidates yields the candidates of an alternation step on [α]alt in
// the paper's order: α = α1 α2 with shorter α1 first, each as
// [α1]rep+[α2]alt; last [α]rep.
func (s *synth) altCandidates(root, h *node, stack *[]*node) func() (cand, bool) {
	ex := h.ex
	i := 1
	last := false
	return func() (cand, bool) {
		if i < len(ex) {
			a1, a2 := ex[:i], ex[i:]
			i++
			return cand{
				gen:    "[" + a1 + "]rep+[" + a2 + "]alt",
				checks: checks(h.ctx, a1, a2),
				root:   root,
				apply: func() {
					h.kind = kindAlt
					c := h.ctx
					if !c.extra {
						c.xpre, c.xpost = c.pre, c.post
					}
					h.first = &node{kind: kindHole, typ: holeRep, ex: a1, seed: h.seed,
						ctx: context2{c.pre, a2 + c.post, c.xpre, c.xpost, s.cfg.extra}}
					h.second = &node{kind: kindHole, typ: holeAlt, ex: a2, seed: h.seed,
						ctx: context2{c.pre + a1, c.post, c.xpre, c.xpost, s.cfg.extra}}
					*stack = append(*stack, h.first, h.second)
				},
			}, true
		}
		if last {
			return cand{}, false
		}
		last = true
		return cand{gen: "[" + ex + "]rep", last: true, apply: func() {
			h.typ = holeRep
			*stack = append(*stack, h)
		}}, true
	}
}
