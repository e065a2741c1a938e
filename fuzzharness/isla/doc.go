// Package isla implements ISLa, the input specification language of
// Steinhöfel and Zeller ("Input Invariants", ESEC/FSE 2022): constraints
// over the derivation trees of a context-free grammar, such as "the opening
// and closing tags of every XML element are equal" or "every variable is
// declared before it is used". This package parses constraints (Parse),
// checks them against a grammar graph (Compile) and validates inputs
// (Spec.Check): it parses an input with the grammar's Earley parser,
// evaluates the constraint on the derivation tree, and on failure says which
// quantifier instance failed on which part of the input. Validation needs
// no SMT solver: SMT-LIB terms over concrete strings are evaluated natively.
//
// # Core ISLa
//
// A constraint is an optional constant declaration and a formula:
//
//	const name: <type>;     the constant; "const start: <start>;" if omitted
//	formula
//
// Formulas, from the tightest binding to the loosest:
//
//	(term ...)              an SMT-LIB formula over the variables' strings
//	name(arg, ...)          a predicate formula (see Predicates)
//	forall <type> var in x: formula
//	exists <type> var in x: formula
//	forall <type> var="match expression" in x: formula
//	exists <type> var="match expression" in x: formula
//	forall int var: formula
//	exists int var: formula
//	not formula
//	formula and formula
//	formula or formula
//	formula xor formula
//	formula implies formula
//	formula iff formula
//	( formula )
//
// As in ISLa's grammar, quantifiers and not bind tighter than every binary
// connective, so "forall <a> x: A and B" is "(forall <a> x: A) and B"; the
// body of a quantifier is usually written in parentheses. The binary
// connectives associate to the left. Comments run from '#' to the end of
// the line.
//
// Nonterminals are written in angle brackets; their names are those of the
// grammar. Variables are identifiers: a letter or '_', then letters,
// digits, '_', '-', '^', and '.' between them. Keywords (forall, exists,
// in, not, and, or, xor, implies, iff, const, int, true, false, let) and
// SMT-LIB function names are not variables.
//
// SMT-LIB terms are written as S-expressions: (= x "a"), (str.len x),
// ((_ re.loop 1 3) (re.range "a" "z")), (let ((n (str.len x))) (> n 2)).
// Every variable is of sort String: the text of its tree, or the decimal
// number of a numeric variable. The functions of the theories of integers
// and Unicode strings are available, with the names of SMT-LIB 2.6 and of
// Z3 (str.to.int, str.in.re, str.to.re, int.to.str, (re.loop r lo hi)).
//
// String literals are written in double quotes, with the escapes \" \\ \b
// \t \n \r, \xHH for one byte, and \uHHHH and \u{H...} (up to \u{2ffff})
// for one character. As in ISLa (and unlike SMT-LIB), a quote inside a
// string is written \".
//
// # Simplified ISLa
//
// Parse accepts ISLa's simplified syntax and translates it to core ISLa;
// Constraint.String prints core ISLa, which parses back to an equal
// constraint.
//
//   - Terms may be written in infix and prefix notation: x = y,
//     str.len(x) <= 100, 17 + str.to.int(y) = str.to.int(x). Precedence from
//     the loosest: comparisons (= >= <= > < str.<= str.<), then + and -,
//     then * div mod, then str.++ and re.++, then unary minus; each level
//     associates to the left. (ISLa's own grammar gives + and - a higher
//     precedence than *; this package uses the usual one.)
//   - "in start" may be omitted: a quantifier without "in" searches the
//     constant.
//   - The variable of a quantifier may be omitted; inside it, its
//     nonterminal stands for the variable: exists <assgn>: <assgn> = "x".
//   - A nonterminal used where a variable may stand, not bound that way, is
//     a free nonterminal: a universal quantifier over it is added, pushed
//     into the formula as ISLa pushes it (past conjuncts and disjuncts that
//     do not mention it, and into universal quantifiers).
//   - XPath expressions address children and descendants: x.<a> is the first
//     direct child <a> of x, x.<a>[2] the second, x..<b> every <b> below x;
//     steps chain: <xml-tree>.<xml-open-tag>.<id>. The child step x.<a>[i]
//     becomes a quantifier over <a> in x restricted by the structural
//     predicate nth_child(i, v, x), placed right inside the quantifier that
//     binds x and of its kind ("forall ... implies" or "exists ... and"),
//     so that, like ISLa's match expressions, it restricts x to nodes with
//     such a child. A descendant step becomes a universal quantifier pushed
//     in like a free nonterminal. (ISLa translates child steps into match
//     expressions built from the grammar's alternatives; that needs flat BNF
//     rules, while kfuzz grammars have groups and repetitions, so kfuzz
//     translates without the grammar, with the same meaning.)
//
// # Semantics
//
// A constraint is evaluated on a derivation tree as ISLa sees it: its nodes
// are the nonterminals and terminal leaves of the derivation; the
// alternations, concatenations and repetitions of the grammar graph are
// transparent. A node's children are the symbols its rule derived it with.
// The constant stands for the root. Without a declaration (or with the type
// <start> and a grammar without a rule <start>) the root is a node <start>
// whose only child is the tree of the grammar's start symbol, as in ISLa
// where grammars start with <start> ::= <...>; with "const name: <t>;" the
// input is parsed from <t> and the root is that node.
//
// "forall <t> v in x: F" holds if F holds for every node labeled <t> in the
// subtree of x, x itself included (as ISLa's DerivationTree.filter
// includes its root); "exists" if for some. Nodes are visited in pre-order,
// so a failure names the first failing instance in document order.
//
// A match expression restricts the nodes and binds parts of them. In it,
// {<t> name} binds a subtree labeled <t>, <t> stands for any subtree labeled
// <t>, [...] is optional text and nonterminals (a pattern with n optional
// parts is tried in its 2^n variants), and all other text is literal. The
// escapes \{ \} \[ \] \< \> \\ stand for the character itself, and a
// nonterminal must be one of the grammar. A node matches if its derivation
// tree has the pattern as a prefix: there are nodes with the pattern's
// nonterminals, one after the other and not nested, whose texts together
// with the literal text between them make up the node's text. This is
// ISLa's definition (the pattern, parsed from the node's nonterminal with
// its nonterminals as open leaves, is a prefix of the node's tree). A node
// may match in several ways; like ISLa's specification, forall requires
// all of them and exists one.
//
// Numeric quantifiers range over the natural numbers, as decimal strings.
// The validator cannot try them all: it tries the candidate values that the
// body gives the variable, found under every instance of the quantifiers
// in it: the values semantic predicates compute for it (count, or any
// NumSolver) and the values equations (= n t) or (= (str.to_int n) t) give
// it. This decides the quantifier exactly when every value that can make
// the body true (exists) or false (forall) is among them, as in the paper's
// CSV constraint, where count fixes the number of columns.
//
// An SMT-LIB formula holds if it is true: terms are evaluated with the
// semantics of SMT-LIB 2.6 (see the evaluation notes in smt.go: str.at out
// of range is "", str.to_int of a non-numeral is -1, div and mod are
// Euclidean, and so on). Division by zero is left unspecified by SMT-LIB;
// as ISLa asks an SMT-LIB formula to be valid (true for every choice of
// unspecified values), a formula whose value depends on one does not hold.
//
// # Strings and bytes
//
// Inputs are bytes; SMT-LIB strings are sequences of the characters 0 to
// 0x2FFFF. The text of a node is read as UTF-8, and every byte that is not
// part of valid UTF-8 is the character U+DC80 + (byte - 0x80). So ASCII and
// UTF-8 text has its characters (str.len counts characters), binary data
// has one character per byte above 0x7F, and equal texts are equal strings.
// Match expressions compare bytes.
//
// # Predicates
//
// The structural predicates relate nodes of the tree:
//
//	before(a, b)             a ends before b starts (neither inside the other)
//	after(a, b)              not before(a, b), and a is neither b nor above it
//	consecutive(a, b)        before(a, b), with no leaf between them
//	inside(a, b)             a is in the subtree of b (or is b)
//	direct_child(a, b)       a is a child of b
//	same_position(a, b)      a and b are the same node
//	different_position(a, b) a and b are different nodes
//	nth(n, a, b)             a is the n-th node of its nonterminal in b, pre-order
//	nth_child(n, a, b)       a is the n-th child of b of its nonterminal
//	level(rel, "<t>", a, b)  the <t>-nesting of a relative to b is rel: EQ, GE,
//	                         LE, GT or LT (as ISLa's level, for scopes)
//
// (after follows ISLa's sources, src/isla/isla_predicates.py: it holds for
// a node after b and for a node inside b, though ISLa's documentation says
// "not below".)
//
// ISLa's library of semantic predicates is built in besides count: crop,
// ljust, ljust_crop, rjust, rjust_crop, extend_crop, ljust_crop_tar,
// rjust_crop_tar and octal_to_decimal (see WithPredicates and
// docs/isla-formalizations.md for their meaning and how the solver makes
// them hold).
//
// Semantic predicates are Go code (the Predicate interface): count(t,
// "<x>", n), built in, holds if the subtree t has n nodes labeled <x>;
// users register others with WithPredicates, such as a TAR checksum.
//
// # Validation of ambiguous inputs
//
// An ambiguous input is valid if some derivation satisfies the constraint.
// Check evaluates at most MaxDerivations derivations (default
// DefaultMaxDerivations), in the order of grammar.Forest.Trees, and reports
// how many it evaluated of how many there are.
//
// # Solving
//
// Package isla/solver generates inputs that satisfy a compiled constraint
// and repairs inputs that violate one. It reaches the compiled constraint
// through a small API of this package: Spec.Formula returns the compiled
// formula (Compiled and its node types, whose variables are numbered
// slots), NewView and ViewBuilder build the view of a derivation tree that
// formulas are evaluated on (its nodes in pre-order, labeled as Labels
// numbers the nonterminals), an Evaluator decides compiled formulas on a
// view under given values of the variables, and a TermCompiler compiles
// SMT-LIB terms of the solver's own. Semantic predicates take part in
// solving through NumSolver and TreeSolver.
//
// # Errors
//
// Parse and Compile return a grammar.ErrorList of errors with file:line:col
// positions, each saying what was expected or what is wrong: syntax errors,
// unbound variables, nonterminals the grammar lacks, quantifiers over
// nonterminals that cannot occur in the tree searched, XPath steps to
// nonterminals that are never such children, unknown predicates and
// functions, arguments of the wrong kind, number or sort.
package isla
