package algebra_test

import (
	"fmt"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar/algebra"
)

// Specialize the JSON grammar to documents with an empty key and without
// null, and check documents with the specialized grammar's Earley parser.
func Example() {
	a, err := algebra.New(grammar.MustBuiltin("json"))
	if err != nil {
		panic(err)
	}
	e, _ := a.ParsePatternDef(`E=<member> is "":<element>`)
	n, _ := a.ParsePatternDef(`N=<value> is null`)
	expr, _ := algebra.ParseExpr("E and not N")
	res, err := a.Specialize([]*algebra.Pattern{e, n}, expr, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(strings.Split(res.Grammar.String(), "\n")[0])
	fmt.Printf("%d rules (base grammar: %d)\n", res.Rules, res.BaseRules)
	p, _ := grammar.NewParser(grammar.MustCompile(res.Grammar))
	for _, doc := range []string{`{"": [1, true]}`, `{"a": 1}`, `[{"": {}}, null]`} {
		fmt.Printf("%-18s %v\n", doc, p.Recognize([]byte(doc)) == nil)
	}
	// Output:
	// <JSON-text:+E&-N> ::= <element:+E&-N> ;
	// 28 rules (base grammar: 17)
	// {"": [1, true]}    true
	// {"a": 1}           false
	// [{"": {}}, null]   false
}

func ExampleParseExpr() {
	e, err := algebra.ParseExpr("not (A or B) and C")
	fmt.Println(e, err)
	_, err = algebra.ParseExpr("A and or B")
	fmt.Println(err)
	// Output:
	// not (A or B) and C <nil>
	// expr:1:7: expected a pattern name, 'not' or '(', found 'or'
}

// The pattern grammar of a pattern: its instances.
func ExampleAlgebra_PatternGrammar() {
	a, _ := algebra.New(grammar.MustBuiltin("expr"))
	p, err := a.ParsePattern("P", "UnaryExpr", "(<AddExpr>)")
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Outline())
	fmt.Print(a.PatternGrammar(p).Rules[0].Name, " ::= ", grammar.ExprString(a.PatternGrammar(p).Rules[0].Expr), "\n")
	// Output:
	// <UnaryExpr>{"(" <AddExpr> ")"}
	// UnaryExpr:P0 ::= "(" <AddExpr> ")"
}

// The direct matcher: does an expression hold on a derivation tree of the
// base grammar?
func ExampleAlgebra_Holds() {
	a, _ := algebra.New(grammar.MustBuiltin("json"))
	n, _ := a.ParsePatternDef(`N=<value> is null`)
	expr, _ := algebra.ParseExpr("not N")
	p, _ := grammar.NewParser(grammar.MustCompile(a.Grammar()))
	for _, doc := range []string{`[1, {"a": null}]`, `[1, {"a": "null"}]`} {
		f, _ := p.Parse([]byte(doc))
		ok, _ := a.Holds([]*algebra.Pattern{n}, expr, f.Tree())
		fmt.Println(doc, ok)
	}
	// Output:
	// [1, {"a": null}] false
	// [1, {"a": "null"}] true
}
