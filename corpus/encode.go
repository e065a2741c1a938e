package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// header is the first line of every corpus file.
const header = "go test fuzz v1"

// Marshal returns the content of a corpus file holding values, one argument
// of a fuzz target per value, in order. Each value must have one of the
// seventeen types that testing.F accepts (see the package documentation);
// named types, pointers and other types give an error, as does an empty list.
// For the same values Marshal returns the same bytes as go test writes.
func Marshal(values ...any) ([]byte, error) {
	if len(values) == 0 {
		return nil, errors.New("corpus: no values to marshal; a corpus entry needs at least one")
	}
	size := len(header) + 1
	for _, v := range values {
		size += 32 // type, parentheses, a number and the newline
		switch v := v.(type) {
		case []byte:
			size += len(v) + len(v)/4
		case string:
			size += len(v) + len(v)/4
		}
	}
	b := make([]byte, 0, size)
	b = append(b, header...)
	b = append(b, '\n')
	for i, v := range values {
		var ok bool
		if b, ok = appendValue(b, v); !ok {
			return nil, fmt.Errorf("corpus: value %d has unsupported type %T; want one of %s", i, v, typeList)
		}
		b = append(b, '\n')
	}
	return b, nil
}

// typeList names the supported types in error messages.
const typeList = "[]byte, string, bool, byte, rune, float32, float64, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64"

// appendValue appends the line for v without its newline. It reports false
// if v has an unsupported type.
func appendValue(b []byte, v any) ([]byte, bool) {
	switch v := v.(type) {
	case []byte:
		b = append(b, "[]byte("...)
		b = strconv.AppendQuote(b, string(v))
	case string:
		b = append(b, "string("...)
		b = strconv.AppendQuote(b, v)
	case bool:
		b = append(b, "bool("...)
		b = strconv.AppendBool(b, v)
	case byte: // also uint8
		b = append(b, "byte("...)
		b = strconv.AppendQuoteRune(b, rune(v))
	case rune: // also int32
		if utf8.ValidRune(v) {
			b = append(b, "rune("...)
			b = strconv.AppendQuoteRune(b, v)
		} else {
			// Negative values, surrogate halves and values above
			// unicode.MaxRune have no character literal.
			b = append(b, "int32("...)
			b = strconv.AppendInt(b, int64(v), 10)
		}
	case float32:
		if bits := math.Float32bits(v); v != v && bits != math.Float32bits(float32(math.NaN())) {
			b = append(b, "math.Float32frombits(0x"...)
			b = strconv.AppendUint(b, uint64(bits), 16)
		} else {
			b = append(b, "float32("...)
			b = strconv.AppendFloat(b, float64(v), 'g', -1, 32)
		}
	case float64:
		if bits := math.Float64bits(v); v != v && bits != math.Float64bits(math.NaN()) {
			b = append(b, "math.Float64frombits(0x"...)
			b = strconv.AppendUint(b, bits, 16)
		} else {
			b = append(b, "float64("...)
			b = strconv.AppendFloat(b, v, 'g', -1, 64)
		}
	case int:
		b = append(b, "int("...)
		b = strconv.AppendInt(b, int64(v), 10)
	case int8:
		b = append(b, "int8("...)
		b = strconv.AppendInt(b, int64(v), 10)
	case int16:
		b = append(b, "int16("...)
		b = strconv.AppendInt(b, int64(v), 10)
	case int64:
		b = append(b, "int64("...)
		b = strconv.AppendInt(b, v, 10)
	case uint:
		b = append(b, "uint("...)
		b = strconv.AppendUint(b, uint64(v), 10)
	case uint16:
		b = append(b, "uint16("...)
		b = strconv.AppendUint(b, uint64(v), 10)
	case uint32:
		b = append(b, "uint32("...)
		b = strconv.AppendUint(b, uint64(v), 10)
	case uint64:
		b = append(b, "uint64("...)
		b = strconv.AppendUint(b, v, 10)
	default:
		return b, false
	}
	return append(b, ')'), true
}

// FileName returns the name that go test gives a corpus file with content
// data: the first 16 hexadecimal digits of its SHA-256 sum.
func FileName(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}
