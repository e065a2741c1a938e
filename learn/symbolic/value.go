package symbolic

import (
	"go/types"
	"math/bits"

	"golang.org/x/tools/go/ssa"
)

// A value is what an SSA value holds on one path. Concrete values are int64,
// bool, string and nilValue; the others are symbolic or structured.
type value interface{}

// nilValue is a nil pointer, slice, map, function or interface.
type nilValue struct{}

// opaque is a value the executor does not track: the result of arithmetic on
// two input bytes, of a float operation, of an external call. Branching on it
// explores both ways, without constraining the input.
type opaque struct{}

// byteFn is a function of one input byte: f[b] is the value when the byte at
// pos is b. A raw byte read has f[b] = b; conversions and arithmetic with
// concrete operands apply pointwise, and comparisons give 0/1 tables, so that
// a branch on it splits the byte's set of possible values exactly.
type byteFn struct {
	pos int
	f   *[256]int64
}

// lenFn is the input's length plus k: len(s[i:]) is lenFn{-i}.
type lenFn struct{ k int64 }

// view is (a copy of) the input from byte off to byte end, or to the end of
// the input when end < 0. Strings and byte slices derived from the input by
// slicing or conversion are views; indexing one reads input bytes.
type view struct {
	off, end int
	bytes    bool // a []byte rather than a string
}

// ifaceValue is a non-nil interface value holding v of dynamic type t.
type ifaceValue struct {
	t types.Type
	v value
}

// aggregate is the value of a struct or array: its fields or elements.
// Aggregates are immutable; a store builds a new one.
type aggregate []value

// pointer addresses the heap cell cell, and within its aggregate value the
// element at path.
type pointer struct {
	cell int
	path []int
}

// slice is a slice value: elements off..off+len of the array in cell.
type slice struct {
	cell, off, len, cap int
}

// tuple holds the results of a call with several results.
type tuple []value

// closure is a function value with bound free variables.
type closure struct {
	fn       *ssa.Function
	bindings []value
}

// mapValue is a map with concrete keys.
type mapValue struct {
	cell int // the cell holds a *mapData
}

type mapData struct {
	keys []value
	vals []value
}

// byteSet is a set of byte values.
type byteSet [4]uint64

func fullSet() byteSet { return byteSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)} }

func (s byteSet) has(b int) bool { return s[b>>6]&(1<<(b&63)) != 0 }
func (s *byteSet) add(b int)     { s[b>>6] |= 1 << (b & 63) }
func (s byteSet) empty() bool    { return s[0]|s[1]|s[2]|s[3] == 0 }
func (s byteSet) count() int {
	return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) + bits.OnesCount64(s[2]) + bits.OnesCount64(s[3])
}
func (s byteSet) union(t byteSet) byteSet {
	return byteSet{s[0] | t[0], s[1] | t[1], s[2] | t[2], s[3] | t[3]}
}

// ranges returns the set as sorted inclusive ranges.
func (s byteSet) ranges() [][2]int {
	var out [][2]int
	for b := 0; b < 256; b++ {
		if !s.has(b) {
			continue
		}
		lo := b
		for b+1 < 256 && s.has(b+1) {
			b++
		}
		out = append(out, [2]int{lo, b})
	}
	return out
}

var identity = func() *[256]int64 {
	var f [256]int64
	for i := range f {
		f[i] = int64(i)
	}
	return &f
}()

// wrap truncates x to the size and signedness of the basic type t, as Go's
// arithmetic does.
func wrap(t types.Type, x int64) int64 {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return x
	}
	switch b.Kind() {
	case types.Int8:
		return int64(int8(x))
	case types.Int16:
		return int64(int16(x))
	case types.Int32:
		return int64(int32(x))
	case types.Uint8:
		return int64(uint8(x))
	case types.Uint16:
		return int64(uint16(x))
	case types.Uint32:
		return int64(uint32(x))
	}
	return x
}
