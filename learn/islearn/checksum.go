package islearn

import (
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// InternetChecksum is the semantic predicate internet_checksum(msg, sum)
// of ISLearn's ICMP subject: sum, a node inside msg, holds the Internet
// checksum (RFC 1071: the ones' complement of the ones' complement sum of
// the 16-bit big-endian words) of msg's bytes with sum's bytes taken as
// zero. Bytes are written either raw or, as in ISLearn's ICMP grammar, as
// hexadecimal pairs separated by white space ("08 00 f7 ff "); a node's
// text is read as hexadecimal when it consists of such pairs only. The
// checksum field must be two bytes long.
//
// InternetChecksum is also an isla.TreeSolver, so that the solver and a
// solver.Repairer compute the checksum: it writes nodes of the nonterminal
// <checksum>, the name the field must have for solving (evaluation takes
// any name).
//
// Pass it to Learn with WithPredicates (the catalog's internet-checksum
// pattern calls it) and to isla.Compile with isla.WithPredicates to check
// a mined constraint that uses it.
var InternetChecksum isla.Predicate = internetChecksum{}

type internetChecksum struct{}

// Name implements isla.Predicate.
func (internetChecksum) Name() string { return "internet_checksum" }

// Params implements isla.Predicate.
func (internetChecksum) Params() []isla.Param { return []isla.Param{isla.TreeParam, isla.TreeParam} }

// Eval implements isla.Predicate.
func (internetChecksum) Eval(args []isla.Arg) (bool, error) {
	msg, sum := args[0].Node, args[1].Node
	if sum.Offset() < msg.Offset() || sum.End() > msg.End() {
		return false, fmt.Errorf("%v is not inside %v", sum, msg)
	}
	text := msg.Text()
	rel, relEnd := sum.Offset()-msg.Offset(), sum.End()-msg.Offset()
	data, isHex := decodeHex(text)
	var lo, hi int
	if isHex {
		before, _ := decodeHex(text[:rel])
		field, ok := decodeHex(text[rel:relEnd])
		if !ok {
			return false, nil
		}
		lo, hi = len(before), len(before)+len(field)
	} else {
		data, lo, hi = []byte(text), rel, relEnd
	}
	if hi-lo != 2 {
		return false, nil
	}
	want := uint16(data[lo])<<8 | uint16(data[lo+1])
	return internetSum(data, lo) == want, nil
}

// Writes implements isla.TreeSolver: the checksum field is a <checksum>.
func (internetChecksum) Writes() []string { return []string{"checksum"} }

// Solve implements isla.TreeSolver: it returns the checksum field's text
// once every other node of the message is derived, and isla.ErrNotReady
// before.
func (internetChecksum) Solve(args []isla.Arg) ([]isla.Fix, error) {
	msg, sum := args[0].Node, args[1].Node
	if sum.Offset() < msg.Offset() || sum.End() > msg.End() {
		return nil, fmt.Errorf("%v is not inside %v", sum, msg)
	}
	if !completeExcept(msg, sum) {
		return nil, isla.ErrNotReady
	}
	text := msg.Text()
	before, after := text[:sum.Offset()-msg.Offset()], text[sum.End()-msg.Offset():]
	b, okB := decodeHex(before)
	a, okA := decodeHex(after)
	isHex := okB && okA && (len(b) > 0 || len(a) > 0)
	if !isHex {
		b, a = []byte(before), []byte(after)
	}
	data := append(append(slices.Clip(b), 0, 0), a...)
	v := internetSum(data, len(b))
	if isHex {
		return []isla.Fix{{Node: sum, Text: fmt.Sprintf("%02x %02x ", v>>8, v&0xff)}}, nil
	}
	return []isla.Fix{{Node: sum, Text: string([]byte{byte(v >> 8), byte(v)})}}, nil
}

// completeExcept reports whether n's subtree is fully derived, but for
// the subtree of skip.
func completeExcept(n, skip isla.Node) bool {
	if n == skip || n.Complete() {
		return true
	}
	kids := n.Children()
	if len(kids) == 0 {
		return false
	}
	for _, k := range kids {
		if !completeExcept(k, skip) {
			return false
		}
	}
	return true
}

// internetSum returns the Internet checksum of data with the two bytes at
// skip taken as zero.
func internetSum(data []byte, skip int) uint16 {
	d := slices.Clone(data)
	d[skip], d[skip+1] = 0, 0
	if len(d)%2 == 1 {
		d = append(d, 0)
	}
	var s uint32
	for i := 0; i < len(d); i += 2 {
		s += uint32(d[i])<<8 | uint32(d[i+1])
	}
	for s>>16 != 0 {
		s = s&0xffff + s>>16
	}
	return ^uint16(s)
}

// decodeHex reads s as hexadecimal byte pairs separated by white space. It
// reports false if s holds anything else, or nothing.
func decodeHex(s string) ([]byte, bool) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return nil, s == ""
	}
	out := make([]byte, 0, len(f))
	for _, w := range f {
		if len(w) != 2 {
			return nil, false
		}
		b, err := hex.DecodeString(w)
		if err != nil {
			return nil, false
		}
		out = append(out, b...)
	}
	return out, true
}
