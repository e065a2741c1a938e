package mineeval

// AcceptExpr reports whether input is an arithmetic expression of the
// TRIBBLE paper's grammar (kfuzz's built-in grammar expr): identifiers x, y
// and z, decimal digits, the binary operators + - * / %, the prefix
// operators + - ++ -- and parentheses, without spaces. It is a
// recursive-descent recognizer; a prefix "++" or "--" reads as two prefix
// signs, which accepts the same language.
func AcceptExpr(input []byte) bool {
	return whole(input, exprAdd)
}

// exprAdd reads MultExpr (("+" | "-") MultExpr)*.
func exprAdd(r *reader) bool { return r.nestedList(exprMult, oneOf("+-")) }

// exprMult reads UnaryExpr (("*" | "/" | "%") UnaryExpr)*.
func exprMult(r *reader) bool { return r.list(exprUnary, oneOf("*/%")) }

// exprUnary reads a signed identifier, number or parenthesized expression.
func exprUnary(r *reader) bool {
	signs := 0
	for oneOf("+-")(r) {
		if signs++; signs > maxNesting {
			return false
		}
	}
	switch c := r.peek(); {
	case c == 'x' || c == 'y' || c == 'z':
		r.i++
		return true
	case isDigit(c):
		r.eatAll(isDigit)
		return true
	case c == '(':
		r.i++
		return exprAdd(r) && r.eat(")")
	}
	return false
}
