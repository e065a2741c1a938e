package algebra

import (
	"errors"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

func TestParseExpr(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"A", "A"},
		{"not not A", "not not A"},
		{"A and B or C and not D", "A and B or C and not D"},
		{"A and (B or C)", "A and (B or C)"},
		{"(A and B) and C", "A and B and C"},
		{"A and (B and C)", "A and (B and C)"},
		{"not (A or B)", "not (A or B)"},
		{" ( ( x_1 ) ) ", "x_1"},
	} {
		e, err := ParseExpr(tc.in)
		if err != nil || e.String() != tc.want {
			t.Errorf("ParseExpr(%q) = %v, %v; want %s", tc.in, e, err, tc.want)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"", "expr:1:1: expected a pattern name, 'not' or '(', found end of expression"},
		{"A and", "expr:1:6: expected a pattern name, 'not' or '(', found end of expression"},
		{"(A or B", "expr:1:8: expected ')' to close the '(' at column 1, found end of expression"},
		{"A B", "expr:1:3: unexpected name B after a complete expression"},
		{"A )", "expr:1:3: unexpected ')' after a complete expression"},
	} {
		_, err := ParseExpr(tc.in)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("ParseExpr(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
	// Bad characters are all reported, in order.
	_, err := ParseExpr("A & B | !C")
	var list grammar.ErrorList
	if !errors.As(err, &list) || len(list) != 3 || list[0].Pos.Col != 3 || list[1].Pos.Col != 7 || list[2].Pos.Col != 9 {
		t.Errorf("ParseExpr(\"A & B | !C\") = %v, want errors at columns 3, 7 and 9", err)
	}
	if _, err := ParseExpr(strings.Repeat("not ", 2000) + "A"); err == nil || !strings.Contains(err.Error(), "nested more than") {
		t.Errorf("deep nesting: %v", err)
	}
}

// FuzzParseExpr checks that ParseExpr never panics, that its errors are
// positioned, and that an expression prints to text that parses back to it.
func FuzzParseExpr(f *testing.F) {
	for _, s := range []string{"A", "not (A or B) and C", "((A))", "A and", "A B", "(", "not not not x_1", "A & B", "A or B or C and D"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := ParseExpr(src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "expr:1:") {
				t.Fatalf("ParseExpr(%q): error without position: %v", src, err)
			}
			return
		}
		again, err := ParseExpr(e.String())
		if err != nil {
			t.Fatalf("ParseExpr(%q) printed as %q, which does not parse: %v", src, e, err)
		}
		if again.String() != e.String() {
			t.Fatalf("ParseExpr(%q) = %q, reparsed %q", src, e, again)
		}
	})
}

// FuzzSpecialize checks that patterns and expressions from arbitrary text
// never make the algebra panic, and that every specialized grammar it
// builds compiles and contains only inputs on which the expression holds.
func FuzzSpecialize(f *testing.F) {
	f.Add("null", `"":<element>`, "E and not N")
	f.Add("[<element>]", `<ws>"a"<ws>:<element>`, "not (E or N)")
	f.Add("<object>", `"\<":1`, "N or E")
	f.Add("{}", "x", "E")
	a, err := New(grammar.MustBuiltin("json"))
	if err != nil {
		f.Fatal(err)
	}
	p := mustParser(f, a.Grammar())
	f.Fuzz(func(t *testing.T, value, member, expr string) {
		n, err := a.ParsePattern("N", "value", value)
		if err != nil {
			return
		}
		m, err := a.ParsePattern("E", "member", member)
		if err != nil {
			return
		}
		e, err := ParseExpr(expr)
		if err != nil {
			return
		}
		pats := []*Pattern{n, m}
		res, err := a.Specialize(pats, e, &Options{MaxRules: 200})
		if err != nil {
			return
		}
		for _, w := range generate(t, res.Grammar, 1, 5, 200) {
			forest, err := p.Parse(w)
			if err != nil {
				t.Fatalf("%q from the specialized grammar is not JSON: %v", w, err)
			}
			if ok, err := a.Holds(pats, e, forest.Tree()); err != nil || !ok {
				t.Fatalf("%s does not hold on %q (%v)\n%s", e, w, err, res.Grammar)
			}
		}
	})
}

// A tautology gives the base grammar back.
func TestTautology(t *testing.T) {
	a, err := New(grammar.MustBuiltin("json"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := a.ParsePattern("N", "value", "null")
	if err != nil {
		t.Fatal(err)
	}
	r := specialize(t, a, []*Pattern{n}, "N or not N", nil)
	if r.Grammar.String() != a.Grammar().String() || r.Rules != r.BaseRules {
		t.Errorf("N or not N:\n%s", r.Grammar)
	}
}
