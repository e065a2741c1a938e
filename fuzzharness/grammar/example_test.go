package grammar_test

import (
	"fmt"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

func ExampleParse() {
	src := `# Arithmetic expressions.
<start>  ::= <expr> ;
<expr>   ::= <term> (("+" | "-") <term>)* ;
<term>   ::= <factor> (("*" | "/") <factor>)* ;
<factor> ::= "-"? (<number> | "(" <expr> ")") ;
<number> ::= [0-9]+ ("." [0-9]{1,6})? ;`
	g, err := grammar.Parse("arith.bnf", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("start:", g.Start)
	fmt.Print(g)
	// Output:
	// start: start
	// <start> ::= <expr> ;
	//
	// <expr> ::= <term> (("+" | "-") <term>)* ;
	//
	// <term> ::= <factor> (("*" | "/") <factor>)* ;
	//
	// <factor> ::= "-"? (<number> | "(" <expr> ")") ;
	//
	// <number> ::= [0-9]+ ("." [0-9]{1,6})? ;
}

func ExampleParse_errors() {
	src := `<start> ::= <expr> ;
<expr> | <term> ;
<term> ::= ("(" <expr> ;`
	_, err := grammar.Parse("bad.bnf", []byte(src))
	if err == nil {
		fmt.Println("no error")
		return
	}
	for _, e := range err.(grammar.ErrorList) {
		fmt.Println(e)
	}
	// Output:
	// bad.bnf:2:8: expected '::=' after <expr>, found '|'
	// bad.bnf:3:24: expected ')' to close the '(' at bad.bnf:3:12, found ';'
}

func ExampleParseJSON() {
	src := `{
  "<start>": ["<xml-tree>"],
  "<xml-tree>": ["<<id>><text></<id>>"],
  "<id>": ["a", "b"],
  "<text>": ["", "x<text>"]
}`
	g, err := grammar.ParseJSON("xml.json", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(g)
	// Output:
	// <start> ::= <xml-tree> ;
	//
	// <xml-tree> ::= "<" <id> ">" <text> "</" <id> ">" ;
	//
	// <id> ::= "a" | "b" ;
	//
	// <text> ::= "" | "x" <text> ;
}

func ExampleGrammar_JSON() {
	g, err := grammar.Parse("", []byte(`<start> ::= "<" <tag> ">" ; <tag> ::= [a-c]+ ;`))
	if err != nil {
		fmt.Println(err)
		return
	}
	data, err := g.JSON()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(data))
	// Output:
	// {
	//   "<start>": ["<<tag>>"],
	//   "<tag>": ["<tag-1>", "<tag-1><tag>"],
	//   "<tag-1>": ["a", "b", "c"]
	// }
}

func ExampleGrammar_Problems() {
	g, err := grammar.Parse("g.bnf", []byte(`<start> ::= <a> | <b> ;
<a> ::= <a> "x" ;
<unused> ::= "u" ;`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range g.Problems() {
		fmt.Println(p)
	}
	fmt.Println("Check:", g.Check())
	// Output:
	// g.bnf:1:19: error: undefined nonterminal <b>
	// g.bnf:2:1: error: nonterminal <a> derives no finite string: every derivation from it is infinite
	// g.bnf:3:1: warning: nonterminal <unused> is unreachable from the start symbol <start>
	// Check: g.bnf:1:19: undefined nonterminal <b> (and 1 more errors)
}

// The Fuzzing Book's and ISLa's form: each alternative an expansion string
// with references inside.
func ExampleParseJSON_expansionStrings() {
	src := `{
  "<start>": ["<sum>"],
  "<sum>": ["<digit> + <sum>", "<digit>"],
  "<digit>": ["0", "1"]
}`
	g, err := grammar.ParseJSON("sum.json", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(g)
	// Output:
	// <start> ::= <sum> ;
	//
	// <sum> ::= <digit> " + " <sum> | <digit> ;
	//
	// <digit> ::= "0" | "1" ;
}

// The Fuzzing Book's expansions with options: [expansion, options], the
// options an object, which is ignored.
func ExampleParseJSON_expansionWithOptions() {
	src := `{
  "<start>": ["<sum>"],
  "<sum>": [["<digit> + <sum>", {"prob": 0.3}], "<digit>"],
  "<digit>": ["0", ["1", {}]]
}`
	g, err := grammar.ParseJSON("sum.json", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(g)
	// Output:
	// <start> ::= <sum> ;
	//
	// <sum> ::= <digit> " + " <sum> | <digit> ;
	//
	// <digit> ::= "0" | "1" ;
}

// The list-of-symbols form that grammar miners write: each "<name>" a
// reference, every other string literal, [] the empty alternative. A list
// of two symbols is two symbols.
func ExampleParseJSON_symbolLists() {
	src := `{
  "<start>": [["<digit>", "<rest>"]],
  "<rest>": [[" + ", "<digit>", "<rest>"], []],
  "<digit>": [["0"], ["1"]]
}`
	g, err := grammar.ParseJSON("sum.json", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(g)
	// Output:
	// <start> ::= <digit> <rest> ;
	//
	// <rest> ::= " + " <digit> <rest> | "" ;
	//
	// <digit> ::= "0" | "1" ;
}

// A symbol that holds a reference among other text is ambiguous, and so is
// an array that is neither a list of symbols nor [expansion, options].
func ExampleParseJSON_ambiguous() {
	src := `{
  "<start>": [["x<digit>"], ["<digit>", 1]],
  "<digit>": ["0", "1"]
}`
	_, err := grammar.ParseJSON("bad.json", []byte(src))
	for _, e := range err.(grammar.ErrorList) {
		fmt.Println(e)
	}
	// Output:
	// bad.json:2:18: symbol "x<digit>" holds the reference <digit> among other text: in a list of symbols, write each reference as a symbol of its own, or write the whole alternative as the expansion string "x<digit>"
	// bad.json:2:41: expected a symbol string in the list of symbols, found number 1: expected an expansion string such as "<a> + <b>", a list of symbols such as ["<a>", "+", "<b>"] ([] for the empty alternative), or [expansion, options] with an options object
}

// A generator reseeded with a seed draws the trees of a new generator with
// that seed, without computing its tables again.
func ExampleGenerator_Reseed() {
	gr := grammar.MustCompile(grammar.MustBuiltin("json"))
	g := grammar.NewGenerator(gr, 1)
	g.MaxSize = 40
	var first []string
	for range 3 {
		t, _ := g.Generate()
		first = append(first, t.String())
	}
	g.Reseed(1)
	same := true
	for i := range 3 {
		t, _ := g.Generate()
		same = same && t.String() == first[i]
	}
	fmt.Println("same trees:", same)
	// Output: same trees: true
}
