package evalharness

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness"
)

func TestReadCoverProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cover.out")
	profile := `mode: set
a/x.go:1.1,2.2 3 1
a/x.go:3.1,4.2 2 0
a/y.go:1.1,1.9 1 0
a/y.go:1.1,1.9 1 1
b/z.go:5.1,6.2 4 0
`
	if err := os.WriteFile(path, []byte(profile), 0o644); err != nil {
		t.Fatal(err)
	}
	covered, total, err := readCoverProfile(path)
	if err != nil {
		t.Fatal(err)
	}
	// A block listed twice counts once, covered if either line says so.
	if total != 10 || len(covered) != 2 || covered["a/x.go:1.1,2.2"] != 3 || covered["a/y.go:1.1,1.9"] != 1 {
		t.Errorf("readCoverProfile = %v, %d", covered, total)
	}
	other := map[string]int{"a/y.go:1.1,1.9": 1, "b/z.go:5.1,6.2": 4}
	if n, files := OnlyIn(covered, other); n != 3 || files != "x.go 3" {
		t.Errorf("OnlyIn = %d, %q", n, files)
	}
	if n, files := OnlyIn(other, covered); n != 4 || files != "z.go 4" {
		t.Errorf("OnlyIn = %d, %q", n, files)
	}

	if err := os.WriteFile(path, []byte("mode: set\na/x.go:1.1,2.2 three 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := readCoverProfile(path); err == nil || !strings.Contains(err.Error(), ":2: malformed") {
		t.Errorf("malformed profile: %v", err)
	}
}

func TestFuzzProgressLine(t *testing.T) {
	m := fuzzProgressRE.FindStringSubmatch("fuzz: elapsed: 21s, execs: 84672 (4170/sec), new interesting: 54 (total: 120)")
	if m == nil || m[1] != "21" || m[2] != "84672" {
		t.Errorf("match %q", m)
	}
	if fuzzProgressRE.MatchString("fuzz: elapsed: 0s, gathering baseline coverage: 0/66 completed") {
		t.Error("matched a baseline line")
	}
}

func TestSpreadOf(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want Spread
	}{
		{nil, Spread{}},
		{[]float64{3}, Spread{3, 3, 3}},
		{[]float64{5, 1, 3}, Spread{3, 1, 5}},
		{[]float64{4, 1, 2, 10}, Spread{3, 1, 10}},
	} {
		if got := SpreadOf(tc.xs); got != tc.want {
			t.Errorf("SpreadOf(%v) = %v, want %v", tc.xs, got, tc.want)
		}
	}
}

// withExecs sets the executions of r.
func withExecs(r *Run, n int64) *Run {
	r.Execs = n
	return r
}

func TestSummarizeConstraints(t *testing.T) {
	sub := Subjects[2]
	run := func(cpu time.Duration, inputs, rejected int64, covered int, p99 time.Duration) *Run {
		r := &Run{CPU: cpu, Covered: covered, Stmts: 100}
		if inputs > 0 {
			r.Stats = &fuzzharness.Stats{Inputs: inputs, Rejected: rejected, RepairP99: p99, RepairMax: 2 * p99, OverBudget: 1}
		}
		return r
	}
	comps := []Comparison{
		{Subject: Subjects[0], Harness: run(time.Second, 0, 0, 1, 0), Plain: run(time.Second, 0, 0, 1, 0)},
		{Subject: sub, Plain: run(time.Second, 0, 0, 10, 0), Harness: withExecs(run(time.Second, 0, 0, 20, 0), 600),
			Skip: run(10*time.Second, 1000, 900, 30, 0), Repair: run(10*time.Second, 1000, 0, 40, time.Millisecond)},
		{Subject: sub, Plain: run(time.Second, 0, 0, 12, 0), Harness: withExecs(run(time.Second, 0, 0, 22, 0), 800),
			Skip: run(10*time.Second, 2000, 1800, 32, 0), Repair: run(10*time.Second, 3000, 0, 44, 2*time.Millisecond)},
	}
	got := SummarizeConstraints(comps)
	if len(got) != 1 || got[0].Runs != 2 {
		t.Fatalf("summaries %+v, want one of two runs", got)
	}
	s := got[0]
	if s.SkipValid != (Spread{15, 10, 20}) || s.RepairValid != (Spread{200, 100, 300}) || s.Ratio != (Spread{12.5, 10, 15}) {
		t.Errorf("valid per CPU second %v, %v, ratio %v", s.SkipValid, s.RepairValid, s.Ratio)
	}
	// Ceilings: 600 grammar-only executions per CPU second, all of the
	// repair target's inputs valid, over skip's 10 valid per CPU second;
	// then 800 over 20.
	if s.Ceiling != (Spread{50, 40, 60}) {
		t.Errorf("ceiling %v, want 50 [40, 60]", s.Ceiling)
	}
	if s.Coverage[0] != (Spread{11, 10, 12}) || s.Coverage[3] != (Spread{42, 40, 44}) {
		t.Errorf("coverage %v", s.Coverage)
	}
	if s.RepairP99 != 2*time.Millisecond || s.RepairMax != 4*time.Millisecond || s.OverBudget != 2 {
		t.Errorf("repair p99 %v, max %v, over budget %d", s.RepairP99, s.RepairMax, s.OverBudget)
	}
}

// TestSubjectsExist checks that every fuzz test a subject names is a
// fuzz test of the subject's package, and that the names are unique.
func TestSubjectsExist(t *testing.T) {
	names := map[string]bool{}
	for _, s := range Subjects {
		if names[s.Name] {
			t.Errorf("two subjects are named %s", s.Name)
		}
		names[s.Name] = true
		files, err := filepath.Glob(filepath.Join("..", "..", filepath.FromSlash(s.Pkg), "*_test.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no test files in %s (%v)", s.Name, s.Pkg, err)
		}
		fuzzTests := map[string]bool{}
		for _, file := range files {
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Fuzz") {
					fuzzTests[fd.Name.Name] = true
				}
			}
		}
		for _, target := range s.Targets() {
			if !fuzzTests[target] {
				t.Errorf("%s: %s is not a fuzz test of %s", s.Name, target, s.Pkg)
			}
		}
	}
}
