package isla

import (
	"fmt"
	"sync"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// compileBytes compiles src against a grammar of any bytes.
func compileBytes(t *testing.T, src string) *Spec {
	t.Helper()
	g, err := grammar.Parse("bytes.bnf", []byte(`<start> ::= [\x00-\xff]* ;`))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse("c.isla", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Compile(c, grammar.MustCompile(g))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSpecMatcherKeepsDerivatives checks that str.in_re's derivatives of a
// ground expression stay cached from one Check to the next (a second check
// of the same input derives nothing new) and that goroutines checking with
// one Spec at once get the verdicts of a fresh matcher (run with -race).
func TestSpecMatcherKeepsDerivatives(t *testing.T) {
	const re = `re.++(re.*(str.to_re(" ")), re.+(re.range("0", "7")), re.+(re.union(str.to_re(" "), str.to_re("\u{0}"))))`
	s := compileBytes(t, `str.in_re(start, `+re+`)`)
	inputs := []string{"0644 ", "  17\x00", "0", "08 ", "", " 7 \x00 ", "777777\x00\x00", "12 3 ", "1x "}
	want := map[string]bool{"0644 ": true, "  17\x00": true, " 7 \x00 ": true, "777777\x00\x00": true}
	check := func(in string) error {
		r, err := s.Check([]byte(in))
		if err != nil {
			return err
		}
		if r.Valid != want[in] {
			return fmt.Errorf("Check(%q) = %v, want %v", in, r.Valid, want[in])
		}
		return nil
	}
	if err := check(inputs[0]); err != nil {
		t.Fatal(err)
	}
	n := s.matcher.m.Len()
	if n == 0 {
		t.Fatal("the Spec's matcher holds no derivatives after a check")
	}
	if err := check(inputs[0]); err != nil {
		t.Fatal(err)
	}
	if m := s.matcher.m.Len(); m != n {
		t.Errorf("a second check of the same input derived again: %d derivatives, then %d", n, m)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				if err := check(inputs[(g+i)%len(inputs)]); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestSpecMatcherBounded checks that the kept matcher does not grow past
// its bound when every evaluation builds a new expression from the input.
func TestSpecMatcherBounded(t *testing.T) {
	defer func(n int) { maxMatcherLen = n }(maxMatcherLen)
	maxMatcherLen = 40
	s := compileBytes(t, `str.in_re(start, re.++(str.to_re(start), re.*(re.allchar)))`)
	most := 0
	for i := 0; i < 100; i++ {
		in := fmt.Sprintf("input %03d", i)
		r, err := s.Check([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if !r.Valid {
			t.Fatalf("Check(%q) is invalid, want valid", in)
		}
		most = max(most, s.matcher.m.Len())
	}
	// One match adds at most two entries per character to a matcher that
	// was within the bound before it.
	if limit := maxMatcherLen + 2*len("input 000"); most > limit {
		t.Errorf("the Spec's matcher grew to %d derivatives, bound %d", most, limit)
	}
}
