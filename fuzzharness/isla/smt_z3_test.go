//go:build cgo

package isla

import (
	"context"
	"encoding/binary"
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/internal/z3"
)

// The evaluator is checked against Z3 4.8.12 on closed terms: Z3 finds
// (assert t) satisfiable exactly when the evaluator says t is true. Terms
// whose value depends on a division by zero are skipped (Z3 may choose any
// value for it). Where Z3 4.8.12 departs from SMT-LIB or gives up, the
// generator leaves the form out:
//
//   - str.replace_re and str.replace_re_all: Z3 says unknown, even for
//     (= (str.replace_re "a" (str.to_re "a") "b") "b").
//   - str.< and str.<= with more than two arguments (SMT-LIB makes them
//     chainable): Z3 rejects (str.< "a" "b" "c") ("2 arguments expected").
//   - Z3's re.loop with counts as arguments, when a count is negative or
//     above int64: Z3 says unknown for (str.in_re "" (re.loop (str.to_re "a")
//     (- 1) 2)). The evaluator makes such a loop re.none.
//   - (re.^ r n) with the count as an argument: Z3 rejects it ("Expected one
//     non-negative integer parameter"); the indexed ((_ re.^ n) r) is used.

// Flags for longer runs of TestSMTAgainstZ3.
var (
	z3Terms = flag.Int("z3terms", 1000, "number of random closed terms TestSMTAgainstZ3 compares with Z3")
	z3Seed  = flag.Uint64("z3seed", 7, "seed of the random closed terms TestSMTAgainstZ3 compares with Z3")
)

// z3Text returns the closed term t as the SMT-LIB text the SMT solver
// interface sends to Z3.
func z3Text(t Term) string {
	var b strings.Builder
	WriteSMTLIB(&b, t, nil)
	return b.String()
}

