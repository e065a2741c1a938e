package solver_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
)

// scriptcRepairer returns a repairer for def-use and no-redef of
// Scriptsize-C.
func scriptcRepairer(t testing.TB) *solver.Repairer {
	t.Helper()
	spec := compileAll(t, "scriptsizec", []string{"scriptsizec-def-use.isla", "scriptsizec-no-redef.isla"})
	r, err := solver.NewRepairer(spec)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// parseTree parses an input of a built-in grammar into its tree.
func parseTree(t testing.TB, gname, input string) *grammar.Tree {
	t.Helper()
	p, err := grammar.NewParser(loadGraph(t, gname))
	if err != nil {
		t.Fatal(err)
	}
	f, err := p.Parse([]byte(input))
	if err != nil {
		t.Fatal(err)
	}
	return f.Tree()
}

// TestRepairKeepsTheRest repairs programs with one violation each: the
// repaired program is valid and keeps the text around the violation.
func TestRepairKeepsTheRest(t *testing.T) {
	r := scriptcRepairer(t)
	for _, tc := range []struct {
		in, prefix, suffix string
		sameLen            bool
	}{
		// An undeclared use: only the identifier changes, to a declared one.
		{"int x = 1;int y;{int z = x + q;while (z < 9) z = z + 1;}", "int x = 1;int y;{int z = x + ", ";while (z < 9) z = z + 1;}", true},
		// A use outside the block of its declaration.
		{"int a;{int b;}b = a;", "int a;{int b;}", " = a;", true},
		{"int a = 1;if (a < 2) {int c = a;} else c = 1;", "int a = 1;if (a < 2) {int c = a;} else ", " = 1;", true},
		// A redeclaration: the second declaration gets another name.
		{"int a;int b = a;int a = 2;b = a + 1;", "int a;int b = a;int ", " = 2;b = a + 1;", true},
		// No declaration at all: one of the used name is inserted before
		// the use, which stays as it is.
		{"x = 1;", "int ", "x = 1;", false},
		{"while (y) {int y;}", "int ", "while (y) {int y;}", false},
	} {
		for seed := range uint64(4) {
			in := parseTree(t, "scriptsizec", tc.in)
			before := in.Clone()
			out, ok := r.Repair(in, seed)
			if !ok {
				t.Errorf("Repair(%q, %d) failed", tc.in, seed)
				continue
			}
			if !in.Equal(before) {
				t.Errorf("Repair(%q, %d) modified its input", tc.in, seed)
			}
			got := out.String()
			if !r.Valid(out) || !r.Spec().EvalTree(out).Valid {
				t.Errorf("Repair(%q, %d) = %q, which violates the constraint", tc.in, seed, got)
			}
			if !strings.HasPrefix(got, tc.prefix) || !strings.HasSuffix(got, tc.suffix) ||
				tc.sameLen && len(got) != len(tc.in) {
				t.Errorf("Repair(%q, %d) = %q, want %q...%q", tc.in, seed, got, tc.prefix, tc.suffix)
			}
		}
	}
}

// TestRepairValidUnchanged checks that a valid tree comes back as it is,
// and that trees of another graph are refused.
func TestRepairValidUnchanged(t *testing.T) {
	r := scriptcRepairer(t)
	in := parseTree(t, "scriptsizec", "int a = 1;{int b = a;while (b < 5) b = b + a;}")
	out, ok := r.Repair(in, 1)
	if !ok || out != in {
		t.Fatalf("Repair of a valid tree = %q, %v; want the tree itself", out, ok)
	}
	// A tree of another graph (here another compilation of the grammar) is
	// refused, valid or not.
	other := grammar.MustCompile(grammar.MustBuiltin("scriptsizec"))
	p, err := grammar.NewParser(other)
	if err != nil {
		t.Fatal(err)
	}
	f, err := p.Parse([]byte("x = 1;"))
	if err != nil {
		t.Fatal(err)
	}
	if out, ok := r.Repair(f.Tree(), 1); ok {
		t.Errorf("Repair of a tree of another graph = %q, want failure", out)
	}
}

// TestRepairDeterministic repairs random programs twice, with the same
// repairer and with a new one: the same tree and seed give the same
// result. Every result satisfies the constraint, and nearly every program
// is repaired.
func TestRepairDeterministic(t *testing.T) {
	r1, r2 := scriptcRepairer(t), scriptcRepairer(t)
	gen := grammar.NewGenerator(loadGraph(t, "scriptsizec"), 3)
	gen.MaxSize = 120
	n := 60
	if testing.Short() {
		n = 20
	}
	invalid, repaired := 0, 0
	for i := range n {
		in, err := gen.Generate()
		if err != nil {
			t.Fatal(err)
		}
		if r1.Valid(in) {
			continue
		}
		invalid++
		seed := uint64(i) * 7919
		a, okA := r1.Repair(in, seed)
		b, okB := r1.Repair(in, seed)
		c, okC := r2.Repair(in, seed)
		if okA != okB || okA != okC || okA && (!a.Equal(b) || !a.Equal(c)) {
			t.Fatalf("Repair(%q, %d) differs between calls: %q %v, %q %v, %q %v", in, seed, a, okA, b, okB, c, okC)
		}
		if !okA {
			continue
		}
		repaired++
		if res := r1.Spec().EvalTree(a); !res.Valid {
			t.Fatalf("Repair(%q, %d) = %q, invalid:\n%s", in, seed, a, res)
		}
	}
	t.Logf("repaired %d of %d invalid random programs", repaired, invalid)
	if invalid == 0 || float64(repaired) < 0.9*float64(invalid) {
		t.Errorf("repaired %d of %d invalid random programs, want at least 90%%", repaired, invalid)
	}
}

// TestRepairSeeds checks that the repairer's seeds satisfy the constraint.
func TestRepairSeeds(t *testing.T) {
	r := scriptcRepairer(t)
	seeds := r.Seeds(4)
	if len(seeds) != 4 {
		t.Fatalf("Seeds(4) returned %d trees", len(seeds))
	}
	for _, s := range seeds {
		if !r.Valid(s) {
			t.Errorf("seed %q violates the constraint", s)
		}
	}
}

func ExampleRepairer() {
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
	r, err := solver.NewRepairer(spec)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := grammar.NewParser(gr)
	f, _ := p.Parse([]byte("int a = 1;{int b = a + c;}"))
	t := f.Tree()
	fmt.Println(t, r.Valid(t))
	fixed, ok := r.Repair(t, 42)
	fmt.Println(fixed, ok, r.Valid(fixed))
	// Output:
	// int a = 1;{int b = a + c;} false
	// int a = 1;{int b = a + a;} true true
}

func BenchmarkRepair(b *testing.B) {
	r := scriptcRepairer(b)
	in := parseTree(b, "scriptsizec", "int x = 1;int y;{int z = x + q;while (z < 9) z = w + 1;}if (x < y) v = 2;")
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, ok := r.Repair(in, uint64(i)); !ok {
			b.Fatal("repair failed")
		}
	}
}

