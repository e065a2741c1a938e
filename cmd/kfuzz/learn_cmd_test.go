package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/seed72891827/kfuzz/internal/gocmd"
	"github.com/seed72891827/kfuzz/internal/gomod"
	"github.com/seed72891827/kfuzz/internal/pipeline"
)

// The learned fixture: the calc example in a module of its own in a
// temporary directory, and a model learned from it by kfuzz learn -n 300,
// shared by the tests of kfuzz learn, seed, predict and select.
var learned struct {
	once  sync.Once
	dir   string // the calc module
	model string // the model file
	out   string // kfuzz learn's output
	err   error
}

// learnFixture runs kfuzz learn once.
func learnFixture(t *testing.T) (dir, model string) {
	t.Helper()
	needGo(t)
	learned.once.Do(func() {
		src, err := gomod.FindSource(context.Background())
		if err != nil {
			learned.err = err
			return
		}
		if learned.dir, learned.err = os.MkdirTemp("", "kfuzz-cmd-test-"); learned.err != nil {
			return
		}
		atExit(func() { os.RemoveAll(learned.dir) })
		mod := filepath.Join(learned.dir, "calc")
		if learned.err = pipeline.WriteCalcModule(context.Background(), mod, src); learned.err != nil {
			return
		}
		learned.model = filepath.Join(learned.dir, "calc.model.json")
		var errOut string
		var code int
		learned.out, errOut, code = kfuzz(t, "learn", mod, "-fuzz", "FuzzCalc", "-n", "300", "-o", learned.model)
		if code != 0 {
			learned.err = &exitError{code: code, err: errorString("kfuzz learn: " + errOut)}
		}
	})
	if learned.err != nil {
		t.Fatal(learned.err)
	}
	return filepath.Join(learned.dir, "calc"), learned.model
}

type errorString string

func (e errorString) Error() string { return string(e) }

// exits holds the functions TestMain runs after the tests.
var (
	exitsMu sync.Mutex
	exits   []func()
)

func atExit(f func()) {
	exitsMu.Lock()
	defer exitsMu.Unlock()
	exits = append(exits, f)
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, f := range exits {
		f()
	}
	os.Exit(code)
}

