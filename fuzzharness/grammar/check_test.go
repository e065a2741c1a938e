package grammar

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckProblems(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // Problem.String() of every problem, in order
	}{
		{"clean", `<start> ::= <a> "x"* ; <a> ::= "a" | <a> "a" ;`, nil},
		{"undefined", "<start> ::= <a> | <b>\n<a> ::= <c> \"x\"",
			[]string{"f:1:19: error: undefined nonterminal <b>", "f:2:9: error: undefined nonterminal <c>"}},
		{"unreachable", `<start> ::= "x" ; <a> ::= <b> ; <b> ::= "y" ;`,
			[]string{
				"f:1:19: warning: nonterminal <a> is unreachable from the start symbol <start>",
				"f:1:33: warning: nonterminal <b> is unreachable from the start symbol <start>"}},
		{"unproductive", `<start> ::= "x" | <a> ; <a> ::= "a" <a> ; <b> ::= <b> ; <c> ::= <a>* ;`,
			[]string{
				"f:1:25: error: nonterminal <a> derives no finite string: every derivation from it is infinite",
				"f:1:43: error: nonterminal <b> derives no finite string: every derivation from it is infinite",
				"f:1:43: warning: nonterminal <b> is unreachable from the start symbol <start>",
				"f:1:43: warning: empty cycle <b> => <b>: <b> derives itself with nothing around it, which makes the grammar infinitely ambiguous",
				"f:1:57: warning: nonterminal <c> is unreachable from the start symbol <start>"}},
		{"unproductive start", `<start> ::= "(" <start> ")" ;`,
			[]string{"f:1:1: error: nonterminal <start> derives no finite string: every derivation from it is infinite"}},
		{"productive through quantifiers", `<start> ::= <a>{0} <b>? ; <a> ::= <a> ; <b> ::= "b"{2,} ;`,
			[]string{
				"f:1:27: error: nonterminal <a> derives no finite string: every derivation from it is infinite",
				"f:1:27: warning: empty cycle <a> => <a>: <a> derives itself with nothing around it, which makes the grammar infinitely ambiguous"}},
		{"no cascade from undefined", `<start> ::= <a> ; <a> ::= <undefined> ;`,
			[]string{"f:1:27: error: undefined nonterminal <undefined>"}},
		{"bad repeat", `<start> ::= "x"{3,2} [] [^\x00-\U0010ffff] ;`,
			[]string{
				"f:1:13: error: repetition {3,2}: expected the minimum not to exceed the maximum",
				"f:1:22: error: class [] matches no character",
				"f:1:25: error: class [^\\x00-\\U0010ffff] matches no character"}},
		{"empty cycle", `<start> ::= <a> ; <a> ::= <b> | "a" ; <b> ::= "" <c> "" | "b" ; <c> ::= <a>? "c"? ;`,
			[]string{"f:1:19: warning: empty cycle <a> => <b> => <c> => <a>: <a> derives itself with nothing around it, which makes the grammar infinitely ambiguous"}},
		{"cycles through nullable neighbours", `<start> ::= <e> <start> | "x" ; <e> ::= "" | "e" ;`,
			[]string{"f:1:1: warning: empty cycle <start> => <start>: <start> derives itself with nothing around it, which makes the grammar infinitely ambiguous"}},
		{"cycles through quantifiers", `<start> ::= <a>+ | "x" ; <a> ::= <start>{1,2} ;`,
			[]string{"f:1:1: warning: empty cycle <start> => <a> => <start>: <start> derives itself with nothing around it, which makes the grammar infinitely ambiguous"}},
		{"no cycle when something is consumed", `<start> ::= <a> "x" | "y" ; <a> ::= <start> | "z" ; <b> ::= <b>{0} "b" ;`,
			[]string{"f:1:53: warning: nonterminal <b> is unreachable from the start symbol <start>"}},
		{"no cycle through two copies", `<start> ::= <a>+ | "x" ; <a> ::= <start>{2} ;`, nil},
		{"no start", `<a> ::= "x" ;`, nil}, // Parse makes the first rule the start
	}
	for _, tt := range tests {
		g, err := Parse("f", []byte(tt.src))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var got []string
		for _, p := range g.Problems() {
			got = append(got, p.String())
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s:\ngot  %s\nwant %s", tt.name, strings.Join(got, "\n     "), strings.Join(tt.want, "\n     "))
		}
	}
}

