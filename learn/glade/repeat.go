package glade

import "github.com/seed72891827/kfuzz/fuzzharness/grammar"

// selfConcat reports whether the label sequence ls is l l: the alternative
// a bubble of two nodes of a label merged into that label gives it.
func selfConcat(l int, ls []int) bool { return len(ls) == 2 && ls[0] == l && ls[1] == l }

// concatRule writes the rule of a label A that has the alternative A A as
// a repetition: with its other alternatives A s (for each s of post),
// p A (for each p of pre) and t (the rest), A derives exactly
//
//	X (X | s ...)*   where X = (p ...)* (t ...),
//
// since every A is a concatenation of such Xs followed, anywhere after the
// first, by suffixes s. The language is the same, but A A derives a string
// of n parts in as many ways as there are binary trees of n leaves, which
// makes an Earley parser's derivations grow cubically in the input's length
// (and mined grammars hit the parser's item limit on inputs of a hundred
// bytes), where the repetition has one way for each split into parts.
func concatRule(rest, pre, post []grammar.Expr) grammar.Expr {
	var x grammar.Expr = &grammar.Lit{} // A A alone: only the empty string
	if len(rest) > 0 {
		x = alt(rest)
	}
	if len(pre) > 0 {
		x = seq([]grammar.Expr{&grammar.Repeat{X: alt(pre), Max: grammar.Unbounded}, x})
	}
	return seq([]grammar.Expr{x, &grammar.Repeat{X: alt(append([]grammar.Expr{x}, post...)), Max: grammar.Unbounded}})
}
