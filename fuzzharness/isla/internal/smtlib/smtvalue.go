package smtlib

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strings"
)

// Sort is an SMT-LIB sort.
type Sort uint8

const (
	SortBool Sort = iota
	SortInt
	SortString
	SortRegLan
)

var srtNames = [...]string{"Bool", "Int", "String", "RegLan"}

// String returns the sort's SMT-LIB name.
func (s Sort) String() string { return srtNames[s] }

// Value is the Value of a term of some sort.
type Value struct {
	Bool  bool
	Int   Integer
	Str   string // internal string form
	Re    *Regex
	Undef bool // depends on a value SMT-LIB leaves unspecified
}

var Undefined = Value{Undef: true}

// Integer is an integer: v unless b is set.
type Integer struct {
	v int64
	b *big.Int
}

func SmallInt(v int64) Integer { return Integer{v: v} }

func FromBig(b *big.Int) Integer {
	if b.IsInt64() {
		return Integer{v: b.Int64()}
	}
	return Integer{b: b}
}

func (x Integer) Big() *big.Int {
	if x.b != nil {
		return x.b
	}
	return big.NewInt(x.v)
}

func (x Integer) Int64() (int64, bool) {
	if x.b == nil {
		return x.v, true
	}
	return 0, false
}

func (x Integer) Sign() int {
	if x.b != nil {
		return x.b.Sign()
	}
	switch {
	case x.v < 0:
		return -1
	case x.v > 0:
		return 1
	}
	return 0
}

func (x Integer) Cmp(y Integer) int {
	if x.b == nil && y.b == nil {
		switch {
		case x.v < y.v:
			return -1
		case x.v > y.v:
			return 1
		}
		return 0
	}
	return x.Big().Cmp(y.Big())
}

// String returns the number in decimal.
func (x Integer) String() string {
	if x.b != nil {
		return x.b.String()
	}
	return fmt.Sprint(x.v)
}

func AddInt(x, y Integer) Integer {
	if x.b == nil && y.b == nil {
		s := x.v + y.v
		if (s > x.v) == (y.v > 0) {
			return SmallInt(s)
		}
	}
	return FromBig(new(big.Int).Add(x.Big(), y.Big()))
}

func NegInt(x Integer) Integer {
	if x.b == nil && x.v != math.MinInt64 {
		return SmallInt(-x.v)
	}
	return FromBig(new(big.Int).Neg(x.Big()))
}

func SubInt(x, y Integer) Integer { return AddInt(x, NegInt(y)) }

func MulInt(x, y Integer) Integer {
	if x.b == nil && y.b == nil {
		hi, lo := bits.Mul64(uint64(abs64(x.v)), uint64(abs64(y.v)))
		if hi == 0 && lo <= math.MaxInt64 && x.v != math.MinInt64 && y.v != math.MinInt64 {
			p := int64(lo)
			if (x.v < 0) != (y.v < 0) {
				p = -p
			}
			return SmallInt(p)
		}
	}
	return FromBig(new(big.Int).Mul(x.Big(), y.Big()))
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func AbsInt(x Integer) Integer {
	if x.Sign() < 0 {
		return NegInt(x)
	}
	return x
}

// DivModInt returns the Euclidean quotient and remainder; d must not be 0.
func DivModInt(n, d Integer) (Integer, Integer) {
	if n.b == nil && d.b == nil && n.v != math.MinInt64 && d.v != math.MinInt64 {
		// Go truncates; a negative remainder moves the quotient one step
		// away from zero. (Computing (n-r)/d instead overflows when n is
		// near math.MinInt64 and r near math.MaxInt64.)
		q, r := n.v/d.v, n.v%d.v
		if r < 0 {
			if d.v > 0 {
				q--
			} else {
				q++
			}
			r += abs64(d.v)
		}
		return SmallInt(q), SmallInt(r)
	}
	q, r := new(big.Int).DivMod(n.Big(), d.Big(), new(big.Int))
	return FromBig(q), FromBig(r)
}

// Substr implements str.Substr on characters.
func Substr(s string, i, n Integer) string {
	iv, ok1 := i.Int64()
	nv, ok2 := n.Int64()
	if !ok1 || iv < 0 || n.Sign() <= 0 {
		return ""
	}
	if !ok2 {
		nv = math.MaxInt64
	}
	// walk characters
	pos := 0
	for k := int64(0); k < iv; k++ {
		_, size := DecodeRune(s[pos:])
		if size == 0 {
			return ""
		}
		pos += size
	}
	if pos >= len(s) {
		return ""
	}
	end := pos
	for k := int64(0); k < nv && end < len(s); k++ {
		_, size := DecodeRune(s[end:])
		end += size
	}
	return s[pos:end]
}

// IndexOf implements str.indexof on characters.
func IndexOf(s, t string, i Integer) int {
	iv, ok := i.Int64()
	n := RuneCount(s)
	if !ok || iv < 0 || iv > int64(n) {
		return -1
	}
	// byte offset of character iv
	pos := 0
	for k := int64(0); k < iv; k++ {
		_, size := DecodeRune(s[pos:])
		pos += size
	}
	j := strings.Index(s[pos:], t)
	if j < 0 {
		return -1
	}
	return int(iv) + RuneCount(s[pos:pos+j])
}

// StrToInt implements str.to_int.
func StrToInt(s string) Integer {
	if s == "" {
		return SmallInt(-1)
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return SmallInt(-1)
		}
	}
	if len(s) <= 18 {
		var v int64
		for i := 0; i < len(s); i++ {
			v = v*10 + int64(s[i]-'0')
		}
		return SmallInt(v)
	}
	b, _ := new(big.Int).SetString(s, 10)
	return FromBig(b)
}
