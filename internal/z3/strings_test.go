package z3

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"abc", `"abc"`},
		{`say "hi"`, `"say ""hi"""`},
		{`a\b`, `"a\u{5c}b"`},
		{`\u{41}`, `"\u{5c}u{41}"`},
		{"tab\t\n\x00\x7f", `"tab\u{9}\u{a}\u{0}\u{7f}"`},
		{"é日😀", `"\u{e9}\u{65e5}\u{1f600}"`},
		{"\U0002FFFF", `"\u{2ffff}"`},
		{"\U00030000", `"\u{dcf0}\u{dcb0}\u{dc80}\u{dc80}"`}, // above MaxChar: its UTF-8 bytes, escaped
		{"\xff", `"\u{dcff}"`},
		{"\xed\xa0\x80", `"\u{dced}\u{dca0}\u{dc80}"`}, // an encoded surrogate is invalid UTF-8
		{"\uFFFD", `"\u{fffd}"`},
	}
	for _, tt := range tests {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// readZ3Literal reads an SMT-LIB string literal the way Z3 4.8.12 does:
// "" stands for ", then \u{h} (1 to 5 hex digits) and \uhhhh escapes are
// replaced by their code points. It is the reference Quote is tested
// against here; TestQuoteRoundTrip tests against Z3 itself.
func readZ3Literal(lit string) ([]rune, error) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return nil, fmt.Errorf("not a literal: %s", lit)
	}
	body := strings.ReplaceAll(lit[1:len(lit)-1], `""`, `"`)
	var cps []rune
	for i := 0; i < len(body); {
		if cp, n, ok := parseEscape(body[i:]); ok {
			cps = append(cps, cp)
			i += n
			continue
		}
		if strings.HasPrefix(body[i:], `\u`) && len(body) >= i+6 {
			if v, err := strconv.ParseUint(body[i+2:i+6], 16, 32); err == nil {
				cps = append(cps, rune(v))
				i += 6
				continue
			}
		}
		if body[i] >= 0x80 {
			return nil, fmt.Errorf("non-ASCII byte in %s", lit)
		}
		cps = append(cps, rune(body[i]))
		i++
	}
	return cps, nil
}

// encodeLikeZ3 writes code points the way Z3 4.8.12's Z3_get_string does.
func encodeLikeZ3(cps []rune) string {
	var b strings.Builder
	for _, c := range cps {
		if c < 32 || c >= 128 {
			fmt.Fprintf(&b, `\u{%x}`, c)
		} else {
			b.WriteRune(c)
		}
	}
	return b.String()
}

func codePoints(s string) []rune {
	var cps []rune
	forCodePoints(s, func(c rune) { cps = append(cps, c) })
	return cps
}

func fromCodePoints(cps []rune) string {
	var b []byte
	for _, c := range cps {
		b = appendCodePoint(b, c)
	}
	return string(b)
}

// checkMapping checks, for one Go string, that its code points are Z3
// characters that map back to it, that Quote writes them so that Z3 reads
// them back, and that Z3's way of printing them decodes to s.
func checkMapping(t *testing.T, s string) {
	t.Helper()
	cps := codePoints(s)
	for _, c := range cps {
		if c < 0 || c > MaxChar {
			t.Fatalf("%q maps to code point %#x, beyond Z3's range", s, c)
		}
	}
	if back := fromCodePoints(cps); back != s {
		t.Fatalf("%q maps to %U, which maps back to %q", s, cps, back)
	}
	if utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return r > MaxChar }) {
		if want := []rune(s); fmt.Sprint(want) != fmt.Sprint(cps) {
			t.Fatalf("valid UTF-8 %q maps to %U, want its runes %U", s, cps, want)
		}
	}
	q := Quote(s)
	for i := 0; i < len(q); i++ {
		if q[i] < 0x20 || q[i] > 0x7e {
			t.Fatalf("Quote(%q) = %s has byte %#x", s, q, q[i])
		}
	}
	read, err := readZ3Literal(q)
	if err != nil || fmt.Sprint(read) != fmt.Sprint(cps) {
		t.Fatalf("Quote(%q) = %s reads as %U, %v; want %U", s, q, read, err, cps)
	}
	if !strings.Contains(s, `\`) {
		got, n, err := decodeZ3(encodeLikeZ3(cps))
		if err != nil || got != s || n != len(cps) {
			t.Fatalf("decodeZ3(%s) = %q, %d, %v; want %q, %d", encodeLikeZ3(cps), got, n, err, s, len(cps))
		}
	}
}

func TestMapping(t *testing.T) {
	for b := range 256 {
		checkMapping(t, string([]byte{byte(b)}))
	}
	for _, s := range []string{"", "é", "日本語", "😀", "\U0002FFFF", "\U00030000", "\U0010FFFF",
		"\xed\xa0\x80", "\xc3\xa9\xff", "\xf4\x90\x80\x80", "a\x00b", `"\`} {
		checkMapping(t, s)
	}
}

func FuzzMapping(f *testing.F) {
	for _, s := range []string{"", "abc", `"q" \u{41}`, "é\xff\U00030000"} {
		f.Add(s)
	}
	f.Fuzz(checkMapping)
}

