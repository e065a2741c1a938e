package glade

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

const (
	// recBatch is the number of substitution candidates whose checks go to
	// the oracle in one batch.
	recBatch = 256
	// recMaxGroups bounds the candidate nonterminals of the recursion stage
	// (the first ones of the seeds, in order), which tests every ordered
	// pair of them.
	recMaxGroups = 300
	// recMaxContexts bounds the contexts of a candidate in which another is
	// checked.
	recMaxContexts = 3
)

// The recursion stage goes beyond GLADE, in the spirit of Arvada and
// TreeVada: GLADE makes a grammar recursive only by equating two stars,
// so nesting that the seeds show at other places (a JSON value that is an
// object, a list element that is a list) is lost.
//
// The stage treats every subexpression of phase one — every repetition
// result α1(α2)*α3, each of its suffixes (the sibling sequences after a
// prefix) and every alternation — as a candidate nonterminal, grouping
// those that derived the same seed string; each has the contexts (γ, δ)
// of its occurrences. For every ordered pair (A, B) in which B encloses A
// in a seed and the nesting is implied by brackets (B's string is
// bracketed, like (…), […], {…} or <…>, or A's context puts A between
// brackets), it checks whether B may stand where A stands: γ β δ for every context of A and for β the string
// of B, B's shortest variant (its stars taken zero times, first
// alternatives) and its longer variant (stars taken twice, last
// alternatives). The pairs that pass form a graph: candidates that may
// stand for each other are merged into one nonterminal (Arvada's merge),
// and a nonterminal gains the others that may stand for it as
// alternatives (A ::= … | B), leaving out those it reaches through another.
// When B encloses A, as an object encloses its values or an element its
// content, this is the nesting the brackets imply, and the grammar becomes
// recursive there. Checks use the seeds' own contexts, so all pairs are
// independent and are checked in batches.
type recGrammar struct {
	s      *synth
	groups [][]*node      // candidates: nodes with the same string
	group  map[*node]int  // node -> its group
	scc    []int          // group -> its component
	comps  [][]int        // component -> its groups
	succ   map[int][]int  // component -> the components that stand for it (reduced)
	named  map[int]string // component -> nonterminal name
	order  []int          // components with a nonterminal, by name
}

func (s *synth) recursionStage(_ [][]byte) error {
	r := &recGrammar{s: s, group: map[*node]int{}}
	byEx := map[string]int{}
	parent := map[*node]*node{}
	for _, root := range s.roots {
		root.walk(func(n *node) {
			for _, c := range []*node{n.star, n.rest, n.first, n.second} {
				if c != nil {
					parent[c] = n
				}
			}
		})
	}
	// encloses[b][a]: a node of group b is a proper ancestor of one of a.
	encloses := map[[2]int]bool{}
	for _, root := range s.roots {
		root.walk(func(n *node) {
			if n.kind == kindHole || n.ex == "" {
				return
			}
			g, ok := byEx[n.ex]
			if !ok {
				if len(r.groups) >= recMaxGroups {
					return
				}
				g = len(r.groups)
				byEx[n.ex] = g
				r.groups = append(r.groups, nil)
			}
			r.groups[g] = append(r.groups[g], n)
			r.group[n] = g
		})
	}
	for n, a := range r.group {
		for p := parent[n]; p != nil; p = parent[p] {
			if b, ok := r.group[p]; ok && b != a {
				encloses[[2]int{b, a}] = true
			}
		}
	}
	type pair struct {
		a, b   int
		checks []string
	}
	var pairs []pair
	for a, as := range r.groups {
		for b, bs := range r.groups {
			if a == b || !encloses[[2]int{b, a}] || !bracketed(r.groups[b][0].ex) && !inBrackets(as[0].ctx) {
				continue
			}
			var betas []string
			for _, n := range bs {
				betas = append(betas, n.ex, n.sample(false), n.sample(true))
			}
			betas = uniq(betas...)
			var checks []string
			for k, an := range as {
				if k == recMaxContexts {
					break
				}
				for _, beta := range betas {
					if beta != an.ex {
						checks = append(checks, an.ctx.wrap(beta)...)
					}
				}
			}
			checks = uniq(checks...)
			if len(checks) > 0 {
				pairs = append(pairs, pair{a, b, checks})
			}
		}
	}
	edge := make([][]bool, len(r.groups))
	for i := range edge {
		edge[i] = make([]bool, len(r.groups))
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
				if s.cfg.trace {
					cs = append(cs, Check{Input: c, Accepted: oks[j]})
				}
				j++
			}
			k++
			a, b := r.groups[p.a][0], r.groups[p.b][0]
			step := Step{Name: fmt.Sprintf("N%d", k), Seed: a.seed, Context: [2]string{a.ctx.pre, a.ctx.post}, Chosen: "keep"}
			sub := Candidate{Generalization: "[" + a.ex + "] ::= … | [" + b.ex + "]", Checks: cs}
			if s.cfg.trace {
				step.Bracket = "[" + a.ex + "]"
				step.Candidates = []Candidate{sub}
				if !pass {
					step.Candidates = append(step.Candidates, Candidate{Generalization: "keep"})
				}
			}
			if pass {
				step.Chosen = sub.Generalization
				edge[p.a][p.b] = true
				s.stats.Recursions++
			}
			s.record(step)
		}
	}
	r.build(edge)
	s.rec = r
	return nil
}