func TestCheckReturnsOnlyErrors(t *testing.T) {
	g, err := Parse("f", []byte(`<start> ::= <a> ; <a> ::= <a> | "a" ; <u> ::= "u" ;`))
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Check(); err != nil {
		t.Errorf("warnings only, but Check says %v", err)
	}
	if n := len(g.Problems()); n != 2 {
		t.Errorf("%d problems, want 2 warnings: %v", n, g.Problems())
	}
	g, err = Parse("f", []byte(`<start> ::= <a> <b> ; <a> ::= <a> ; <u> ::= "u" ;`))
	if err != nil {
		t.Fatal(err)
	}
	err = g.Check()
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 3 {
		t.Fatalf("Check: %v", err)
	}
	want := []string{
		"f:1:1: nonterminal <start> derives no finite string: every derivation from it is infinite",
		"f:1:17: undefined nonterminal <b>",
		"f:1:23: nonterminal <a> derives no finite string: every derivation from it is infinite",
	}
	for i, e := range list {
		if e.Error() != want[i] {
			t.Errorf("error %d: %s, want %s", i, e, want[i])
		}
	}
}

func TestCheckHandBuilt(t *testing.T) {
	at := func(col int) Pos { return Pos{Line: 1, Col: col} }
	g := &Grammar{Start: "s", Rules: []*Rule{
		{Name: "s", Pos: at(1), Expr: xSeq(xRef("a b"), &Alt{P: at(2)}, &Repeat{X: xLit("x"), Min: -1, Max: 2, P: at(3)})},
		{Name: "a b", Pos: at(4), Expr: xLit("x")},
		{Name: "s", Pos: at(5), Expr: xLit("y")},
		{Name: "n", Pos: at(6)},
		{Name: "c", Pos: at(7), Expr: xAlt(&Class{Ranges: []Range{{'z', 'a'}}, P: at(8)}, &Class{Bytes: true, Ranges: []Range{{0, 0x100}}, P: at(9)},
			&Class{Ranges: []Range{{0xD800, 0xD800}}, P: at(10)}, &Repeat{X: xLit("x"), Min: 1, Max: 1 << 20, P: at(11)}, xSeq(xLit("a"), nil))},
	}}
	want := []string{
		"1:2: error: empty alternation: expected at least one alternative",
		"1:3: error: repetition {-1,2}: expected counts of at least 0",
		`1:4: error: invalid nonterminal name "a b": expected a non-empty name without '<', '>' or white space`,
		"1:5: error: duplicate definition of <s>: first defined at 1:1",
		"1:6: error: rule <n> has no expression",
		"1:6: warning: nonterminal <n> is unreachable from the start symbol <s>",
		"1:7: warning: nonterminal <c> is unreachable from the start symbol <s>",
		"1:8: error: class [z-a]: range 0x7a-0x61 is reversed",
		"1:9: error: class [\\x00-Ā]: range 0x0-0x100 is outside 0-0xff",
		"1:10: error: class [\\ud800]: range 0xd800-0xd800 starts or ends at a surrogate half",
		"1:11: error: repetition {1,1048576}: expected counts of at most 65536",
	}
	var got []string
	for _, p := range g.Problems() {
		got = append(got, p.String())
	}
	// The nil element of the sequence is reported at the sequence.
	wantNil := "-: error: missing expression (nil)"
	if len(got) == 0 || got[0] != wantNil {
		t.Errorf("first problem %q, want %q", got, wantNil)
	} else {
		got = got[1:]
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	empty := &Grammar{Start: "start"}
	if err := empty.Check(); err == nil || err.Error() != "grammar has no rules: expected a rule for the start symbol <start>" {
		t.Errorf("empty grammar: %v", err)
	}
	undefinedStart := &Grammar{Start: "x", Rules: []*Rule{{Name: "a", Expr: xLit("a"), Pos: at(1)}}}
	if err := undefinedStart.Check(); err == nil || err.Error() != "start symbol <x> is not defined" {
		t.Errorf("undefined start: %v", err)
	}
	var nilGrammar *Grammar
	if err := nilGrammar.Check(); err == nil || err.Error() != "nil grammar" {
		t.Errorf("nil grammar: %v", err)
	}
}

func TestProblemKinds(t *testing.T) {
	errorsKinds := []ProblemKind{ProblemUndefined, ProblemNoStart, ProblemUnproductive, ProblemBadRepeat, ProblemEmptyClass, ProblemInvalid}
	for _, k := range errorsKinds {
		if !k.IsError() {
			t.Errorf("%v is not an error", k)
		}
	}
	for _, k := range []ProblemKind{ProblemUnreachable, ProblemEmptyCycle} {
		if k.IsError() {
			t.Errorf("%v is an error", k)
		}
	}
	if s := ProblemEmptyCycle.String(); s != "empty cycle" {
		t.Errorf("String: %q", s)
	}
	if s := ProblemKind(99).String(); s != "ProblemKind(99)" {
		t.Errorf("String: %q", s)
	}
	g, _ := Parse("f", []byte(`<start> ::= <x> ; <u> ::= "u" ;`))
	kinds := map[ProblemKind]bool{}
	for _, p := range g.Problems() {
		kinds[p.Kind] = true
	}
	if !kinds[ProblemUndefined] || !kinds[ProblemUnreachable] || len(kinds) != 2 {
		t.Errorf("kinds %v", kinds)
	}
}
