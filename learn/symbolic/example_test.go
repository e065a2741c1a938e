package symbolic_test

import (
	"context"
	"fmt"
	"log"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/learn/symbolic"
)

// Mine the grammar of a parser that accepts "a" or "b" followed by digits
// (testdata/unsupported's Plain), from its code alone.
func ExampleMine() {
	res, err := symbolic.Mine(context.Background(), symbolic.Config{
		Package: "./testdata/unsupported",
		Entry:   "Plain",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Grammar)
	// Output:
	// <start> ::= <Plain> ;
	//
	// <Plain> ::= [a-b] | [a-b] [0-9]* [0-9] ;
}

// Refine an over-approximating grammar against its parser: here a parser
// that assigns only to a single letter, where the grammar lets any term
// through on the left of "=".
func ExampleRefine() {
	g, err := grammar.Parse("over.bnf", []byte(`<start> ::= <e> ;
<e> ::= <t> "=" <e> | <t> ;
<t> ::= [a-z] | [0-9] ;`))
	if err != nil {
		log.Fatal(err)
	}
	accept := func(b []byte) bool { // a letter "=" ... or one letter or digit
		for len(b) > 2 && b[0] >= 'a' && b[0] <= 'z' && b[1] == '=' {
			b = b[2:]
		}
		return len(b) == 1 && (b[0] >= 'a' && b[0] <= 'z' || b[0] >= '0' && b[0] <= '9')
	}
	refined, _, err := symbolic.Refine(context.Background(), g, accept, symbolic.RefineConfig{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	p, err := grammar.NewParser(grammar.MustCompile(refined))
	if err != nil {
		log.Fatal(err)
	}
	for _, in := range []string{"a=1", "a=b=c", "1=a", "7"} {
		fmt.Println(in, p.Recognize([]byte(in)) == nil)
	}
	// Output:
	// a=1 true
	// a=b=c true
	// 1=a false
	// 7 true
}

// Refine a grammar mined with a lexing stage: its token rules begin with the
// blanks the lexer skips, and the parser reads words of letters, so "do"
// followed by the identifier "a" needs a blank between them, which the
// mined grammar lacks ("doa;" is one word to the lexer). RefineConfig.Tokens
// names the tokens; refinement learns which of them need separating.
func ExampleRefine_tokens() {
	g, err := grammar.Parse("mined.bnf", []byte(`<start> ::= <stmt> ;
<stmt> ::= <do> <stmt> | <id> <semi> ;
<do> ::= [ ]* "do" ;
<id> ::= [ ]* [a-z] ;
<semi> ::= [ ]* ";" ;`))
	if err != nil {
		log.Fatal(err)
	}
	// The parser: words of letters and ";", blanks between them skipped; a
	// statement is "do" words, then a one-letter identifier and ";".
	accept := func(b []byte) bool {
		var words []string
		for i := 0; i < len(b); {
			switch c := b[i]; {
			case c == ' ':
				i++
			case c == ';':
				words = append(words, ";")
				i++
			case c >= 'a' && c <= 'z':
				j := i
				for j < len(b) && b[j] >= 'a' && b[j] <= 'z' {
					j++
				}
				words = append(words, string(b[i:j]))
				i = j
			default:
				return false
			}
		}
		for len(words) > 0 && words[0] == "do" {
			words = words[1:]
		}
		return len(words) == 2 && len(words[0]) == 1 && words[1] == ";"
	}
	refined, st, err := symbolic.Refine(context.Background(), g, accept,
		symbolic.RefineConfig{Seed: 1, Tokens: []string{"do", "id", "semi"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(st.Separated, "pairs need a blank")
	p, err := grammar.NewParser(grammar.MustCompile(refined))
	if err != nil {
		log.Fatal(err)
	}
	for _, in := range []string{"do a;", "doa;", "do do b;", "dodo b;", "a ;"} {
		fmt.Println(in, p.Recognize([]byte(in)) == nil)
	}
	// Output:
	// 2 pairs need a blank
	// do a; true
	// doa; false
	// do do b; true
	// dodo b; false
	// a ; true
}
