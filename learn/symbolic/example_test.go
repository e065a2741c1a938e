package symbolic_test

import (
	"context"
	"fmt"
	"log"

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