// Code points that Quote never makes still come back as bytes: surrogates
// other than U+DC80..U+DCFF in three bytes each.
func TestAppendCodePoint(t *testing.T) {
	tests := []struct {
		cp   rune
		want string
	}{
		{'a', "a"}, {0, "\x00"}, {0xe9, "é"}, {0xdc80, "\x80"}, {0xdcff, "\xff"},
		{0xdc7f, "\xed\xb1\xbf"}, {0xd800, "\xed\xa0\x80"}, {0xdfff, "\xed\xbf\xbf"},
		{0x2ffff, "\U0002FFFF"},
	}
	for _, tt := range tests {
		if got := string(appendCodePoint(nil, tt.cp)); got != tt.want {
			t.Errorf("appendCodePoint(%#x) = %q, want %q", tt.cp, got, tt.want)
		}
	}
}

func TestDecodeZ3(t *testing.T) {
	tests := []struct {
		in, want string
		n        int
		ok       bool
	}{
		{"", "", 0, true},
		{"plain text", "plain text", 10, true},
		{`\u{0}\u{a}\u{e9}\u{1f600}\u{dcff}`, "\x00\né😀\xff", 5, true},
		{`a\u{2ffff}`, "a\U0002FFFF", 2, true},
		// Backslashes that start no escape are characters.
		{`\u{30000}`, `\u{30000}`, 9, true},
		{`\u{}`, `\u{}`, 4, true},
		{`\u{123456}`, `\u{123456}`, 10, true},
		{`\u{zz}`, `\u{zz}`, 6, true},
		{`\u{41`, `\u{41`, 5, true},
		{`a\b\`, `a\b\`, 4, true},
		// Text that may be an escape is read as one.
		{`\u{5c}u{41}`, `\u{41}`, 6, true},
		{"\x92", "", 0, false}, // Z3 escapes every byte outside printable ASCII
		{"a\nb", "", 0, false},
		{"\x7f", "\x7f", 1, true},
	}
	for _, tt := range tests {
		got, n, err := decodeZ3(tt.in)
		if (err == nil) != tt.ok || got != tt.want || n != tt.n {
			t.Errorf("decodeZ3(%q) = %q, %d, %v; want %q, %d, ok %v", tt.in, got, n, err, tt.want, tt.n, tt.ok)
		}
	}
}

// FuzzDecodeZ3 checks the claim that decodeZ3's result is exact when its
// count is the length of the string Z3 printed.
func FuzzDecodeZ3(f *testing.F) {
	for _, s := range []string{"", `\u{41}`, `a\\u{2ffff}b`, `\u{`, "\xff\\u{5c}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cps := codePoints(s)
		enc := encodeLikeZ3(cps)
		got, n, err := decodeZ3(enc)
		if err != nil {
			t.Fatalf("decodeZ3(%q): %v", enc, err)
		}
		if n == len(cps) && got != s {
			t.Fatalf("decodeZ3(%q) = %q with %d code points, the length of %q", enc, got, n, s)
		}
		if n > len(cps) {
			t.Fatalf("decodeZ3(%q) counted %d code points, more than the %d of %q", enc, n, len(cps), s)
		}
		if !strings.Contains(s, `\`) && (n != len(cps) || got != s) {
			t.Fatalf("decodeZ3(%q) = %q, %d; want %q, %d", enc, got, n, s, len(cps))
		}
	})
}

func TestModelAccessors(t *testing.T) {
	m := &Model{names: []string{"b", "n", "s", "odd name"}, values: map[string]any{
		"b": true, "n": mustBig("-123456789012345678901234567890"), "s": "a\"b", "odd name": mustBig("5"),
	}}
	if v, err := m.BoolValue("b"); !v || err != nil {
		t.Errorf("BoolValue = %v, %v", v, err)
	}
	if _, err := m.Int64Value("n"); err == nil {
		t.Error("Int64Value did not report overflow")
	}
	if v, err := m.Int64Value("odd name"); v != 5 || err != nil {
		t.Errorf("Int64Value = %v, %v", v, err)
	}
	if v, err := m.StringValue("s"); v != "a\"b" || err != nil {
		t.Errorf("StringValue = %q, %v", v, err)
	}
	if _, err := m.BoolValue("s"); err == nil {
		t.Error("BoolValue of a string did not fail")
	}
	want := `(model
  (define-fun b () Bool true)
  (define-fun n () Int (- 123456789012345678901234567890))
  (define-fun s () String "a""b")
  (define-fun |odd name| () Int 5))`
	if got := m.String(); got != want {
		t.Errorf("String() =\n%s\nwant\n%s", got, want)
	}
	names := m.Names()
	names[0] = "changed"
	if m.Names()[0] != "b" {
		t.Error("Names shares its slice with the model")
	}
}

func TestSortAndResultStrings(t *testing.T) {
	for v, want := range map[fmt.Stringer]string{
		Bool: "Bool", Int: "Int", String: "String", Sort(7): "Sort(7)",
		Sat: "sat", Unsat: "unsat", Unknown: "unknown", Result(9): "Result(9)",
	} {
		if got := v.String(); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
	}
}

func mustBig(s string) any {
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return n
}
