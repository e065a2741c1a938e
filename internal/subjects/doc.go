// Package subjects holds Go ports of the parsers that STALAGMITE (Bettscheider
// and Zeller) mines grammars from. Each port keeps the structure of the
// original: the same parse functions, the same way of reading the input, and,
// where the original evaluates while it parses, the same evaluation. They are
// the subjects of kfuzz's grammar miners: learn/symbolic reads their code, and
// their entry functions serve as membership oracles for precision and recall.
// tinyc, which has a lexing stage, also has the lexer harness STALAGMITE
// mines the tokens with (tinyc.Token).
package subjects