// build merges the groups that stand for each other (the strongly
// connected components of edge) and keeps, between components, only the
// edges not implied by others.
func (r *recGrammar) build(edge [][]bool) {
	n := len(edge)
	reach := make([][]bool, n)
	for i := range reach {
		reach[i] = make([]bool, n)
		stack := []int{i}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for w := range n {
				if edge[v][w] && !reach[i][w] {
					reach[i][w] = true
					stack = append(stack, w)
				}
			}
		}
	}
	r.scc = make([]int, n)
	for i := range r.scc {
		r.scc[i] = -1
	}
	for i := range n {
		if r.scc[i] >= 0 {
			continue
		}
		c := len(r.comps)
		r.comps = append(r.comps, []int{i})
		r.scc[i] = c
		for j := i + 1; j < n; j++ {
			if r.scc[j] < 0 && reach[i][j] && reach[j][i] {
				r.scc[j] = c
				r.comps[c] = append(r.comps[c], j)
			}
		}
	}
	creach := func(x, y int) bool { return reach[r.comps[x][0]][r.comps[y][0]] }
	r.succ = map[int][]int{}
	for x := range r.comps {
		var direct []int
		for y := range r.comps {
			if x != y && creach(x, y) {
				direct = append(direct, y)
			}
		}
		for _, y := range direct {
			implied := false
			for _, z := range direct {
				if z != y && creach(z, y) {
					implied = true
					break
				}
			}
			if !implied {
				r.succ[x] = append(r.succ[x], y)
			}
		}
	}
}

func uniq(xs ...string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
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

// grammar is regexGrammar with a nonterminal <subN> for every component of
// merged candidates that has several members or alternatives, or stands for
// another; its rule derives its members' expressions and its alternatives.
func (r *recGrammar) grammar() *grammar.Grammar {
	s := r.s
	r.named = map[int]string{}
	r.order = nil
	needs := func(c int) bool { return len(r.comps[c]) > 1 || len(r.succ[c]) > 0 }
	for x := range r.comps {
		if needs(x) {
			r.name(x)
		}
		for _, y := range r.succ[x] {
			r.name(y)
		}
	}
	named := func(n *node) (string, bool) {
		g, ok := r.group[n]
		if !ok {
			return "", false
		}
		nm, ok := r.named[r.scc[g]]
		return nm, ok
	}
	bg := s.exprGrammar(named)
	for _, c := range r.order {
		var xs []grammar.Expr
		for _, g := range r.comps[c] {
			for _, n := range r.groups[g] {
				xs = append(xs, s.nodeExpr(n, named))
			}
		}
		for _, y := range r.succ[c] {
			xs = append(xs, &grammar.Ref{Name: r.named[y]})
		}
		bg.g.Rules = append(bg.g.Rules, &grammar.Rule{Name: r.named[c], Expr: alt(xs)})
	}
	return bg.g
}

func (r *recGrammar) name(c int) {
	if _, ok := r.named[c]; !ok {
		r.named[c] = "sub" + strconv.Itoa(len(r.order)+1)
		r.order = append(r.order, c)
	}
}

// bracketed reports whether s starts with an opening bracket and ends with
// a closing one: ( [ { < and ) ] } >.
func bracketed(s string) bool {
	return len(s) >= 2 && strings.IndexByte("([{<", s[0]) >= 0 && strings.IndexByte(")]}>", s[len(s)-1]) >= 0
}

// inBrackets reports whether a context encloses its bracket in brackets.
func inBrackets(c context2) bool {
	return c.pre != "" && c.post != "" && bracketed(c.pre[len(c.pre)-1:]+c.post[:1])
}
