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
