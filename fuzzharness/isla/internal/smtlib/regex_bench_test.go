package smtlib_test

import (
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
)

func plus(x *smtlib.Regex) *smtlib.Regex { return smtlib.Concat(x, smtlib.Star(x)) }

func charRange(lo, hi rune) *smtlib.Regex {
	return smtlib.CharSet([]smtlib.Range{{Lo: lo, Hi: hi}})
}

// A benchRegex is a regex with strings and whether it accepts them.
type benchRegex struct {
	re    *smtlib.Regex
	texts []string
	want  []bool
}

// benchRegexes returns the regexes of fuzzharness/isla/testdata/tar.isla
// (an octal number: spaces, octal digits, then spaces or NULs; a name:
// printable characters, then NULs) with field values of TAR headers that
// they accept, and an identifier and a bounded-loop regex with values.
func benchRegexes() []benchRegex {
	octal := smtlib.Concat(smtlib.Star(smtlib.Literal(" ")), plus(charRange('0', '7')),
		plus(smtlib.Union(smtlib.Literal(" "), smtlib.Literal("\x00"))))
	name := smtlib.Concat(plus(charRange(' ', '~')), smtlib.Star(smtlib.Literal("\x00")))
	ident := smtlib.Concat(charRange('a', 'z'), smtlib.Star(smtlib.Union(charRange('a', 'z'), charRange('0', '9'))))
	loop := smtlib.Inter(smtlib.Loop(charRange('0', '9'), 2, 6), smtlib.Complement(smtlib.Literal("00")))
	return []benchRegex{
		{octal, []string{"0000644\x00", "0001750\x00", "00000001234\x00", "   01234 \x00", "014757 \x00", "7777777"},
			[]bool{true, true, true, true, true, false}},
		{name, []string{"hello.txt" + strings.Repeat("\x00", 91), "dir/sub/file-name_with.some~chars" + strings.Repeat("\x00", 67), "\x00name"},
			[]bool{true, true, false}},
		{ident, []string{"x", "counter42", "a1b2c3d4e5", "9lives"}, []bool{true, true, true, false}},
		{loop, []string{"00", "123", "004567", "1234567"}, []bool{false, true, true, false}},
	}
}

// The benchmarks' regexes accept what they should, with fresh and shared
// matchers.
func TestBenchRegexes(t *testing.T) {
	var shared smtlib.Matcher
	for round := 0; round < 2; round++ {
		for _, c := range benchRegexes() {
			for i, s := range c.texts {
				var fresh smtlib.Matcher
				if got := fresh.Matches(c.re, s); got != c.want[i] {
					t.Errorf("%s on %q: got %v, want %v", c.re.Key, s, got, c.want[i])
				}
				if got := shared.Matches(c.re, s); got != c.want[i] {
					t.Errorf("round %d, shared matcher: %s on %q: got %v, want %v", round, c.re.Key, s, got, c.want[i])
				}
			}
		}
	}
}

// BenchmarkMatchFresh matches TAR header fields and a few other values with
// a new Matcher for every string, as the validator evaluates str.in_re.
func BenchmarkMatchFresh(b *testing.B) {
	cases := benchRegexes()
	for b.Loop() {
		for _, c := range cases {
			for _, s := range c.texts {
				var m smtlib.Matcher
				m.Matches(c.re, s)
			}
		}
	}
}

// BenchmarkMatchShared matches the same strings with one Matcher, as the
// solver keeps one for its searches.
func BenchmarkMatchShared(b *testing.B) {
	cases := benchRegexes()
	var m smtlib.Matcher
	for b.Loop() {
		for _, c := range cases {
			for _, s := range c.texts {
				m.Matches(c.re, s)
			}
		}
	}
}
