// Package symbolic mines the input grammar of a recursive-descent parser
// written in Go from its code, without sample inputs: STALAGMITE (Bettscheider
// and Zeller) for Go, over golang.org/x/tools/go/ssa.
//
// Mine loads the parser's package, builds its SSA form and executes the entry
// function with a symbolic input. Every input byte is a set of its possible
// values (256 bits); a value computed from one byte (a conversion, c-'0', a
// table lookup, unicode.IsDigit(rune(c))) is a function of that byte over all
// 256 values, so a branch on it splits the byte's set exactly, and a path
// forks only where both ways are feasible. The input's length is an
// interval. Values the executor does not track (arithmetic on two input
// bytes, floats, results of calls into other packages) make both ways of a
// branch feasible, without constraining the input; constructs it does not
// model (channels, goroutines, calls through interfaces of other packages)
// stop the path and are reported with their positions (Result.Unsupported).
//
// As in the paper, loops that read input run at most LoopBound iterations
// and a function is active at most RecursionBound times per call site on one
// path; a path is accepting when the entry returns a nil error (or true).
// Unlike KLEE's searches, paths are explored shortest input first, and
// exploration stops once Saturation accepting paths in a row added nothing to
// the grammar: generalisation needs only the short witnesses of each rule.
//
// On every accepting path each input byte is attributed to the access that
// consumed it (the paper's Algorithm 2, a longest-increasing-subsequence
// repair of "last access"); the execution contexts of those accesses form a
// parse tree whose inner nodes are calls (one nonterminal per function and call
// site) and loop iterations. Trees become grammar rules (Algorithm 3): loops
// whose end the input decided become <L> ::= <L-cont>* <L-exit>; loops that end
// by their count alone (ranging over a literal) stay in sequence; accessor
// functions (no loop, no call of the package's own functions: peek, next,
// expect) are not nonterminals, so that a byte stays tied to the branch its
// caller took on it. Simplification merges alternatives that differ in one
// byte into a character class, makes a symbol optional where two alternatives
// differ only by it (the paper's optional generalisation), and inlines
// nonterminals with one alternative.
//
// With Config.Compose, exploration is compositional: when a call returns, a
// path whose state (all but the input bytes the call consumed, positions
// relative to the input's length) another path reached before stops there,
// and is completed with that path's accepted continuations, so that a
// continuation is explored once per way of ending a call rather than once per
// way of reading it; Config.DepthCost puts deep nesting after shallower
// inputs of the same length. Together they make jsonparse saturate.
//
// The result is a grammar in kfuzz's notation, ready for generation, k-path
// seeds, the Earley parser and fuzzharness. kfuzz mine symbolic is the command
// line; docs/symbolic.md has the figures on the paper's subjects.
package symbolic
