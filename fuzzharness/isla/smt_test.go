package isla_test

import (
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// bytesGraph derives any bytes.
func bytesGraph(t *testing.T) *grammar.Graph {
	g, err := grammar.Parse("bytes.bnf", []byte(`<start> ::= [\x00-\xff]* ;`))
	if err != nil {
		t.Fatal(err)
	}
	return grammar.MustCompile(g)
}

// checkFormula checks a constraint on an input of the byte grammar.
func checkFormula(t *testing.T, gr *grammar.Graph, src, input string) (bool, string) {
	t.Helper()
	c, err := isla.Parse("smt", []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	r, err := isla.Check(gr, c, []byte(input))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return r.Valid, r.String()
}

// SMT-LIB semantics of closed terms, after the Ints and UnicodeStrings
// theories.
var smtCases = []struct {
	f    string
	want bool
}{
	// str.at, str.substr: out of range is ""
	{`(= (str.at "abc" 1) "b")`, true},
	{`(= (str.at "abc" 3) "")`, true},
	{`(= (str.at "abc" (- 1)) "")`, true},
	{`(= (str.substr "abcdef" 1 3) "bcd")`, true},
	{`(= (str.substr "abc" 1 10) "bc")`, true},
	{`(= (str.substr "abc" 3 1) "")`, true},
	{`(= (str.substr "abc" (- 1) 2) "")`, true},
	{`(= (str.substr "abc" 0 0) "")`, true},
	{`(= (str.substr "abc" 0 (- 1)) "")`, true},
	{`(= (str.substr "héllo" 1 2) "él")`, true},
	// lengths count characters
	{`(= (str.len "") 0)`, true},
	{`(= (str.len "héllo") 5)`, true},
	{`(= (str.len "\u{1f600}") 1)`, true},
	{`(= (str.++ "a" "b" "c") "abc")`, true},
	// prefix, suffix, contains
	{`(str.prefixof "ab" "abc")`, true},
	{`(str.prefixof "abc" "ab")`, false},
	{`(str.prefixof "" "x")`, true},
	{`(str.suffixof "bc" "abc")`, true},
	{`(str.suffixof "ab" "abc")`, false},
	{`(str.contains "abc" "")`, true},
	{`(str.contains "abc" "bd")`, false},
	// str.indexof
	{`(= (str.indexof "abcabc" "c" 3) 5)`, true},
	{`(= (str.indexof "abc" "" 3) 3)`, true},
	{`(= (str.indexof "abc" "" 4) (- 1))`, true},
	{`(= (str.indexof "abc" "a" (- 1)) (- 1))`, true},
	{`(= (str.indexof "abc" "d" 0) (- 1))`, true},
	{`(= (str.indexof "héé" "é" 2) 2)`, true},
	// replacing
	{`(= (str.replace "abab" "b" "x") "axab")`, true},
	{`(= (str.replace "ab" "" "x") "xab")`, true},
	{`(= (str.replace "ab" "c" "x") "ab")`, true},
	{`(= (str.replace_all "abab" "b" "x") "axax")`, true},
	{`(= (str.replace_all "ab" "" "x") "ab")`, true},
	{`(= (str.replace_re "baab" (re.* (str.to_re "a")) "cc") "ccbaab")`, true},
	{`(= (str.replace_re "baab" (re.+ (str.to_re "a")) "cc") "bccab")`, true},
	{`(= (str.replace_re "xyz" (str.to_re "q") "c") "xyz")`, true},
	{`(= (str.replace_re_all "baab" (re.+ (str.to_re "a")) "c") "bccb")`, true},
	{`(= (str.replace_re_all "baab" (re.* (str.to_re "a")) "c") "bccb")`, true},
	{`(= (str.replace_re_all "abab" (str.to_re "ab") "") "")`, true},
	// conversions
	{`(= (str.to_int "0042") 42)`, true},
	{`(= (str.to_int "") (- 1))`, true},
	{`(= (str.to_int "4a") (- 1))`, true},
	{`(= (str.to_int "-1") (- 1))`, true},
	{`(= (str.to.int "123456789012345678901234567890") 123456789012345678901234567890)`, true},
	{`(= (str.from_int 42) "42")`, true},
	{`(= (str.from_int (- 1)) "")`, true},
	{`(= (str.from_int 0) "0")`, true},
	{`(= (int.to.str 7) "7")`, true},
	{`(str.is_digit "7")`, true},
	{`(str.is_digit "77")`, false},
	{`(str.is_digit "")`, false},
	{`(= (str.to_code "A") 65)`, true},
	{`(= (str.to_code "AB") (- 1))`, true},
	{`(= (str.to_code "") (- 1))`, true},
	{`(= (str.from_code 65) "A")`, true},
	{`(= (str.from_code 196608) "")`, true},
	{`(= (str.from_code (- 1)) "")`, true},
	{`(= (str.len (str.from_code 55296)) 1)`, true},
	{`(= (str.to_code (str.from_code 55296)) 55296)`, true},
	// lexicographic order of characters
	{`(str.< "a" "b")`, true},
	{`(str.< "a" "a")`, false},
	{`(str.<= "a" "a")`, true},
	{`(str.< "ab" "b")`, true},
	{`(str.< "" "a")`, true},
	{`(str.< "é" "z")`, false},
	{`(str.< "a" "b" "c")`, true},
	{`(str.< "a" "c" "b")`, false},
	// integers: Euclidean div and mod
	{`(= (div 7 2) 3)`, true},
	{`(= (div (- 7) 2) (- 4))`, true},
	{`(= (div 7 (- 2)) (- 3))`, true},
	{`(= (div (- 7) (- 2)) 4)`, true},
	{`(= (mod (- 7) 2) 1)`, true},
	{`(= (mod 7 (- 2)) 1)`, true},
	{`(= (mod (- 7) (- 2)) 1)`, true},
	{`(= (div 100 5 2) 10)`, true},
	{`(= (abs (- 3)) 3)`, true},
	{`(= (- 5) (- 0 5))`, true},
	{`(= (- 10 1 2) 7)`, true},
	{`(= (* 2 3 4) 24)`, true},
	{`(= (+ 9223372036854775807 1) 9223372036854775808)`, true},
	{`(= (* 9223372036854775807 2) 18446744073709551614)`, true},
	{`(= (- (- 9223372036854775807) 2) (- 9223372036854775809))`, true},
	{`(= (div 18446744073709551616 (- 3)) (- 6148914691236517205))`, true},
	{`(= (mod (- 18446744073709551616) 3) 2)`, true},
	// int64 edges of div and mod (computing (n-r)/d overflowed)
	{`(= (div (- 9223372036854775807) 9223372036854775806) (- 2))`, true},
	{`(= (mod (- 9223372036854775807) 9223372036854775806) 9223372036854775805)`, true},
	{`(= (div (- 9223372036854775807) (- 9223372036854775806)) 2)`, true},
	{`(= (div (- 2) 9223372036854775807) (- 1))`, true},
	{`(= (div (- 2) (- 9223372036854775807)) 1)`, true},
	{`(< 1 2 3)`, true},
	{`(< 1 3 2)`, false},
	{`(<= 1 1 2)`, true},
	{`(> 3 2 1)`, true},
	{`(>= 1 2)`, false},
	// division by zero is unspecified: no atom depending on it holds
	{`(= (div 1 0) 0)`, false},
	{`(not (= (div 1 0) 0))`, false},
	{`not (= (div 1 0) 0)`, true},
	{`(= (mod 5 0) 5)`, false},
	{`(or true (= (div 1 0) 0))`, true},
	{`(or (= (div 1 0) 0) true)`, true},
	{`(and false (= (div 1 0) 0))`, false},
	{`(not (and false (= (div 1 0) 0)))`, true},
	{`(=> false (= (div 1 0) 0))`, true},
	{`(= (ite (= (div 1 0) 0) 1 1) 1)`, false},
	// Bool connectives of SMT-LIB
	{`(xor true false)`, true},
	{`(xor true true)`, false},
	{`(xor true true true)`, true},
	{`(=> false false)`, true},
	{`(=> true false)`, false},
	{`(=> true true false)`, false},
	{`(=> false true false)`, true},
	{`(= (ite (< 1 2) "a" "b") "a")`, true},
	{`(distinct 1 2 3)`, true},
	{`(distinct 1 2 1)`, false},
	{`(= "a" "a" "a")`, true},
	{`(= true (< 1 2))`, true},
	// let binds in parallel
	{`(let ((x 1) (y 2)) (< x y))`, true},
	{`(let ((x 1)) (let ((x 2) (y x)) (= y 1)))`, true},
	// regular expressions
	{`(str.in_re "abc" (re.++ (str.to_re "a") (re.* re.allchar)))`, true},
	{`(str.in_re "" (re.* (str.to_re "a")))`, true},
	{`(str.in_re "aa" (re.+ (str.to_re "a")))`, true},
	{`(str.in_re "" (re.+ (str.to_re "a")))`, false},
	{`(str.in_re "b" (re.range "a" "c"))`, true},
	{`(str.in_re "b" (re.range "c" "a"))`, false},
	{`(str.in_re "b" (re.range "ab" "c"))`, false},
	{`(str.in_re "ab" (re.union (str.to_re "a") (str.to_re "ab")))`, true},
	{`(str.in_re "ab" (re.inter (re.* re.allchar) (re.comp (str.to_re "ab"))))`, false},
	{`(str.in_re "ac" (re.inter (re.* re.allchar) (re.comp (str.to_re "ab"))))`, true},
	{`(str.in_re "aaa" ((_ re.loop 2 3) (str.to_re "a")))`, true},
	{`(str.in_re "aaaa" ((_ re.loop 2 3) (str.to_re "a")))`, false},
	{`(str.in_re "a" ((_ re.loop 2 3) (str.to_re "a")))`, false},
	{`(str.in_re "" ((_ re.loop 3 2) (re.* re.allchar)))`, false},
	{`(str.in_re "abab" ((_ re.^ 2) (str.to_re "ab")))`, true},
	{`(str.in_re "aa" (re.loop (str.to_re "a") 1 2))`, true},
	{`(str.in_re "aaaaa" (re.loop (str.to_re "a") 2))`, true},
	{`(str.in_re "x" re.all)`, true},
	{`(str.in_re "" re.none)`, false},
	{`(str.in_re "" re.all)`, true},
	{`(str.in_re "ab" re.allchar)`, false},
	{`(str.in_re "ab" (re.diff (re.* re.allchar) (str.to_re "ab")))`, false},
	{`(str.in_re "" (re.opt (str.to_re "a")))`, true},
	{`(str.in_re "\u{2ffff}" re.allchar)`, true},
	{`(str.in_re "é" (re.range "a" "z"))`, false},
	{`(str.in_re "é" (re.range "\u{e0}" "\u{ff}"))`, true},
	{`(str.in_re "abcabc" (re.* (re.union (str.to_re "abc") (str.to_re "ab"))))`, true},
	{`(str.in_re "aab" (re.++ (re.* (str.to_re "a")) (re.* (str.to_re "a")) (str.to_re "b")))`, true},
	{`(str.in_re "ab" (re.inter (re.++ (str.to_re "a") re.allchar) (re.++ re.allchar (str.to_re "b"))))`, true},
	{`(str.in_re "ab" (re.comp (re.comp (str.to_re "ab"))))`, true},
	{`(str.in.re "a" (str.to.re "a"))`, true},
	// simplified syntax
	{`1 + 2 * 3 = 7`, true},
	{`str.len("ab") + 1 > 2 and str.to_int("12") = 12`, true},
	{`"a" str.++ "b" = "ab"`, true},
}

func TestSMTSemantics(t *testing.T) {
	gr := bytesGraph(t)
	for _, tc := range smtCases {
		if got, report := checkFormula(t, gr, tc.f, ""); got != tc.want {
			t.Errorf("%s: got %v, want %v\n%s", tc.f, got, tc.want, report)
		}
	}
}

// The text of a node is read as UTF-8; bytes that are not valid UTF-8 are
// the characters U+DC80 to U+DCFF.
func TestSMTInputText(t *testing.T) {
	gr := bytesGraph(t)
	for _, tc := range []struct {
		f, input string
		want     bool
	}{
		{`(= (str.len start) 2)`, "\xffA", true},
		{`(= (str.at start 0) "\xff")`, "\xffA", true},
		{`(= (str.to_code (str.at start 0)) 56575)`, "\xffA", true},
		{`(= (str.len start) 1)`, "é", true},
		{`(= start "\xc3\xa9")`, "é", true},
		{`(= start "é")`, "\xc3\xa9", true},
		{`(= (str.len start) 2)`, "\xc3", false},
		{`(= (str.len start) 3)`, "\x00\x00\x00", true},
		{`(= start "\u{0}\u{0}")`, "\x00\x00", true},
		{`(str.in_re start (re.+ (re.range "\u{dc80}" "\u{dcff}")))`, "\x80\xff\xfe", true},
		{`(str.in_re start (re.+ (re.range "\u{dc80}" "\u{dcff}")))`, "\x80\xc3\xa9", false},
		{`(= (str.substr start 1 1) "\u{e9}")`, "aé", true},
		{`(= (str.indexof start "b" 0) 2)`, "\xffèb", true},
		{`(str.< start "a")`, "\x00", true},
	} {
		if got, report := checkFormula(t, gr, tc.f, tc.input); got != tc.want {
			t.Errorf("%s on %q: got %v, want %v\n%s", tc.f, tc.input, got, tc.want, report)
		}
	}
}
