//go:build cgo

package z3

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkIntQuery measures one linear integer query: Push, Assert, Check,
// Model, Pop, on a solver that keeps its declarations.
func BenchmarkIntQuery(b *testing.B) {
	s := newBenchSolver(b, "x", Int, "y", Int)
	ctx := context.Background()
	i := 0
	for b.Loop() {
		i++
		query(b, s, ctx, fmt.Sprintf("(and (> x %d) (< x (+ y 3)) (= (mod y 7) 2))", i%1000), Sat)
	}
}

// BenchmarkStringRegexQuery measures one string query with a regular
// expression and a length constraint, x in (a|b)+ and len(x) = 5: Push,
// Assert, Check, Model, Pop.
func BenchmarkStringRegexQuery(b *testing.B) {
	s := newBenchSolver(b, "x", String)
	ctx := context.Background()
	for b.Loop() {
		query(b, s, ctx, `(and (str.in_re x (re.+ (re.union (str.to_re "a") (str.to_re "b")))) (= (str.len x) 5))`, Sat)
	}
}

func newBenchSolver(b *testing.B, decls ...any) *Solver {
	b.Helper()
	s, err := NewSolver()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	for i := 0; i < len(decls); i += 2 {
		if err := s.Declare(decls[i].(string), decls[i+1].(Sort)); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// query runs one Push, Assert, Check, Model, Pop round and checks the result.
func query(tb testing.TB, s *Solver, ctx context.Context, term string, want Result) *Model {
	tb.Helper()
	if err := s.Push(); err != nil {
		tb.Fatal(err)
	}
	defer func() {
		if err := s.Pop(); err != nil {
			tb.Fatal(err)
		}
	}()
	if err := s.Assert(term); err != nil {
		tb.Fatal(err)
	}
	r, err := s.Check(ctx)
	if err != nil || r != want {
		tb.Fatalf("Check(%s) = %v, %v; want %v (reason %q)", term, r, err, want, s.ReasonUnknown())
	}
	if r != Sat {
		return nil
	}
	m, err := s.Model()
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// BenchmarkAssert measures asserting five terms in one call and one by one
// (each Assert call makes Z3 set up a parser).
func BenchmarkAssert(b *testing.B) {
	terms := []string{"(> n 3)", "(< n 60)", "(= k (+ n 1))", `(= x (str.++ "ab" (str.from_int n)))`, "(distinct n 4)"}
	b.Run("together", func(b *testing.B) {
		s := newBenchSolver(b, "x", String, "n", Int, "k", Int)
		for b.Loop() {
			s.Push()
			if err := s.Assert(terms...); err != nil {
				b.Fatal(err)
			}
			s.Pop()
		}
	})
	b.Run("one-by-one", func(b *testing.B) {
		s := newBenchSolver(b, "x", String, "n", Int, "k", Int)
		for b.Loop() {
			s.Push()
			for _, t := range terms {
				if err := s.Assert(t); err != nil {
					b.Fatal(err)
				}
			}
			s.Pop()
		}
	})
}
