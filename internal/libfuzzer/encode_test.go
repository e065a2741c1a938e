package libfuzzer

import (
	"bytes"
	"strings"
	"testing"
)

// The expected bytes follow go-fuzz-headers' ConsumeFuzzer as
// go-118-fuzz-build's shim calls it: GetBytes and GetString read a
// big-endian uint32 length, GetUint16/GetUint64/GetFloat32/GetFloat64 read
// the number and then a byte order flag (odd: big-endian), GetUint32 reads
// no flag, GetBool reads one byte (even: true).
func TestEncode(t *testing.T) {
	for _, tc := range []struct {
		values []any
		want   []byte
	}{
		{[]any{[]byte("x+1")}, []byte{0, 0, 0, 3, 'x', '+', '1'}},
		{[]any{"ab", []byte{7}}, []byte{0, 0, 0, 2, 'a', 'b', 0, 0, 0, 1, 7}},
		{[]any{"", "z"}, []byte{0, 0, 0, 0, 0, 0, 0, 1, 'z'}},
		{[]any{true, false}, []byte{0, 1}},
		{[]any{int8(-1), uint8(9)}, []byte{0xff, 9}},
		{[]any{int16(-2), uint16(0x0102)}, []byte{0xff, 0xfe, 1, 1, 2, 1}},
		{[]any{int32(-1), uint32(5)}, []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 5}},
		{[]any{int(1), int64(-1)}, []byte{0, 0, 0, 0, 0, 0, 0, 1, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1}},
		{[]any{uint(2), uint64(3)}, []byte{0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0, 3, 1}},
		{[]any{float32(1)}, []byte{0x3f, 0x80, 0, 0, 1}},
		{[]any{float64(1)}, []byte{0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 1}},
	} {
		got, err := Encode(tc.values)
		if err != nil || !bytes.Equal(got, tc.want) {
			t.Errorf("Encode(%#v) = % x, %v; want % x", tc.values, got, err, tc.want)
		}
	}
}

func TestEncodeErrors(t *testing.T) {
	for _, tc := range []struct {
		values []any
		want   string
	}{
		{[]any{[]byte{}}, "argument 1: an empty []byte"},
		{[]any{"a", ""}, "argument 2: an empty string as the last argument"},
		{[]any{"a", 'x', complex(1, 2)}, "argument 3: go-118-fuzz-build's shim does not support complex128"},
	} {
		_, err := Encode(tc.values)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Encode(%#v) error %v, want %q", tc.values, err, tc.want)
		}
	}
}
