package glade

import (
	"fmt"
	"strconv"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// recBatch is the number of substitution candidates whose checks go to the
// oracle in one batch.
const recBatch = 256

// The recursion stage goes beyond GLADE, in the spirit of Arvada and
// TreeVada: GLADE makes a grammar recursive only by equating two stars,
// so nesting that the seeds show at other places (a JSON value that is an
// object, a list element that is a list) is lost. The stage treats every
// subexpression of phase one — every repetition result α1(α2)*α3, each of
// its suffixes (the sibling sequences after a prefix) and every
// alternation — as a candidate nonterminal A with the seed string it
// derived and its context (γ, δ). For every ordered pair (A, B) of
// candidates with different strings, it checks whether B may stand where A
// stands: γ β δ for β the string of B, B's shortest variant (its stars
// taken zero times, first alternatives) and its longer variant (stars
// taken twice, last alternatives). If the oracle accepts all, B becomes an
// alternative of A (A ::= … | B). When B encloses A, as an object encloses
// its values or an element its content, this is the nesting the brackets
// imply, and the grammar becomes recursive there. Checks use the seeds'
// own contexts, so all pairs are independent and are checked in batches;
// the result does not depend on their order.
type recGrammar struct {
	s     *synth
	nodes []*node
	extra map[*node][]*node // A -> the Bs that may stand for it
}

func (s *synth) recursionStage(_ [][]byte) error {
	r := &recGrammar{s: s, extra: map[*node][]*node{}}
	for _, root := range s.roots {
		root.walk(func(n *node) {
			if n.kind != kindHole && n.ex != "" {
				r.nodes = append(r.nodes, n)
			}
		})
	}
	type pair struct {
		a, b   *node
		checks []string
	}
	var pairs []pair
	for _, a := range r.nodes {
		for _, b := range r.nodes {
			if a.ex == b.ex {
				continue
			}
			var checks []string
			for _, beta := range uniq(b.ex, b.sample(false), b.sample(true)) {
				if beta == a.ex {
					continue
				}
				checks = append(checks, a.ctx.pre+beta+a.ctx.post)
			}
			if len(checks) > 0 {
				pairs = append(pairs, pair{a, b, checks})
			}
		}
	}
	k := 0
	for lo := 0; lo < len(pairs); lo += recBatch {
		batch := pairs[lo:min(lo+recBatch, len(pairs))]
		var inputs [][]byte
		for _, p := range batch {
			for _, c := range p.checks {
				inputs = append(inputs, []byte(c))
			}
		}
		oks, err := s.query(inputs)
		if err != nil {
			return err
		}
		j := 0
		for _, p := range batch {
			pass := true
			var cs []Check
			for _, c := range p.checks {
				pass = pass && oks[j]
				cs = append(cs, Check{Input: c, Accepted: oks[j]})
				j++
			}
			k++
			step := Step{Name: fmt.Sprintf("N%d", k), Seed: p.a.seed, Context: [2]string{p.a.ctx.pre, p.a.ctx.post}}
			sub := Candidate{Generalization: "[" + p.a.ex + "] ::= … | [" + p.b.ex + "]", Checks: cs}
			if s.cfg.trace {
				step.Bracket = "[" + p.a.ex + "]"
				step.Candidates = []Candidate{sub}
				if !pass {
					step.Candidates = append(step.Candidates, Candidate{Generalization: "keep"})
				}
			}
			step.Chosen = "keep"
			if pass {
				step.Chosen = sub.Generalization
				r.extra[p.a] = append(r.extra[p.a], p.b)
				s.stats.Recursions++
			}
			s.record(step)
		}
	}
	s.rec = r
	return nil
}

func uniq(xs ...string) []string {
	var out []string
	for _, x := range xs {
		dup := false
		for _, y := range out {
			dup = dup || x == y
		}
		if !dup {
			out = append(out, x)
		}
	}
	return out
}

// sample returns a string of n's expression (with the seed's characters):
// stars taken zero times and first alternatives, or, if long, stars taken
// twice and last alternatives.
func (n *node) sample(long bool) string {
	switch n.kind {
	case kindSeq:
		s := n.ex[:len(n.pre)]
		if n.star != nil && long {
			b := n.star.sample(true)
			s += b + b
		}
		if n.rest != nil {
			s += n.rest.sample(long)
		}
		return s
	case kindAlt:
		if long {
			return n.second.sample(true)
		}
		return n.first.sample(false)
	}
	return n.ex
}

// grammar is regexGrammar with a nonterminal for every candidate that
// gained alternatives and for every candidate standing for another.
func (r *recGrammar) grammar() *grammar.Grammar {
	s := r.s
	names := map[*node]string{}
	var order []*node
	name := func(n *node) string {
		if nm, ok := names[n]; ok {
			return nm
		}
		nm := "sub" + strconv.Itoa(len(order)+1)
		names[n] = nm
		order = append(order, n)
		return nm
	}
	for _, a := range r.nodes {
		for _, b := range r.extra[a] {
			name(a)
			name(b)
		}
	}
	bg := s.exprGrammar(func(n *node) (string, bool) {
		nm, ok := names[n]
		return nm, ok
	})
	for i := 0; i < len(order); i++ {
		n := order[i]
		xs := []grammar.Expr{s.nodeExpr(n, bg.named)}
		for _, b := range r.extra[n] {
			xs = append(xs, &grammar.Ref{Name: names[b]})
		}
		bg.g.Rules = append(bg.g.Rules, &grammar.Rule{Name: names[n], Expr: alt(xs)})
	}
	return bg.g
}
