package grammar

import (
	"errors"
	"strings"
	"testing"
)

// TestParserAfterItemLimit checks that a parse stopped by MaxItems leaves no
// state behind: the parser's next parses, which reuse its scratch buffers,
// give the same results as a fresh parser's. (Waiters and predictions of the
// stopped parse's last set used to leak into the next parse, whose
// completions then indexed items it does not have.) The grammar is of the
// kind GLADE mines: nested, ambiguous repetitions.
func TestParserAfterItemLimit(t *testing.T) {
	g, err := Parse("mined", []byte(`
		<start> ::= <r> <r> ":" <r> | [a-z] <r> "//" <r> ;
		<r> ::= ([a-z] <r>)* | [a-z:/]* | (<r> [a-z] <r> "/" <r>)* | ("/" <r> | [a-z] <r>)* ;`))
	if err != nil {
		t.Fatal(err)
	}
	gr := MustCompile(g)
	const limit = 2000
	p, err := NewParser(gr, MaxItems(limit))
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := NewParser(gr, MaxItems(limit))
	if err != nil {
		t.Fatal(err)
	}
	long := []byte(strings.Repeat("ab/c:", 20))
	hit := 0
	for _, in := range []string{"a:", "ab:c", "a//b", "abc", ":", "a/b:c/d", "x//y:z"} {
		want := fresh.Recognize([]byte(in))
		if err := p.Recognize(long); errors.Is(err, ErrItemLimit) {
			hit++
		}
		var got error
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("Recognize(%q) after a parse over the item limit panics: %v", in, r)
				}
			}()
			got = p.Recognize([]byte(in))
		}()
		if (got == nil) != (want == nil) {
			t.Errorf("Recognize(%q) after a parse over the item limit = %v, a fresh parser's = %v", in, got, want)
		}
	}
	if hit == 0 {
		t.Fatalf("Recognize of %d bytes never exceeded %d items", len(long), limit)
	}
}
