package isla

import (
	"encoding/binary"
	"fmt"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
	"hash/fnv"
	"math/big"
	"math/rand/v2"
	"testing"
)

// This file generates random well-sorted closed SMT-LIB terms and evaluates
// them with the package's evaluator. smt_z3_test.go compares the values
// with Z3's.

// closedValue evaluates a closed SMT-LIB term, a term without free
// variables (let bindings are allowed), as a constraint's SMT formula is
// evaluated: it compiles the term, reporting unknown functions and sort
// errors, and returns its value and sort. The value's undef field says that
// it depends on a value SMT-LIB leaves unspecified (div or mod by zero).
func closedValue(t Term) (smtlib.Value, smtlib.Sort, error) {
	s := &Spec{nslots: 1}
	cp := &compiler{s: s, scope: map[string][]Variable{}}
	ct, ok := cp.term(t)
	if !ok {
		cp.errs.Sort()
		return smtlib.Value{}, 0, cp.errs
	}
	return ct.Eval(NewEvaluator(s, nil)), ct.Sort, nil
}

// evalClosed evaluates a closed SMT-LIB term of sort Bool. defined is false
// if the value depends on a value that SMT-LIB leaves unspecified (div or
// mod by zero); val is then meaningless.
func evalClosed(t Term) (val, defined bool, err error) {
	v, sort, err := closedValue(t)
	if err != nil {
		return false, false, err
	}
	if sort != smtlib.SortBool {
		return false, false, fmt.Errorf("%s is of sort %s, not Bool", shorten(FormatTerm(t)), sort)
	}
	return v.Bool, !v.Undef, nil
}

// termGen generates random well-sorted closed SMT-LIB terms over Bool, Int,
// String and RegLan, with every function the evaluator knows, and lets.
// Literals come from small pools so that comparisons are often true: small
// integers and a few large and negative ones, strings over a few ASCII
// letters and digits, quotes, backslashes and non-ASCII characters
// (surrogates and U+2FFFF among them).
type termGen struct {
	r      *rand.Rand
	scope  []genVar // let-bound names visible here, innermost last
	nlets  int      // let names made so far
	noLets bool
	// noReplaceRe leaves out str.replace_re and str.replace_re_all.
	noReplaceRe bool
}

// genVar is a let-bound name and its sort.
type genVar struct {
	name string
	sort smtlib.Sort
}

// newTermGen returns a generator drawing its choices from src.
func newTermGen(src rand.Source) *termGen { return &termGen{r: rand.New(src)} }

// seededTermGen returns a generator seeded with seed (PCG).
func seededTermGen(seed uint64) *termGen {
	return newTermGen(rand.NewPCG(seed, 0x6b66757a7a736d74))
}

// byteSource is a rand.Source that takes its first numbers from bytes, 8
// at a time (the last ones padded with zeros), and continues with a PCG
// seeded by a hash of the bytes. A fuzzer mutating the bytes thus steers
// the generator's first choices directly.
type byteSource struct {
	data []byte
	pcg  *rand.PCG
}

func newByteSource(data []byte) *byteSource {
	h := fnv.New64a()
	h.Write(data)
	return &byteSource{data: data, pcg: rand.NewPCG(h.Sum64(), uint64(len(data)))}
}

// Uint64 returns the next number.
func (s *byteSource) Uint64() uint64 {
	if len(s.data) == 0 {
		return s.pcg.Uint64()
	}
	var b [8]byte
	n := copy(b[:], s.data)
	s.data = s.data[n:]
	return binary.BigEndian.Uint64(b[:])
}

func app(op string, args ...Term) *App { return &App{Op: op, Args: args} }

// intTerm returns the literal v, written (- n) if v is negative.
func intTerm(v *big.Int) Term {
	if v.Sign() < 0 {
		return app("-", &IntLit{Value: new(big.Int).Neg(v)})
	}
	return &IntLit{Value: v}
}

func bigPow(base, exp int64) *big.Int {
	return new(big.Int).Exp(big.NewInt(base), big.NewInt(exp), nil)
}

// specialInts are integers at the edges of the evaluator's int64 fast
// paths and of the character range.
var specialInts = []*big.Int{
	big.NewInt(48), big.NewInt(65), big.NewInt(0xD800), big.NewInt(0xDC80),
	big.NewInt(0x2FFFF), big.NewInt(0x30000), big.NewInt(1 << 31),
	big.NewInt(1<<63 - 1), big.NewInt(1<<63 - 2), big.NewInt(-(1<<63 - 1)), big.NewInt(-(1<<63 - 2)),
	bigPow(2, 63), new(big.Int).Neg(bigPow(2, 63)),
	new(big.Int).Neg(new(big.Int).Add(bigPow(2, 63), big.NewInt(1))),
	bigPow(10, 20), new(big.Int).Neg(bigPow(10, 19)),
}

