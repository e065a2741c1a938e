package solver_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
)

// Generate Scriptsize-C programs in which every variable is declared before
// it is used.
func ExampleSolver() {
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
	s, err := solver.New(spec, solver.Seed(7))
	if err != nil {
		fmt.Println(err)
		return
	}
	trees, err := s.Solve(context.Background(), 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range trees {
		fmt.Printf("%q valid=%v\n", t, spec.EvalTree(t).Valid)
	}
	// Output:
	// "int q;;int l;" valid=true
	// "int n;;int w;" valid=true
	// "int y;w = y + (7) + (o = y) + (c = j = y - 5776);int g;;int h = t = (l = l = t = p = u = h = o = x = y < 0) - (v = n = o = (84706) + 3 < (g) + g) + 8571 - g;" valid=true
}

// The same seed gives the same solutions.
func TestSolveDeterministic(t *testing.T) {
	run := func() []string {
		spec := compileAll(t, "xml", []string{"xml-balance.isla", "xml-no-redef.isla"})
		s, err := solver.New(spec, solver.Seed(42))
		if err != nil {
			t.Fatal(err)
		}
		trees, err := s.Solve(context.Background(), 30)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tr := range trees {
			out = append(out, tr.String())
		}
		return out
	}
	if a, b := run(), run(); !slices.Equal(a, b) {
		t.Errorf("two runs with seed 42 differ:\n%q\n%q", a, b)
	}
}