// z3Decide asks Z3 whether the closed Bool term text is satisfiable: a
// closed term is sat exactly when it is true (for some value of each
// division by zero). Each question gets a new solver: a solver reused
// with Push and Pop solves incrementally, without the preprocessing that
// evaluates a closed term, and is tens of times slower.
func z3Decide(t testing.TB, text string) z3.Result {
	t.Helper()
	s, err := z3.NewSolver()
	if err != nil {
		t.Skipf("no Z3: %v", err)
	}
	defer s.Close()
	if err := s.Assert(text); err != nil {
		t.Fatalf("Z3 refuses %s: %v", text, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, _ := s.Check(ctx)
	return res
}

// compareWithZ3 evaluates the closed Bool term in Go and in Z3 and reports
// a disagreement as an error. It returns Z3's verdict, or Unknown without
// asking Z3 if the term's value is undefined (it depends on a division by
// zero); defined tells which.
func compareWithZ3(t testing.TB, term Term) (res z3.Result, defined bool) {
	t.Helper()
	val, defined, err := evalClosed(term)
	if err != nil {
		t.Fatalf("%s: %v", FormatTerm(term), err)
	}
	if !defined {
		return z3.Unknown, false
	}
	text := z3Text(term)
	res = z3Decide(t, text)
	if res != z3.Unknown && (res == z3.Sat) != val {
		t.Errorf("disagreement on (assert %s)\n  Go evaluator: %v\n  Z3: %v", text, val, res)
	}
	return res, true
}

// TestSMTAgainstZ3 checks the evaluator against Z3 on random closed terms.
func TestSMTAgainstZ3(t *testing.T) {
	n := *z3Terms
	if testing.Short() {
		n = min(n, 60)
	}
	g := seededTermGen(*z3Seed)
	g.noReplaceRe = true
	compared, undefined, unknown := 0, 0, 0
	for i := 0; i < n && !t.Failed(); i++ {
		switch res, defined := compareWithZ3(t, g.Bool(3+i%3)); {
		case !defined:
			undefined++
		case res == z3.Unknown:
			unknown++
		default:
			compared++
		}
	}
	t.Logf("%d terms: %d compared, %d undefined (division by zero), %d unknown to Z3",
		n, compared, undefined, unknown)
	if !t.Failed() && compared < n*9/10 {
		t.Errorf("only %d of %d terms compared", compared, n)
	}
}

// z3Cases are closed terms at the edges of the SMT-LIB semantics, and the
// known departures of Z3 4.8.12 (unknown set).
var z3Cases = []struct {
	term    string
	unknown bool // Z3 4.8.12 cannot decide it
}{
	{term: `(= (div (- 7) 2) (- 4))`},
	{term: `(= (mod (- 7) (- 2)) 1)`},
	{term: `(= (div 100 5 2) 10)`},
	{term: `(= (div (- 9223372036854775808) (- 1)) 9223372036854775808)`},
	{term: `(= (mod (- 100000000000000000000) 7) 5)`},
	{term: `(= (div (- 9223372036854775807) 9223372036854775806) (- 2))`},
	{term: `(= (mod (- 9223372036854775807) (- 9223372036854775806)) 9223372036854775805)`},
	{term: `(xor true true true)`},
	{term: `(=> true false true)`},
	{term: `(= (str.at "abc" 3) "")`},
	{term: `(= (str.substr "abc" 1 10) "bc")`},
	{term: `(= (str.substr "abc" 0 (- 1)) "")`},
	{term: `(= (str.indexof "abc" "" 3) 3)`},
	{term: `(= (str.indexof "abc" "" 4) (- 1))`},
	{term: `(= (str.replace "ab" "" "x") "xab")`},
	{term: `(= (str.replace_all "ab" "" "x") "ab")`},
	{term: `(= (str.to_int "") (- 1))`},
	{term: `(= (str.to_int "\u{660}") (- 1))`},
	{term: `(= (str.to_int "123456789012345678901234567890") 123456789012345678901234567890)`},
	{term: `(= (str.from_int (- 1)) "")`},
	{term: `(str.is_digit "\u{660}")`},
	{term: `(= (str.to_code "") (- 1))`},
	{term: `(= (str.from_code 196608) "")`},
	{term: `(= (str.from_code 55296) "\u{d800}")`},
	{term: `(str.< "\u{ffff}" "\u{10000}")`},
	{term: `(str.< "\u{d800}" "\u{e000}")`},
	{term: `(str.in_re "" ((_ re.loop 3 2) (str.to_re "")))`},
	{term: `(str.in_re "a" (re.range "ab" "c"))`},
	{term: `(str.in_re "b" (re.range "c" "a"))`},
	{term: `(str.in_re "aaaa" (re.loop (str.to_re "a") 1))`},
	{term: `(str.in_re "aaaa" (re.loop (str.to_re "a") 1 3))`},
	{term: `(str.in_re "a" (re.diff re.all (str.to_re "b") (str.to_re "c")))`},
	{term: `(str.in_re "\u{2ffff}" re.allchar)`},
	{term: `(str.in_re "ab" (re.comp (re.++ re.allchar re.allchar)))`},
	{term: `(= (str.replace_re "a" (str.to_re "a") "b") "b")`, unknown: true},
	{term: `(= (str.replace_re_all "aa" (str.to_re "a") "b") "bb")`, unknown: true},
	{term: `(str.in_re "" (re.loop (str.to_re "a") (- 1) 2))`, unknown: true},
}

// TestSMTCasesAgainstZ3 compares the evaluator with Z3 on edge cases, and
// checks that Z3 4.8.12 still cannot decide the forms the random terms
// leave out.
func TestSMTCasesAgainstZ3(t *testing.T) {
	for _, c := range z3Cases {
		k, err := Parse("case", []byte(c.term))
		if err != nil {
			t.Fatal(err)
		}
		f, ok := k.Formula.(*SMT)
		if !ok {
			t.Fatalf("%s: not an SMT-LIB term", c.term)
		}
		res, defined := compareWithZ3(t, f.Term)
		switch {
		case !defined:
			t.Errorf("%s: undefined", c.term)
		case c.unknown && res != z3.Unknown:
			t.Logf("%s: Z3 now says %v (and agrees); the random terms may use this form", c.term, res)
		case !c.unknown && res == z3.Unknown:
			t.Errorf("%s: Z3 says unknown", c.term)
		}
	}
}

// FuzzSMTAgainstZ3 compares the evaluator with Z3 on terms whose
// generator's first choices are the fuzzer's bytes.
func FuzzSMTAgainstZ3(f *testing.F) {
	for seed := range uint64(8) {
		f.Add(binary.BigEndian.AppendUint64(nil, seed*0x9e3779b97f4a7c15))
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		g := newTermGen(newByteSource(data))
		g.noReplaceRe = true
		compareWithZ3(t, g.Bool(4))
	})
}
