package mineeval

// AcceptLisp reports whether input is one s-expression: a symbol (a letter
// or one of + - * / < = > ! ? first, then also digits), a number (digits,
// optionally a fraction), a string (printable ASCII without '"' and '\'
// between double quotes), a quote "'" before an s-expression, or a list
// "(a b c)", possibly empty or dotted "(a b . c)", whose elements are
// separated by exactly one space. It is a hand-written reader.
func AcceptLisp(input []byte) bool {
	return whole(input, lispExpr)
}

func isLispInitial(c byte) bool {
	switch c {
	case '+', '-', '*', '/', '<', '=', '>', '!', '?':
		return true
	}
	return isLower(c)
}

func isLispSubsequent(c byte) bool { return isLispInitial(c) || isDigit(c) }

func isLispStringChar(c byte) bool { return 0x20 <= c && c <= 0x7e && c != '"' && c != '\\' }

func lispExpr(r *reader) bool {
	if !r.enter() {
		return false
	}
	defer r.leave()
	switch c := r.peek(); {
	case c == '\'':
		r.i++
		return lispExpr(r)
	case c == '(':
		r.i++
		return lispList(r)
	case c == '"':
		r.i++
		r.eatAll(isLispStringChar)
		return r.eat(`"`)
	case isDigit(c):
		r.eatAll(isDigit)
		if r.eat(".") {
			return r.eatAll(isDigit) > 0
		}
		return true
	case isLispInitial(c):
		r.eatAll(isLispSubsequent)
		return true
	}
	return false
}

// lispList reads the rest of a list after its "(".
func lispList(r *reader) bool {
	if r.eat(")") {
		return true
	}
	if !lispExpr(r) {
		return false
	}
	for r.eat(" ") {
		if r.eat(". ") {
			return lispExpr(r) && r.eat(")")
		}
		if !lispExpr(r) {
			return false
		}
	}
	return r.eat(")")
}
