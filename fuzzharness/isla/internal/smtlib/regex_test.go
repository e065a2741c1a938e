package smtlib_test

import (
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
	"math/rand/v2"
	"regexp"
	"strconv"
	"testing"
)

// randomRegex returns a random regular expression over {a, b, c} as a
// regex and as Go regexp syntax (for the operators Go has).
func randomRegex(rng *rand.Rand, depth int) (*smtlib.Regex, string) {
	if depth == 0 || rng.IntN(4) == 0 {
		switch rng.IntN(5) {
		case 0:
			return smtlib.EpsRegex, "(?:)"
		case 1:
			return smtlib.CharSet([]smtlib.Range{{Lo: 'a', Hi: 'b'}}), "[ab]"
		default:
			c := rune('a' + rng.IntN(3))
			return smtlib.Literal(string(c)), string(c)
		}
	}
	x, xs := randomRegex(rng, depth-1)
	switch rng.IntN(7) {
	case 0:
		y, ys := randomRegex(rng, depth-1)
		return smtlib.Concat(x, y), "(?:" + xs + ")(?:" + ys + ")"
	case 1:
		y, ys := randomRegex(rng, depth-1)
		return smtlib.Union(x, y), "(?:" + xs + "|" + ys + ")"
	case 2:
		return smtlib.Star(x), "(?:" + xs + ")*"
	case 3:
		return smtlib.Concat(x, smtlib.Star(x)), "(?:" + xs + ")+"
	case 4:
		return smtlib.Union(smtlib.EpsRegex, x), "(?:" + xs + ")?"
	default:
		lo := rng.IntN(3)
		hi := lo + rng.IntN(3)
		return smtlib.Loop(x, lo, hi), "(?:" + xs + "){" + strconv.Itoa(lo) + "," + strconv.Itoa(hi) + "}"
	}
}

// words returns all words over {a, b, c} up to length n.
func words(n int) []string {
	out := []string{""}
	last := []string{""}
	for i := 0; i < n; i++ {
		var next []string
		for _, w := range last {
			for _, c := range "abc" {
				next = append(next, w+string(c))
			}
		}
		out = append(out, next...)
		last = next
	}
	return out
}

// TestRegexAgainstGo matches random regexes with a matcher of their own
// and with one that all share (as an evaluator keeps one), against Go's.
func TestRegexAgainstGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ws := words(5)
	var shared smtlib.Matcher
	for i := 0; i < 300; i++ {
		r, src := randomRegex(rng, 4)
		goRe := regexp.MustCompile("^(?:" + src + ")$")
		var m smtlib.Matcher
		for _, w := range ws {
			want := goRe.MatchString(w)
			if got := m.Matches(r, w); got != want {
				t.Fatalf("%s on %q: got %v, want %v (regex %s)", src, w, got, want, r.Key)
			}
			if got := shared.Matches(r, w); got != want {
				t.Fatalf("%s on %q with the shared matcher: got %v, want %v (regex %s)", src, w, got, want, r.Key)
			}
		}
	}
	if shared.Len() == 0 {
		t.Error("the shared matcher holds no derivative")
	}
}

// Intersection, complement and difference, which Go's regexp lacks, agree
// with their definitions.
func TestRegexBoolean(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ws := words(4)
	for i := 0; i < 200; i++ {
		r, _ := randomRegex(rng, 3)
		s, _ := randomRegex(rng, 3)
		inter, comp, diff := smtlib.Inter(r, s), smtlib.Complement(r), smtlib.Inter(r, smtlib.Complement(s))
		var m smtlib.Matcher
		for _, w := range ws {
			a, b := m.Matches(r, w), m.Matches(s, w)
			if m.Matches(inter, w) != (a && b) || m.Matches(comp, w) == a || m.Matches(diff, w) != (a && !b) {
				t.Fatalf("boolean operators disagree on %q: r=%s s=%s", w, r.Key, s.Key)
			}
		}
	}
}

func TestRegexFind(t *testing.T) {
	var m smtlib.Matcher
	r := smtlib.Concat(smtlib.Literal("a"), smtlib.Star(smtlib.Literal("b")))
	rs := smtlib.Runes("xxabbbab")
	if i, j, ok := m.Find(r, rs, 0, false); !ok || i != 2 || j != 3 {
		t.Errorf("find: got %d %d %v, want 2 3 true (shortest)", i, j, ok)
	}
	if _, _, ok := m.Find(smtlib.Literal("q"), rs, 0, true); ok {
		t.Errorf("find q: found")
	}
	if i, j, ok := m.Find(smtlib.Star(smtlib.Literal("z")), rs, 1, false); !ok || i != 1 || j != 1 {
		t.Errorf("find z*: got %d %d %v, want the empty match at 1", i, j, ok)
	}
}

func TestTextEncoding(t *testing.T) {
	for _, in := range []string{"", "abc", "é", "\xff", "a\xc3", "\xed\xa0\x80", "\U0002ffff", "\x00"} {
		s := smtlib.FromBytes(in)
		back, ok := smtlib.ToBytes(s)
		if !ok || back != in {
			t.Errorf("%q: round trip gives %q %v", in, back, ok)
		}
		if n := len(smtlib.Runes(s)); n != smtlib.RuneCount(s) {
			t.Errorf("%q: %d runes, runeCount %d", in, n, smtlib.RuneCount(s))
		}
		if smtlib.FromRunes(smtlib.Runes(s)) != s {
			t.Errorf("%q: runes do not round-trip", in)
		}
	}
	if got := smtlib.RuneCount(smtlib.FromBytes("\xed\xa0\x80")); got != 3 {
		t.Errorf("an encoded surrogate in the input is 3 invalid bytes, got %d characters", got)
	}
	if s := smtlib.EncodeRune(0xD800); smtlib.RuneCount(s) != 1 || smtlib.Runes(s)[0] != 0xD800 {
		t.Errorf("surrogate character does not decode")
	}
	if _, ok := smtlib.ToBytes(smtlib.EncodeRune(0xD800)); ok {
		t.Errorf("a lone high surrogate converted to bytes")
	}
}
