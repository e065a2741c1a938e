// Package glade synthesizes a context-free grammar from a few valid inputs
// and a membership oracle, after GLADE (Bastani, Sharma, Aiken and Liang,
// "Synthesizing Program Input Grammars", PLDI 2017).
//
// Synthesize runs the phases of the paper on every seed:
//
//   - Phase one (section 4) generalizes the seed into a regular expression.
//     It starts from [seed]rep and resolves one bracketed string per step:
//     a repetition step turns [α]rep into α1([α2]alt)*[α3]rep, an
//     alternation step turns [α]alt into [α1]rep+[α2]alt; the candidates
//     are tried in the paper's order of preference and the first whose
//     checks the oracle all accepts is taken. A check is γρδ: a residual ρ
//     of the candidate (α1α3 and α1α2α2α3 for a repetition, α1 and α2 for
//     an alternation) in the context (γ, δ) of the bracket; checks already
//     in the current language are left out, and a candidate left without
//     checks is not taken (it adds no string the oracle vetted; this is why
//     steps R3 and R7 of Figure 2 do not star a star's body again).
//   - Character generalization (section 6.2) tries every other character
//     of the alphabet in place of each terminal.
//   - Phase two (section 5) equates pairs of repetition subexpressions
//     (A'i, A'j) when the checks γi ρj δi and γj ρi δj pass, which makes
//     the grammar recursive. Once stars are merged, a candidate equates
//     their classes and is checked for every pair of stars across them
//     (the paper leaves this open; checking only the pair merged nearly
//     all stars of real subjects into one nonterminal).
//
// Two things go beyond the paper, each switchable. WithExtraContexts (on by
// default) checks every candidate also in a second context, in which the
// enclosing repetitions are taken zero times, as the authors' code does; it
// raised the precision of the mined grammars several times over on
// kfuzz's evaluation subjects. WithRecursion (on by default) runs the
// recursion stage after phase two (see recursionStage in recursion.go and
// docs/glade.md): subexpressions that a bracketed subexpression encloses in
// a seed gain it as an alternative when the oracle accepts the
// substitution, which makes nesting recursive where GLADE's merges of
// stars do not.
//
// WithTrees (off by default) replaces phases one and two and the
// recursion stage with the tree stage (bubble.go), after Arvada (Kulkarni,
// Lemieux and Sen, ASE 2021) and TreeVada (ICSE 2024): the seeds become
// trees with a node per bracket pair and per escape in a string, sibling
// sequences are bubbled into new nonterminals, and nonterminals merge when
// the oracle accepts each one's strings in the other's contexts, until
// nothing more merges; then a nonterminal gains as alternatives those
// whose strings it takes, parts and nonterminals that can be left out
// derive the empty string, character generalization widens the bytes each
// derives and gives nonterminals of sequences the single bytes they take,
// and the inner characters of words (after one of their own label's bytes
// or between two letters or digits) get a nonterminal of their own when
// more bytes pass there; empty strings and inner characters are kept only
// if inputs sampled from the grammar are not more often rejected. A leaf is a byte
// or one non-ASCII character. WithPrecisionGuard (off by default) applies
// the same sampled check to every merge. On kfuzz's
// evaluation subjects it learns the recursion GLADE misses (docs/glade.md,
// docs/mine-eval.md).
//
// Several seeds are generalized one after the other (section 6.1); a seed
// already in the language of the earlier ones is skipped, and phase two
// merges across seeds.
//
// The result is a grammar in kfuzz's notation (package
// fuzzharness/grammar): <start> derives the union of the seeds'
// expressions, and each class of merged stars is a nonterminal <repN>.
// For the paper's example (seed <a>hi</a>, Figures 2 and 3):
//
//	<start> ::= <rep1> ;
//	<rep1> ::= ("<a>" <rep1> "</a>")* | ("h" | "i")* ;
//
// WithTrace records every step, its candidates and checks, for tests and
// for understanding a result. The oracle is wrapped in a cache and a
// counter; every batch of checks is answered on all cores, and the result
// does not depend on their number.
package glade
