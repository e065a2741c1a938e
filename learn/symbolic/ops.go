package symbolic

import (
	"go/token"
	"go/types"
	"strings"
	"unicode"

	"golang.org/x/tools/go/ssa"
)

// divByZero is the result of an integer division by zero: the path panics.
type divByZero struct{}

// lenCond is the condition "input length + k  op  c".
type lenCond struct {
	k  int64
	op token.Token
	c  int64
}

// narrow returns the length interval lo..hi restricted by the condition
// (when holds) or by its negation.
func (c lenCond) narrow(lo, hi int, holds bool) (int, int) {
	op := c.op
	if !holds {
		op = negate(op)
	}
	v := c.c - c.k // compare the length itself with v
	switch op {
	case token.LSS:
		hi = min64(hi, v-1)
	case token.LEQ:
		hi = min64(hi, v)
	case token.GTR:
		lo = max64(lo, v+1)
	case token.GEQ:
		lo = max64(lo, v)
	case token.EQL:
		lo, hi = max64(lo, v), min64(hi, v)
	case token.NEQ:
		if lo == hi && int64(lo) == v {
			return 1, 0
		}
		if int64(lo) == v {
			lo++
		} else if int64(hi) == v {
			hi--
		}
		// A hole inside the interval is not representable: keep it.
	}
	return lo, hi
}

func min64(a int, b int64) int {
	if b < int64(a) {
		return int(max(b, -1))
	}
	return a
}

func max64(a int, b int64) int {
	if b > int64(a) {
		return int(min(b, 1<<40))
	}
	return a
}

func (c lenCond) not() lenCond { c.op = negate(c.op); return c }

func negate(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GEQ
	case token.LEQ:
		return token.GTR
	case token.GTR:
		return token.LEQ
	case token.GEQ:
		return token.LSS
	case token.EQL:
		return token.NEQ
	}
	return token.EQL
}

