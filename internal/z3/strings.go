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

// decodeZ3 decodes the text Z3 4.8.12's Z3_get_string returns for a
// string: characters outside printable ASCII are written as \u{h} escapes
// (1 to 5 hexadecimal digits), and all others, the backslash included, as
// they are. So the text is ambiguous when the string has a backslash
// followed by "u{h}". decodeZ3 reads every \u{h} as an escape, and returns
// the string and its number of code points: reading one of them as six or
// more characters instead would give a longer string, so the result is
// exact if and only if that number is the string's length.
func decodeZ3(enc string) (string, int, error) {
	b := make([]byte, 0, len(enc))
	n := 0
	for i := 0; i < len(enc); n++ {
		c := enc[i]
		if c < 0x20 || c >= 0x80 {
			return "", 0, fmt.Errorf("z3: unescaped byte %#02x at byte %d of Z3 string %q", c, i, enc)
		}
		if cp, size, ok := parseEscape(enc[i:]); ok {
			b = appendCodePoint(b, cp)
			i += size
			continue
		}
		b = append(b, c)
		i++
	}
	return string(b), n, nil
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
