package solver_test

import (
	"context"
	"fmt"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
)

// A solver with restarts abandons a search that stalls: here, with the
// detection (the default factor) and without it, the most states the solver
// needed for one of 60 Scriptsize-C programs in which every variable is
// declared before it is used.
func ExampleStallFactor() {
	gr := grammar.MustCompile(grammar.MustBuiltin("scriptsizec"))
	c := isla.MustParse(`
forall <term> use_ctx="{<id> use}":
  exists <declaration> decl="int {<id> def}[ = <expr>];":
    (level("GE", "<block>", decl, use_ctx) and before(decl, use_ctx) and def = use)`)
	spec, err := isla.Compile(c, gr)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, k := range []int{solver.DefaultStallFactor, 0} {
		s, err := solver.New(spec, solver.Seed(13), solver.RestartEvery(1000), solver.MaxStates(1000), solver.StallFactor(k))
		if err != nil {
			fmt.Println(err)
			return
		}
		most, prev := 0, 0
		for range 60 {
			if _, err := s.Next(context.Background()); err != nil {
				fmt.Println(err)
				return
			}
			most, prev = max(most, s.Stats().States-prev), s.Stats().States
		}
		fmt.Printf("factor %d: %d stalls, at most %d states for one program\n", k, s.Stats().Stalls, most)
	}
	// Output:
	// factor 10: 1 stalls, at most 12 states for one program
	// factor 0: 0 stalls, at most 102 states for one program
}
