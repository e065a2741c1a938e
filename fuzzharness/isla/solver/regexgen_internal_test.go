package solver

import (
	"testing"
	"unicode/utf8"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
)

// octalRE is TAR's numeric field: optional spaces, octal digits, then
// spaces or NULs.
func octalRE() *smtlib.Regex {
	sp, nul := smtlib.Literal(" "), smtlib.Literal("\x00")
	digits := smtlib.CharSet([]smtlib.Range{{Lo: '0', Hi: '7'}})
	end := smtlib.Union(sp, nul)
	return smtlib.Concat(smtlib.Star(sp), digits, smtlib.Star(digits), end, smtlib.Star(end))
}

// sampleRegex keeps the graph of derivatives it walks, by the regex's text
// and the length range: an equal regex built apart reuses it, another range
// gets its own, the kept graphs are bounded, and every sample is a string
// of the regex within the range.
func TestSampleRegexKeepsGraph(t *testing.T) {
	gr := grammar.MustCompile(grammar.MustBuiltin("tar"))
	spec, err := isla.Compile(isla.MustParse(`str.len(start) > 0`), gr)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(spec, Seed(4))
	if err != nil {
		t.Fatal(err)
	}
	var m smtlib.Matcher
	sample := func(r *smtlib.Regex, lo, hi int) {
		t.Helper()
		for range 50 {
			text, ok := s.sampleRegex(r, lo, hi)
			if !ok {
				t.Fatalf("no string of length %d to %d", lo, hi)
			}
			if n := utf8.RuneCountInString(text); n < lo || n > hi || !m.Matches(r, text) {
				t.Fatalf("sample %q: length %d, want %d to %d, in the language: %v", text, n, lo, hi, m.Matches(r, text))
			}
		}
	}
	r := octalRE()
	sample(r, 8, 8)
	g := s.regexGraphs[regexGraphKey{r.Key, 8, 8}]
	if g == nil || len(s.regexGraphs) != 1 {
		t.Fatalf("after sampling one regex and range: %d graphs kept, want 1", len(s.regexGraphs))
	}
	sample(octalRE(), 8, 8)
	if len(s.regexGraphs) != 1 || s.regexGraphs[regexGraphKey{r.Key, 8, 8}] != g {
		t.Errorf("an equal regex built apart did not reuse the kept graph (%d graphs)", len(s.regexGraphs))
	}
	sample(r, 12, 12)
	if len(s.regexGraphs) != 2 {
		t.Errorf("another length range: %d graphs kept, want 2", len(s.regexGraphs))
	}
	for n := range maxRegexGraphs + 5 {
		sample(r, 2, 3+n)
		if len(s.regexGraphs) > maxRegexGraphs {
			t.Fatalf("%d graphs kept, bound %d", len(s.regexGraphs), maxRegexGraphs)
		}
	}
}
