package solver_test

import (
	"context"
	"errors"
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
	// "int c;g = c + (7) + (y = c) + (w = l = c - 5776);int o;;int j = h = (t = l = t = p = u = h = o = x = c < 0) - (v = n = o = (84706) + 3 < (o) + o) + 8571 - o;" valid=true
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

// Without an SMT solver, the solver cannot prove that no number is both
// above 5 and below 3: it gives up, and the error says on what and why.
func ExampleGaveUpError() {
	gr := grammar.MustCompile(grammar.MustBuiltin("csv"))
	c, err := isla.Parse("n.isla", []byte(`exists int n: (str.to.int(n) > 5 and str.to.int(n) < 3)`))
	if err != nil {
		fmt.Println(err)
		return
	}
	spec, err := isla.Compile(c, gr)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := solver.New(spec, solver.Seed(1))
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = s.Next(context.Background())
	var gu *solver.GaveUpError
	if errors.As(err, &gu) {
		fmt.Println("unsatisfied:", gu.Part)
		fmt.Println("limit:", gu.Limit)
	}
	// Output:
	// unsatisfied: n.isla:1:16: (> (str.to.int n) 5) (and 1 more)
	// limit: the random values tried per variable
}
