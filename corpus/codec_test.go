package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// sameValues reports whether a and b hold values of the same types that are
// equal, comparing floats bit for bit (so NaN payloads and -0 count).
func sameValues(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if reflect.TypeOf(a[i]) != reflect.TypeOf(b[i]) {
			return false
		}
		switch x := a[i].(type) {
		case float32:
			if math.Float32bits(x) != math.Float32bits(b[i].(float32)) {
				return false
			}
		case float64:
			if math.Float64bits(x) != math.Float64bits(b[i].(float64)) {
				return false
			}
		case []byte:
			if !bytes.Equal(x, b[i].([]byte)) {
				return false
			}
		default:
			if a[i] != b[i] {
				return false
			}
		}
	}
	return true
}

// goStyle formats values the way go test's writer is documented to: the
// type and value with fmt's %T and %v, strings, byte slices, bytes and valid
// runes with %q, unusual NaNs bit for bit. It is the reference that Marshal's
// output is compared with.
func goStyle(values ...any) string {
	var b strings.Builder
	b.WriteString("go test fuzz v1\n")
	for _, v := range values {
		switch v := v.(type) {
		case []byte:
			fmt.Fprintf(&b, "[]byte(%q)\n", v)
		case string:
			fmt.Fprintf(&b, "string(%q)\n", v)
		case byte:
			fmt.Fprintf(&b, "byte(%q)\n", v)
		case rune:
			if utf8.ValidRune(v) {
				fmt.Fprintf(&b, "rune(%q)\n", v)
			} else {
				fmt.Fprintf(&b, "int32(%v)\n", v)
			}
		case float32:
			if v != v && math.Float32bits(v) != math.Float32bits(float32(math.NaN())) {
				fmt.Fprintf(&b, "math.Float32frombits(%#x)\n", math.Float32bits(v))
			} else {
				fmt.Fprintf(&b, "%T(%v)\n", v, v)
			}
		case float64:
			if v != v && math.Float64bits(v) != math.Float64bits(math.NaN()) {
				fmt.Fprintf(&b, "math.Float64frombits(%#x)\n", math.Float64bits(v))
			} else {
				fmt.Fprintf(&b, "%T(%v)\n", v, v)
			}
		default:
			fmt.Fprintf(&b, "%T(%v)\n", v, v)
		}
	}
	return b.String()
}

// edgeValues returns values of all seventeen types, including the edge cases
// of each.
func edgeValues() []any {
	return []any{
		[]byte(nil), []byte(""), []byte("abc"), []byte("\x00\xff\xfe\n\t\"\\'`"), []byte("héllo, 世界"),
		"", "plain", "quote\" back\\slash\nnewline", "\xff\xfeinvalid utf-8 \xc3", "é\u2028\U0010ffff\ufffd", "\x7f\x80",
		true, false,
		byte(0), byte('a'), byte('\''), byte('\\'), byte(0x7f), byte(0x80), byte(0xc8), byte(0xff), uint8(7),
		rune(0), rune('a'), rune('\''), rune('é'), rune(0x10ffff), rune(0xfffd), rune(0xd800), rune(-1),
		rune(math.MinInt32), rune(math.MaxInt32), rune(0x110000), int32(-5),
		float32(0), float32(math.Copysign(0, -1)), float32(1.5), float32(-3.4028235e38), float32(1e-45),
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.Float32frombits(0x7fc00001),
		math.Float32frombits(0xffc00000), math.Float32frombits(0x7f800001), float32(16777217), float32(0.1),
		0.0, math.Copysign(0, -1), 0.1, -2.5e-310, math.MaxFloat64, math.SmallestNonzeroFloat64, 1e21, 123456789.0,
		math.Inf(1), math.Inf(-1), math.NaN(), math.Float64frombits(0x7ff8000000000002),
		math.Float64frombits(0xfff8000000000000), math.Float64frombits(0x7ff0000000000001),
		int(0), int(-5), int(math.MaxInt), int(math.MinInt),
		int8(math.MinInt8), int8(math.MaxInt8), int16(math.MinInt16), int16(math.MaxInt16),
		int64(math.MinInt64), int64(math.MaxInt64), int64(0),
		uint(0), uint(math.MaxUint), uint16(math.MaxUint16), uint32(math.MaxUint32), uint64(math.MaxUint64), uint64(1),
	}
}

