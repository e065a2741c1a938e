// Package cgidecode is a Go port of STALAGMITE's CGI-DECODE subject (the
// Fuzzing Book's cgi_decode in C): it decodes "+" to a space and "%xx" to the
// byte with hexadecimal value xx, through a 256-entry table of hex values, and
// fails on a "%" not followed by two hex digits.
package cgidecode

import (
	_ "embed"
	"errors"
)

var hexValues [256]int

func init() {
	for i := range hexValues {
		hexValues[i] = -1
	}
	for c := '0'; c <= '9'; c++ {
		hexValues[c] = int(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		hexValues[c] = int(c-'a') + 10
	}
	for c := 'A'; c <= 'F'; c++ {
		hexValues[c] = int(c-'A') + 10
	}
}

// ErrInvalid reports a "%" not followed by two hexadecimal digits.
var ErrInvalid = errors.New("cgidecode: invalid escape")

// Decode returns the CGI-decoded s.
func Decode(s []byte) ([]byte, error) {
	var t []byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '+':
			t = append(t, ' ')
		case '%':
			if i+2 >= len(s) {
				return nil, ErrInvalid
			}
			high, low := s[i+1], s[i+2]
			i += 2
			if hexValues[high] < 0 || hexValues[low] < 0 {
				return nil, ErrInvalid
			}
			t = append(t, byte(hexValues[high]*16+hexValues[low]))
		default:
			t = append(t, c)
		}
	}
	return t, nil
}

// Golden is the grammar of the language Decode accepts, written by hand, in
// kfuzz's notation.
//
//go:embed golden.bnf
var Golden string
