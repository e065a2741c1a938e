package solver_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
)

// The solver parses the texts it solves for into trees of the grammar. A
// parse that needs more Earley items than MaxItems allows stops the search
// with a GaveUpError naming the limit; a command maps it to its flag.
func ExampleMaxItems() {
	gr := grammar.MustCompile(grammar.MustBuiltin("csv"))
	spec, err := isla.Compile(isla.MustParse(`forall <non-escaped> f: (f = "ab" or f = "cd")`), gr)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, items := range []int{1, 1000} {
		s, err := solver.New(spec, solver.Seed(1), solver.MaxItems(items))
		if err != nil {
			fmt.Println(err)
			return
		}
		_, err = s.Next(context.Background())
		var gu *solver.GaveUpError
		switch {
		case errors.As(err, &gu):
			fmt.Printf("MaxItems(%d): stopped by %v (%s), wraps ErrItemLimit: %v\n", items, gu.Limit, gu.Value, errors.Is(err, grammar.ErrItemLimit))
		case err != nil:
			fmt.Println(err)
		default:
			fmt.Printf("MaxItems(%d): solved\n", items)
		}
	}
	// Output:
	// MaxItems(1): stopped by MaxItems (1), wraps ErrItemLimit: true
	// MaxItems(1000): solved
}
