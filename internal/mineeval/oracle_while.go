package mineeval

// AcceptWhile reports whether input is a program of the small While
// language: statements separated by "; ", each an assignment "v := a",
// "skip", "if b then S else S end" or "while b do S end"; Boolean
// expressions are terms joined by " && ", a term being true, false, "!"
// and a term, or a comparison "a < a", "a <= a", "a == a"; arithmetic
// expressions are a variable (a letter and digits), a number without
// leading zeros, or "(a op a)" with op one of + - *. Tokens are separated by
// exactly one space. It is a recursive-descent recognizer.
func AcceptWhile(input []byte) bool {
	return whole(input, whileStmts)
}

func whileStmts(r *reader) bool { return r.nestedList(whileStmt, lit("; ")) }

func whileStmt(r *reader) bool {
	switch {
	case r.eat("skip"):
		return true
	case r.eat("if "):
		return whileBexp(r) && r.eat(" then ") && whileStmts(r) && r.eat(" else ") && whileStmts(r) && r.eat(" end")
	case r.eat("while "):
		return whileBexp(r) && r.eat(" do ") && whileStmts(r) && r.eat(" end")
	}
	return whileVar(r) && r.eat(" := ") && whileAexp(r)
}

func whileBexp(r *reader) bool { return r.list(whileBterm, lit(" && ")) }

func whileBterm(r *reader) bool {
	nots := 0
	for r.eat("!") {
		if nots++; nots > maxNesting {
			return false
		}
	}
	if r.eat("true") || r.eat("false") {
		return true
	}
	if !whileAexp(r) || !r.eat(" ") {
		return false
	}
	if !(r.eat("<=") || r.eat("<") || r.eat("==")) {
		return false
	}
	return r.eat(" ") && whileAexp(r)
}

func whileAexp(r *reader) bool {
	switch c := r.peek(); {
	case isLower(c):
		return whileVar(r)
	case c == '0':
		r.i++
		return true
	case isDigit(c):
		r.eatAll(isDigit)
		return true
	case c == '(':
		if !r.enter() {
			return false
		}
		defer r.leave()
		r.i++
		return whileAexp(r) && r.eat(" ") &&
			oneOf("+-*")(r) &&
			r.eat(" ") && whileAexp(r) && r.eat(")")
	}
	return false
}

func whileVar(r *reader) bool {
	if !r.eatIf(isLower) {
		return false
	}
	r.eatAll(isDigit)
	return true
}
