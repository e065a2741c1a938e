// Package libfuzzer writes the seed corpus of a libFuzzer binary that
// go-118-fuzz-build (the builder OSS-Fuzz and ClusterFuzzLite use for
// native Go fuzz tests) made from a fuzz test. Such a binary does not pass
// libFuzzer's bytes to the fuzz target as they are: the testing shim of
// go-118-fuzz-build reads the target's arguments from them one after the
// other, the way go-fuzz-headers' ConsumeFuzzer does (a []byte or string as
// a 4-byte big-endian length followed by the bytes, an int as 8 bytes and a
// byte order flag, ...). Encode writes values so that the binary reads them
// back unchanged.
package libfuzzer

import (
	"encoding/binary"
	"fmt"
	"math"
)

// bigEndian is the byte order flag that makes the shim read a number as
// big-endian: go-fuzz-headers reads an even byte as "little-endian".
const bigEndian = 1

// Encode returns the libFuzzer input from which a go-118-fuzz-build binary
// reads the fuzz target's arguments values, the values of a corpus entry of
// testdata/fuzz (see corpus.Unmarshal). It supports the types that the
// shim supports: []byte, string, bool, float32, float64, and the signed and
// unsigned integers. The shim cannot read some values back: an empty []byte
// (it takes a length of 0 to mean 30) and an empty string as the last
// argument; Encode returns an error for them.
func Encode(values []any) ([]byte, error) {
	var out []byte
	for i, v := range values {
		last := i == len(values)-1
		switch v := v.(type) {
		case []byte:
			if len(v) == 0 {
				return nil, fmt.Errorf("argument %d: an empty []byte cannot be passed through go-118-fuzz-build's shim", i+1)
			}
			out = binary.BigEndian.AppendUint32(out, uint32(len(v)))
			out = append(out, v...)
		case string:
			if v == "" && last {
				return nil, fmt.Errorf("argument %d: an empty string as the last argument cannot be passed through go-118-fuzz-build's shim", i+1)
			}
			out = binary.BigEndian.AppendUint32(out, uint32(len(v)))
			out = append(out, v...)
		case bool:
			if v {
				out = append(out, 0) // even: true
			} else {
				out = append(out, 1)
			}
		case int8:
			out = append(out, byte(v))
		case uint8:
			out = append(out, v)
		case int16:
			out = append(binary.BigEndian.AppendUint16(out, uint16(v)), bigEndian)
		case uint16:
			out = append(binary.BigEndian.AppendUint16(out, v), bigEndian)
		case int32:
			out = binary.BigEndian.AppendUint32(out, uint32(v))
		case uint32:
			out = binary.BigEndian.AppendUint32(out, v)
		case int:
			out = append(binary.BigEndian.AppendUint64(out, uint64(v)), bigEndian)
		case int64:
			out = append(binary.BigEndian.AppendUint64(out, uint64(v)), bigEndian)
		case uint:
			out = append(binary.BigEndian.AppendUint64(out, uint64(v)), bigEndian)
		case uint64:
			out = append(binary.BigEndian.AppendUint64(out, v), bigEndian)
		case float32:
			out = append(binary.BigEndian.AppendUint32(out, math.Float32bits(v)), bigEndian)
		case float64:
			out = append(binary.BigEndian.AppendUint64(out, math.Float64bits(v)), bigEndian)
		default:
			return nil, fmt.Errorf("argument %d: go-118-fuzz-build's shim does not support %T", i+1, v)
		}
	}
	return out, nil
}
