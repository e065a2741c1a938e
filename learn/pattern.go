package learn

import (
	"fmt"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// A Pattern renders a k-path as the grammar context it stands for (TRIBBLE,
// section 5.2): a synthesized derivation of the nonterminal Rule in which
// each symbol of the path is expanded inline, within the right-hand side of
// the symbol before it, and every choice on the way to the next symbol is
// resolved. The path <UnaryExpr>#15 -> <AddExpr>#36 -> "-"#11 of the
// expression grammar becomes the pattern
//
//	<MultExpr> ("*" | "/" | "%") "(" <AddExpr> "-" <MultExpr> ")"
//
// of a <MultExpr>: a product whose right factor is a parenthesised
// difference. Nonterminals left in the pattern stand for anything they
// derive.
type Pattern struct {
	// Rule is the nonterminal whose derivations the pattern describes: the
	// rule in which the path's first symbol occurs, or, when the first
	// symbol stands for several occurrences (grammar.ByNonterminal), that
	// symbol's nonterminal itself.
	Rule string
	// Expr is the pattern in the grammar notation's terms.
	Expr grammar.Expr
}

// String returns the pattern in the grammar notation, on one line.
func (p *Pattern) String() string { return grammar.ExprString(p.Expr) }

// NewPattern returns the pattern of path p of graph gr. Under
// grammar.ByNonterminal, where a symbol may stand for several occurrences,
// each step takes the first occurrence (by node ID) that continues the path.
func NewPattern(gr *grammar.Graph, p grammar.KPath) (*Pattern, error) {
	if len(p) == 0 {
		return nil, fmt.Errorf("learn: empty path")
	}
	for _, s := range p {
		if s < 0 || int(s) >= len(gr.Symbols) {
			return nil, fmt.Errorf("learn: symbol %d is not in the graph", s)
		}
	}
	// Resolve the path to graph nodes: nodes[i+1] lies in the right-hand side
	// of nodes[i], reached through synthetic nodes only.
	nodes := make([]*grammar.Node, len(p))
	first := gr.Symbols[p[0]].Nodes
	nodes[0] = first[0]
	for i := 1; i < len(p); i++ {
		prev := nodes[i-1]
		if prev.Kind != grammar.KindRef {
			return nil, fmt.Errorf("learn: %s has no successors in a path", prev)
		}
		for _, n := range gr.Symbols[p[i]].Nodes {
			if route(prev.Children[0], n) {
				nodes[i] = n
				break
			}
		}
		if nodes[i] == nil {
			return nil, fmt.Errorf("learn: %s does not follow %s in the graph", gr.Symbols[p[i]], gr.Symbols[p[i-1]])
		}
	}
	var x grammar.Expr = plainExpr(nodes[len(nodes)-1])
	for i := len(nodes) - 2; i >= 0; i-- {
		x, _ = resolve(nodes[i].Children[0], nodes[i+1], x)
	}
	if len(first) > 1 {
		// The first symbol has no single context: describe its expansion.
		return &Pattern{Rule: nodes[0].Name, Expr: x}, nil
	}
	rhs := gr.RHS(nodes[0].Rule)
	if rhs == nil {
		return nil, fmt.Errorf("learn: %s stands in no rule of the graph", nodes[0])
	}
	x, _ = resolve(rhs, nodes[0], x)
	return &Pattern{Rule: nodes[0].Rule, Expr: x}, nil
}

// route reports whether target is n or lies below n through synthetic nodes
// only.
func route(n, target *grammar.Node) bool {
	if n == target {
		return true
	}
	if n.Symbolic() {
		return false
	}
	for _, c := range n.Children {
		if route(c, target) {
			return true
		}
	}
	return false
}

// resolve returns the expression of the part of a right-hand side rooted at
// n, with target (reached through synthetic nodes) replaced by inner and every
// alternation on the way to it reduced to the alternative that leads there.
// It reports whether target was found.
func resolve(n, target *grammar.Node, inner grammar.Expr) (grammar.Expr, bool) {
	if n == target {
		return inner, true
	}
	if n.Symbolic() {
		return plainExpr(n), false
	}
	switch n.Kind {
	case grammar.KindAlt:
		for _, c := range n.Children {
			if x, ok := resolve(c, target, inner); ok {
				return x, true
			}
		}
	case grammar.KindSeq:
		xs := make([]grammar.Expr, len(n.Children))
		found := false
		for i, c := range n.Children {
			var ok bool
			xs[i], ok = resolve(c, target, inner)
			found = found || ok
		}
		if found {
			return seqExpr(xs), true
		}
	case grammar.KindRepeat:
		x, ok := resolve(n.Children[0], target, inner)
		if !ok {
			break
		}
		if n.Max == 1 {
			return x, true // an option that is taken
		}
		plain := plainExpr(n.Children[0])
		if grammar.EqualExpr(x, plain) {
			// The path only says that the element occurs.
			return &grammar.Repeat{X: plain, Min: max(n.Min, 1), Max: n.Max}, true
		}
		// One repetition takes the path; the others are free.
		any := &grammar.Repeat{X: plain, Min: 0, Max: grammar.Unbounded}
		return seqExpr([]grammar.Expr{any, x, any}), true
	}
	return plainExpr(n), false
}

// plainExpr returns the expression a graph node was compiled from, not
// following references.
func plainExpr(n *grammar.Node) grammar.Expr {
	switch n.Kind {
	case grammar.KindRef:
		return &grammar.Ref{Name: n.Name}
	case grammar.KindLit:
		return &grammar.Lit{S: n.Lit}
	case grammar.KindClass:
		return n.Class
	case grammar.KindAlt:
		xs := make([]grammar.Expr, len(n.Children))
		for i, c := range n.Children {
			xs[i] = plainExpr(c)
		}
		return &grammar.Alt{X: xs}
	case grammar.KindSeq:
		xs := make([]grammar.Expr, len(n.Children))
		for i, c := range n.Children {
			xs[i] = plainExpr(c)
		}
		return &grammar.Seq{X: xs}
	case grammar.KindRepeat:
		return &grammar.Repeat{X: plainExpr(n.Children[0]), Min: n.Min, Max: n.Max}
	}
	return &grammar.Alt{} // unknown kinds derive nothing
}

// seqExpr returns the concatenation of xs, splicing in the elements of
// concatenations among them so that the pattern prints without needless
// parentheses.
func seqExpr(xs []grammar.Expr) grammar.Expr {
	var out []grammar.Expr
	for _, x := range xs {
		if s, ok := x.(*grammar.Seq); ok {
			out = append(out, s.X...)
		} else {
			out = append(out, x)
		}
	}
	if len(out) == 1 {
		return out[0]
	}
	return &grammar.Seq{X: out}
}
