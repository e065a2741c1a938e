package smtlib

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Strings in SMT-LIB are sequences of characters, the code points 0 to
// 0x2FFFF. Inputs are bytes. kfuzz maps them as follows: an input is read as
// UTF-8; each byte that is not part of a valid UTF-8 sequence becomes the
// character U+DC80 + (byte - 0x80), one of the lone surrogates U+DC80 to
// U+DCFF that valid UTF-8 never decodes to. The mapping is one-to-one, so
// two texts are equal as strings exactly when they are equal as bytes, and
// ASCII and UTF-8 text keeps its characters.
//
// Internally a string is held as a Go string in UTF-8, extended to encode
// surrogates too (as the three bytes UTF-8's bit pattern gives them). Valid
// UTF-8 input is thus its own internal form, and byte order is character
// order.

// MaxCodePoint is the largest character of SMT-LIB's string theory.
const MaxCodePoint = 0x2FFFF

const (
	SurrogateLo = 0xD800
	SurrogateHi = 0xDFFF
	EscapedLo   = 0xDC80 // the character of the invalid byte 0x80
	EscapedHi   = 0xDCFF // the character of the invalid byte 0xFF
)

// FromBytes converts input bytes to the internal form.
func FromBytes(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(EncodeRune(rune(EscapedLo + int(s[i]) - 0x80)))
			i++
			continue
		}
		b.WriteString(s[i : i+size])
		i += size
	}
	return b.String()
}

// EncodeRune returns the internal encoding of the character cp
// (0 <= cp <= maxCodePoint).
func EncodeRune(cp rune) string {
	if cp >= SurrogateLo && cp <= SurrogateHi {
		return string([]byte{0xED, byte(0x80 | (cp>>6)&0x3F), byte(0x80 | cp&0x3F)})
	}
	return string(cp)
}

// DecodeRune returns the first character of the internal string s and its
// length in bytes; (-1, 0) if s is empty.
func DecodeRune(s string) (rune, int) {
	if s == "" {
		return -1, 0
	}
	if s[0] < utf8.RuneSelf {
		return rune(s[0]), 1
	}
	r, size := utf8.DecodeRuneInString(s)
	if r != utf8.RuneError || size > 1 {
		return r, size
	}
	if len(s) >= 3 && s[0] == 0xED && s[1]&0xC0 == 0x80 && s[2]&0xC0 == 0x80 {
		return 0xD000 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), 3
	}
	// Not produced by this package; read the byte as its escaped character.
	return rune(EscapedLo + int(s[0]) - 0x80), 1
}

// RuneCount returns the number of characters of the internal string s.
func RuneCount(s string) int {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return len(s)
	}
	n := 0
	for i := 0; i < len(s); {
		_, size := DecodeRune(s[i:])
		i += size
		n++
	}
	return n
}

// Runes returns the characters of the internal string s.
func Runes(s string) []rune {
	out := make([]rune, 0, len(s))
	for i := 0; i < len(s); {
		r, size := DecodeRune(s[i:])
		out = append(out, r)
		i += size
	}
	return out
}

// FromRunes builds the internal string of the characters rs.
func FromRunes(rs []rune) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteString(EncodeRune(r))
	}
	return b.String()
}

// ToBytes converts an internal string back to bytes: the characters U+DC80
// to U+DCFF become the raw bytes they stand for. It reports false if s
// holds other surrogates, which no byte string can express.
func ToBytes(s string) (string, bool) {
	if utf8.ValidString(s) {
		return s, true
	}
	ok := true
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := DecodeRune(s[i:])
		switch {
		case r >= EscapedLo && r <= EscapedHi:
			b.WriteByte(byte(r - EscapedLo + 0x80))
		case r >= SurrogateLo && r <= SurrogateHi:
			ok = false
			b.WriteString(s[i : i+size])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String(), ok
}

// QuoteString returns s as an ISLa string literal that parses back to s.
// Printable ASCII and other printable characters stand for themselves;
// quotes, backslashes and the usual control characters are escaped; all
// other characters are written \u{...}.
func QuoteString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := DecodeRune(s[i:])
		i += size
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '\b':
			b.WriteString(`\b`)
		default:
			if r >= 0x20 && r < 0x7F || r >= 0xA0 && !(r >= SurrogateLo && r <= SurrogateHi) && unicode.IsPrint(r) {
				b.WriteRune(r)
			} else {
				fmt.Fprintf(&b, `\u{%x}`, r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// QuoteBytes returns the bytes s quoted for humans: printable text as it is,
// everything else escaped as in Go.
func QuoteBytes(s string) string { return Quote(s, false) }

// Quote quotes the bytes s: printable text as it is, quotes, backslashes,
// control characters and invalid UTF-8 escaped; characters of 0x80 and up
// that are not printable as \u{...}, or with byteEscapes as the \x escapes
// of their bytes.
func Quote(s string, byteEscapes bool) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7F:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && !unicode.IsPrint(r) && byteEscapes:
			for _, x := range []byte(s[i : i+size]) {
				fmt.Fprintf(&b, `\x%02x`, x)
			}
		case r >= 0x80 && !unicode.IsPrint(r):
			fmt.Fprintf(&b, `\u{%x}`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

// IsDigits reports whether s is a non-empty string of the digits 0-9.
func IsDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// QuoteSMT returns the internal string s as an SMT-LIB 2.6 string literal in
// printable ASCII.
func QuoteSMT(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := DecodeRune(s[i:])
		i += size
		switch {
		case r == '"':
			b.WriteString(`""`)
		case r >= 0x20 && r < 0x7F && r != '\\':
			b.WriteRune(r)
		default:
			b.WriteString(`\u{` + strconv.FormatInt(int64(r), 16) + `}`)
		}
	}
	b.WriteByte('"')
	return b.String()
}
