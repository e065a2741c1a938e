package z3_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver/z3"
)

func newZ3(t *testing.T) *z3.Solver {
	t.Helper()
	z, err := z3.New()
	if errors.Is(err, z3.ErrNoZ3) {
		t.Skip("Z3 needs cgo")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { z.Close() })
	return z
}

func TestSolveQuery(t *testing.T) {
	z := newZ3(t)
	q := &solver.SMTQuery{
		Vars:       []solver.SMTVar{{Name: "x", Regex: `((_ re.loop 3 3) (re.range "a" "c"))`}, {Name: "y"}},
		Assertions: []string{`(= (str.at x 0) "b")`, `(= y (str.++ x "\u{e9}"))`},
	}
	ms, err := z.Solve(context.Background(), q, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 5 {
		t.Fatalf("%d models, want 5", len(ms))
	}
	seen := map[string]bool{}
	for _, m := range ms {
		x, y := m["x"], m["y"]
		if len(x) != 3 || x[0] != 'b' || y != x+"é" || seen[x] {
			t.Errorf("model x=%q y=%q does not satisfy the query or repeats", x, y)
		}
		seen[x] = true
	}
	q.Assertions = append(q.Assertions, `(= (str.len x) 4)`)
	if ms, err := z.Solve(context.Background(), q, 2); err != nil || len(ms) != 0 {
		t.Errorf("unsatisfiable query: %d models, error %v", len(ms), err)
	}
}

// The ISLa solver hands Z3 the atoms it cannot solve in Go: here a
// concatenation of two open leaves equal to a constant.
func TestSolverWithZ3(t *testing.T) {
	z := newZ3(t)
	g, err := grammar.Parse("pair.bnf", []byte("<start> ::= <a> \",\" <b> ;\n<a> ::= [a-z]+ ;\n<b> ::= [a-z]+ ;\n"))
	if err != nil {
		t.Fatal(err)
	}
	gr := grammar.MustCompile(g)
	c := isla.MustParse(`forall <a> a: forall <b> b: str.++(a, b) = "hello"`)
	spec, err := isla.Compile(c, gr)
	if err != nil {
		t.Fatal(err)
	}
	s, err := solver.New(spec, solver.WithSMTSolver(z), solver.Models(4))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	trees, err := s.Solve(ctx, 4)
	if err != nil {
		t.Fatalf("after %d solutions: %v", len(trees), err)
	}
	for _, tr := range trees {
		in := tr.String()
		if strings.ReplaceAll(in, ",", "") != "hello" {
			t.Errorf("solution %q", in)
		}
		r, err := spec.Check([]byte(in))
		if err != nil || !r.Valid {
			t.Errorf("solution %q: %v %v", in, err, r)
		}
	}
	if st := s.Stats(); st.SMTQueries == 0 {
		t.Errorf("no SMT query was made: %+v", st)
	}
}
