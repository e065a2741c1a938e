package solver_test

import (
	"context"
	"fmt"
	"slices"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
)

// Prefer Scriptsize-C programs that declare variables, so that the
// constraint on declarations does not hold only vacuously.
func ExampleNonVacuous() {
	gr := grammar.MustCompile(grammar.MustBuiltin("scriptsizec"))
	c := isla.MustParse(`
forall <declaration> d1="int {<id> n1}[ = <expr>];":
  forall <declaration> d2="int {<id> n2}[ = <expr>];":
    (same_position(d1, d2) or not n1 = n2)`)
	spec, err := isla.Compile(c, gr)
	if err != nil {
		fmt.Println(err)
		return
	}
	w := solver.DefaultWeights
	w.Vacuity = 10
	s, err := solver.New(spec, solver.Seed(1), solver.CostWeights(w), solver.NonVacuous(solver.DefaultNonVacuous))
	if err != nil {
		fmt.Println(err)
		return
	}
	trees, err := s.Solve(context.Background(), 5)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range trees {
		fmt.Println(!slices.Contains(spec.Matched(t), false))
	}
	// Output:
	// true
	// true
	// true
	// true
	// true
}
