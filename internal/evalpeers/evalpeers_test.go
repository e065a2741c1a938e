package evalpeers

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/internal/gomod"
)

// scratch writes the scratch modules for the subjects once per test.
func scratch(t *testing.T, subjects []Subject) *Scratch {
	t.Helper()
	root, err := gomod.KfuzzRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s, err := WriteScratch(context.Background(), root, t.TempDir(), subjects)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestFaultsReachable proves every seeded fault reachable: its triggering
// input panics with it in the mutated copy and not in the clean copy, and
// no example panics.
func TestFaultsReachable(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the scratch modules: not with -short")
	}
	if len(Faults) < 20 {
		t.Fatalf("%d seeded faults, want at least 20", len(Faults))
	}
	for i, f := range Faults {
		if f.ID != i+1 || SubjectNamed(f.Subject) == nil {
			t.Fatalf("fault %d: ID %d or subject %q wrong", i+1, f.ID, f.Subject)
		}
	}
	s := scratch(t, Subjects)
	if err := s.CheckFaults(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestMutateErrors(t *testing.T) {
	src := []byte("package p\n\nfunc f(x int) {\n\tx++\n\tx++\n}\n")
	_, err := Mutate("p.go", src, []Fault{
		{ID: 1, File: "p.go", Anchor: "x++", Cond: "x > 1"},
		{ID: 2, File: "p.go", Anchor: "y++", Cond: "true"},
	})
	if err == nil || !strings.Contains(err.Error(), "fault 1: anchor \"x++\" occurs more than once") || !strings.Contains(err.Error(), "fault 2: anchor \"y++\" not found") {
		t.Fatalf("Mutate = %v, want both anchor errors", err)
	}
	out, err := Mutate("p.go", src, []Fault{{ID: 3, File: "p.go", Anchor: "func f(x int) {", Cond: "x == 3"}, {ID: 4, File: "q.go", Anchor: "nothing"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "package p\n\nfunc f(x int) {\n\tif x == 3 { kfuzzFault(3) }\n\tx++\n\tx++\n}\n"
	if string(out) != want {
		t.Fatalf("Mutate = %q, want %q", out, want)
	}
}

func TestReadFaults(t *testing.T) {
	dir := t.TempDir()
	start := time.Unix(100, 0)
	path := filepath.Join(dir, "faults.txt")
	if err := os.WriteFile(path, []byte("3 103000000000\n1 101500000000\n3 102000000000\n2 99000000000\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	got, err := readFaults(path, start)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]time.Duration{1: 1500 * time.Millisecond, 2: 0, 3: 2 * time.Second}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("readFaults = %v, want %v", got, want)
	}
	if got, err := readFaults(filepath.Join(dir, "none"), start); err != nil || len(got) != 0 {
		t.Errorf("readFaults of a missing file = %v, %v; want no faults", got, err)
	}
	if err := os.WriteFile(path, []byte("1 5\nx\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := readFaults(path, start); err == nil || !strings.Contains(err.Error(), "faults.txt:2:") {
		t.Errorf("readFaults of a bad line = %v, want an error at line 2", err)
	}
}

func TestCorpusFiles(t *testing.T) {
	dir := t.TempDir()
	start := time.Now().Add(-time.Hour)
	for name, at := range map[string]time.Duration{"b": 3 * time.Second, "a": time.Second, "seed": -time.Minute} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, nil, 0o666); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, start.Add(at), start.Add(at)); err != nil {
			t.Fatal(err)
		}
	}
	files, err := corpusFiles(dir, start)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, fmt.Sprintf("%s@%v", filepath.Base(f.path), f.at))
	}
	if want := []string{"seed@0s", "a@1s", "b@3s"}; !reflect.DeepEqual(got, want) {
		t.Errorf("corpusFiles = %v, want %v", got, want)
	}
}

// synthetic returns a result with made-up runs: kfuzz-kpath ahead on calc,
// go-fuzz ahead on json.
func synthetic() *Result {
	cfg := Config{Budget: 8 * time.Second, Runs: 3, Subjects: []Subject{*SubjectNamed("calc"), *SubjectNamed("json")},
		Tools: []Tool{Tools[0], Tools[6]}}
	cfg.Points = DefaultPoints(cfg.Budget)
	res := &Result{Config: cfg}
	add := func(subject, tool string, n int, covered []int, faults ...int) {
		r := &Run{Subject: subject, Tool: tool, N: n, Detected: map[int]time.Duration{}}
		for i, c := range covered {
			r.Points = append(r.Points, Point{At: cfg.Points[i], Covered: c, Stmts: 200})
		}
		for _, f := range faults {
			r.Detected[f] = time.Duration(f) * time.Second
		}
		res.Runs = append(res.Runs, r)
	}
	for n := 1; n <= 3; n++ {
		add("calc", "go-fuzz", n, []int{100, 110, 120, 130, 140 + n}, 1)
		add("calc", "kfuzz-kpath", n, []int{100, 120, 140, 160, 170 + 2*n}, 1, 2, n+2)
		add("json", "go-fuzz", n, []int{100, 110, 120, 130, 150}, 17, 18)
		add("json", "kfuzz-kpath", n, []int{100, 110, 120, 130, 140}, 17)
	}
	return res
}

func TestReport(t *testing.T) {
	res := synthetic()
	c := res.Cell("calc", "kfuzz-kpath")
	if got, want := c.Coverage(4), (Spread{Median: 87, Min: 86, Max: 88}); got != want {
		t.Errorf("coverage spread = %+v, want %+v", got, want)
	}
	if got, want := c.Found(), (Spread{Median: 3, Min: 3, Max: 3}); got != want {
		t.Errorf("faults found = %+v, want %+v", got, want)
	}
	if n, med := c.Detection(2); n != 3 || med != 2*time.Second {
		t.Errorf("Detection(2) = %d, %v; want 3 runs, 2s", n, med)
	}
	if n, med := c.Detection(4); n != 1 || med != 4*time.Second {
		t.Errorf("Detection(4) = %d, %v; want 1 run, 4s", n, med)
	}
	if v := res.Verdict("calc"); !v.CoverageAhead || !v.FaultsAhead || v.PeerCoverageTool != "go-fuzz" {
		t.Errorf("calc verdict %+v, want kfuzz ahead in both", v)
	}
	if v := res.Verdict("json"); v.CoverageAhead || v.FaultsAhead {
		t.Errorf("json verdict %+v, want kfuzz behind in both", v)
	}
	var md strings.Builder
	if err := res.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| kfuzz-kpath | 87.0% (86.0–88.0) | 70.0% |",
		"| go-fuzz | 71.0% (70.5–71.5) | 75.0% |",
		"| 2 | calc | four parentheses opened in a row | – | 2.0 (3/3) |",
		"| kfuzz-kpath | 3 | 1 | 4 of 16 |",
		"| calc | 87.0% (kfuzz-kpath) / 71.0% (go-fuzz) | yes | 3 (kfuzz-kpath) / 1 (go-fuzz) | yes |",
		"| json | 70.0% (kfuzz-kpath) / 75.0% (go-fuzz) | **no** | 1 (kfuzz-kpath) / 2 (go-fuzz) | **no** |",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md.String())
		}
	}
	var svg strings.Builder
	if err := res.WriteSVG(&svg); err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(strings.NewReader(svg.String()))
	lines := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "polyline" {
			lines++
		}
	}
	if lines != 4 {
		t.Errorf("the SVG has %d polylines, want 4 (2 tools x 2 subjects)", lines)
	}
}

// TestEvaluate runs the whole evaluation on calc with two tools (and
// libFuzzer where clang is installed), each run bounded by executions.
func TestEvaluate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and fuzzes: not with -short")
	}
	root, err := gomod.KfuzzRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Root: root, Work: t.TempDir(), Subjects: []Subject{*SubjectNamed("calc")},
		Tools: []Tool{Tools[0], Tools[1], Tools[6]}, Budget: time.Minute, Execs: 300, Runs: 1, Parallel: 1}
	res, err := Evaluate(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := 3 - len(res.Skips)
	if len(res.Runs) != want {
		t.Fatalf("%d runs, want %d (skipped: %v)", len(res.Runs), want, res.Skips)
	}
	for _, r := range res.Runs {
		if r.Execs == 0 || r.Failure != "" || len(r.Points) != len(DefaultPoints(cfg.Budget)) {
			t.Errorf("%s: %d execs, failure %q, %d points", r.Tool, r.Execs, r.Failure, len(r.Points))
		}
		for i, p := range r.Points {
			if p.Stmts == 0 || p.Covered == 0 || i > 0 && p.Covered < r.Points[i-1].Covered {
				t.Errorf("%s: coverage %v not positive and growing", r.Tool, r.Points)
			}
		}
	}
}
