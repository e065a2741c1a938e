package solver_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver/z3"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/tarpred"
)

// TestSolveErrors checks the solver's verdicts: ErrUnsatisfiable only
// with a proof, and otherwise a *GaveUpError naming the formula left and
// the limit that stopped it, without the internals' messages.
func TestSolveErrors(t *testing.T) {
	unsat := `exists int n: (str.to.int(n) > 5 and str.to.int(n) < 3)`
	// The empty language: no <record> can be in it, and the built-in csv
	// grammar has at least one.
	empty := `forall <record> r: (str.in_re(r, re.loop(re.range("a", "z"), 5, 2)))`
	tests := []struct {
		name, gname, src string
		opts             []solver.Option
		timeout          time.Duration
		z3               bool
		limit            solver.Limit
		part             string // a substring of GaveUpError.Part
	}{
		{name: "unsat without SMT solver", gname: "csv", src: unsat, limit: solver.LimitAttempts, part: "test.isla:1:"},
		{name: "deadline", gname: "csv", src: empty, z3: true, timeout: 300 * time.Millisecond,
			limit: solver.LimitTime, part: "re.loop (re.range"},
		{name: "states", gname: "csv", src: empty, z3: true, opts: []solver.Option{solver.MaxStates(3)},
			limit: solver.LimitStates, part: "re.loop (re.range"},
		// The solved text "ab" is parsed into a <non-escaped> tree; one
		// Earley item is too few.
		{name: "items", gname: "csv", src: `forall <non-escaped> f: (f = "ab" or f = "cd")`,
			opts: []solver.Option{solver.MaxItems(1)}, limit: solver.LimitItems, part: `(= f "ab")`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := append([]solver.Option{solver.Seed(1)}, tc.opts...)
			if tc.z3 {
				opts = append(opts, withZ3(t))
			}
			s, err := solver.New(compileText(t, tc.gname, tc.src), opts...)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if tc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.timeout)
				defer cancel()
			}
			_, err = s.Next(ctx)
			var gu *solver.GaveUpError
			if !errors.As(err, &gu) || !errors.Is(err, solver.ErrGaveUp) {
				t.Fatalf("error %v, want a *GaveUpError", err)
			}
			if gu.Limit != tc.limit || !strings.Contains(gu.Part, tc.part) {
				t.Errorf("limit %v, part %q; want %v and a part with %q", gu.Limit, gu.Part, tc.limit, tc.part)
			}
			if msg := err.Error(); strings.Contains(msg, "context deadline exceeded") {
				t.Errorf("error %q shows the context's error", msg)
			}
			if tc.limit == solver.LimitTime && !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("error %v does not wrap the context's error", err)
			}
			if tc.limit == solver.LimitItems && (!errors.Is(err, grammar.ErrItemLimit) || gu.Value != "1") {
				t.Errorf("error %v (value %q) does not wrap the parser's item limit error, or not with the limit 1", err, gu.Value)
			}
			gu.Flag = "-flag"
			if msg := gu.Error(); !strings.Contains(msg, "raise it with -flag") {
				t.Errorf("error %q does not name the flag", msg)
			}
		})
	}
	t.Run("predicate error", func(t *testing.T) {
		// tar_checksum cannot hold on a header of the wrong size: the error
		// says so, as isla check does.
		spec := compileText(t, "tar-short-header.bnf", `forall <header> h: forall <checksum> c in h: tar_checksum(h, c)`,
			tarpred.Predicates())
		s, err := solver.New(spec, solver.Seed(1), solver.MaxStates(200))
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Next(context.Background())
		var gu *solver.GaveUpError
		if !errors.As(err, &gu) || !strings.HasPrefix(gu.Predicate, "test.isla:1:46: tar_checksum: a header has ") ||
			!strings.Contains(err.Error(), "around its checksum, not 504") {
			t.Fatalf("error %v, want a *GaveUpError with the predicate's error", err)
		}
	})
	t.Run("unsat with Z3", func(t *testing.T) {
		s, err := solver.New(compileText(t, "csv", unsat), solver.Seed(1), withZ3(t))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Next(context.Background()); !errors.Is(err, solver.ErrUnsatisfiable) {
			t.Fatalf("error %v, want ErrUnsatisfiable", err)
		}
	})
}

// withZ3 returns the option of a Z3 solver, skipping the test without one.
func withZ3(t *testing.T) solver.Option {
	t.Helper()
	z, err := z3.New()
	if errors.Is(err, z3.ErrNoZ3) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { z.Close() })
	return solver.WithSMTSolver(z)
}
