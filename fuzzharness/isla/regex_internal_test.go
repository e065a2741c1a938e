package isla

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"testing"
)

// randomRegex returns a random regular expression over {a, b, c} as a
// regex and as Go regexp syntax (for the operators Go has).
func randomRegex(rng *rand.Rand, depth int) (*regex, string) {
	if depth == 0 || rng.IntN(4) == 0 {
		switch rng.IntN(5) {
		case 0:
			return reEpsV, "(?:)"
		case 1:
			return mkSet([]crange{{'a', 'b'}}), "[ab]"
		default:
			c := rune('a' + rng.IntN(3))
			return mkStr(string(c)), string(c)
		}
	}
	x, xs := randomRegex(rng, depth-1)
	switch rng.IntN(7) {
	case 0:
		y, ys := randomRegex(rng, depth-1)
		return mkCat(x, y), "(?:" + xs + ")(?:" + ys + ")"
	case 1:
		y, ys := randomRegex(rng, depth-1)
		return mkOr(x, y), "(?:" + xs + "|" + ys + ")"
	case 2:
		return mkStar(x), "(?:" + xs + ")*"
	case 3:
		return mkCat(x, mkStar(x)), "(?:" + xs + ")+"
	case 4:
		return mkOr(reEpsV, x), "(?:" + xs + ")?"
	default:
		lo := rng.IntN(3)
		hi := lo + rng.IntN(3)
		return mkLoop(x, lo, hi), "(?:" + xs + "){" + strconv.Itoa(lo) + "," + strconv.Itoa(hi) + "}"
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

func TestRegexAgainstGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ws := words(5)
	for i := 0; i < 300; i++ {
		r, src := randomRegex(rng, 4)
		goRe := regexp.MustCompile("^(?:" + src + ")$")
		var m reMatcher
		for _, w := range ws {
			if got, want := m.matches(r, w), goRe.MatchString(w); got != want {
				t.Fatalf("%s on %q: got %v, want %v (regex %s)", src, w, got, want, r.key)
			}
		}
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
		inter, comp, diff := mkAnd(r, s), mkNot(r), mkAnd(r, mkNot(s))
		var m reMatcher
		for _, w := range ws {
			a, b := m.matches(r, w), m.matches(s, w)
			if m.matches(inter, w) != (a && b) || m.matches(comp, w) == a || m.matches(diff, w) != (a && !b) {
				t.Fatalf("boolean operators disagree on %q: r=%s s=%s", w, r.key, s.key)
			}
		}
	}
}

func TestRegexFind(t *testing.T) {
	var m reMatcher
	r := mkCat(mkStr("a"), mkStar(mkStr("b")))
	rs := runes("xxabbbab")
	if i, j, ok := m.find(r, rs, 0, false); !ok || i != 2 || j != 3 {
		t.Errorf("find: got %d %d %v, want 2 3 true (shortest)", i, j, ok)
	}
	if _, _, ok := m.find(mkStr("q"), rs, 0, true); ok {
		t.Errorf("find q: found")
	}
	if i, j, ok := m.find(mkStar(mkStr("z")), rs, 1, false); !ok || i != 1 || j != 1 {
		t.Errorf("find z*: got %d %d %v, want the empty match at 1", i, j, ok)
	}
}

func TestTextEncoding(t *testing.T) {
	for _, in := range []string{"", "abc", "é", "\xff", "a\xc3", "\xed\xa0\x80", "\U0002ffff", "\x00"} {
		s := fromBytes(in)
		back, ok := toBytes(s)
		if !ok || back != in {
			t.Errorf("%q: round trip gives %q %v", in, back, ok)
		}
		if n := len(runes(s)); n != runeCount(s) {
			t.Errorf("%q: %d runes, runeCount %d", in, n, runeCount(s))
		}
		if fromRunes(runes(s)) != s {
			t.Errorf("%q: runes do not round-trip", in)
		}
	}
	if got := runeCount(fromBytes("\xed\xa0\x80")); got != 3 {
		t.Errorf("an encoded surrogate in the input is 3 invalid bytes, got %d characters", got)
	}
	if s := encodeRune(0xD800); runeCount(s) != 1 || runes(s)[0] != 0xD800 {
		t.Errorf("surrogate character does not decode")
	}
	if _, ok := toBytes(encodeRune(0xD800)); ok {
		t.Errorf("a lone high surrogate converted to bytes")
	}
}
