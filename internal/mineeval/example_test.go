package mineeval_test

import (
	"context"
	"fmt"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/mineeval"
	"github.com/seed72891827/kfuzz/learn/symbolic"
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

// Run gives a miner the seeds and the oracle of a subject and scores what
// it returns; this miner ignores them and returns a fixed grammar of
// balanced lists of symbols.
func ExampleRun() {
	s, _ := mineeval.Lookup("lisp")
	miner := func(ctx context.Context, seeds [][]byte, oracle func([]byte) bool) (*grammar.Grammar, error) {
		return grammar.Parse("lists.bnf", []byte(`<e> ::= [a-z]+ | "(" (<e> (" " <e>)*)? ")" ;`))
	}
	res, err := mineeval.Run(context.Background(), s, mineeval.Config{Name: "fixed", Mine: miner},
		mineeval.RunOptions{Options: mineeval.Options{N: 1000, Seed: 1}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s on %s: %d seeds, precision %.2f, recall above 0.1: %v\n",
		res.Config, res.Subject, len(res.Seeds), res.Score.Precision, res.Score.Recall > 0.1)
	// Output:
	// fixed on lisp: 10 seeds, precision 1.00, recall above 0.1: true
}

// Symbolic mines a grammar from a subject's parser code, here cgidecode's
// Decode, without seeds; the package is loaded from the kfuzz module, whose
// root is two directories up from this package.
func ExampleSymbolic() {
	s, _ := mineeval.Lookup("cgidecode")
	c := mineeval.Symbolic("../..", symbolic.Config{})
	res, err := mineeval.Run(context.Background(), s, c, mineeval.RunOptions{Options: mineeval.Options{N: 1000, Seed: 1}})
	if err != nil {
		fmt.Println(err)
		return
	}
	if res.Err != nil {
		fmt.Println(res.Err)
		return
	}
	fmt.Printf("%s on %s (%s.%s): %d seeds, precision %.2f, recall %.2f\n",
		res.Config, res.Subject, s.Code.Package, s.Code.Entry, len(res.Seeds), res.Score.Precision, res.Score.Recall)
	// Output:
	// symbolic on cgidecode (./internal/subjects/cgidecode.Decode): 0 seeds, precision 1.00, recall 1.00
}