// genChars are the characters of generated string literals.
var genChars = []rune{'a', 'b', 'c', 'a', 'b', '0', '1', '9', ' ', '"', '\\', 'u', '{', '}',
	0, 0x7F, 0xE9, 0x20AC, 0xD800, 0xDC80, 0xFFFF, 0x1F600, 0x2FFFF}

func (g *termGen) intLit() Term {
	switch k := g.r.IntN(20); {
	case k < 14:
		return &IntLit{Value: big.NewInt(int64(g.r.IntN(6)))}
	case k < 17:
		return intTerm(big.NewInt(-int64(g.r.IntN(4) + 1)))
	default:
		return intTerm(specialInts[g.r.IntN(len(specialInts))])
	}
}

func (g *termGen) strLit() Term {
	if g.r.IntN(8) == 0 { // a string of digits, for str.to_int
		n := 1 + g.r.IntN(25)
		rs := make([]rune, n)
		for i := range rs {
			rs[i] = rune('0' + g.r.IntN(10))
		}
		return &StrLit{Value: string(rs)}
	}
	n := g.r.IntN(5)
	rs := make([]rune, n)
	for i := range rs {
		if g.r.IntN(3) > 0 {
			rs[i] = genChars[g.r.IntN(5)] // mostly a and b
		} else {
			rs[i] = genChars[g.r.IntN(len(genChars))]
		}
	}
	return &StrLit{Value: smtlib.FromRunes(rs)}
}

// charLit returns a one-character string literal, or rarely another.
func (g *termGen) charLit() Term {
	if g.r.IntN(10) == 0 {
		return g.strLit()
	}
	return &StrLit{Value: smtlib.EncodeRune(genChars[g.r.IntN(len(genChars))])}
}

// scoped returns a let-bound variable of sort s, if there is one and the
// dice say so.
func (g *termGen) scoped(s smtlib.Sort) (Term, bool) {
	var vs []string
	for i := len(g.scope) - 1; i >= 0; i-- {
		v := g.scope[i]
		if v.sort == s && !shadowed(g.scope[i+1:], v.name) {
			vs = append(vs, v.name)
		}
	}
	if len(vs) == 0 || g.r.IntN(3) > 0 {
		return nil, false
	}
	return &Var{Name: vs[g.r.IntN(len(vs))]}, true
}

func shadowed(inner []genVar, name string) bool {
	for _, v := range inner {
		if v.name == name {
			return true
		}
	}
	return false
}

// Bool returns a random term of sort Bool of at most the given depth.
func (g *termGen) Bool(depth int) Term { return g.term(smtlib.SortBool, depth) }

// term returns a random term of sort s of at most the given depth.
func (g *termGen) term(s smtlib.Sort, depth int) Term {
	if v, ok := g.scoped(s); ok {
		return v
	}
	if depth <= 0 || g.r.IntN(8) == 0 {
		return g.leaf(s)
	}
	d := depth - 1
	if !g.noLets && g.r.IntN(25) == 0 {
		return g.let(s, d)
	}
	if g.r.IntN(20) == 0 {
		return app("ite", g.term(smtlib.SortBool, d), g.term(s, d), g.term(s, d))
	}
	switch s {
	case smtlib.SortBool:
		return g.boolApp(d)
	case smtlib.SortInt:
		return g.intApp(d)
	case smtlib.SortString:
		return g.strApp(d)
	}
	return g.reApp(d)
}

func (g *termGen) leaf(s smtlib.Sort) Term {
	switch s {
	case smtlib.SortBool:
		return &BoolLit{Value: g.r.IntN(2) == 0}
	case smtlib.SortInt:
		return g.intLit()
	case smtlib.SortString:
		return g.strLit()
	}
	switch g.r.IntN(8) {
	case 0:
		return app("re.allchar")
	case 1:
		return app("re.all")
	case 2:
		return app("re.none")
	case 3:
		return app("re.range", g.charLit(), g.charLit())
	}
	return app("str.to_re", g.strLit())
}

