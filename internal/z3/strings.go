package z3

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxChar is the largest code point a Z3 4.8.12 string can hold.
const MaxChar = 0x2FFFF

// escapeBase is the code point that byte 0 is escaped to; a byte b that is
// not part of a rune up to MaxChar becomes escapeBase+b.
const escapeBase = 0xDC00

// Quote returns s as an SMT-LIB string literal that Z3 4.8.12 reads back as
// the Z3 string that s maps to (see the package documentation). Printable
// ASCII stays as it is, a double quote is doubled, and every other code
// point, the backslash included, is written as a \u{...} escape. The result
// is pure ASCII.
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	forCodePoints(s, func(c rune) {
		switch {
		case c == '"':
			b.WriteString(`""`)
		case c >= 0x20 && c < 0x7F && c != '\\':
			b.WriteByte(byte(c))
		default:
			b.WriteString(`\u{`)
			b.WriteString(strconv.FormatInt(int64(c), 16))
			b.WriteByte('}')
		}
	})
	b.WriteByte('"')
	return b.String()
}

// forCodePoints calls f with each Z3 code point that s maps to.
func forCodePoints(s string, f func(rune)) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			f(escapeBase + rune(s[i]))
		case r > MaxChar:
			for j := 0; j < n; j++ {
				f(escapeBase + rune(s[i+j]))
			}
		default:
			f(r)
		}
		i += n
	}
}

// appendCodePoint appends the bytes that the Z3 code point c maps to.
func appendCodePoint(b []byte, c rune) []byte {
	switch {
	case c >= escapeBase+0x80 && c <= escapeBase+0xFF:
		return append(b, byte(c-escapeBase))
	case c >= 0xD800 && c <= 0xDFFF:
		// Other surrogates have no UTF-8 encoding; write the three bytes
		// the UTF-8 scheme would give them, so nothing is lost.
		return append(b, 0xED, byte(0x80|(c>>6)&0x3F), byte(0x80|c&0x3F))
	}
	return utf8.AppendRune(b, c)
}

// decodeEscaped decodes the text Z3 4.8.12's Z3_get_string returns for a
// string none of whose characters is a backslash: printable ASCII as it is,
// and \u{h} escapes (1 to 5 hexadecimal digits) for all other characters.
func decodeEscaped(enc string) (string, error) {
	b := make([]byte, 0, len(enc))
	for i := 0; i < len(enc); {
		c := enc[i]
		if c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		cp, n, ok := parseEscape(enc[i:])
		if !ok {
			return "", fmt.Errorf("z3: malformed escape at byte %d of Z3 string %q", i, enc)
		}
		b = appendCodePoint(b, cp)
		i += n
	}
	return string(b), nil
}

// parseEscape parses a \u{h} escape at the start of s, returning its code
// point and length.
func parseEscape(s string) (rune, int, bool) {
	if !strings.HasPrefix(s, `\u{`) {
		return 0, 0, false
	}
	end := strings.IndexByte(s, '}')
	if end < 4 || end > 8 {
		return 0, 0, false
	}
	v, err := strconv.ParseUint(s[3:end], 16, 32)
	if err != nil || v > MaxChar {
		return 0, 0, false
	}
	return rune(v), end + 1, true
}