func TestMarshalGolden(t *testing.T) {
	tests := []struct {
		values []any
		want   string
	}{
		{[]any{[]byte("hello\x00\xff")}, "[]byte(\"hello\\x00\\xff\")\n"},
		{[]any{"a\"b", true}, "string(\"a\\\"b\")\nbool(true)\n"},
		{[]any{byte('x'), uint8(200)}, "byte('x')\nbyte('È')\n"},
		{[]any{rune('é'), int32(-1), rune(0xd800)}, "rune('é')\nint32(-1)\nint32(55296)\n"},
		{[]any{float64(0.5), math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(0, -1), 1e6},
			"float64(0.5)\nfloat64(+Inf)\nfloat64(-Inf)\nfloat64(NaN)\nfloat64(-0)\nfloat64(1e+06)\n"},
		{[]any{math.Float64frombits(0x7ff8000000000002), math.Float32frombits(0x7fc00001), float32(0.1)},
			"math.Float64frombits(0x7ff8000000000002)\nmath.Float32frombits(0x7fc00001)\nfloat32(0.1)\n"},
		{[]any{int(-5), int8(-128), int16(7), int64(9), uint(1), uint16(2), uint32(3), uint64(18446744073709551615)},
			"int(-5)\nint8(-128)\nint16(7)\nint64(9)\nuint(1)\nuint16(2)\nuint32(3)\nuint64(18446744073709551615)\n"},
	}
	for _, tt := range tests {
		got, err := Marshal(tt.values...)
		if err != nil {
			t.Fatalf("Marshal(%#v): %v", tt.values, err)
		}
		if want := header + "\n" + tt.want; string(got) != want {
			t.Errorf("Marshal(%#v) =\n%s\nwant\n%s", tt.values, got, want)
		}
	}
}

