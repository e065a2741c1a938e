// Package grammar holds context-free grammars for grammar-based fuzzing: the
// notation they are written in, their checks, the grammar graph compiled from
// them, derivation trees, generators, k-paths and parsing.
//
// A Grammar is an ordered list of rules as written, built by Parse from the
// notation below, by ParseJSON from the JSON form of the Fuzzing Book and
// ISLa, or by hand. Check finds errors (undefined or unproductive
// nonterminals, bad quantifiers, empty classes) and Problems also warnings
// (unreachable rules, empty cycles). Grammar.String prints a grammar back in
// the notation and Grammar.JSON in the JSON form. Compile turns a checked
// grammar into a Graph, which generation, k-paths and parsing work on.
//
// A Graph is TRIBBLE's grammar graph: one Node per occurrence of a grammar
// element, with node IDs, the least derivation depth, size and length of
// every node, and distances to every symbol. A Tree is a derivation tree over
// graph nodes, possibly with open slots. Generator derives random trees
// within a depth and a size limit (TRIBBLE's Algorithm 2); Shortest and
// CloseShortest give the smallest derivations. PathTable holds the k-paths of
// a graph and finds those of trees and forests; Graph.KPathTrees builds
// inputs that together contain every k-path (TRIBBLE's Algorithm 1). Parser is
// an Earley parser for every grammar the notation accepts; its Forest holds
// all derivations of an input compactly, and gives their count, one tree or
// several. Builtin returns the grammars of the catalog.
//
// See docs/architecture.md in the repository for the decisions behind these.
//
// # The notation
//
// A grammar is a list of rules. A rule defines a nonterminal, written as its
// name in angle brackets, by an expression:
//
//	<name> ::= expression ;
//
// The name is one or more characters other than '<', '>' and white space,
// so <expr>, <xml-open-tag>, <DecDigit> and <a.b_1> are nonterminals. ":="
// may be written for "::=". A rule ends at a ';', or, if there is none, at
// the next "<name> ::=" or at the end of the file; so the BNF files of ISLa,
// which have no ';', are read as written. Rules may span several lines and
// may appear in any order; a nonterminal may be defined only once.
//
// The start symbol is <start> if the grammar defines it, and otherwise the
// nonterminal of the first rule.
//
// White space separates tokens and is otherwise ignored. A comment starts
// with '#' or "//" and runs to the end of the line.
//
// Expressions are built from these atoms:
//
//	<name>        a reference to the nonterminal name
//	"text"        a literal: exactly the bytes of the text
//	""            the empty literal: the empty string
//	`text`        a raw literal: the text exactly as written, which may span
//	              lines; it holds no '`', and carriage returns are dropped
//	[a-z0-9_]     a character class: any one of the characters listed
//	[^"\\]        a negated class: any one character not listed
//	( expr )      a group
//
// and these operators, from the tightest binding to the loosest:
//
//	x?  x*  x+    x optional, x zero or more times, x one or more times
//	x{n}          x exactly n times
//	x{n,m}        x from n to m times
//	x{n,}         x n or more times
//	x{,m}         x from 0 to m times
//	x y           concatenation: x, then y
//	x | y         alternation: either x or y
//
// Quantifiers apply to the atom, group or quantified expression just before
// them, so "x"*? is ("x"*)?; counts are decimal numbers up to 65536. Groups
// and quantifiers nest up to 1000 levels deep. Every alternative must hold
// something: write "" for the empty one, as in <a> ::= "x" <a> | "" ;.
//
// Parse keeps the structure as written, which matters for the grammar graph
// and its k-paths: an alternation is an Alt, a concatenation a Seq, a
// quantified expression a Repeat, and a group is its content, so that
// ("a" "b") "c" is a Seq whose first element is a Seq. Only trivial nodes are
// left out: a rule or group with a single alternative has no Alt, and a
// single element no Seq.
//
// Literals are written as Go string literals, with the same escapes and the
// same meaning (any other escape is an error): \a \b \f \n \r \t \v \\ \" stand for themselves as in Go;
// \xHH (two hex digits) and \ooo (three octal digits, at most \377) are one
// raw byte each; \uHHHH and \UHHHHHHHH are a Unicode character, encoded in
// UTF-8. So "\xff" is the single byte 0xFF (not valid UTF-8), "\u00ff" is
// the two bytes of "ÿ", and "\x00" is a NUL byte. Other characters in a
// literal, including non-ASCII ones, stand for their own bytes; a literal
// cannot contain a newline (use "\n" or a raw literal).
//
// In a character class, a range a-z holds every character from a to z, and
// single characters are listed as themselves. A '^' right after the '['
// negates the class. A '-' first or last in the class is literal. Inside the
// brackets, \] \[ \\ \- and \^ stand for those characters, and all the
// escapes of literals work too. "[]" is an empty class (an error by Check).
// A class matches one character in UTF-8, and a negated class any Unicode
// character not listed; but a class that contains a byte escape above \x7f,
// such as [\x80-\xff] or [^\x00-\x1f\xff], is a byte class: it matches one
// byte, and its negation is taken over the 256 byte values. A byte class
// cannot also contain non-ASCII characters.
//
// A literal or a class can thus describe text, binary data, or both: the
// grammar derives byte strings.
//
// # Example
//
// Arithmetic expressions:
//
//	# <start> is the start symbol
//	<start>  ::= <expr> ;
//	<expr>   ::= <term> (("+" | "-") <term>)* ;
//	<term>   ::= <factor> (("*" | "/") <factor>)* ;
//	<factor> ::= "-"? ( <number> | "(" <expr> ")" ) ;
//	<number> ::= [0-9]+ ("." [0-9]{1,6})? ;
//
// The same grammar in ISLa's style, without EBNF and semicolons:
//
//	<start> ::= <expr>
//	<expr> ::= <term> " + " <expr> | <term> " - " <expr> | <term>
//	<term> ::= <factor> " * " <term> | <factor>
//	<factor> ::= "-" <factor> | "(" <expr> ")" | <digit>
//	<digit> ::= "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9"
//
// # The JSON form
//
// ParseJSON reads (and Grammar.JSON writes) the grammars of the Fuzzing
// Book and ISLa, and those grammar miners such as STALAGMITE write: a JSON
// object mapping "<name>" to a list of alternatives. An alternative is an
// expansion string, in which every <name> is a reference and all other
// text is literal:
//
//	{
//	  "<start>": ["<expr>"],
//	  "<expr>": ["<term> + <expr>", "<term> - <expr>", "<term>"],
//	  "<term>": ["<factor> * <term>", "<factor>"],
//	  "<factor>": ["-<factor>", "(<expr>)", "<digit>"],
//	  "<digit>": ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]
//	}
//
// or the Fuzzing Book's [expansion, options], whose options object is
// ignored:
//
//	"<expr>": [["<term> + <expr>", {"prob": 0.2}], "<term>"]
//
// or a list of symbols, each "<name>" a reference and every other string
// literal text, with [] for the empty alternative:
//
//	"<expr>": [["<term>", " + ", "<expr>"], ["<term>"]],
//	"<sign>": [["-"], []]
//
// Each alternative is read by its JSON type: a string is an expansion, an
// array whose second element is an object is [expansion, options], any
// other array is a list of symbols. Shapes that fit none of these, or a
// symbol such as "x<a>" that holds a reference among other text, are
// errors; ParseJSON documents the rules.
//
// Load and ParseAny tell the two apart by the first character that is not
// white space: '{' starts the JSON form.
//
// # Positions and errors
//
// Every syntax error names the file, line and column (counting bytes, from
// 1) and says what was expected, like
//
//	expr.bnf:3:8: expected '::=' after <expr>, found '|'
//
// Parse and ParseJSON report all the errors they find as an ErrorList;
// Check returns its errors as an ErrorList too.
package grammar
