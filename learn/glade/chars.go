package glade

import (
	"fmt"
	"strings"
)

// generalizeChars is GLADE's character generalization (section 6.2): every
// terminal σi of every constant string α = σ1…σk of the expression is tried
// against every other character σ of the alphabet, with the check
// γσ1…σi−1 σ σi+1…σk α3 δ, where (γ, δ) is the context of the bracket that
// α came from and α3 the string that followed α in it. Each accepted σ joins
// σi's class.
func (s *synth) generalizeChars(root *node) error {
	var seqs []*node
	root.walk(func(n *node) {
		if n.kind == kindSeq && len(n.pre) > 0 {
			seqs = append(seqs, n)
		}
	})
	k := 0
	for _, n := range seqs {
		text := make([]byte, len(n.pre))
		for i, set := range n.pre {
			text[i], _ = set.only()
		}
		var inputs [][]byte
		type probe struct {
			pos int
			c   byte
		}
		var probes []probe
		for i := range text {
			for _, c := range s.cfg.alphabet {
				if c == text[i] {
					continue
				}
				v := string(text[:i]) + string(c) + string(text[i+1:])
				rs := []string{v + n.restEx}
				if s.cfg.extra && n.star != nil {
					rs = append(rs, v+n.star.ex+n.restEx)
				}
				for _, r := range rs {
					for _, in := range n.ctx.wrap(r) {
						inputs = append(inputs, []byte(in))
						probes = append(probes, probe{i, c})
					}
				}
			}
		}
		if len(inputs) == 0 {
			continue
		}
		oks, err := s.query(inputs)
		if err != nil {
			return err
		}
		steps := make([]Step, len(text))
		pass := map[probe]bool{}
		for j, p := range probes {
			if ok, seen := pass[p]; !seen || ok {
				pass[p] = oks[j]
			}
		}
		for j, p := range probes {
			if pass[p] {
				n.pre[p.pos].add(p.c)
			}
			if s.cfg.trace {
				steps[p.pos].Candidates = append(steps[p.pos].Candidates, Candidate{
					Generalization: printable(string([]byte{p.c})),
					Checks:         []Check{{Input: string(inputs[j]), Accepted: oks[j]}},
				})
			}
		}
		for i := range text {
			k++
			st := steps[i]
			st.Name = fmt.Sprintf("X%d", k)
			st.Seed = n.seed
			st.Context = [2]string{n.ctx.pre, n.ctx.post}
			if s.cfg.trace {
				st.Bracket = string(text[:i]) + "[" + string(text[i:i+1]) + "]" + string(text[i+1:])
				var b strings.Builder
				writeSets(&b, n.pre[i:i+1])
				st.Chosen = b.String()
			}
			s.record(st)
		}
	}
	return nil
}

// walk calls f on n and every node below it, parents first.
func (n *node) walk(f func(*node)) {
	if n == nil {
		return
	}
	f(n)
	switch n.kind {
	case kindSeq:
		n.star.walk(f)
		n.rest.walk(f)
	case kindAlt:
		n.first.walk(f)
		n.second.walk(f)
	}
}
