package isla

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strings"
)

// SMT-LIB terms are evaluated natively, with the semantics of the SMT-LIB
// theories of integers and Unicode strings:
//
//   - Int is unbounded (int64 with a math/big fallback). div and mod are
//     Euclidean: n = q*d + r with 0 <= r < |d|.
//   - (div n 0) and (mod n 0) are left unspecified by SMT-LIB: every value is
//     allowed. A term that depends on one is undefined here; an SMT formula
//     holds only if it holds for every choice of such values, so a formula
//     whose truth depends on an undefined value does not hold (evaluated
//     with Kleene's three-valued logic: (or true u) is true, (and false u)
//     false, otherwise u propagates).
//   - Strings are sequences of characters (code points 0 to 0x2FFFF).
//     str.at out of range is "", str.substr(s, i, n) is "" unless 0 <= i <
//     |s| and n > 0 and is cut at the end of s, str.indexof(s, t, i) is -1
//     unless 0 <= i <= |s| and t occurs at or after i (an empty t at i),
//     str.replace replaces the first occurrence (an empty pattern inserts at
//     the front), str.replace_all leaves s unchanged for an empty pattern,
//     str.to_int is -1 unless the string is a non-empty sequence of the digits
//     0-9, str.from_int of a negative number is "", str.to_code of a string
//     that is not one character is -1, str.from_code of a number outside
//     0..0x2FFFF is "".
//   - re.range of strings that are not single characters is re.none;
//     re.loop with lo > hi is re.none; str.replace_re replaces the leftmost
//     shortest match (possibly empty), str.replace_re_all every leftmost
//     shortest non-empty match, left to right.

// srt is an SMT-LIB sort.
type srt uint8

const (
	sBool srt = iota
	sInt
	sString
	sRegLan
)

var srtNames = [...]string{"Bool", "Int", "String", "RegLan"}

// String returns the sort's SMT-LIB name.
func (s srt) String() string { return srtNames[s] }

// value is the value of a term of some sort.
type value struct {
	b     bool
	i     bigint
	s     string // internal string form
	re    *regex
	undef bool // depends on a value SMT-LIB leaves unspecified
}

var undefValue = value{undef: true}

// bigint is an integer: v unless b is set.
type bigint struct {
	v int64
	b *big.Int
}

func smallInt(v int64) bigint { return bigint{v: v} }

func fromBig(b *big.Int) bigint {
	if b.IsInt64() {
		return bigint{v: b.Int64()}
	}
	return bigint{b: b}
}

func (x bigint) big() *big.Int {
	if x.b != nil {
		return x.b
	}
	return big.NewInt(x.v)
}

func (x bigint) isSmall() bool { return x.b == nil }

func (x bigint) int64() (int64, bool) {
	if x.b == nil {
		return x.v, true
	}
	return 0, false
}

