package z3

import (
	"strings"
	"testing"
)

func TestCheckTerm(t *testing.T) {
	ok := []string{
		"x",
		"true",
		"(> n 0)",
		"  (and (> n 0)\n\t(< n 9)) ; comment\n",
		`(= x "a""b)c(")`,
		`(= |odd ) name| 1)`,
		"(= x \"multi\nline\")",
		"; leading comment\n(f)",
		"(f ; comment with ) and \"\n x)",
		"(f #| not a comment to us, but balanced |# x)",
	}
	for _, term := range ok {
		if err := checkTerm(term); err != nil {
			t.Errorf("checkTerm(%q) = %v, want nil", term, err)
		}
	}
	bad := []struct{ term, want string }{
		{"", "empty term"},
		{" \n\t", "empty term"},
		{"; just a comment", "empty term"},
		{"(f x", "line 1, column 5: missing ')'"},
		{"(f x))", "line 1, column 6: unexpected ')'"},
		{")", "line 1, column 1: unexpected ')'"},
		{"x y", "line 1, column 3: unexpected text after the term"},
		{"(f)\n(g)", "line 2, column 1: unexpected text after the term"},
		{"true) (set-option :timeout 1) (assert true", "line 1, column 5: unexpected ')'"},
		{"(f x)(g", "line 1, column 6: unexpected text after the term"},
		{`(= x "abc)`, "line 1, column 6: unterminated string literal"},
		{`(= |abc 1)`, "line 1, column 4: unterminated quoted symbol"},
		{`(= |a\| 1)`, "line 1, column 6: backslash in a quoted symbol"},
		{"(= x \"\xc3\xa9\")", "line 1, column 7: byte 0xc3 is not printable ASCII"},
		{"(f\x00)", "line 1, column 3: byte 0x00 is not printable ASCII"},
		{"(f x\x7f)", "line 1, column 5: byte 0x7f is not printable ASCII"},
		{"(f) ; \xff", "line 1, column 7: byte 0xff is not printable ASCII"},
		{"(f\n  |a\x01|)", "line 2, column 5: byte 0x01 is not printable ASCII"},
	}
	for _, tt := range bad {
		err := checkTerm(tt.term)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("checkTerm(%q) = %v, want an error containing %q", tt.term, err, tt.want)
		}
	}
}

func FuzzCheckTerm(f *testing.F) {
	for _, s := range []string{"x", "(f x)", `(= x "a""b")`, "(f ; c\n)", "|q s|", "x) (y", "(f #| |# x)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, term string) {
		if checkTerm(term) != nil {
			return
		}
		// An accepted term is one term: it nests, and two of it are
		// rejected.
		if err := checkTerm("(f " + term + "\n)"); err != nil {
			t.Fatalf("%q is accepted, but not inside parentheses: %v", term, err)
		}
		if err := checkTerm(term + "\n" + term); err == nil {
			t.Fatalf("%q is accepted, and so is it twice", term)
		}
		// No byte outside printable ASCII, tab, newline and CR.
		for i := 0; i < len(term); i++ {
			if c := term[i]; (c < 0x20 || c > 0x7e) && c != '\t' && c != '\n' && c != '\r' {
				t.Fatalf("%q is accepted with byte %#x", term, c)
			}
		}
	})
}
