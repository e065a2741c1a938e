package solver_test

import (
	"context"
	"regexp"
	"strconv"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
)

// compileText compiles a constraint given as text for a grammar of
// testdata or a built-in one.
func compileText(t testing.TB, gname, src string, opts ...isla.Option) *isla.Spec {
	t.Helper()
	c, err := isla.Parse("test.isla", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s, err := isla.Compile(c, loadGraph(t, gname), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSolveCount checks that count with a fixed and with a quantified
// number keeps producing distinct valid inputs: the solver must not stop
// after the first state's samples and call the constraint unsatisfiable.
func TestSolveCount(t *testing.T) {
	for _, src := range []string{
		`count(start, "<csv-record>", "3")`,
		`count(start, "<csv-record>", 4)`,
		`count(start, "<csv-record>", "40")`,
		`count(start, "<raw-field>", "25")`,
		// <csv-file> is the start symbol's right-hand side: the quantifier
		// must wait for the root's expansion to make it.
		`forall <csv-file> f: count(f, "<raw-field>", "25")`,
		`exists int n: (count(start, "<csv-record>", n) and str.to.int(n) > 2)`,
	} {
		t.Run(src, func(t *testing.T) {
			spec := compileText(t, "isla-csv.bnf", src)
			s, err := solver.New(spec, solver.Seed(1))
			if err != nil {
				t.Fatal(err)
			}
			const n = 100
			trees, err := s.Solve(context.Background(), n)
			if err != nil {
				t.Fatalf("after %d solutions: %v", len(trees), err)
			}
			for _, tr := range trees {
				in := tr.Bytes()
				if r, err := spec.Check(in); err != nil || !r.Valid {
					t.Fatalf("solution %q does not check: %v %v", in, err, r)
				}
				if m := fixedCount.FindStringSubmatch(src); m != nil {
					want, _ := strconv.Atoi(m[2])
					got := recordsOf(in)
					if m[1] == "raw-field" {
						got = fieldsOf(in)
					}
					if got != want {
						t.Fatalf("solution %q has %d %s, want %d", in, got, m[1], want)
					}
				}
			}
		})
	}
}

// fixedCount matches a count with a fixed number.
var fixedCount = regexp.MustCompile(`"<([a-z-]+)>", "?([0-9]+)"?\)`)

// recordsOf counts the records of a CSV input of ISLa's grammar: the line
// ends outside quoted fields.
func recordsOf(in []byte) int {
	n, quoted := 0, false
	for _, b := range in {
		switch {
		case b == '"':
			quoted = !quoted
		case b == '\n' && !quoted:
			n++
		}
	}
	return n
}

// fieldsOf counts the fields of a CSV input of ISLa's grammar: the
// separators and line ends outside quoted fields.
func fieldsOf(in []byte) int {
	n, quoted := 0, false
	for _, b := range in {
		switch {
		case b == '"':
			quoted = !quoted
		case (b == '\n' || b == ';') && !quoted:
			n++
		}
	}
	return n
}