func TestMarshalMatchesGoStyle(t *testing.T) {
	values := edgeValues()
	for _, v := range values {
		got, err := Marshal(v)
		if err != nil {
			t.Fatalf("Marshal(%T(%v)): %v", v, v, err)
		}
		if want := goStyle(v); string(got) != want {
			t.Errorf("Marshal(%T(%#v)) = %q, want %q", v, v, got, want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		vals := []any{
			math.Float64frombits(r.Uint64()), math.Float32frombits(r.Uint32()),
			r.Float64() * math.Pow(10, float64(r.IntN(40)-20)), float32(r.NormFloat64()),
			rune(r.Uint32()), rune(r.IntN(0x110000)), byte(r.Uint32()), randomBytes(r, 8), string(randomBytes(r, 8)),
			int(r.Uint64()), int8(r.Uint32()), uint64(r.Uint64()),
		}
		got, err := Marshal(vals...)
		if err != nil {
			t.Fatal(err)
		}
		if want := goStyle(vals...); string(got) != want {
			t.Fatalf("Marshal(%#v) =\n%s\nwant\n%s", vals, got, want)
		}
	}
}

func randomBytes(r *rand.Rand, max int) []byte {
	b := make([]byte, r.IntN(max+1))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func TestMarshalErrors(t *testing.T) {
	type myInt int
	for _, values := range [][]any{
		nil,
		{nil},
		{myInt(1)},
		{complex(1, 2)},
		{[]int{1}},
		{new(int)},
		{"ok", struct{}{}},
	} {
		if b, err := Marshal(values...); err == nil {
			t.Errorf("Marshal(%#v) = %q, want an error", values, b)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	values := edgeValues()
	data, err := Marshal(values...)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Unmarshal(data)
	if err != nil {
		t.Fatalf("Unmarshal: %v", err)
	}
	// []byte(nil) reads back as an empty, non-nil slice; sameValues
	// compares contents only.
	if !sameValues(got, values) {
		t.Errorf("round trip changed the values:\n got %#v\nwant %#v", got, values)
	}
	for i, v := range values {
		one, err := Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Unmarshal(one)
		if err != nil {
			t.Fatalf("Unmarshal(%q): %v", one, err)
		}
		if !sameValues(got, values[i:i+1]) {
			t.Errorf("Unmarshal(%q) = %#v, want %T(%#v)", one, got, v, v)
		}
	}
}

func TestUnmarshalAccepted(t *testing.T) {
	tests := []struct {
		in   string
		want []any
	}{
		{"go test fuzz v1\nint(1)\n", []any{1}},
		{"go test fuzz v1\nint(1)", []any{1}},
		{"go test fuzz v1\r\nint(1)\r\nint8(-2)\r\n", []any{1, int8(-2)}},
		{"go test fuzz v1\n\n  \t\n   int(1)   \n\n", []any{1}},
		{"go test fuzz v1\nint(0x10)\nint(0o17)\nint(017)\nint(0b101)\nint(1_000)\nint(-0x_1)\n", []any{16, 15, 15, 5, 1000, -1}},
		{"go test fuzz v1\nuint8(7)\nbyte(7)\nbyte('\\xff')\nbyte('é')\nbyte(0xff)\n", []any{byte(7), byte(7), byte(0xff), byte(0xe9), byte(0xff)}},
		{"go test fuzz v1\nint32(-7)\nrune(-7)\nrune('\\U0010ffff')\nrune('\\xff')\nrune(0x10)\n", []any{int32(-7), int32(-7), rune(0x10ffff), rune(0xff), rune(16)}},
		{"go test fuzz v1\nfloat64(1)\nfloat64(-0)\nfloat64(0x1p-2)\nfloat64(1_0.5)\nfloat64(-Inf)\nfloat64(+Inf)\nfloat64(NaN)\nfloat64(.5)\n",
			[]any{1.0, math.Copysign(0, -1), 0.25, 10.5, math.Inf(-1), math.Inf(1), math.NaN(), 0.5}},
		{"go test fuzz v1\nfloat32(1e-50)\nfloat32(3)\nfloat32(NaN)\nmath.Float32frombits(0x3f800000)\nmath.Float64frombits(0)\n",
			[]any{float32(0), float32(3), float32(math.NaN()), float32(1), 0.0}},
		{"go test fuzz v1\nstring(`raw \\n`)\n[]byte(`\\x`)\nstring(\"\\u00e9\\xff\")\n", []any{"raw \\n", []byte("\\x"), "é\xff"}},
		{"go test fuzz v1\nbool(true)\nbool(false)\n", []any{true, false}},
		// What Go's expression syntax allows around the conversion.
		{"go test fuzz v1\n[ ] byte ( \"x\" )\nmath . Float64frombits ( 1 )\n", []any{[]byte("x"), math.Float64frombits(1)}},
		{"go test fuzz v1\nint(1) // comment\nint(/* c */ 2)\nint(3,)\nint(4 ...)\n", []any{4 - 3, 2, 3, 4}},
		{"go test fuzz v1\n\ufeffint(1)\n", []any{1}},
	}
	for _, tt := range tests {
		got, err := Unmarshal([]byte(tt.in))
		if err != nil {
			t.Errorf("Unmarshal(%q): %v", tt.in, err)
			continue
		}
		if !sameValues(got, tt.want) {
			t.Errorf("Unmarshal(%q) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
}

func TestUnmarshalErrors(t *testing.T) {
	tests := []struct {
		in        string
		line, col int
		msg       string // a substring of the message
	}{
		{"", 1, 0, `empty file; expected the header "go test fuzz v1"`},
		{"go test fuzz v2\nint(1)\n", 1, 1, `expected the header "go test fuzz v1", found "go test fuzz v2"`},
		{"go test fuzz v1 \nint(1)\n", 1, 1, `expected the header`},
		{"go test fuzz v1", 1, 16, "expected a newline and a value line"},
		{"go test fuzz v1\n", 1, 0, "expected a value line after the header, found none"},
		{"go test fuzz v1\n\n\n", 3, 0, "found none"},
		{"go test fuzz v1\nint(1)\n  int(x)\n", 3, 7, "expected a literal value for int, found identifier x"},
		{"go test fuzz v1\n\u00a0 int(x)\n", 2, 8, "found identifier x"},
		{"go test fuzz v1\nfoo(1)\n", 2, 1, "expected one of []byte, string"},
		{"go test fuzz v1\nfmt.Sprint(1)\n", 2, 1, `expected math.Float32frombits or math.Float64frombits, found fmt followed by "."`},
		{"go test fuzz v1\nmath.Sqrt(1)\n", 2, 6, "expected Float32frombits or Float64frombits"},
		{"go test fuzz v1\n[]uint8(\"x\")\n", 2, 3, `expected "byte" after "[]"`},
		{"go test fuzz v1\n[2]byte(\"x\")\n", 2, 2, `expected "]"`},
		{"go test fuzz v1\n(int)(1)\n", 2, 1, "expected a conversion such as int(1)"},
		{"go test fuzz v1\nint 1\n", 2, 5, `expected "(" after int, found integer literal 1`},
		{"go test fuzz v1\nint(1\n", 2, 6, `expected ")" after the value, found end of line`},
		{"go test fuzz v1\nint(1))\n", 2, 7, `expected end of line after int(...), found ")"`},
		{"go test fuzz v1\nint(1); int(2)\n", 2, 7, `expected end of line`},
		{"go test fuzz v1\nint(1, 2)\n", 2, 8, `expected ")" after the value, found integer literal 2`},
		{"go test fuzz v1\nint(1+2)\n", 2, 6, `expected ")" after the value, found "+"`},
		{"go test fuzz v1\nint((1))\n", 2, 5, `expected a literal value for int, found "("`},
		{"go test fuzz v1\nint(--1)\n", 2, 5, `expected a literal value for int, found "--"`},
		{"go test fuzz v1\nint(- -1)\n", 2, 7, `expected a literal value for int, found "-"`},
		{"go test fuzz v1\nint(+1)\n", 2, 5, `a literal may have a "-" sign only`},
		{"go test fuzz v1\nint(1.5)\n", 2, 5, "expected an integer literal for int, found floating-point literal 1.5"},
		{"go test fuzz v1\nint8(128)\n", 2, 6, "expected a value in the range of int8, found 128"},
		{"go test fuzz v1\nint8(-129)\n", 2, 6, "expected a value in the range of int8, found -129"},
		{"go test fuzz v1\nuint(-1)\n", 2, 6, "expected a valid uint literal, found -1"},
		{"go test fuzz v1\nuint64(18446744073709551616)\n", 2, 8, "range of uint64"},
		{"go test fuzz v1\nint32('a')\n", 2, 7, "expected an integer literal for int32, found character literal 'a'"},
		{"go test fuzz v1\nbyte('ā')\n", 2, 6, `expected a character literal below '\u0100' for byte`},
		{"go test fuzz v1\nbyte(256)\n", 2, 6, "range of uint8"},
		{"go test fuzz v1\nrune(-'a')\n", 2, 6, "only numbers may have a sign"},
		{"go test fuzz v1\nrune(1.0)\n", 2, 6, "expected a character or integer literal for rune"},
		{"go test fuzz v1\nrune('ab')\n", 2, 6, "rune literal"},
		{"go test fuzz v1\nstring(1)\n", 2, 8, "expected a string literal for string, found integer literal 1"},
		{"go test fuzz v1\nstring(\"\\q\")\n", 2, 10, "unknown escape"},
		{"go test fuzz v1\nstring(\"abc)\n", 2, 8, "string literal not terminated"},
		{"go test fuzz v1\n[]byte('a')\n", 2, 8, "expected a string literal for []byte"},
		{"go test fuzz v1\nstring(\"\xff\")\n", 2, 9, "illegal UTF-8 encoding"},
		{"go test fuzz v1\nint(\x00)\n", 2, 5, "illegal character NUL"},
		{"go test fuzz v1\nbool(1)\n", 2, 6, "expected true or false for bool, found integer literal 1"},
		{"go test fuzz v1\nbool(True)\n", 2, 6, "expected true or false for bool, found identifier True"},
		{"go test fuzz v1\nbool(-true)\n", 2, 6, "found identifier -true"},
		{"go test fuzz v1\nfloat64(Inf)\n", 2, 9, "found identifier Inf"},
		{"go test fuzz v1\nfloat64(-NaN)\n", 2, 9, "found identifier -NaN"},
		{"go test fuzz v1\nfloat64(1e400)\n", 2, 9, "range of float64"},
		{"go test fuzz v1\nfloat32(1e39)\n", 2, 9, "range of float32"},
		{"go test fuzz v1\nfloat64(1i)\n", 2, 9, "floating-point or integer literal for float64, found imaginary literal 1i"},
		{"go test fuzz v1\nfloat64('a')\n", 2, 9, "found character literal 'a'"},
		{"go test fuzz v1\nint(NaN)\n", 2, 5, "expected an integer literal for int, found floating-point literal NaN"},
		{"go test fuzz v1\nmath.Float64frombits(-1)\n", 2, 22, "expected an unsigned integer literal"},
		{"go test fuzz v1\nmath.Float64frombits(1.0)\n", 2, 22, "expected an unsigned integer literal"},
		{"go test fuzz v1\nmath.Float32frombits(0x100000000)\n", 2, 22, "range of uint32"},
		{"go test fuzz v1\nint(08)\n", 2, 6, "invalid digit '8' in octal literal"},
		{"go test fuzz v1\nint(1) /* open\n", 2, 8, "comment not terminated"},
		{"go test fuzz v1\nstring(\"a\" \"b\")\n", 2, 12, `expected ")" after the value, found string literal "b"`},
		{"go test fuzz v1\nstring(\"" + strings.Repeat("a", 100) + "\" \"b\")\n", 2, 0, `expected ")" after the value, found string literal "b"`},
		{"go test fuzz v1\nstring(`a\nb`)\n", 2, 8, "raw string literal not terminated"},
	}
	for _, tt := range tests {
		vals, err := Unmarshal([]byte(tt.in))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Unmarshal(%q) = %#v, %v; want a *SyntaxError", tt.in, vals, err)
			continue
		}
		if vals != nil {
			t.Errorf("Unmarshal(%q) returned values %#v with its error", tt.in, vals)
		}
		if se.File != "" || se.Line != tt.line || (tt.col != 0 && se.Col != tt.col) || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("Unmarshal(%q) error = %+v, want line %d col %d message containing %q", tt.in, *se, tt.line, tt.col, tt.msg)
		}
	}
}

// TestUnmarshalBinaryHeader reads a binary file of one long line: the
// error quotes a short prefix of it and gives its length.
func TestUnmarshalBinaryHeader(t *testing.T) {
	line := strings.Repeat("\x00\xff\x10é", 500)
	_, err := Unmarshal([]byte(line + "\nrest\n"))
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("error %v, want a *SyntaxError", err)
	}
	if len(se.Msg) > 200 || !strings.Contains(se.Msg, `found "\x00\xff\x10é`) || !strings.Contains(se.Msg, "(a line of 2500 bytes)") {
		t.Errorf("message of %d bytes: %s", len(se.Msg), se.Msg)
	}
}

func TestSyntaxErrorString(t *testing.T) {
	tests := []struct {
		err  SyntaxError
		want string
	}{
		{SyntaxError{File: "testdata/fuzz/FuzzX/abc", Line: 3, Col: 5, Msg: "expected x"}, "testdata/fuzz/FuzzX/abc:3:5: expected x"},
		{SyntaxError{File: "f", Line: 1, Msg: "empty"}, "f:1: empty"},
		{SyntaxError{Line: 2, Col: 7, Msg: "expected y"}, "corpus: line 2:7: expected y"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("%+v.Error() = %q, want %q", tt.err, got, tt.want)
		}
	}
}

func TestLongLiteralShortenedInMessage(t *testing.T) {
	for _, line := range []string{
		"int(\"" + strings.Repeat("é", 100) + "\")",
		"int(" + strings.Repeat("9", 1000) + ")",
		"uint8(" + strings.Repeat("x", 1000) + ")",
		strings.Repeat("x", 1000) + "(1)",
		strings.Repeat("x", 1000) + ".y(1)",
	} {
		_, err := Unmarshal([]byte("go test fuzz v1\n" + line + "\n"))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("got %v, want a *SyntaxError", err)
		}
		if len(se.Msg) > 300 || !utf8.ValidString(se.Msg) || !strings.Contains(se.Msg, "...") {
			t.Errorf("message not shortened to valid UTF-8: %q", se.Msg)
		}
	}
}

func TestFileName(t *testing.T) {
	// The SHA-256 sum of this content, computed with sha256sum, is
	// 319194200cbebc1b28cd91ec5abfe2914d02e370e20c0c2495f6a9c559ba26a3.
	data := []byte("go test fuzz v1\nint(1)\n")
	if got, want := FileName(data), "319194200cbebc1b"; got != want {
		t.Errorf("FileName = %q, want %q", got, want)
	}
}
