package mineeval

import (
	"github.com/seed72891827/kfuzz/internal/subjects/calc"
	"github.com/seed72891827/kfuzz/internal/subjects/cgidecode"
	"github.com/seed72891827/kfuzz/internal/subjects/jsonparse"
)

// AcceptCalc reports whether input is syntactically valid for calc.Eval:
// Eval accepts it, or Eval stops with its division-by-zero error and the
// input is valid as a whole. Division by zero is a semantic error that no
// context-free grammar excludes, and the reference grammar (calc.Golden)
// contains "1/0"; but Eval, which evaluates while it parses, reports it as
// soon as it divides, before it has read the rest ("1/0)"), so the rest is
// checked by a hand-written recognizer of Eval's syntax.
func AcceptCalc(input []byte) bool {
	_, err := calc.Eval(string(input))
	if err == nil {
		return true
	}
	return err.Error() == "calc: division by zero" && whole(input, calcSum)
}

// calcSum reads calc's sum: mult (("+" | "-") mult)*.
func calcSum(r *reader) bool { return r.nestedList(calcMult, oneOf("+-")) }

// calcMult reads atom (("*" | "/") atom)*.
func calcMult(r *reader) bool { return r.list(calcAtom, oneOf("*/")) }

// calcAtom reads an optionally negated number or parenthesized sum.
func calcAtom(r *reader) bool {
	r.eat("-")
	if r.eat("(") {
		return calcSum(r) && r.eat(")")
	}
	return r.eatAll(isDigit) > 0
}

// AcceptCGIDecode reports whether cgidecode.Decode accepts input.
func AcceptCGIDecode(input []byte) bool {
	_, err := cgidecode.Decode(input)
	return err == nil
}

// AcceptJSONParse reports whether jsonparse.Parse accepts input.
func AcceptJSONParse(input []byte) bool {
	return jsonparse.Parse(string(input)) == nil
}
