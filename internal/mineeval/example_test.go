package mineeval_test

import (
	"context"
	"fmt"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/mineeval"
)

// Measure scores a grammar against a subject: here a grammar of sums of
// identifiers, all valid arithmetic expressions but few of them.
func ExampleMeasure() {
	s, _ := mineeval.Lookup("expr")
	ref, _ := s.Grammar()
	mined, _ := grammar.Parse("sums.bnf", []byte(`<sum> ::= [xyz] ("+" [xyz])* ;`))
	sc, err := mineeval.Measure(context.Background(), mined, ref, s.Oracle, mineeval.Options{N: 1000, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("precision %.2f, recall below 0.2: %v\n", sc.Precision, sc.Recall < 0.2)
	// Output:
	// precision 1.00, recall below 0.2: true
}
