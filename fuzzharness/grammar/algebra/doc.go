// Package algebra specializes context-free grammars by patterns combined
// with and, or and not: Input Algebras (R. Gopinath, H. Nemati and
// A. Zeller, "Input Algebras", ICSE 2021). The result is a plain grammar in
// kfuzz's notation whose language is exactly the inputs of the base grammar
// that satisfy the expression, so that generation, k-path seeds, the Earley
// parser and the fuzz harness work on it unchanged.
//
// # Patterns
//
// A Pattern is a nonterminal of the base grammar and a text in its
// language in which <x> stands for any derivation of nonterminal x (a
// hole):
//
//	E=<member> is "":<element>    a JSON member with an empty key
//	N=<value> is null             a null JSON value
//
// ParsePattern parses the text with the Earley parser (holes become extra
// alternatives of their nonterminals); a text the nonterminal cannot derive
// is an error with its column, and an ambiguous text an error that shows
// two of its derivations. The characteristic node of a pattern is the root
// of that derivation; PatternGrammar returns the pattern grammar (one
// nonterminal per nonterminal node of the derivation).
//
// # Expressions
//
// An Expr (ParseExpr) combines pattern names with not, and, or and
// parentheses. A pattern name P holds on an input if its derivation tree
// has at least one subtree that matches P (the paper's <A +P>, the reaching
// grammar); not P if it has none (<A -P>). Algebra.Holds decides this
// directly on a derivation tree, without any specialized grammar; it is the
// oracle the tests compare specialized grammars with.
//
// # Specialized grammars
//
// Algebra.Specialize builds the grammar of an expression. Its nonterminals
// are base nonterminals specialized by a conjunction of literals (a
// disjunction of them for the start symbol, the expression's disjunctive
// normal form), named as the base nonterminal, a colon and the literals:
//
//	+E      at least one instance of pattern E in the subtree
//	-E      none
//	E3      the subtree is pattern E's node 3 (E0 is the characteristic
//	        node; nodes are numbered in pre-order)
//	!E3     the subtree is not pattern E's node 3
//	E3.2    a repetition whose elements after the first two are those of
//	        pattern E's node 3 after its first two
//
// so that <JSON-text:+E&-N> is the start symbol of "E and not N", and
// <member:+E&-N> derives the members that contain E but not N. A
// specialized group stays a group; a specialized quantifier becomes a
// nonterminal named after its rule and its number in the rule
// (<object.1:-N>: the first quantifier of <object>, specialized), unless it
// repeats at most twice or a pattern fixes its repetitions. Everything not
// specialized is the base grammar's, EBNF included.
//
// The construction follows the paper's algebra on rules: a literal at a
// nonterminal is rewritten, for each alternative, into literals on the
// alternative's elements (at least one instance: in this node or in some
// element; none: in no element and not here; a pattern node: this
// alternative, and each element its node), the conjunction brought into
// disjunctive normal form, and each disjunct becomes one alternative. The
// negation of a rule with several specialized elements is the corrected
// one (not X1 B2 | X1 not X2, with B2 the base element), not the paper's
// (not X1 X2 | X1 not X2), which loses the inputs where both elements lack
// the pattern. Contradictory disjuncts are dropped as they arise; then
// empty and non-productive nonterminals are removed, recursively, and the
// unreachable ones. If the start symbol derives nothing, Specialize fails
// with an UnsatisfiableError that names, for each disjunct, the smallest
// set of patterns that cannot hold together ("every <JSON-text> that
// contains Z (...) also contains N (...), but N is forbidden").
//
// Specialized grammars are usually ambiguous even where the base grammar
// is not: validate with the Earley parser. On an ambiguous base grammar an
// input belongs to a specialized grammar if one of its derivation trees
// satisfies the expression.
//
// # Size
//
// The number of specialized nonterminals can grow exponentially with the
// number of patterns. Identical pattern subtrees are shared between
// patterns (hash-consing), and specialized nonterminals of the same base
// nonterminal whose definitions are identical are merged; Options.MaxRules
// (kfuzz specialize -max-rules) bounds the construction. docs/algebra.md
// has measurements.
package algebra
