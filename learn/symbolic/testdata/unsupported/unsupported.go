// Package unsupported has a parser that uses constructs the symbolic executor
// does not model: it must report them, not crash.
package unsupported

import (
	"errors"
	"unicode"
)

// Parse accepts "ok" after a detour through a channel.
func Parse(s string) error {
	ch := make(chan byte, 1)
	ch <- 'x'
	<-ch
	if s == "ok" {
		return nil
	}
	return errors.New("not ok")
}

// Plain accepts "a" or "b" followed by digits.
func Plain(s string) error {
	if len(s) == 0 || (s[0] != 'a' && s[0] != 'b') {
		return errors.New("want a or b")
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return errors.New("want a digit")
		}
	}
	return nil
}

// Keyword accepts exactly "true" or "false".
func Keyword(s string) bool {
	return s == "true" || s == "false"
}

// Digits accepts one or more ASCII digits, tested through unicode.IsDigit.
func Digits(s string) error {
	if len(s) == 0 {
		return errors.New("empty")
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || !unicode.IsDigit(rune(s[i])) {
			return errors.New("want a digit")
		}
	}
	return nil
}