// let binds one to three fresh or reused names in parallel.
func (g *termGen) let(s smtlib.Sort, d int) Term {
	n := 1 + g.r.IntN(2)
	l := &Let{}
	var vs []genVar
	for range n {
		var name string
		if len(g.scope) > 0 && g.r.IntN(3) == 0 {
			name = g.scope[g.r.IntN(len(g.scope))].name // shadow
		} else {
			name = fmt.Sprintf("v%d", g.nlets)
			g.nlets++
		}
		if shadowed(vs, name) {
			continue
		}
		vs = append(vs, genVar{name, []smtlib.Sort{smtlib.SortBool, smtlib.SortInt, smtlib.SortString}[g.r.IntN(3)]})
	}
	for _, v := range vs {
		l.Binds = append(l.Binds, LetBind{Name: v.name, Value: g.term(v.sort, d)})
	}
	g.scope = append(g.scope, vs...)
	l.Body = g.term(s, d)
	g.scope = g.scope[:len(g.scope)-len(vs)]
	return l
}

// terms returns n terms of sort s.
func (g *termGen) terms(s smtlib.Sort, n, d int) []Term {
	ts := make([]Term, n)
	for i := range ts {
		ts[i] = g.term(s, d)
	}
	return ts
}

// smallIntTerm returns an Int term that is mostly a small literal, for
// positions, lengths and counts.
func (g *termGen) smallIntTerm(d int) Term {
	if g.r.IntN(3) == 0 {
		return g.term(smtlib.SortInt, d)
	}
	return intTerm(big.NewInt(int64(g.r.IntN(7) - 1)))
}

// count returns a small non-negative Int term: a literal or the length of
// a literal.
func (g *termGen) count() Term {
	if g.r.IntN(4) == 0 {
		return app("str.len", g.strLit())
	}
	return &IntLit{Value: big.NewInt(int64(g.r.IntN(4)))}
}

// edgyInt returns an Int term that is often one of specialInts, for the
// operands of div and mod.
func (g *termGen) edgyInt(d int) Term {
	if g.r.IntN(2) == 0 {
		return intTerm(specialInts[g.r.IntN(len(specialInts))])
	}
	return g.term(smtlib.SortInt, d)
}

func (g *termGen) boolApp(d int) Term {
	switch g.r.IntN(22) {
	case 0:
		return app("not", g.term(smtlib.SortBool, d))
	case 1:
		return app("and", g.terms(smtlib.SortBool, 1+g.r.IntN(3), d)...)
	case 2:
		return app("or", g.terms(smtlib.SortBool, 1+g.r.IntN(3), d)...)
	case 3:
		return app("=>", g.terms(smtlib.SortBool, 2+g.r.IntN(2), d)...)
	case 4:
		return app("xor", g.terms(smtlib.SortBool, 2, d)...)
	case 5, 6:
		op := []string{"=", "distinct"}[g.r.IntN(2)]
		s := []smtlib.Sort{smtlib.SortBool, smtlib.SortInt, smtlib.SortString, smtlib.SortString}[g.r.IntN(4)]
		return app(op, g.terms(s, 2+g.r.IntN(2), d)...)
	case 7, 8:
		op := []string{"<", "<=", ">", ">="}[g.r.IntN(4)]
		return app(op, g.terms(smtlib.SortInt, 2+g.r.IntN(2), d)...)
	case 9:
		return app("str.prefixof", g.terms(smtlib.SortString, 2, d)...)
	case 10:
		return app("str.suffixof", g.terms(smtlib.SortString, 2, d)...)
	case 11:
		return app("str.contains", g.terms(smtlib.SortString, 2, d)...)
	case 12:
		op := []string{"str.<", "str.<="}[g.r.IntN(2)]
		return app(op, g.terms(smtlib.SortString, 2, d)...)
	case 13:
		if g.r.IntN(2) == 0 {
			return app("str.is_digit", g.charLit())
		}
		return app("str.is_digit", g.term(smtlib.SortString, d))
	}
	op := []string{"str.in_re", "str.in.re"}[g.r.IntN(2)]
	return app(op, g.term(smtlib.SortString, d), g.term(smtlib.SortRegLan, d))
}

func (g *termGen) intApp(d int) Term {
	switch g.r.IntN(14) {
	case 0:
		return app("+", g.terms(smtlib.SortInt, 2+g.r.IntN(2), d)...)
	case 1:
		return app("-", g.terms(smtlib.SortInt, 1+g.r.IntN(3), d)...)
	case 2:
		return app("*", g.terms(smtlib.SortInt, 2, d)...)
	case 3:
		return app("div", g.edgyInt(d), g.edgyInt(d))
	case 4:
		return app("mod", g.edgyInt(d), g.edgyInt(d))
	case 5:
		return app("abs", g.term(smtlib.SortInt, d))
	case 6, 7:
		return app("str.len", g.term(smtlib.SortString, d))
	case 8, 9:
		return app("str.indexof", g.term(smtlib.SortString, d), g.term(smtlib.SortString, d), g.smallIntTerm(d))
	case 10, 11:
		op := []string{"str.to_int", "str.to.int"}[g.r.IntN(2)]
		return app(op, g.term(smtlib.SortString, d))
	}
	if g.r.IntN(2) == 0 {
		return app("str.to_code", g.charLit())
	}
	return app("str.to_code", g.term(smtlib.SortString, d))
}

