package solver_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
)

// solveSubject is one constraint set of the ISLa evaluation.
type solveSubject struct {
	name    string
	grammar string
	files   []string
	oracle  func([]byte) error // a Go reader that must accept every solution
}

var solveSubjects = []solveSubject{
	{"csv-columns", "csv", []string{"csv-columns.isla"}, func(in []byte) error {
		if equal, decided := csvOracle(in); !equal || !decided {
			return fmt.Errorf("encoding/csv: equal field counts %v (decided %v)", equal, decided)
		}
		return nil
	}},
	{"xml-balance", "xml", []string{"xml-balance.isla"}, func(in []byte) error {
		if balanced, decided := xmlOracle(in); decided && !balanced {
			return fmt.Errorf("encoding/xml: unbalanced")
		}
		return nil
	}},
	{"scriptsizec", "scriptsizec", []string{"scriptsizec-def-use.isla", "scriptsizec-no-redef.isla"}, nil},
	{"rest-title", "rest", []string{"rest-title.isla"}, nil},
	{"xml-full", "xml", []string{"xml-balance.isla", "xml-namespace.isla", "xml-no-redef.isla"}, func(in []byte) error {
		d := xml.NewDecoder(bytes.NewReader(in))
		for {
			_, err := d.Token()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return fmt.Errorf("encoding/xml: %v", err)
			}
		}
	}},
	{"rest-full", "rest", []string{"rest-title.isla", "rest-references.isla", "rest-numbering.isla"}, nil},
}

func TestSolveSubjects(t *testing.T) {
	for _, sub := range solveSubjects {
		t.Run(sub.name, func(t *testing.T) {
			spec := compileAll(t, sub.grammar, sub.files)
			s, err := solver.New(spec, solver.Seed(1))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			start := time.Now()
			trees, err := s.Solve(ctx, 50)
			if err != nil {
				t.Fatalf("after %d solutions: %v", len(trees), err)
			}
			for i, tr := range trees {
				in := tr.Bytes()
				if i < 3 {
					t.Logf("%q", in)
				}
				if r, err := spec.Check(in); err != nil || !r.Valid {
					t.Fatalf("solution %q does not check: %v %v", in, err, r)
				}
				if sub.oracle != nil {
					if err := sub.oracle(in); err != nil {
						t.Fatalf("solution %q: %v", in, err)
					}
				}
			}
			t.Logf("%d solutions in %v, stats %+v", len(trees), time.Since(start), s.Stats())
		})
	}
}

// compileAll compiles the conjunction of constraint files of testdata.
func compileAll(t testing.TB, gname string, files []string, opts ...isla.Option) *isla.Spec {
	t.Helper()
	var cs []*isla.Constraint
	for _, f := range files {
		cs = append(cs, loadConstraint(t, f))
	}
	c, err := isla.Conjoin(cs...)
	if err != nil {
		t.Fatal(err)
	}
	s, err := isla.Compile(c, loadGraph(t, gname), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// BenchmarkSolve measures solutions per second, each validated, from one
// solver per subject.
func BenchmarkSolve(b *testing.B) {
	for _, sub := range solveSubjects {
		b.Run(sub.name, func(b *testing.B) {
			spec := compileAll(b, sub.grammar, sub.files)
			s, err := solver.New(spec, solver.Seed(1))
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			for b.Loop() {
				if _, err := s.Next(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "solutions/s")
		})
	}
}
