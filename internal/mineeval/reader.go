package mineeval

import "strings"

// maxNesting bounds the nesting of the hand-written recognizers, so that no
// input, however deep, exhausts the stack; deeper inputs are rejected. It is
// far above what the reference grammars generate within their depth bound.
const maxNesting = 1000

// A reader is the cursor of the hand-written recognizers.
type reader struct {
	s     []byte
	i     int
	depth int
}

// peek returns the next byte, or 0 at the end.
func (r *reader) peek() byte {
	if r.i < len(r.s) {
		return r.s[r.i]
	}
	return 0
}

// at reports whether the input continues with lit.
func (r *reader) at(lit string) bool {
	return len(r.s)-r.i >= len(lit) && string(r.s[r.i:r.i+len(lit)]) == lit
}

// eat consumes lit if the input continues with it.
func (r *reader) eat(lit string) bool {
	if r.at(lit) {
		r.i += len(lit)
		return true
	}
	return false
}

// eatIf consumes one byte for which ok holds.
func (r *reader) eatIf(ok func(byte) bool) bool {
	if r.i < len(r.s) && ok(r.s[r.i]) {
		r.i++
		return true
	}
	return false
}

// eatAll consumes bytes while ok holds and returns how many.
func (r *reader) eatAll(ok func(byte) bool) int {
	n := 0
	for r.eatIf(ok) {
		n++
	}
	return n
}

// list reads item (sep item)*.
func (r *reader) list(item, sep func(*reader) bool) bool {
	if !item(r) {
		return false
	}
	for sep(r) {
		if !item(r) {
			return false
		}
	}
	return true
}

// nestedList reads item (sep item)* one nesting level deeper (see enter).
func (r *reader) nestedList(item, sep func(*reader) bool) bool {
	if !r.enter() {
		return false
	}
	defer r.leave()
	return r.list(item, sep)
}

// whole reports whether f reads all of input.
func whole(input []byte, f func(*reader) bool) bool {
	r := &reader{s: input}
	return f(r) && r.done()
}

// lit returns a separator that consumes s.
func lit(s string) func(*reader) bool { return func(r *reader) bool { return r.eat(s) } }

// oneOf returns a separator that consumes one of the bytes of set.
func oneOf(set string) func(*reader) bool {
	return func(r *reader) bool { return r.eatIf(func(c byte) bool { return strings.IndexByte(set, c) >= 0 }) }
}

// done reports whether the whole input was consumed.
func (r *reader) done() bool { return r.i == len(r.s) }

// enter counts one level of nesting and reports whether it is allowed;
// leave undoes it.
func (r *reader) enter() bool {
	r.depth++
	return r.depth <= maxNesting
}

func (r *reader) leave() { r.depth-- }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isAlpha(c byte) bool { return isLower(c) || isUpper(c) }
func isHex(c byte) bool   { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
