package solver

import (
	"fmt"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/pattern"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// Match expressions, for the solver, are pattern trees: the derivations,
// from the quantified nonterminal, of the pattern's text with its
// nonterminals as open leaves (holes). A node matches if a pattern tree is
// a prefix of its derivation tree, as ISLa defines matching (the
// validator's matching by text cuts is the same on complete trees). On an
// open tree, matching is three-valued: an open leaf where the pattern goes
// on below it may still match or not.

// maxPatternTrees bounds the derivations of one pattern. A pattern with
// more derivations would make the solver miss matches, so it is an error.
const maxPatternTrees = 64

// patternTrees returns the pattern trees of a match expression for the
// nonterminal typ: the derivations of each variant.
func (s *Solver) patternTrees(m *isla.CompiledMatch, typ string) ([]*pattern.Tree, error) {
	rhs := s.spec.Graph().RHS(typ)
	if rhs == nil {
		return nil, fmt.Errorf("match expressions on <%s> are not supported by the solver", typ)
	}
	var out []*pattern.Tree
	for _, variant := range m.Variants {
		var toks []pattern.Token
		for _, e := range variant {
			if e.Label < 0 {
				toks = pattern.AppendText(toks, e.Lit)
				continue
			}
			toks = append(toks, pattern.Token{Hole: true, Label: s.spec.Labels().Names[e.Label], Bind: e.Bind})
		}
		p := pattern.NewParser(s.spec.Graph(), rhs, toks)
		trees := p.Derive(rhs, 0, len(toks), maxPatternTrees+1)
		if len(trees)+len(out) > maxPatternTrees {
			return nil, fmt.Errorf("a match expression on <%s> has more than %d derivations", typ, maxPatternTrees)
		}
		out = append(out, trees...)
	}
	return out, nil
}

// matchTree matches the pattern tree p against the node t at the same
// place: triTrue with the binders set in binds, triFalse if t can never
// match, triUnknown if open leaves of t decide.
func matchTree(p *pattern.Tree, t *stree, binds []int32) tri {
	if p.G != t.g {
		return triFalse
	}
	if p.Hole {
		if p.Bind >= 0 {
			binds[p.Bind] = t.id
		}
		return triTrue
	}
	if t.open {
		return triUnknown
	}
	switch p.G.Kind {
	case grammar.KindLit:
		return triTrue
	case grammar.KindClass:
		return triOf(p.Val == t.val)
	}
	if len(p.Kids) != len(t.kids) {
		return triFalse
	}
	r := triTrue
	for i, k := range p.Kids {
		switch matchTree(k, t.kids[i], binds) {
		case triFalse:
			return triFalse
		case triUnknown:
			r = triUnknown
		}
	}
	return r
}

// internalRefs adds the reference nodes inside pattern trees that are not
// holes: occurrences whose derivation a pattern fixes.
func internalRefs(p *pattern.Tree, set map[*grammar.Node]bool) {
	if p.Hole {
		return
	}
	if p.G.Kind == grammar.KindRef {
		set[p.G] = true
	}
	for _, k := range p.Kids {
		internalRefs(k, set)
	}
}
