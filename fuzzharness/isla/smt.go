package isla

import (
	"math"
	"strings"
	"sync"

	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
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

// CompiledTerm is a compiled term: its sort, and a function computing its value.
type CompiledTerm struct {
	Sort  smtlib.Sort
	Eval  func(e *Evaluator) smtlib.Value // its value under e's variables
	Const bool                            // the term has no variables
}

// funcSig describes an SMT-LIB function for the sort checker: fixed
// argument sorts (args), or a repeated sort (rest) with a minimum count.
type funcSig struct {
	args    []smtlib.Sort
	rest    smtlib.Sort
	hasRest bool
	minArgs int
	result  smtlib.Sort
}

func sig(result smtlib.Sort, args ...smtlib.Sort) funcSig {
	return funcSig{args: args, result: result, minArgs: len(args)}
}

func varSig(result, rest smtlib.Sort, minArgs int) funcSig {
	return funcSig{rest: rest, hasRest: true, minArgs: minArgs, result: result}
}

// funcSigs are the signatures of all functions except the polymorphic =,
// distinct and ite, and the indexed re.loop and re.^.
var funcSigs = map[string]funcSig{
	"not": sig(smtlib.SortBool, smtlib.SortBool), "and": varSig(smtlib.SortBool, smtlib.SortBool, 1), "or": varSig(smtlib.SortBool, smtlib.SortBool, 1),
	"xor": varSig(smtlib.SortBool, smtlib.SortBool, 2), "=>": varSig(smtlib.SortBool, smtlib.SortBool, 2),
	"+": varSig(smtlib.SortInt, smtlib.SortInt, 2), "-": varSig(smtlib.SortInt, smtlib.SortInt, 1), "*": varSig(smtlib.SortInt, smtlib.SortInt, 2),
	"div": varSig(smtlib.SortInt, smtlib.SortInt, 2), "mod": sig(smtlib.SortInt, smtlib.SortInt, smtlib.SortInt), "abs": sig(smtlib.SortInt, smtlib.SortInt),
	"<=": varSig(smtlib.SortBool, smtlib.SortInt, 2), "<": varSig(smtlib.SortBool, smtlib.SortInt, 2), ">=": varSig(smtlib.SortBool, smtlib.SortInt, 2), ">": varSig(smtlib.SortBool, smtlib.SortInt, 2),
	"str.++": varSig(smtlib.SortString, smtlib.SortString, 1), "str.len": sig(smtlib.SortInt, smtlib.SortString),
	"str.<": varSig(smtlib.SortBool, smtlib.SortString, 2), "str.<=": varSig(smtlib.SortBool, smtlib.SortString, 2),
	"str.at": sig(smtlib.SortString, smtlib.SortString, smtlib.SortInt), "str.substr": sig(smtlib.SortString, smtlib.SortString, smtlib.SortInt, smtlib.SortInt),
	"str.prefixof": sig(smtlib.SortBool, smtlib.SortString, smtlib.SortString), "str.suffixof": sig(smtlib.SortBool, smtlib.SortString, smtlib.SortString),
	"str.contains": sig(smtlib.SortBool, smtlib.SortString, smtlib.SortString), "str.indexof": sig(smtlib.SortInt, smtlib.SortString, smtlib.SortString, smtlib.SortInt),
	"str.replace": sig(smtlib.SortString, smtlib.SortString, smtlib.SortString, smtlib.SortString), "str.replace_all": sig(smtlib.SortString, smtlib.SortString, smtlib.SortString, smtlib.SortString),
	"str.replace_re": sig(smtlib.SortString, smtlib.SortString, smtlib.SortRegLan, smtlib.SortString), "str.replace_re_all": sig(smtlib.SortString, smtlib.SortString, smtlib.SortRegLan, smtlib.SortString),
	"str.is_digit": sig(smtlib.SortBool, smtlib.SortString), "str.to_code": sig(smtlib.SortInt, smtlib.SortString), "str.from_code": sig(smtlib.SortString, smtlib.SortInt),
	"str.to_int": sig(smtlib.SortInt, smtlib.SortString), "str.to.int": sig(smtlib.SortInt, smtlib.SortString),
	"str.from_int": sig(smtlib.SortString, smtlib.SortInt), "int.to.str": sig(smtlib.SortString, smtlib.SortInt),
	"str.in_re": sig(smtlib.SortBool, smtlib.SortString, smtlib.SortRegLan), "str.in.re": sig(smtlib.SortBool, smtlib.SortString, smtlib.SortRegLan),
	"str.to_re": sig(smtlib.SortRegLan, smtlib.SortString), "str.to.re": sig(smtlib.SortRegLan, smtlib.SortString),
	"re.none": sig(smtlib.SortRegLan), "re.all": sig(smtlib.SortRegLan), "re.allchar": sig(smtlib.SortRegLan),
	"re.++": varSig(smtlib.SortRegLan, smtlib.SortRegLan, 1), "re.union": varSig(smtlib.SortRegLan, smtlib.SortRegLan, 1), "re.inter": varSig(smtlib.SortRegLan, smtlib.SortRegLan, 1),
	"re.*": sig(smtlib.SortRegLan, smtlib.SortRegLan), "re.+": sig(smtlib.SortRegLan, smtlib.SortRegLan), "re.opt": sig(smtlib.SortRegLan, smtlib.SortRegLan),
	"re.comp": sig(smtlib.SortRegLan, smtlib.SortRegLan), "re.diff": varSig(smtlib.SortRegLan, smtlib.SortRegLan, 2),
	"re.range": sig(smtlib.SortRegLan, smtlib.SortString, smtlib.SortString),
}

// applyFunc builds the evaluation of function op over compiled arguments
// whose sorts have been checked. ix holds the indices of an indexed
// function.
func applyFunc(op string, ix []int, args []CompiledTerm) func(e *Evaluator) smtlib.Value {
	arg := func(e *Evaluator, i int) smtlib.Value { return args[i].Eval(e) }
	// strict wraps a function of all argument values, propagating undefined
	// arguments.
	strict := func(f func(vs []smtlib.Value) smtlib.Value) func(e *Evaluator) smtlib.Value {
		return func(e *Evaluator) smtlib.Value {
			// The values go on the evaluator's stack (a constant term's,
			// evaluated without one, on its own): f keeps none of them past
			// its return.
			var own []smtlib.Value
			st := &own
			if e != nil {
				st = &e.vals
			}
			base := len(*st)
			for i := range args {
				v := args[i].Eval(e)
				if v.Undef {
					*st = (*st)[:base]
					return smtlib.Undefined
				}
				*st = append(*st, v)
			}
			v := f((*st)[base:])
			clear((*st)[base:])
			*st = (*st)[:base]
			return v
		}
	}
	boolv := func(b bool) smtlib.Value { return smtlib.Value{Bool: b} }
	intv := func(x smtlib.Integer) smtlib.Value { return smtlib.Value{Int: x} }
	strv := func(s string) smtlib.Value { return smtlib.Value{Str: s} }
	rev := func(r *smtlib.Regex) smtlib.Value { return smtlib.Value{Re: r} }

	switch op {
	case "not":
		return func(e *Evaluator) smtlib.Value {
			v := arg(e, 0)
			return smtlib.Value{Bool: !v.Bool, Undef: v.Undef}
		}
	case "and", "or":
		stop := op == "or" // the value that decides the result
		return func(e *Evaluator) smtlib.Value {
			undef := false
			for i := range args {
				v := arg(e, i)
				if v.Undef {
					undef = true
				} else if v.Bool == stop {
					return boolv(stop)
				}
			}
			if undef {
				return smtlib.Undefined
			}
			return boolv(!stop)
		}
	case "xor":
		return strict(func(vs []smtlib.Value) smtlib.Value {
			r := false
			for _, v := range vs {
				r = r != v.Bool
			}
			return boolv(r)
		})
	case "=>":
		// right-associative: a => (b => c)
		return func(e *Evaluator) smtlib.Value {
			last := arg(e, len(args)-1)
			for i := len(args) - 2; i >= 0; i-- {
				a := arg(e, i)
				switch {
				case !a.Undef && !a.Bool, !last.Undef && last.Bool:
					last = boolv(true)
				case a.Undef || last.Undef:
					last = smtlib.Undefined
				default:
					last = boolv(false)
				}
			}
			return last
		}
	case "=", "distinct":
		eq := func(a, b smtlib.Value) bool {
			switch args[0].Sort {
			case smtlib.SortBool:
				return a.Bool == b.Bool
			case smtlib.SortInt:
				return a.Int.Cmp(b.Int) == 0
			}
			return a.Str == b.Str
		}
		if op == "=" {
			return strict(func(vs []smtlib.Value) smtlib.Value {
				for i := 1; i < len(vs); i++ {
					if !eq(vs[0], vs[i]) {
						return boolv(false)
					}
				}
				return boolv(true)
			})
		}
		return strict(func(vs []smtlib.Value) smtlib.Value {
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
		return func(e *Evaluator) smtlib.Value {
			c := arg(e, 0)
			if c.Undef {
				return smtlib.Undefined
			}
			if c.Bool {
				return arg(e, 1)
			}
			return arg(e, 2)
		}
	case "+":
		return strict(func(vs []smtlib.Value) smtlib.Value {
			s := vs[0].Int
			for _, v := range vs[1:] {
				s = smtlib.AddInt(s, v.Int)
			}
			return intv(s)
		})
	case "-":
		return strict(func(vs []smtlib.Value) smtlib.Value {
			if len(vs) == 1 {
				return intv(smtlib.NegInt(vs[0].Int))
			}
			s := vs[0].Int
			for _, v := range vs[1:] {
				s = smtlib.SubInt(s, v.Int)
			}
			return intv(s)
		})
	case "*":
		return strict(func(vs []smtlib.Value) smtlib.Value {
			s := vs[0].Int
			for _, v := range vs[1:] {
				s = smtlib.MulInt(s, v.Int)
			}
			return intv(s)
		})
	case "div", "mod":
		return strict(func(vs []smtlib.Value) smtlib.Value {
			q := vs[0].Int
			for _, v := range vs[1:] {
				if v.Int.Sign() == 0 {
					return smtlib.Undefined
				}
				d, m := smtlib.DivModInt(q, v.Int)
				if op == "mod" {
					return intv(m)
				}
				q = d
			}
			return intv(q)
		})
	case "abs":
		return strict(func(vs []smtlib.Value) smtlib.Value { return intv(smtlib.AbsInt(vs[0].Int)) })
	case "<=", "<", ">=", ">":
		ok := map[string]func(int) bool{
			"<=": func(c int) bool { return c <= 0 }, "<": func(c int) bool { return c < 0 },
			">=": func(c int) bool { return c >= 0 }, ">": func(c int) bool { return c > 0 },
		}[op]
		return strict(func(vs []smtlib.Value) smtlib.Value {
			for i := 0; i+1 < len(vs); i++ {
				if !ok(vs[i].Int.Cmp(vs[i+1].Int)) {
					return boolv(false)
				}
			}
			return boolv(true)
		})
	case "str.<", "str.<=":
		strictLess := op == "str.<"
		return strict(func(vs []smtlib.Value) smtlib.Value {
			for i := 0; i+1 < len(vs); i++ {
				c := strings.Compare(vs[i].Str, vs[i+1].Str)
				if c > 0 || c == 0 && strictLess {
					return boolv(false)
				}
			}
			return boolv(true)
		})
	case "str.++":
		return strict(func(vs []smtlib.Value) smtlib.Value {
			var b strings.Builder
			for _, v := range vs {
				b.WriteString(v.Str)
			}
			return strv(b.String())
		})
	case "str.len":
		return strict(func(vs []smtlib.Value) smtlib.Value { return intv(smtlib.SmallInt(int64(smtlib.RuneCount(vs[0].Str)))) })
	case "str.at":
		return strict(func(vs []smtlib.Value) smtlib.Value {
			return strv(smtlib.Substr(vs[0].Str, vs[1].Int, smtlib.SmallInt(1)))
		})
	case "str.substr":
		return strict(func(vs []smtlib.Value) smtlib.Value { return strv(smtlib.Substr(vs[0].Str, vs[1].Int, vs[2].Int)) })
	case "str.prefixof":
		return strict(func(vs []smtlib.Value) smtlib.Value { return boolv(strings.HasPrefix(vs[1].Str, vs[0].Str)) })
	case "str.suffixof":
		return strict(func(vs []smtlib.Value) smtlib.Value { return boolv(strings.HasSuffix(vs[1].Str, vs[0].Str)) })
	case "str.contains":
		return strict(func(vs []smtlib.Value) smtlib.Value { return boolv(strings.Contains(vs[0].Str, vs[1].Str)) })
	case "str.indexof":
		return strict(func(vs []smtlib.Value) smtlib.Value {
			return intv(smtlib.SmallInt(int64(smtlib.IndexOf(vs[0].Str, vs[1].Str, vs[2].Int))))
		})
	case "str.replace":
		return strict(func(vs []smtlib.Value) smtlib.Value { return strv(strings.Replace(vs[0].Str, vs[1].Str, vs[2].Str, 1)) })
	case "str.replace_all":
		return strict(func(vs []smtlib.Value) smtlib.Value {
			if vs[1].Str == "" {
				return strv(vs[0].Str)
			}
			return strv(strings.ReplaceAll(vs[0].Str, vs[1].Str, vs[2].Str))
		})
	case "str.replace_re", "str.replace_re_all":
		all := op == "str.replace_re_all"
		return func(e *Evaluator) smtlib.Value {
			vs := [3]smtlib.Value{arg(e, 0), arg(e, 1), arg(e, 2)}
			if vs[0].Undef || vs[1].Undef || vs[2].Undef {
				return smtlib.Undefined
			}
			m, shared := e.matcher()
			defer e.releaseMatcher(shared)
			rs := smtlib.Runes(vs[0].Str)
			var out []rune
			from := 0
			for from <= len(rs) {
				i, j, ok := m.Find(vs[1].Re, rs, from, all)
				if !ok {
					break
				}
				out = append(out, rs[from:i]...)
				out = append(out, smtlib.Runes(vs[2].Str)...)
				from = j
				if !all {
					break
				}
			}
			out = append(out, rs[min(from, len(rs)):]...)
			return strv(smtlib.FromRunes(out))
		}
	case "str.is_digit":
		return strict(func(vs []smtlib.Value) smtlib.Value {
			return boolv(len(vs[0].Str) == 1 && vs[0].Str[0] >= '0' && vs[0].Str[0] <= '9')
		})
	case "str.to_code":
		return strict(func(vs []smtlib.Value) smtlib.Value {
			r, size := smtlib.DecodeRune(vs[0].Str)
			if size == 0 || size != len(vs[0].Str) {
				return intv(smtlib.SmallInt(-1))
			}
			return intv(smtlib.SmallInt(int64(r)))
		})
	case "str.from_code":
		return strict(func(vs []smtlib.Value) smtlib.Value {
			n, ok := vs[0].Int.Int64()
			if !ok || n < 0 || n > smtlib.MaxCodePoint {
				return strv("")
			}
			return strv(smtlib.EncodeRune(rune(n)))
		})
	case "str.to_int", "str.to.int":
		return strict(func(vs []smtlib.Value) smtlib.Value { return intv(smtlib.StrToInt(vs[0].Str)) })
	case "str.from_int", "int.to.str":
		return strict(func(vs []smtlib.Value) smtlib.Value {
			if vs[0].Int.Sign() < 0 {
				return strv("")
			}
			return strv(vs[0].Int.String())
		})
	case "str.in_re", "str.in.re":
		return func(e *Evaluator) smtlib.Value {
			str, re := arg(e, 0), arg(e, 1)
			if str.Undef || re.Undef {
				return smtlib.Undefined
			}
			m, shared := e.matcher()
			ok := m.Matches(re.Re, str.Str)
			e.releaseMatcher(shared)
			return boolv(ok)
		}
	case "str.to_re", "str.to.re":
		return strict(func(vs []smtlib.Value) smtlib.Value { return rev(smtlib.Literal(vs[0].Str)) })
	case "re.none":
		return func(*Evaluator) smtlib.Value { return rev(smtlib.NoneRegex) }
	case "re.all":
		return func(*Evaluator) smtlib.Value { return rev(smtlib.AllRegex) }
	case "re.allchar":
		return func(*Evaluator) smtlib.Value { return rev(smtlib.AllChar) }
	case "re.++", "re.union", "re.inter":
		mk := map[string]func(...*smtlib.Regex) *smtlib.Regex{"re.++": smtlib.Concat, "re.union": smtlib.Union, "re.inter": smtlib.Inter}[op]
		return strict(func(vs []smtlib.Value) smtlib.Value {
			rs := make([]*smtlib.Regex, len(vs))
			for i, v := range vs {
				rs[i] = v.Re
			}
			return rev(mk(rs...))
		})
	case "re.*":
		return strict(func(vs []smtlib.Value) smtlib.Value { return rev(smtlib.Star(vs[0].Re)) })
	case "re.+":
		return strict(func(vs []smtlib.Value) smtlib.Value { return rev(smtlib.Concat(vs[0].Re, smtlib.Star(vs[0].Re))) })
	case "re.opt":
		return strict(func(vs []smtlib.Value) smtlib.Value { return rev(smtlib.Union(smtlib.EpsRegex, vs[0].Re)) })
	case "re.comp":
		return strict(func(vs []smtlib.Value) smtlib.Value { return rev(smtlib.Complement(vs[0].Re)) })
	case "re.diff":
		return strict(func(vs []smtlib.Value) smtlib.Value {
			r := vs[0].Re
			for _, v := range vs[1:] {
				r = smtlib.Inter(r, smtlib.Complement(v.Re))
			}
			return rev(r)
		})
	case "re.range":
		return strict(func(vs []smtlib.Value) smtlib.Value {
			a, sa := smtlib.DecodeRune(vs[0].Str)
			b, sb := smtlib.DecodeRune(vs[1].Str)
			if sa == 0 || sb == 0 || sa != len(vs[0].Str) || sb != len(vs[1].Str) {
				return rev(smtlib.NoneRegex)
			}
			return rev(smtlib.CharSet([]smtlib.Range{{Lo: a, Hi: b}}))
		})
	case "re.loop", "re.^":
		if len(ix) > 0 {
			lo, hi := ix[0], ix[0]
			if op == "re.loop" {
				hi = ix[1]
			}
			return strict(func(vs []smtlib.Value) smtlib.Value { return rev(smtlib.Loop(vs[0].Re, lo, hi)) })
		}
		// Z3's form: (re.loop r lo [hi]) and (re.^ r n) with the counts as
		// arguments.
		return strict(func(vs []smtlib.Value) smtlib.Value {
			lo, ok := vs[1].Int.Int64()
			if !ok || lo < 0 || lo > math.MaxInt32 {
				return rev(smtlib.NoneRegex)
			}
			hi := lo
			if op == "re.loop" {
				hi = -1
				if len(vs) > 2 {
					h, ok := vs[2].Int.Int64()
					if !ok || h < 0 || h > math.MaxInt32 {
						return rev(smtlib.NoneRegex)
					}
					hi = h
				}
			}
			return rev(smtlib.Loop(vs[0].Re, int(lo), int(hi)))
		})
	}
	panic("isla: no implementation of SMT-LIB function " + op)
}

// A specMatcher is a Spec's regular-expression matcher: the derivatives of
// the constraint's expressions stay cached from one evaluation to the next,
// so an expression is derived by a character once, not once per
// evaluation. Evaluators of one Spec in several goroutines share it under
// its lock; one that finds it taken matches with a matcher of its own.
type specMatcher struct {
	mu sync.Mutex
	m  *smtlib.Matcher
}

// maxMatcherLen bounds the derivatives a kept matcher caches: one that
// holds more (expressions built from the input at every evaluation add
// new ones) is replaced by an empty one. (A variable for the tests.)
var maxMatcherLen = 1 << 16

// matcher returns a matcher for e's use until releaseMatcher(shared): the
// Spec's (shared) if it is free, else e's own. e may be nil (terms folded
// at compile time), which gives a new matcher.
func (e *Evaluator) matcher() (m *smtlib.Matcher, shared bool) {
	if e == nil {
		return new(smtlib.Matcher), false
	}
	if sm := e.s.matcher; sm != nil && sm.mu.TryLock() {
		if sm.m == nil || sm.m.Len() > maxMatcherLen {
			sm.m = new(smtlib.Matcher)
		}
		return sm.m, true
	}
	if e.ownMatcher == nil || e.ownMatcher.Len() > maxMatcherLen {
		e.ownMatcher = new(smtlib.Matcher)
	}
	return e.ownMatcher, false
}

// releaseMatcher ends e's use of the matcher e.matcher returned with shared.
func (e *Evaluator) releaseMatcher(shared bool) {
	if shared {
		e.s.matcher.mu.Unlock()
	}
}