func (x bigint) sign() int {
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

func (x bigint) cmp(y bigint) int {
	if x.b == nil && y.b == nil {
		switch {
		case x.v < y.v:
			return -1
		case x.v > y.v:
			return 1
		}
		return 0
	}
	return x.big().Cmp(y.big())
}

// String returns the number in decimal.
func (x bigint) String() string {
	if x.b != nil {
		return x.b.String()
	}
	return fmt.Sprint(x.v)
}

func addInt(x, y bigint) bigint {
	if x.b == nil && y.b == nil {
		s := x.v + y.v
		if (s > x.v) == (y.v > 0) {
			return smallInt(s)
		}
	}
	return fromBig(new(big.Int).Add(x.big(), y.big()))
}

func negInt(x bigint) bigint {
	if x.b == nil && x.v != math.MinInt64 {
		return smallInt(-x.v)
	}
	return fromBig(new(big.Int).Neg(x.big()))
}

func subInt(x, y bigint) bigint { return addInt(x, negInt(y)) }

func mulInt(x, y bigint) bigint {
	if x.b == nil && y.b == nil {
		hi, lo := bits.Mul64(uint64(abs64(x.v)), uint64(abs64(y.v)))
		if hi == 0 && lo <= math.MaxInt64 && x.v != math.MinInt64 && y.v != math.MinInt64 {
			p := int64(lo)
			if (x.v < 0) != (y.v < 0) {
				p = -p
			}
			return smallInt(p)
		}
	}
	return fromBig(new(big.Int).Mul(x.big(), y.big()))
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func absInt(x bigint) bigint {
	if x.sign() < 0 {
		return negInt(x)
	}
	return x
}

// divModInt returns the Euclidean quotient and remainder; d must not be 0.
func divModInt(n, d bigint) (bigint, bigint) {
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
		return smallInt(q), smallInt(r)
	}
	q, r := new(big.Int).DivMod(n.big(), d.big(), new(big.Int))
	return fromBig(q), fromBig(r)
}

// cterm is a compiled term: its sort, and a function computing its value.
type cterm struct {
	sort  srt
	eval  func(e *evaluator) value
	konst bool // the term has no variables
}

// funcSig describes an SMT-LIB function for the sort checker: fixed
// argument sorts (args), or a repeated sort (rest) with a minimum count.
type funcSig struct {
	args    []srt
	rest    srt
	hasRest bool
	minArgs int
	result  srt
}

func sig(result srt, args ...srt) funcSig {
	return funcSig{args: args, result: result, minArgs: len(args)}
}

func varSig(result, rest srt, minArgs int) funcSig {
	return funcSig{rest: rest, hasRest: true, minArgs: minArgs, result: result}
}

// funcSigs are the signatures of all functions except the polymorphic =,
// distinct and ite, and the indexed re.loop and re.^.
var funcSigs = map[string]funcSig{
	"not": sig(sBool, sBool), "and": varSig(sBool, sBool, 1), "or": varSig(sBool, sBool, 1),
	"xor": varSig(sBool, sBool, 2), "=>": varSig(sBool, sBool, 2),
	"+": varSig(sInt, sInt, 2), "-": varSig(sInt, sInt, 1), "*": varSig(sInt, sInt, 2),
	"div": varSig(sInt, sInt, 2), "mod": sig(sInt, sInt, sInt), "abs": sig(sInt, sInt),
	"<=": varSig(sBool, sInt, 2), "<": varSig(sBool, sInt, 2), ">=": varSig(sBool, sInt, 2), ">": varSig(sBool, sInt, 2),
	"str.++": varSig(sString, sString, 1), "str.len": sig(sInt, sString),
	"str.<": varSig(sBool, sString, 2), "str.<=": varSig(sBool, sString, 2),
	"str.at": sig(sString, sString, sInt), "str.substr": sig(sString, sString, sInt, sInt),
	"str.prefixof": sig(sBool, sString, sString), "str.suffixof": sig(sBool, sString, sString),
	"str.contains": sig(sBool, sString, sString), "str.indexof": sig(sInt, sString, sString, sInt),
	"str.replace": sig(sString, sString, sString, sString), "str.replace_all": sig(sString, sString, sString, sString),
	"str.replace_re": sig(sString, sString, sRegLan, sString), "str.replace_re_all": sig(sString, sString, sRegLan, sString),
	"str.is_digit": sig(sBool, sString), "str.to_code": sig(sInt, sString), "str.from_code": sig(sString, sInt),
	"str.to_int": sig(sInt, sString), "str.to.int": sig(sInt, sString),
	"str.from_int": sig(sString, sInt), "int.to.str": sig(sString, sInt),
	"str.in_re": sig(sBool, sString, sRegLan), "str.in.re": sig(sBool, sString, sRegLan),
	"str.to_re": sig(sRegLan, sString), "str.to.re": sig(sRegLan, sString),
	"re.none": sig(sRegLan), "re.all": sig(sRegLan), "re.allchar": sig(sRegLan),
	"re.++": varSig(sRegLan, sRegLan, 1), "re.union": varSig(sRegLan, sRegLan, 1), "re.inter": varSig(sRegLan, sRegLan, 1),
	"re.*": sig(sRegLan, sRegLan), "re.+": sig(sRegLan, sRegLan), "re.opt": sig(sRegLan, sRegLan),
	"re.comp": sig(sRegLan, sRegLan), "re.diff": varSig(sRegLan, sRegLan, 2),
	"re.range": sig(sRegLan, sString, sString),
}

// applyFunc builds the evaluation of function op over compiled arguments
// whose sorts have been checked. ix holds the indices of an indexed
// function.
func applyFunc(op string, ix []int, args []cterm) func(e *evaluator) value {
	arg := func(e *evaluator, i int) value { return args[i].eval(e) }
	// strict wraps a function of all argument values, propagating undefined
	// arguments.
	strict := func(f func(vs []value) value) func(e *evaluator) value {
		return func(e *evaluator) value {
			vs := make([]value, len(args))
			for i := range args {
				vs[i] = args[i].eval(e)
				if vs[i].undef {
					return undefValue
				}
			}
			return f(vs)
		}
	}
	boolv := func(b bool) value { return value{b: b} }
	intv := func(x bigint) value { return value{i: x} }
	strv := func(s string) value { return value{s: s} }
	rev := func(r *regex) value { return value{re: r} }

	switch op {
	case "not":
		return func(e *evaluator) value {
			v := arg(e, 0)
			return value{b: !v.b, undef: v.undef}
		}
	case "and", "or":
		stop := op == "or" // the value that decides the result
		return func(e *evaluator) value {
			undef := false
			for i := range args {
				v := arg(e, i)
				if v.undef {
					undef = true
				} else if v.b == stop {
					return boolv(stop)
				}
			}
			if undef {
				return undefValue
			}
			return boolv(!stop)
		}
	case "xor":
		return strict(func(vs []value) value {
			r := false
			for _, v := range vs {
				r = r != v.b
			}
			return boolv(r)
		})
	case "=>":
		// right-associative: a => (b => c)
		return func(e *evaluator) value {
			last := arg(e, len(args)-1)
			for i := len(args) - 2; i >= 0; i-- {
				a := arg(e, i)
				switch {
				case !a.undef && !a.b, !last.undef && last.b:
					last = boolv(true)
				case a.undef || last.undef:
					last = undefValue
				default:
					last = boolv(false)
				}
			}
			return last
		}
	case "=", "distinct":
		eq := func(a, b value) bool {
			switch args[0].sort {
			case sBool:
				return a.b == b.b
			case sInt:
				return a.i.cmp(b.i) == 0
			}
			return a.s == b.s
		}
		if op == "=" {
			return strict(func(vs []value) value {
				for i := 1; i < len(vs); i++ {
					if !eq(vs[0], vs[i]) {
						return boolv(false)
					}
				}
				return boolv(true)
			})
		}
		return strict(func(vs []value) value {
			for i := range vs {
				for j := i + 1; j < len(vs); j++ {
					if eq(vs[i], vs[j]) {
						return boolv(false)
					}
				}
			}
			return boolv(true)
		})
	case "ite":
		return func(e *evaluator) value {
			c := arg(e, 0)
			if c.undef {
				return undefValue
			}
			if c.b {
				return arg(e, 1)
			}
			return arg(e, 2)
		}
	case "+":
		return strict(func(vs []value) value {
			s := vs[0].i
			for _, v := range vs[1:] {
				s = addInt(s, v.i)
			}
			return intv(s)
		})
	case "-":
		return strict(func(vs []value) value {
			if len(vs) == 1 {
				return intv(negInt(vs[0].i))
			}
			s := vs[0].i
			for _, v := range vs[1:] {
				s = subInt(s, v.i)
			}
			return intv(s)
		})
	case "*":
		return strict(func(vs []value) value {
			s := vs[0].i
			for _, v := range vs[1:] {
				s = mulInt(s, v.i)
			}
			return intv(s)
		})
	case "div", "mod":
		return strict(func(vs []value) value {
			q := vs[0].i
			for _, v := range vs[1:] {
				if v.i.sign() == 0 {
					return undefValue
				}
				d, m := divModInt(q, v.i)
				if op == "mod" {
					return intv(m)
				}
				q = d
			}
			return intv(q)
		})
	case "abs":
		return strict(func(vs []value) value { return intv(absInt(vs[0].i)) })
	case "<=", "<", ">=", ">":
		ok := map[string]func(int) bool{
			"<=": func(c int) bool { return c <= 0 }, "<": func(c int) bool { return c < 0 },
			">=": func(c int) bool { return c >= 0 }, ">": func(c int) bool { return c > 0 },
		}[op]
		return strict(func(vs []value) value {
			for i := 0; i+1 < len(vs); i++ {
				if !ok(vs[i].i.cmp(vs[i+1].i)) {
					return boolv(false)
				}
			}
			return boolv(true)
		})
	case "str.<", "str.<=":
		strictLess := op == "str.<"
		return strict(func(vs []value) value {
			for i := 0; i+1 < len(vs); i++ {
				c := strings.Compare(vs[i].s, vs[i+1].s)
				if c > 0 || c == 0 && strictLess {
					return boolv(false)
				}
			}
			return boolv(true)
		})
	case "str.++":
		return strict(func(vs []value) value {
			var b strings.Builder
			for _, v := range vs {
				b.WriteString(v.s)
			}
			return strv(b.String())
		})
	case "str.len":
		return strict(func(vs []value) value { return intv(smallInt(int64(runeCount(vs[0].s)))) })
	case "str.at":
		return strict(func(vs []value) value {
			return strv(substr(vs[0].s, vs[1].i, smallInt(1)))
		})
	case "str.substr":
		return strict(func(vs []value) value { return strv(substr(vs[0].s, vs[1].i, vs[2].i)) })
	case "str.prefixof":
		return strict(func(vs []value) value { return boolv(strings.HasPrefix(vs[1].s, vs[0].s)) })
	case "str.suffixof":
		return strict(func(vs []value) value { return boolv(strings.HasSuffix(vs[1].s, vs[0].s)) })
	case "str.contains":
		return strict(func(vs []value) value { return boolv(strings.Contains(vs[0].s, vs[1].s)) })
	case "str.indexof":
		return strict(func(vs []value) value { return intv(smallInt(int64(indexOf(vs[0].s, vs[1].s, vs[2].i)))) })
	case "str.replace":
		return strict(func(vs []value) value { return strv(strings.Replace(vs[0].s, vs[1].s, vs[2].s, 1)) })
	case "str.replace_all":
		return strict(func(vs []value) value {
			if vs[1].s == "" {
				return strv(vs[0].s)
			}
			return strv(strings.ReplaceAll(vs[0].s, vs[1].s, vs[2].s))
		})
	case "str.replace_re", "str.replace_re_all":
		all := op == "str.replace_re_all"
		return strict(func(vs []value) value {
			var m reMatcher
			rs := runes(vs[0].s)
			var out []rune
			from := 0
			for from <= len(rs) {
				i, j, ok := m.find(vs[1].re, rs, from, all)
				if !ok {
					break
				}
				out = append(out, rs[from:i]...)
				out = append(out, runes(vs[2].s)...)
				from = j
				if !all {
					break
				}
			}
			out = append(out, rs[min(from, len(rs)):]...)
			return strv(fromRunes(out))
		})
	case "str.is_digit":
		return strict(func(vs []value) value {
			return boolv(len(vs[0].s) == 1 && vs[0].s[0] >= '0' && vs[0].s[0] <= '9')
		})
	case "str.to_code":
		return strict(func(vs []value) value {
			r, size := decodeRune(vs[0].s)
			if size == 0 || size != len(vs[0].s) {
				return intv(smallInt(-1))
			}
			return intv(smallInt(int64(r)))
		})
	case "str.from_code":
		return strict(func(vs []value) value {
			n, ok := vs[0].i.int64()
			if !ok || n < 0 || n > maxCodePoint {
				return strv("")
			}
			return strv(encodeRune(rune(n)))
		})
	case "str.to_int", "str.to.int":
		return strict(func(vs []value) value { return intv(strToInt(vs[0].s)) })
	case "str.from_int", "int.to.str":
		return strict(func(vs []value) value {
			if vs[0].i.sign() < 0 {
				return strv("")
			}
			return strv(vs[0].i.String())
		})
	case "str.in_re", "str.in.re":
		return strict(func(vs []value) value {
			var m reMatcher
			return boolv(m.matches(vs[1].re, vs[0].s))
		})
	case "str.to_re", "str.to.re":
		return strict(func(vs []value) value { return rev(mkStr(vs[0].s)) })
	case "re.none":
		return func(*evaluator) value { return rev(reNoneV) }
	case "re.all":
		return func(*evaluator) value { return rev(reAllV) }
	case "re.allchar":
		return func(*evaluator) value { return rev(reAllChr) }
	case "re.++", "re.union", "re.inter":
		mk := map[string]func(...*regex) *regex{"re.++": mkCat, "re.union": mkOr, "re.inter": mkAnd}[op]
		return strict(func(vs []value) value {
			rs := make([]*regex, len(vs))
			for i, v := range vs {
				rs[i] = v.re
			}
			return rev(mk(rs...))
		})
	case "re.*":
		return strict(func(vs []value) value { return rev(mkStar(vs[0].re)) })
	case "re.+":
		return strict(func(vs []value) value { return rev(mkCat(vs[0].re, mkStar(vs[0].re))) })
	case "re.opt":
		return strict(func(vs []value) value { return rev(mkOr(reEpsV, vs[0].re)) })
	case "re.comp":
		return strict(func(vs []value) value { return rev(mkNot(vs[0].re)) })
	case "re.diff":
		return strict(func(vs []value) value {
			r := vs[0].re
			for _, v := range vs[1:] {
				r = mkAnd(r, mkNot(v.re))
			}
			return rev(r)
		})
	case "re.range":
		return strict(func(vs []value) value {
			a, sa := decodeRune(vs[0].s)
			b, sb := decodeRune(vs[1].s)
			if sa == 0 || sb == 0 || sa != len(vs[0].s) || sb != len(vs[1].s) {
				return rev(reNoneV)
			}
			return rev(mkSet([]crange{{a, b}}))
		})
	case "re.loop", "re.^":
		if len(ix) > 0 {
			lo, hi := ix[0], ix[0]
			if op == "re.loop" {
				hi = ix[1]
			}
			return strict(func(vs []value) value { return rev(mkLoop(vs[0].re, lo, hi)) })
		}
		// Z3's form: (re.loop r lo [hi]) and (re.^ r n) with the counts as
		// arguments.
		return strict(func(vs []value) value {
			lo, ok := vs[1].i.int64()
			if !ok || lo < 0 || lo > math.MaxInt32 {
				return rev(reNoneV)
			}
			hi := lo
			if op == "re.loop" {
				hi = -1
				if len(vs) > 2 {
					h, ok := vs[2].i.int64()
					if !ok || h < 0 || h > math.MaxInt32 {
						return rev(reNoneV)
					}
					hi = h
				}
			}
			return rev(mkLoop(vs[0].re, int(lo), int(hi)))
		})
	}
	panic("isla: no implementation of SMT-LIB function " + op)
}

// substr implements str.substr on characters.
func substr(s string, i, n bigint) string {
	iv, ok1 := i.int64()
	nv, ok2 := n.int64()
	if !ok1 || iv < 0 || n.sign() <= 0 {
		return ""
	}
	if !ok2 {
		nv = math.MaxInt64
	}
	// walk characters
	pos := 0
	for k := int64(0); k < iv; k++ {
		_, size := decodeRune(s[pos:])
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
		_, size := decodeRune(s[end:])
		end += size
	}
	return s[pos:end]
}

// indexOf implements str.indexof on characters.
func indexOf(s, t string, i bigint) int {
	iv, ok := i.int64()
	n := runeCount(s)
	if !ok || iv < 0 || iv > int64(n) {
		return -1
	}
	// byte offset of character iv
	pos := 0
	for k := int64(0); k < iv; k++ {
		_, size := decodeRune(s[pos:])
		pos += size
	}
	j := strings.Index(s[pos:], t)
	if j < 0 {
		return -1
	}
	return int(iv) + runeCount(s[pos:pos+j])
}

// strToInt implements str.to_int.
func strToInt(s string) bigint {
	if s == "" {
		return smallInt(-1)
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return smallInt(-1)
		}
	}
	if len(s) <= 18 {
		var v int64
		for i := 0; i < len(s); i++ {
			v = v*10 + int64(s[i]-'0')
		}
		return smallInt(v)
	}
	b, _ := new(big.Int).SetString(s, 10)
	return fromBig(b)
}
