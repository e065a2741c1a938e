package solver_test

import (
	"context"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
)

// countingSMT answers every query with "unsatisfiable" and counts them.
type countingSMT struct{ queries int }

func (c *countingSMT) Solve(context.Context, *solver.SMTQuery, int) ([]solver.SMTModel, error) {
	c.queries++
	return nil, nil
}

// A state that holds an atom and its negation over the same nodes (here
// (= a b) and (not (= b a)), as TAR's link_constraint binds one file name
// twice) is dropped in the search: the SMT solver is not asked, and the solutions are those without a pair.
func TestSolveContradictoryAtoms(t *testing.T) {
	spec := specFromText(t, `
<start> ::= <pair> | <none> ;
<none> ::= "none" | "nothing" ;
<pair> ::= <w> "=" <w> ;
<w> ::= <c> | <c> <w> ;
<c> ::= [a-z] ;
`, `
forall <pair> p="{<w> a}={<w> b}" in start:
  ((= a b) and not (= b a))
`)
	smt := &countingSMT{}
	s, err := solver.New(spec, solver.Seed(1), solver.WithSMTSolver(smt))
	if err != nil {
		t.Fatal(err)
	}
	trees, err := s.Solve(context.Background(), 2)
	if err != nil {
		t.Fatalf("after %d solutions: %v", len(trees), err)
	}
	for _, tr := range trees {
		if in := string(tr.Bytes()); in != "none" && in != "nothing" {
			t.Errorf("solution %q: want none or nothing", in)
		}
	}
	if smt.queries != 0 {
		t.Errorf("%d SMT queries, want none", smt.queries)
	}
}

// specFromText compiles the constraint src against the grammar bnf, both
// given as text.
func specFromText(t *testing.T, bnf, src string) *isla.Spec {
	t.Helper()
	g, err := grammar.Parse("test.bnf", []byte(bnf))
	if err != nil {
		t.Fatal(err)
	}
	c, err := isla.Parse("test.isla", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := isla.Compile(c, grammar.MustCompile(g))
	if err != nil {
		t.Fatal(err)
	}
	return spec
}