func (g *termGen) strApp(d int) Term {
	switch g.r.IntN(12) {
	case 0, 1:
		return app("str.++", g.terms(smtlib.SortString, 1+g.r.IntN(3), d)...)
	case 2:
		return app("str.at", g.term(smtlib.SortString, d), g.smallIntTerm(d))
	case 3, 4:
		return app("str.substr", g.term(smtlib.SortString, d), g.smallIntTerm(d), g.smallIntTerm(d))
	case 5:
		return app("str.replace", g.terms(smtlib.SortString, 3, d)...)
	case 6:
		return app("str.replace_all", g.terms(smtlib.SortString, 3, d)...)
	case 7:
		if g.noReplaceRe {
			return app("str.replace", g.terms(smtlib.SortString, 3, d)...)
		}
		op := []string{"str.replace_re", "str.replace_re_all"}[g.r.IntN(2)]
		return app(op, g.term(smtlib.SortString, d), g.term(smtlib.SortRegLan, d), g.term(smtlib.SortString, d))
	case 8, 9:
		op := []string{"str.from_int", "int.to.str"}[g.r.IntN(2)]
		return app(op, g.term(smtlib.SortInt, d))
	}
	if g.r.IntN(2) == 0 {
		return app("str.from_code", g.smallIntTerm(d))
	}
	return app("str.from_code", g.term(smtlib.SortInt, d))
}

func (g *termGen) reApp(d int) Term {
	switch g.r.IntN(14) {
	case 0:
		return app("str.to_re", g.term(smtlib.SortString, d))
	case 1:
		return app("re.range", g.charLit(), g.charLit())
	case 2:
		return app("re.union", g.terms(smtlib.SortRegLan, 1+g.r.IntN(3), d)...)
	case 3:
		return app("re.++", g.terms(smtlib.SortRegLan, 1+g.r.IntN(3), d)...)
	case 4:
		return app("re.inter", g.terms(smtlib.SortRegLan, 1+g.r.IntN(3), d)...)
	case 5:
		return app("re.*", g.term(smtlib.SortRegLan, d))
	case 6:
		return app("re.+", g.term(smtlib.SortRegLan, d))
	case 7:
		return app("re.opt", g.term(smtlib.SortRegLan, d))
	case 8:
		return app("re.comp", g.term(smtlib.SortRegLan, d))
	case 9:
		return app("re.diff", g.terms(smtlib.SortRegLan, 2, d)...)
	case 10:
		lo, hi := g.r.IntN(4), g.r.IntN(4)
		return &App{Op: "re.loop", Indices: []int{lo, hi}, Args: []Term{g.term(smtlib.SortRegLan, d)}}
	case 11:
		return &App{Op: "re.^", Indices: []int{g.r.IntN(4)}, Args: []Term{g.term(smtlib.SortRegLan, d)}}
	case 12:
		// Z3's re.loop with counts as arguments: at least lo, or lo to
		// hi. Z3 4.8.12 says unknown for negative counts, so there are
		// none.
		args := []Term{g.term(smtlib.SortRegLan, d), g.count()}
		if g.r.IntN(3) > 0 {
			args = append(args, g.count())
		}
		return app("re.loop", args...)
	}
	return app("str.to_re", g.strLit())
}

// TestTermGenSorts checks that generated terms are well-sorted closed Bool
// terms the evaluator accepts, that the same seed gives the same terms, and
// that each one prints as text that parses back to it.
func TestTermGenSorts(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 300
	}
	g1, g2 := seededTermGen(1), seededTermGen(1)
	undef := 0
	for i := range n {
		term := g1.Bool(4)
		src := FormatTerm(term)
		if again := FormatTerm(g2.Bool(4)); again != src {
			t.Fatalf("term %d: same seed, different terms:\n%s\n%s", i, src, again)
		}
		_, defined, err := evalClosed(term)
		if err != nil {
			t.Fatalf("term %d: %s: %v", i, src, err)
		}
		if !defined {
			undef++
		}
		c, err := Parse("gen", []byte(src))
		if err != nil {
			t.Fatalf("term %d: %s: %v", i, src, err)
		}
		f, ok := c.Formula.(*SMT)
		if !ok || !EqualTerm(f.Term, term) {
			t.Fatalf("term %d: %s parses back as %s", i, src, FormatFormula(c.Formula))
		}
	}
	if undef > n/4 {
		t.Errorf("%d of %d terms undefined", undef, n)
	}
}
