package mineeval

// AcceptGrep reports whether input is a basic regular expression as GNU grep
// reads it without -E, in the subset the subject covers: branches separated
// by "\|", each an optional "^", pieces and an optional "$"; a piece is an
// atom followed by repetitions ("*", "\{m\}", "\{m,\}", "\{m,n\}" with
// single-digit bounds, m <= 4 < 5 <= n in the last form); an atom is an
// ordinary printable character, ".", an escaped special character (one of
// . * [ ] \ ^ $), a bracket expression or a group "\( ... \)". A bracket
// expression holds, after an optional "^", one or more letters, digits, '_'
// or spaces, ascending ranges within the lower case letters (a-m to n-z),
// the upper case letters or the digits (0-4 to 5-9), and character classes
// such as [:alpha:]. It is a hand-written recursive-descent recognizer.
func AcceptGrep(input []byte) bool {
	return whole(input, grepRegex)
}

func grepRegex(r *reader) bool { return r.nestedList(grepBranch, lit(`\|`)) }

func grepBranch(r *reader) bool {
	r.eat("^")
	for grepPiece(r) {
	}
	r.eat("$")
	return true
}

// isGrepOrdinary reports whether c stands for itself: printable ASCII other
// than \ . [ ] * ^ $.
func isGrepOrdinary(c byte) bool {
	switch c {
	case '\\', '.', '[', ']', '*', '^', '$':
		return false
	}
	return 0x20 <= c && c <= 0x7e
}

// grepPiece reads an atom and its repetitions. It reports false, consuming
// nothing, if no atom follows; a malformed atom or repetition makes the
// remaining input unreadable, so that the whole input is rejected.
func grepPiece(r *reader) bool {
	start := r.i
	if !grepAtom(r) {
		r.i = start
		return false
	}
	for {
		switch {
		case r.eat("*"):
		case r.eat(`\{`):
			if !grepInterval(r) {
				r.i = len(r.s) + 1 // reject
				return false
			}
		default:
			return true
		}
	}
}

// grepInterval reads the rest of an interval after its "\{".
func grepInterval(r *reader) bool {
	lo := r.peek()
	if !r.eatIf(isDigit) {
		return false
	}
	if r.eat(`\}`) || r.eat(`,\}`) {
		return true
	}
	if !r.eat(",") || lo > '4' {
		return false
	}
	return r.eatIf(func(c byte) bool { return '5' <= c && c <= '9' }) && r.eat(`\}`)
}

func grepAtom(r *reader) bool {
	switch c := r.peek(); {
	case r.i >= len(r.s):
		return false
	case c == '.':
		r.i++
		return true
	case c == '[':
		r.i++
		if !grepBracket(r) {
			r.i = len(r.s) + 1
		}
		return true
	case r.at(`\(`):
		r.i += 2
		if !grepRegex(r) || !r.eat(`\)`) {
			r.i = len(r.s) + 1
		}
		return true
	case c == '\\':
		if len(r.s)-r.i >= 2 {
			switch r.s[r.i+1] {
			case '.', '*', '[', ']', '\\', '^', '$':
				r.i += 2
				return true
			}
		}
		return false
	case c == '$':
		// "$" ends a branch only at its end or before "\|" or "\)";
		// grepBranch takes it.
		return false
	}
	return r.eatIf(isGrepOrdinary)
}

// grepBracket reads the rest of a bracket expression after its "[".
func grepBracket(r *reader) bool {
	r.eat("^")
	items := 0
	for !r.eat("]") {
		if !grepBracketItem(r) {
			return false
		}
		items++
	}
	return items > 0
}

var grepClasses = []string{"alnum", "alpha", "digit", "lower", "upper", "space", "punct"}

func grepBracketItem(r *reader) bool {
	if r.eat("[:") {
		for _, name := range grepClasses {
			if r.eat(name) {
				return r.eat(":]")
			}
		}
		return false
	}
	c := r.peek()
	if !(isAlpha(c) || isDigit(c) || c == '_' || c == ' ') {
		return false
	}
	r.i++
	if r.peek() != '-' {
		return true
	}
	// A range: its ends are in the same group, the first in the group's
	// lower part and the second in its upper part.
	r.i++
	d := r.peek()
	ok := false
	switch {
	case 'a' <= c && c <= 'm':
		ok = 'n' <= d && d <= 'z'
	case 'A' <= c && c <= 'M':
		ok = 'N' <= d && d <= 'Z'
	case '0' <= c && c <= '4':
		ok = '5' <= d && d <= '9'
	}
	if ok {
		r.i++
	}
	return ok
}
