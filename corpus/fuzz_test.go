package corpus

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

// FuzzParse checks that Unmarshal never panics, that what it rejects gives a
// *SyntaxError at a line of the input, and that what it accepts marshals to
// a file that reads back as the same values and marshals to the same bytes.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"go test fuzz v1\n[]byte(\"\\x00abc\")\n",
		"go test fuzz v1\nstring(\"h\\u00e9llo\\xff\")\nbool(true)\nbool(false)\n",
		"go test fuzz v1\nbyte('a')\nuint8(0xff)\nrune('\\U0010ffff')\nint32(-1)\nrune(7)\n",
		"go test fuzz v1\nfloat32(1.5)\nfloat64(-0)\nfloat64(+Inf)\nfloat64(-Inf)\nfloat64(NaN)\n",
		"go test fuzz v1\nmath.Float64frombits(0x7ff8000000000002)\nmath.Float32frombits(0x7fc00001)\n",
		"go test fuzz v1\nint(-5)\nint8(0b1)\nint16(0o7)\nint64(1_000)\nuint(0x_ff)\nuint16(017)\nuint32(1)\nuint64(18446744073709551615)\n",
		"go test fuzz v1\r\n  int(1) // c\r\n\r\nint(/* x */2,)\nint(3 ...)\n",
		"go test fuzz v1\nstring(`raw`)\nfloat64(0x1p-2)\nfloat32(1e-50)\n",
		"go test fuzz v1\n\ufeffint(1)\n",
		"go test fuzz v1\nint(x)\n",
		"go test fuzz v1\n[]byte(\"abc)\n",
		"go test fuzz v1\nint(1)); int(2)\n",
		"go test fuzz v1\n",
		"go test fuzz v2\nint(1)\n",
		"",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		values, err := Unmarshal(data)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v (%T) is not a *SyntaxError", err, err)
			}
			lines := bytes.Count(data, []byte("\n")) + 1
			if se.Line < 1 || se.Line > lines || se.Col < 0 || se.Msg == "" || values != nil {
				t.Fatalf("bad error %+v (input has %d lines), values %#v", *se, lines, values)
			}
			return
		}
		if len(values) == 0 {
			t.Fatal("Unmarshal accepted a file without values")
		}
		data2, err := Marshal(values...)
		if err != nil {
			t.Fatalf("Marshal of the values read: %v", err)
		}
		values2, err := Unmarshal(data2)
		if err != nil {
			t.Fatalf("Unmarshal(%q) of Marshal's output: %v", data2, err)
		}
		if !sameValues(values, values2) {
			t.Fatalf("values changed by a round trip:\n%#v\n%#v", values, values2)
		}
		if data3, _ := Marshal(values2...); !bytes.Equal(data2, data3) {
			t.Fatalf("Marshal not stable: %q, then %q", data2, data3)
		}
	})
}

// FuzzRoundTrip checks that values of many types survive Marshal and
// Unmarshal bit for bit.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("\x00\xff"), "é\xc3", byte(0x80), rune(-1), uint32(0x7fc00001), uint64(0x7ff8000000000002), int64(math.MinInt64), uint64(math.MaxUint64))
	f.Fuzz(func(t *testing.T, b []byte, s string, by byte, r rune, f32 uint32, f64 uint64, i int64, u uint64) {
		values := []any{b, s, by, r, math.Float32frombits(f32), math.Float64frombits(f64),
			int(i), int8(i), int16(i), int32(i), i, uint(u), uint16(u), uint32(u), u, i < 0}
		data, err := Marshal(values...)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Unmarshal(data)
		if err != nil {
			t.Fatalf("Unmarshal(%q): %v", data, err)
		}
		if !sameValues(got, values) {
			t.Fatalf("Unmarshal(%q) = %#v, want %#v", data, got, values)
		}
	})
}