func TestLearn(t *testing.T) {
	dir, model := learnFixture(t)
	out := learned.out
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^FuzzCalc: learned \d+ functions of \d+ from \d+ training inputs \(\d+ seed, \d+ corpus, 300 random, \d+ refine\)$`),
		regexp.MustCompile(`(?m)^k-path coverage of the training inputs: 1-paths 39/39, 2-paths 125/125, 3-paths \d+/523, 4-paths \d+/2331$`),
		regexp.MustCompile(`(?m)^example\.com/calc\.\(\*simplifier\)\.distribute +\d\.\d{3} `),
		regexp.MustCompile(`(?m)^micro-average +0\.9\d\d `),
		regexp.MustCompile(`(?m)^model: ` + regexp.QuoteMeta(model) + `$`),
	} {
		if !want.MatchString(out) {
			t.Errorf("kfuzz learn's output does not match %s:\n%s", want, out)
		}
	}
	base := strings.TrimSuffix(model, ".model.json") + ".report"
	for _, p := range []string{model, base + ".md", base + ".html"} {
		if _, err := os.Stat(p); err != nil {
			t.Error(err)
		}
	}
	// A second run refuses to replace the files, before building anything.
	_, errOut, code := kfuzz(t, "learn", dir, "-fuzz", "FuzzCalc", "-n", "300", "-o", model)
	if code != 1 || !strings.Contains(errOut, "already exists (use -f to replace it)") {
		t.Errorf("kfuzz learn over an existing model: code %d, stderr %s", code, errOut)
	}
}

func TestLearnErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"learn", "."}, 2, "-fuzz FuzzX is required"},
		{[]string{"learn", "-fuzz", "FuzzCalc", "-n", "0"}, 1, "-n must be positive"},
		{[]string{"learn", "-fuzz", "FuzzCalc", "-k", "9"}, 1, "-k must be in 1..8"},
		{[]string{"learn", "-fuzz", "FuzzCalc", "-refine", "-1"}, 1, "-refine must not be negative"},
		{[]string{"learn", "-fuzz", "FuzzCalc", "-timeout", "0s", "-o", filepath.Join(t.TempDir(), "m.json")}, 1, "-timeout must be positive"},
		{[]string{"learn", "-fuzz", "FuzzCalc", "-o", filepath.Join(t.TempDir(), "m.json"), "learn_cmd.go"}, 1, "is a file, not a package"},
	} {
		_, errOut, code := kfuzz(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("kfuzz %s: code %d, stderr:\n%s\nwant code %d and %q", strings.Join(tc.args, " "), code, errOut, tc.code, tc.want)
		}
	}
}

// TestSeed writes seeds for the distributive law into the calc module's
// corpus and has go test run them through the harness.
func TestSeed(t *testing.T) {
	dir, model := learnFixture(t)
	out, errOut, code := kfuzz(t, "seed", "-model", model, "-target", "distribute", "-n", "2", dir)
	if code != 0 {
		t.Fatalf("kfuzz seed: code %d\n%s%s", code, out, errOut)
	}
	m := regexp.MustCompile(`(?m)^(\d+) of (\d+) generated inputs reached example\.com/calc\.\(\*simplifier\)\.distribute$`).FindStringSubmatch(out)
	if m == nil || m[1] == "0" {
		t.Fatalf("no summary line, or nothing reached:\n%s", out)
	}
	entries := regexp.MustCompile(`(?m)^\+ ".*" +([0-9a-f]{16}) \(new\)$`).FindAllStringSubmatch(out, -1)
	if len(entries) == 0 || !strings.Contains(out, "the rules the inputs were generated from:") {
		t.Fatalf("no new entries listed:\n%s", out)
	}
	for _, e := range entries {
		name := e[1]
		if _, err := os.Stat(filepath.Join(dir, "testdata", "fuzz", "FuzzCalc", name)); err != nil {
			t.Fatal(err)
		}
		// go test runs the entry through the harness, as a subtest.
		got, err := gocmd.Runner{Dir: dir, Env: append(os.Environ(), "GOWORK=off")}.Go(context.Background(), "test", "-count=1", "-v", "-run=^FuzzCalc$/^"+name+"$", ".")
		if err != nil || !strings.Contains(string(got), "--- PASS: FuzzCalc/"+name) {
			t.Errorf("go test -run FuzzCalc/%s: %v\n%s", name, err, got)
		}
	}

	// -dry-run -json writes nothing and prints what it measured.
	before, _ := os.ReadDir(filepath.Join(dir, "testdata", "fuzz", "FuzzCalc"))
	out, errOut, code = kfuzz(t, "seed", "-model", model, "-target", "calc.(*simplifier).distribute", "-n", "1", "-seed", "7", "-dry-run", "-json", dir)
	if code != 0 {
		t.Fatalf("kfuzz seed -dry-run -json: code %d\n%s", code, errOut)
	}
	var doc seedsJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if doc.Function != pipeline.DemoFunc || !doc.DryRun || doc.Reached == 0 || len(doc.Inputs) == 0 || doc.Inputs[0].Rule == "" {
		t.Errorf("kfuzz seed -json: %+v", doc)
	}
	after, _ := os.ReadDir(filepath.Join(dir, "testdata", "fuzz", "FuzzCalc"))
	if len(after) != len(before) {
		t.Errorf("-dry-run wrote %d entries", len(after)-len(before))
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"seed", "-model", model}, 2, "-target FUNC is required"},
		{[]string{"seed", "-target", "distribute"}, 2, "name the fuzz test"},
		{[]string{"seed", "-model", model, "-target", "String", dir}, 1, "is ambiguous"},
		{[]string{"seed", "-model", model, "-fuzz", "FuzzOther", "-target", "distribute", dir}, 1, "was learned for FuzzCalc, not FuzzOther"},
		{[]string{"seed", "-model", filepath.Join(dir, "calc.go"), "-target", "distribute"}, 1, "not a kfuzz model file"},
	} {
		_, errOut, code := kfuzz(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("kfuzz %s: code %d, stderr:\n%s\nwant code %d and %q", strings.Join(tc.args, " "), code, errOut, tc.code, tc.want)
		}
	}
}

func TestPredict(t *testing.T) {
	_, model := learnFixture(t)
	tmp := t.TempDir()
	product := filepath.Join(tmp, "product.txt")
	plain := filepath.Join(tmp, "plain.txt")
	broken := filepath.Join(tmp, "broken.txt")
	os.WriteFile(product, []byte("x*(y+1)"), 0o666)
	os.WriteFile(plain, []byte("7"), 0o666)
	os.WriteFile(broken, []byte("7*"), 0o666)
	out, errOut, code := kfuzz(t, "predict", "-model", model, product, plain)
	if code != 0 {
		t.Fatalf("kfuzz predict: code %d\n%s", code, errOut)
	}
	blocks := strings.Split(out, plain)
	if len(blocks) != 2 || !strings.HasPrefix(blocks[0], product+` "x*(y+1)"`) {
		t.Fatalf("kfuzz predict output:\n%s", out)
	}
	if !regexp.MustCompile(`\texample\.com/calc\.\(\*simplifier\)\.distribute +\d+%  has `).MatchString(blocks[0]) {
		t.Errorf("x*(y+1) is not predicted to reach distribute with a rule:\n%s", blocks[0])
	}
	if strings.Contains(blocks[1], "distribute") || strings.Contains(out, "calc.Parse ") {
		t.Errorf("7 is predicted to reach distribute, or an always-covered function is listed:\n%s", out)
	}
	if out, _, _ := kfuzz(t, "predict", "-model", model, "-all", plain); !strings.Contains(out, "example.com/calc.Parse 100%  (every training input covered it)") {
		t.Errorf("-all does not list Parse:\n%s", out)
	}

	out, errOut, code = kfuzz(t, "predict", "-model", model, "-json", product, broken)
	if code != 1 || !strings.Contains(errOut, "1 of 2 inputs could not be predicted") {
		t.Errorf("kfuzz predict of a broken input: code %d, stderr %s", code, errOut)
	}
	var doc []inputPredictionJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(doc) != 2 || doc[0].Input != "x*(y+1)" || len(doc[0].Functions) == 0 || doc[1].Error == "" || !strings.Contains(doc[1].Error, "1:3") {
		t.Errorf("kfuzz predict -json: %+v", doc)
	}
}

func TestSelect(t *testing.T) {
	dir, model := learnFixture(t)
	// The model file records what was measured and how.
	var recorded struct {
		Measured []string `json:"measured"`
		Timeout  string   `json:"timeout"`
	}
	if data, err := os.ReadFile(model); err != nil || json.Unmarshal(data, &recorded) != nil ||
		!slices.Equal(recorded.Measured, []string{pipeline.CalcModule}) || recorded.Timeout == "" {
		t.Errorf("the model file records %+v (%v), want the measured package %s and a timeout", recorded, err, pipeline.CalcModule)
	}
	corpusDir := filepath.Join(dir, "testdata", "fuzz", "FuzzCalc")
	out, errOut, code := kfuzz(t, "select", "-model", model, "-changed", "distribute", corpusDir)
	if code != 0 {
		t.Fatalf("kfuzz select: code %d\n%s", code, errOut)
	}
	// The corpus holds "(x+1)*(y-2)", which reaches distribute.
	if !regexp.MustCompile(`(?m)^1\. \S+ ".*\*.*"\n\texample\.com/calc\.\(\*simplifier\)\.distribute +\d+%$`).MatchString(out) ||
		!regexp.MustCompile(`(?m)^\d+ of \d+ inputs are predicted to cover 1 changed functions$`).MatchString(out) {
		t.Errorf("kfuzz select output:\n%s", out)
	}

	// -recall takes inputs until the expected recall reaches the target: at
	// least those predicted to cover the function, and it says so.
	plainN := len(regexp.MustCompile(`(?m)^\d+\. `).FindAllString(out, -1))
	out, errOut, code = kfuzz(t, "select", "-model", model, "-changed", "distribute", "-recall", "0.99", corpusDir)
	rm := regexp.MustCompile(`(?m)^example\.com/calc\.\(\*simplifier\)\.distribute: (\d+) inputs, expected recall (1\.000|0\.99\d) `).FindStringSubmatch(out)
	if code != 0 || rm == nil || len(regexp.MustCompile(`(?m)^\d+\. `).FindAllString(out, -1)) < plainN || !strings.Contains(out, " inputs selected for 1 changed functions") {
		t.Errorf("kfuzz select -recall 0.99: code %d (%d inputs without -recall)\n%s%s", code, plainN, out, errOut)
	}
	if _, errOut, code := kfuzz(t, "select", "-model", model, "-changed", "distribute", "-recall", "1.5", corpusDir); code != 2 || !strings.Contains(errOut, "-recall 1.5 is outside [0, 1]") {
		t.Errorf("kfuzz select -recall 1.5: code %d, stderr:\n%s", code, errOut)
	}

	// -run prints a go test -run pattern that runs exactly the selected
	// entries.
	out, errOut, code = kfuzz(t, "select", "-model", model, "-changed", "distribute", "-run", corpusDir)
	m := regexp.MustCompile(`^\^FuzzCalc\$/\^\((.+)\)\$\n$`).FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("kfuzz select -run: code %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
	selected := strings.Split(m[1], "|")
	ran, err := gocmd.Runner{Dir: dir, Env: append(os.Environ(), "GOWORK=off")}.Go(context.Background(), "test", "-count=1", "-v", "-run="+strings.TrimSpace(out), ".")
	if err != nil {
		t.Fatalf("go test -run %s: %v", out, err)
	}
	if n := strings.Count(string(ran), "--- PASS: FuzzCalc/"); n != len(selected) {
		t.Errorf("go test -run %s ran %d entries, want the %d selected:\n%s", strings.TrimSpace(out), n, len(selected), ran)
	}
	plainInput := filepath.Join(t.TempDir(), "plain.txt")
	os.WriteFile(plainInput, []byte("(x+1)*(y-2)"), 0o666)
	if _, errOut, code := kfuzz(t, "select", "-model", model, "-changed", "distribute", "-run", plainInput); code != 1 || !strings.Contains(errOut, "go test can run only the files of testdata/fuzz/FuzzCalc") {
		t.Errorf("kfuzz select -run on a plain file: code %d, stderr:\n%s", code, errOut)
	}
	seven := filepath.Join(t.TempDir(), "seven.txt")
	os.WriteFile(seven, []byte("7"), 0o666)
	if out, errOut, code := kfuzz(t, "select", "-model", model, "-changed", "distribute", "-run", seven); code != 0 || out != "" || !strings.Contains(errOut, "nothing to run") {
		t.Errorf("kfuzz select -run with nothing selected: code %d, stdout %q, stderr:\n%s", code, out, errOut)
	}

	// A diff of the distributive law's body selects the same.
	src, err := os.ReadFile(filepath.Join(dir, "calc.go"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	line := 0
	for i, l := range lines {
		if strings.HasPrefix(l, "func (s *simplifier) distribute(") {
			line = i + 2 // the first line of the body, from 1
		}
	}
	if line == 0 {
		t.Fatal("no distribute in calc.go")
	}
	diff := filepath.Join(t.TempDir(), "change.diff")
	old := lines[line-1]
	os.WriteFile(diff, []byte("--- calc.go\n+++ calc.go\n@@ -"+itoa(line)+",1 +"+itoa(line)+",1 @@\n-"+old+"\n+"+old+" // changed\n"), 0o666)
	out, errOut, code = kfuzz(t, "select", "-model", model, "-diff", diff, "-root", dir, "-json", corpusDir)
	if code != 0 {
		t.Fatalf("kfuzz select -diff: code %d\n%s", code, errOut)
	}
	var doc selectJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !slices.Contains(doc.Changed, pipeline.DemoFunc) || len(doc.Selected) == 0 || doc.Selected[0].Rank != 1 || doc.Inputs == 0 {
		t.Errorf("kfuzz select -diff -json: %+v", doc)
	}

	// A plain diff -u of two copies a/ and b/ outside any module (no go.mod,
	// no git): the package is found among those the model knows, and b/ is
	// dropped when the new files are at the root.
	copies := t.TempDir()
	for _, d := range []string{"a", "b"} {
		os.Mkdir(filepath.Join(copies, d), 0o755)
		os.WriteFile(filepath.Join(copies, d, "calc.go"), src, 0o666)
	}
	plainDiff := filepath.Join(t.TempDir(), "plain.diff")
	os.WriteFile(plainDiff, []byte("--- a/calc.go\t2026-11-25 10:00:00\n+++ b/calc.go\t2026-11-25 10:01:00\n@@ -"+itoa(line)+",1 +"+itoa(line)+",1 @@\n-"+old+"\n+"+old+" // changed\n"), 0o666)
	for _, root := range []string{copies, filepath.Join(copies, "b")} {
		out, errOut, code = kfuzz(t, "select", "-model", model, "-diff", plainDiff, "-root", root, "-json", corpusDir)
		if code != 0 {
			t.Fatalf("kfuzz select -diff (diff -u, root %s): code %d\n%s", root, code, errOut)
		}
		var plain selectJSON
		if err := json.Unmarshal([]byte(out), &plain); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if !slices.Equal(plain.Changed, doc.Changed) || len(plain.Selected) != len(doc.Selected) {
			t.Errorf("kfuzz select -diff (diff -u, root %s): %+v, want %+v", root, plain, doc)
		}
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"select", "-changed", "distribute"}, 2, "-model FILE is required"},
		{[]string{"select", "-model", model}, 2, "give either -changed or -diff"},
		{[]string{"select", "-model", model, "-changed", "distribute", "-json", "-run"}, 2, "give -json or -run, not both"},
		{[]string{"select", "-model", model, "-changed", "nosuch", corpusDir}, 1, "unknown function nosuch"},
	} {
		_, errOut, code := kfuzz(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("kfuzz %s: code %d, stderr:\n%s\nwant code %d and %q", strings.Join(tc.args, " "), code, errOut, tc.code, tc.want)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestDemo runs kfuzz demo and checks that it prints a rule of the
// distributive law with a parenthesised sum in a product, and seeds that
// reached it.
func TestDemo(t *testing.T) {
	needGo(t)
	keep := filepath.Join(t.TempDir(), "demo")
	out, errOut, code := kfuzz(t, "demo", "-n", "300", "-seeds", "2", "-keep", keep)
	if code != 0 {
		t.Fatalf("kfuzz demo: code %d\n%s%s", code, out, errOut)
	}
	_, rule, ok := strings.Cut(out, "== 4.")
	rule, _, _ = strings.Cut(rule, "== 5.")
	if !ok || !regexp.MustCompile(`requires <\w+>: .*"\*".*"\(" .*"[+-]".* "\)"`).MatchString(rule) {
		t.Errorf("the demo's rule does not require a parenthesised sum in a product:\n%s", rule)
	}
	seeds := regexp.MustCompile(`(?m)^   \+ (".*") +testdata/fuzz/FuzzCalc/([0-9a-f]{16})$`).FindAllStringSubmatch(out, -1)
	if len(seeds) == 0 || !regexp.MustCompile(`(?m)^   [1-9]\d* of \d+ generated inputs reached example\.com/calc\.\(\*simplifier\)\.distribute\.$`).MatchString(out) {
		t.Fatalf("the demo lists no seeds that reached distribute:\n%s", out)
	}
	// The seeds were measured when they were written; measure them again
	// in the module the demo kept.
	var files []string
	for _, s := range seeds {
		files = append(files, filepath.Join(keep, "testdata", "fuzz", "FuzzCalc", s[2]))
	}
	cfg := pipeline.Config{Dir: keep, Target: "FuzzCalc", Env: append(os.Environ(), "GOWORK=off")}
	rep, err := pipeline.Cover(context.Background(), cfg, pipeline.CoverOptions{Files: files})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if !r.Funcs.HasName(pipeline.DemoFunc) {
			t.Errorf("the demo's seed %s (%q) does not cover %s", r.ID, r.Input, pipeline.DemoFunc)
		}
	}
	// The kept module's tests pass with the new seeds, which go test runs.
	if !strings.Contains(out, "The module is kept in "+keep) {
		t.Errorf("the demo does not say where the module is kept:\n%s", out)
	}
	ran, err := gocmd.Runner{Dir: keep, Env: append(os.Environ(), "GOWORK=off")}.Go(context.Background(), "test", "-count=1", "-v", "./...")
	if err != nil {
		t.Fatalf("go test in the kept module: %v", err)
	}
	for _, s := range seeds {
		if !strings.Contains(string(ran), "--- PASS: FuzzCalc/"+s[2]) {
			t.Errorf("go test in the kept module did not run the seed %s:\n%s", s[2], ran)
		}
	}
}

// TestProgress checks that steps are silent on a pipe or file and one line
// each with -v.
func TestProgress(t *testing.T) {
	var quietOut, verboseOut, longOut strings.Builder
	long := newProgress(&longOut, false)
	long.long = 0 // every step counts as long
	for _, p := range []*progress{newProgress(&quietOut, false), newProgress(&verboseOut, true), long} {
		p.Step("measuring 3 inputs", 3)
		p.Advance(3)
		p.Step("learning", 0)
		p.finish()
		p.finish()
	}
	if quietOut.Len() != 0 {
		t.Errorf("quick steps on a non-terminal wrote %q", quietOut.String())
	}
	if got, want := verboseOut.String(), "kfuzz: measuring 3 inputs\nkfuzz: learning\n"; got != want {
		t.Errorf("verbose progress wrote %q, want %q", got, want)
	}
	if !regexp.MustCompile(`^kfuzz: measuring 3 inputs \(\d+\.\ds\)\nkfuzz: learning \(\d+\.\ds\)\n$`).MatchString(longOut.String()) {
		t.Errorf("long steps on a non-terminal wrote %q, want one line each with its time", longOut.String())
	}

	// On a terminal (100 columns): one line per step, redrawn in place, ended with the
	// step's time; a label is shortened only when the line would not fit.
	var tty strings.Builder
	p := newProgress(&tty, false)
	p.tty, p.width = true, func() int { return 100 }
	p.Step("generating inputs for 3 rarely covered functions", 10)
	p.Advance(10)
	p.Step("a step whose label is far too long for a terminal of a hundred columns, so that it has to be shortened", 0)
	p.finish()
	lines := strings.Split(tty.String(), "\n")
	if len(lines) != 3 || lines[2] != "" {
		t.Fatalf("terminal progress wrote %q, want two ended lines", tty.String())
	}
	for i, want := range []string{
		`generating inputs for 3 rarely covered functions \[=+\] 10/10 \(\d+\.\ds\)$`,
		`a step whose label is far too long for a terminal of a hundred columns, so that it has to b… \(\d+\.\ds\)$`,
	} {
		last := lines[i][strings.LastIndex(lines[i], "\x1b[K")+3:]
		if !regexp.MustCompile("^"+want).MatchString(last) || utf8.RuneCountInString(last) > 99 {
			t.Errorf("line %d ends %q, want %s within 99 columns", i+1, last, want)
		}
	}
}