// flip returns op with its operands swapped: a op b == b flip(op) a.
func flip(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.LEQ:
		return token.GEQ
	case token.GTR:
		return token.LSS
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// viewEq is the condition "input view == lit" (or, with neg, !=).
type viewEq struct {
	v      view
	lit    string
	neg    bool
	prefix bool
}

func (b byteFn) apply(g func(int64) int64) byteFn {
	var t [256]int64
	for i := range t {
		t[i] = g(b.f[i])
	}
	return byteFn{pos: b.pos, f: &t}
}

func isComparison(op token.Token) bool {
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

// binop evaluates x op y, where t is the operands' type.
func binop(op token.Token, t types.Type, x, y value) value {
	switch x := x.(type) {
	case int64:
		switch y := y.(type) {
		case int64:
			return intOp(op, t, x, y)
		case byteFn:
			return y.apply(func(v int64) int64 { return toInt(intOp(op, t, x, v)) })
		case lenFn:
			if isComparison(op) {
				return lenCond{k: y.k, op: flip(op), c: x}
			}
			if op == token.ADD {
				return lenFn{k: y.k + x}
			}
		}
	case byteFn:
		switch y := y.(type) {
		case int64:
			return x.apply(func(v int64) int64 { return toInt(intOp(op, t, v, y)) })
		case byteFn:
			if x.pos == y.pos {
				var r [256]int64
				for i := range r {
					r[i] = toInt(intOp(op, t, x.f[i], y.f[i]))
				}
				return byteFn{pos: x.pos, f: &r}
			}
		}
	case lenFn:
		switch y := y.(type) {
		case int64:
			if isComparison(op) {
				return lenCond{k: x.k, op: op, c: y}
			}
			switch op {
			case token.ADD:
				return lenFn{k: x.k + y}
			case token.SUB:
				return lenFn{k: x.k - y}
			}
		case lenFn:
			if isComparison(op) {
				return intOp(op, t, x.k, y.k)
			}
			if op == token.SUB {
				return x.k - y.k
			}
		}
	case bool:
		if y, ok := y.(bool); ok {
			switch op {
			case token.EQL:
				return x == y
			case token.NEQ:
				return x != y
			}
		}
	case string:
		switch y := y.(type) {
		case string:
			switch op {
			case token.ADD:
				return x + y
			case token.EQL:
				return x == y
			case token.NEQ:
				return x != y
			case token.LSS:
				return x < y
			case token.LEQ:
				return x <= y
			case token.GTR:
				return x > y
			case token.GEQ:
				return x >= y
			}
		case view:
			if op == token.EQL || op == token.NEQ {
				return viewEq{v: y, lit: x, neg: op == token.NEQ}
			}
		}
	case view:
		if y, ok := y.(string); ok && (op == token.EQL || op == token.NEQ) {
			return viewEq{v: x, lit: y, neg: op == token.NEQ}
		}
	case nilValue:
		switch y.(type) {
		case nilValue:
			return eqResult(op, true)
		case ifaceValue, pointer, slice, mapValue, closure, *ssa.Function:
			return eqResult(op, false)
		}
	case ifaceValue:
		if _, ok := y.(nilValue); ok {
			return eqResult(op, false)
		}
	case pointer:
		switch y := y.(type) {
		case nilValue:
			return eqResult(op, false)
		case pointer:
			return eqResult(op, x.cell == y.cell && equalPath(x.path, y.path))
		}
	case slice, mapValue, closure, *ssa.Function:
		if _, ok := y.(nilValue); ok {
			return eqResult(op, false)
		}
	}
	return opaque{}
}

func equalPath(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func eqResult(op token.Token, equal bool) value {
	switch op {
	case token.EQL:
		return equal
	case token.NEQ:
		return !equal
	}
	return opaque{}
}

func toInt(v value) int64 {
	switch v := v.(type) {
	case int64:
		return v
	case bool:
		return b2i(v)
	}
	return 0
}

func intOp(op token.Token, t types.Type, x, y int64) value {
	unsigned := false
	if b, ok := t.Underlying().(*types.Basic); ok {
		unsigned = b.Info()&types.IsUnsigned != 0
	}
	switch op {
	case token.ADD:
		return wrap(t, x+y)
	case token.SUB:
		return wrap(t, x-y)
	case token.MUL:
		return wrap(t, x*y)
	case token.QUO:
		if y == 0 {
			return divByZero{}
		}
		if unsigned {
			return wrap(t, int64(uint64(x)/uint64(y)))
		}
		return wrap(t, x/y)
	case token.REM:
		if y == 0 {
			return divByZero{}
		}
		if unsigned {
			return wrap(t, int64(uint64(x)%uint64(y)))
		}
		return wrap(t, x%y)
	case token.AND:
		return x & y
	case token.OR:
		return x | y
	case token.XOR:
		return wrap(t, x^y)
	case token.AND_NOT:
		return x &^ y
	case token.SHL:
		if y < 0 || y >= 64 {
			return int64(0)
		}
		return wrap(t, x<<uint(y))
	case token.SHR:
		if y < 0 || y >= 64 {
			y = 63
		}
		if unsigned {
			return wrap(t, int64(uint64(x)>>uint(y)))
		}
		return x >> uint(y)
	case token.EQL:
		return x == y
	case token.NEQ:
		return x != y
	case token.LSS:
		if unsigned {
			return uint64(x) < uint64(y)
		}
		return x < y
	case token.LEQ:
		if unsigned {
			return uint64(x) <= uint64(y)
		}
		return x <= y
	case token.GTR:
		if unsigned {
			return uint64(x) > uint64(y)
		}
		return x > y
	case token.GEQ:
		if unsigned {
			return uint64(x) >= uint64(y)
		}
		return x >= y
	}
	return opaque{}
}

// unicodePredicates are the unicode functions of one rune that the executor
// applies to a function of an input byte value by value.
var unicodePredicates = map[string]func(rune) bool{
	"unicode.IsDigit":   unicode.IsDigit,
	"unicode.IsLetter":  unicode.IsLetter,
	"unicode.IsSpace":   unicode.IsSpace,
	"unicode.IsUpper":   unicode.IsUpper,
	"unicode.IsLower":   unicode.IsLower,
	"unicode.IsPunct":   unicode.IsPunct,
	"unicode.IsPrint":   unicode.IsPrint,
	"unicode.IsControl": unicode.IsControl,
	"unicode.IsNumber":  unicode.IsNumber,
	"unicode.IsGraphic": unicode.IsGraphic,
}

// symbolName returns the short name of fn for nonterminals: parseSum for
// (*parser).parseSum, Eval for calc.Eval, Parse.func1 for a closure.
func symbolName(fn *ssa.Function) string {
	name := fn.Name()
	for p := fn.Parent(); p != nil; p = p.Parent() {
		name = p.Name() + "." + name
	}
	return strings.TrimSuffix(name, "$bound")
}