// TestRepairSubjects repairs random inputs of the grammars of the ISLa
// evaluation that violate their constraints: every repair satisfies the
// constraint (and the Go oracle, where there is one), and at least 80%
// of the inputs of each subject are repaired.
func TestRepairSubjects(t *testing.T) {
	n := 30
	if testing.Short() {
		n = 10
	}
	for _, sub := range solveSubjects {
		t.Run(sub.name, func(t *testing.T) {
			spec := compileAll(t, sub.grammar, sub.files)
			r, err := solver.NewRepairer(spec)
			if err != nil {
				t.Fatal(err)
			}
			gen := grammar.NewGenerator(loadGraph(t, sub.grammar), 5)
			gen.MaxSize = 150
			invalid, repaired := 0, 0
			for i := range n {
				in, err := gen.Generate()
				if err != nil || r.Valid(in) {
					continue
				}
				invalid++
				out, ok := r.Repair(in, uint64(i))
				if !ok {
					continue
				}
				repaired++
				if res := spec.EvalTree(out); !res.Valid {
					t.Fatalf("Repair(%q) = %q, invalid:\n%s", in, out, res)
				}
				if sub.oracle != nil {
					if err := sub.oracle(out.Bytes()); err != nil {
						t.Fatalf("Repair(%q) = %q: %v", in, out, err)
					}
				}
			}
			t.Logf("repaired %d of %d invalid inputs", repaired, invalid)
			if float64(repaired) < 0.8*float64(invalid) {
				t.Errorf("repaired %d of %d invalid inputs, want at least 80%%", repaired, invalid)
			}
		})
	}
}
