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
