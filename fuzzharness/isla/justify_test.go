package isla_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// The padding predicates of ISLa's library hold when the text has the
// width (crop: at most the width), whatever the fill character, as in
// ISLa; octal_to_decimal reads the text in base 8; a numeric quantifier's
// variable takes the text's length or value.
func TestLibraryPredicates(t *testing.T) {
	gr := mustGraph(t, `<start> ::= <f> ";" <n> ; <f> ::= [a-z ]+ ; <n> ::= [0-7]+ ;`)
	for _, tc := range []struct {
		constraint, input string
		valid             bool
	}{
		{`ljust_crop(<f>, 5, " ")`, "ab   ;1", true},
		{`ljust_crop(<f>, 5, " ")`, "ab;1", false},
		{`rjust(<f>, 2, "x")`, "ab;1", true},
		{`rjust_crop(<f>, 3, " ")`, "abcd;1", false},
		{`ljust_crop_tar(<f>, 4, " ")`, "abcd;1", true},
		{`rjust_crop_tar(<f>, 4, " ")`, "abc;1", false},
		{`extend_crop(<f>, 3)`, "aaa;1", true},
		{`crop(<f>, 3)`, "aa;1", true},
		{`crop(<f>, 3)`, "aaaa;1", false},
		{`octal_to_decimal(<n>, 64)`, "a;100", true},
		{`octal_to_decimal(<n>, 100)`, "a;100", false},
		{`exists int w: (ljust(<f>, w, " ") and (= (str.to.int w) 3))`, "abc;1", true},
		{`exists int d: (octal_to_decimal(<n>, d) and (= (str.to.int d) 8))`, "a;10", true},
		{`exists int d: (octal_to_decimal(<n>, d) and (= (str.to.int d) 9))`, "a;10", false},
	} {
		s, err := isla.Compile(isla.MustParse(tc.constraint), gr)
		if err != nil {
			t.Fatalf("%s: %v", tc.constraint, err)
		}
		r, err := s.Check([]byte(tc.input))
		if err != nil {
			t.Fatalf("%s on %q: %v", tc.constraint, tc.input, err)
		}
		if r.Valid != tc.valid {
			t.Errorf("%s on %q: valid %v, want %v\n%s", tc.constraint, tc.input, r.Valid, tc.valid, r)
		}
	}
}

// A fill character of more than one byte is an error, as in ISLa.
func TestLibraryFillError(t *testing.T) {
	gr := mustGraph(t, `<start> ::= [a-z]+ ;`)
	s, err := isla.Compile(isla.MustParse(`ljust_crop(<start>, 3, "ab")`), gr)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Check([]byte("abc"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Valid || !strings.Contains(r.String(), "is not one byte") {
		t.Errorf("a fill of two bytes: valid %v\n%s", r.Valid, r)
	}
}

// ISLa's padding predicates are built in: a field of a fixed width, as
// ISLa's TAR formalization writes its header fields.
func Example_padding() {
	g, err := grammar.Parse("tar.bnf", []byte(`
<start> ::= <name> <mode> ;
<name> ::= [a-z]+ "\x00"* ;
<mode> ::= [0-7]+ " " ;`))
	if err != nil {
		fmt.Println(err)
		return
	}
	gr := grammar.MustCompile(g)
	c := isla.MustParse(`ljust_crop_tar(<name>, 8, "\x00") and rjust_crop(<mode>, 4, "0")`)
	s, err := isla.Compile(c, gr)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, in := range []string{"file\x00\x00\x00\x00044 ", "file\x0044 "} {
		r, err := s.Check([]byte(in))
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%q valid=%v\n", in, r.Valid)
	}
	// Output:
	// "file\x00\x00\x00\x00044 " valid=true
	// "file\x0044 " valid=false
}

func mustGraph(t *testing.T, src string) *grammar.Graph {
	t.Helper()
	g, err := grammar.Parse("test.bnf", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return grammar.MustCompile(g)
}
