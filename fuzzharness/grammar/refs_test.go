package grammar_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

func ExampleRefs() {
	g, err := grammar.Parse("expr.bnf", []byte(`<expr> ::= <term> ("+" <term>)* | "-" <expr>
<term> ::= [0-9]+
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for r := range grammar.Refs(g.Rule("expr").Expr) {
		fmt.Println(r.Name, r.Position())
	}
	// Output:
	// term expr.bnf:1:12
	// term expr.bnf:1:24
	// expr expr.bnf:1:39
}

func TestRefsOrderAndStop(t *testing.T) {
	g, err := grammar.Parse("t.bnf", []byte(`<s> ::= <a> (<b> | <c>{2,3})? <a> | ""
<a> ::= "a"
<b> ::= "b"
<c> ::= "c"
`))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for r := range grammar.Refs(g.Rule("s").Expr) {
		names = append(names, r.Name)
	}
	if want := []string{"a", "b", "c", "a"}; !slices.Equal(names, want) {
		t.Fatalf("Refs = %v, want %v", names, want)
	}
	names = names[:0]
	for r := range grammar.Refs(g.Rule("s").Expr) {
		names = append(names, r.Name)
		if r.Name == "b" {
			break
		}
	}
	if want := []string{"a", "b"}; !slices.Equal(names, want) {
		t.Fatalf("Refs with break = %v, want %v", names, want)
	}
	for range grammar.Refs(g.Rule("a").Expr) {
		t.Fatal("a literal has no references")
	}
}
