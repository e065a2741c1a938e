package instrument

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/seed72891827/kfuzz/coverage"
)

// The standard-library packages that testdata/stdtest measures.
var stdTestPackages = []string{"encoding/csv", "encoding/json", "go/parser", "go/scanner", "net/url"}

// stdTestInputs is the number of inputs in testdata/stdtest.
const stdTestInputs = 13

var (
	stdOnce sync.Once
	stdRun  *innerRun
	stdErr  error
)

// stdLib returns the shared run of testdata/stdtest: the five standard
// packages instrumented, and go test -coverprofile -coverpkg on them; it
// skips the test under -short.
func stdLib(t *testing.T) *innerRun {
	t.Helper()
	skipShort(t)
	stdOnce.Do(func() {
		var parent, dir string
		if parent, stdErr = sharedTempDir("kfuzz-stdtest-"); stdErr != nil {
			return
		}
		if dir, stdErr = newModule(parent, "stdtest"); stdErr != nil {
			return
		}
		stdRun, stdErr = runInner(dir, ".", stdTestPackages, "^(TestMeasure|TestProbe)$", "^TestAll$", strings.Join(stdTestPackages, ","))
	})
	if stdErr != nil {
		t.Fatal(stdErr)
	}
	return stdRun
}

// TestStdAgreementWithGoCover compares the instrumented standard packages
// with go test -coverprofile -coverpkg: same blocks and counts, and the
// union of the per-input function sets (plus initialization) is what go's
// profile covers.
func TestStdAgreementWithGoCover(t *testing.T) {
	t.Parallel()
	r := stdLib(t)
	if got := r.overlay.Table.Packages(); !slices.Equal(got, stdTestPackages) {
		t.Fatalf("instrumented %v, want %v", got, stdTestPackages)
	}
	checkAgreement(t, r)
}

// TestStdPerInputSets checks that each input covers the functions of the
// parser it feeds, and which of them depends on the input.
func TestStdPerInputSets(t *testing.T) {
	t.Parallel()
	r := stdLib(t)
	const (
		object      = "encoding/json.(*decodeState).object"
		array       = "encoding/json.(*decodeState).array"
		objectIface = "encoding/json.(*decodeState).objectInterface"
		arrayIface  = "encoding/json.(*decodeState).arrayInterface"
		unmarshal   = "encoding/json.Unmarshal"
		valid       = "encoding/json.Valid"
		query       = "net/url.(*URL).Query"
		authority   = "net/url.parseAuthority"
		readAll     = "encoding/csv.(*Reader).ReadAll"
		parseErr    = "encoding/csv.(*ParseError).Error"
		funcDecl    = "go/parser.(*parser).parseFuncDecl"
		rawString   = "go/scanner.(*Scanner).scanRawString"
		errExpected = "go/parser.(*parser).errorExpected"
	)
	// Functions each input must cover (+) or must not (-). Decoding
	// into an interface, encoding/json decodes the top-level value with
	// object or array and what it holds with objectInterface and
	// arrayInterface.
	want := map[string][]string{
		`json:{"a":[1,2.5,{"b":null}],"c":"\u00e9"}`: {"+" + valid, "+" + unmarshal, "+" + object, "-" + array, "+" + objectIface, "+" + arrayIface},
		`json:[true,false,"x"]`:                      {"+" + valid, "+" + unmarshal, "-" + object, "+" + array, "-" + objectIface, "+" + arrayIface},
		`json:"just a string"`:                       {"+" + unmarshal, "-" + object, "-" + array, "-" + arrayIface},
		`json:{"open":`:                              {"+" + valid, "-" + unmarshal, "-" + object},
		`url:http://user:pw@example.com:8080/p/a%20th?q=1&r=two#frag`: {"+" + query, "+" + authority},
		`url:mailto:someone@example.com`:                              {"+" + query, "-" + authority},
		`url:http://[::1]:namedport`:                                  {"+" + authority, "-" + query},
		"csv:a,b,c\n1,\"two, quoted\",3\n":                            {"+" + readAll, "-" + parseErr},
		"go:package p\n\nfunc F(x int) int { return x * 2 }\n":        {"+" + funcDecl, "-" + rawString, "-" + errExpected},
		"go:package p\n\nvar v = []string{\"a\", `b`}\n":              {"-" + funcDecl, "+" + rawString, "-" + errExpected},
		"go:package p\n\nfunc {\n":                                    {"+" + funcDecl, "+" + errExpected},
	}
	prefixes := map[string][]string{
		"json": {"encoding/json."}, "url": {"net/url."}, "csv": {"encoding/csv."},
		"go": {"go/parser.", "go/scanner."},
	}
	seen := 0
	for _, in := range r.inputs {
		kind, _, _ := strings.Cut(in.Input, ":")
		if len(in.Funcs) == 0 {
			t.Errorf("input %q covers nothing", in.Input)
		}
		// Each input runs only the package it feeds.
		for _, f := range in.Funcs {
			if !slices.ContainsFunc(prefixes[kind], func(p string) bool { return strings.HasPrefix(f, p) }) {
				t.Errorf("input %q covers %s", in.Input, f)
			}
		}
		w, ok := want[in.Input]
		if !ok {
			continue
		}
		seen++
		for _, spec := range w {
			if got := slices.Contains(in.Funcs, spec[1:]); got != (spec[0] == '+') {
				t.Errorf("input %q: %s covered = %v, want %v", in.Input, spec[1:], got, !got)
			}
		}
	}
	if seen != len(want) || len(r.inputs) != stdTestInputs {
		t.Errorf("found %d of %d inputs, %d in all (want %d)", seen, len(want), len(r.inputs), stdTestInputs)
	}
	// The first input holds two objects (one inside the array) and one
	// array: object hands the top one to objectInterface.
	for _, in := range r.inputs {
		if strings.HasPrefix(in.Input, `json:{"a"`) && (in.Hits[object] != 1 || in.Hits[objectIface] != 2 || in.Hits[arrayIface] != 1) {
			t.Errorf("input %q enters object %d, objectInterface %d and arrayInterface %d times, want 1, 2 and 1",
				in.Input, in.Hits[object], in.Hits[objectIface], in.Hits[arrayIface])
		}
	}
}

// readProbe parses the probe.txt that TestProbe of testdata/stdtest writes.
func readProbe(t *testing.T, file string) (frames, stack []string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	head, tail, ok := strings.Cut(strings.TrimSuffix(string(data), "\n"), "\nstack\n")
	if !ok || !strings.HasPrefix(head, "frames\n") {
		t.Fatalf("bad probe file:\n%s", data)
	}
	return strings.Split(strings.TrimPrefix(head, "frames\n"), "\n"), strings.Split(tail, "\n")
}

// TestStdPositionsAndNames checks that the instrumented encoding/json calls
// a panicking UnmarshalJSON from the same functions, files and lines as the
// original (in the callers' frames and in the stack at the panic), and that
// the table names those functions as the runtime does, at those lines.
func TestStdPositionsAndNames(t *testing.T) {
	t.Parallel()
	r := stdLib(t)
	plainOut := t.TempDir()
	if _, err := runGo(r.dir, goEnv("COVTEST_OUT="+plainOut), "test", "-count=1", "-run=^TestProbe$", "."); err != nil {
		t.Fatal(err)
	}
	frames, stack := readProbe(t, filepath.Join(r.out, "probe.txt"))
	plainFrames, plainStack := readProbe(t, filepath.Join(plainOut, "probe.txt"))
	goroot, err := runGo(r.dir, goEnv(), "env", "GOROOT")
	if err != nil {
		t.Fatal(err)
	}
	jsonDir := filepath.Join(strings.TrimSpace(goroot), "src", "encoding", "json")
	var jsonFrames []string
	for _, f := range frames {
		if strings.HasPrefix(f, "encoding/json.") {
			jsonFrames = append(jsonFrames, f)
		}
	}
	var plainJSON []string
	for _, f := range plainFrames {
		if strings.HasPrefix(f, "encoding/json.") {
			plainJSON = append(plainJSON, f)
		}
	}
	if len(jsonFrames) < 4 || !slices.Equal(jsonFrames, plainJSON) {
		t.Errorf("instrumented frames\n%s\nuninstrumented\n%s", strings.Join(jsonFrames, "\n"), strings.Join(plainJSON, "\n"))
	}
	if len(stack) < 4 || !slices.Equal(stack, plainStack) || !strings.HasPrefix(stack[0], jsonDir+string(filepath.Separator)) {
		t.Errorf("instrumented stack lines\n%s\nuninstrumented\n%s", strings.Join(stack, "\n"), strings.Join(plainStack, "\n"))
	}
	table := r.overlay.Table
	re := regexp.MustCompile(`^(\S+) (\S+):(\d+)$`)
	for _, f := range jsonFrames {
		m := re.FindStringSubmatch(f)
		if m == nil {
			t.Fatalf("bad frame %q", f)
		}
		i, ok := table.Lookup(m[1])
		if !ok {
			t.Errorf("frame %s: function not in the table", f)
			continue
		}
		line, _ := strconv.Atoi(m[3])
		fn := table.Func(i)
		if fn.File != "encoding/json/"+filepath.Base(m[2]) || line < fn.Start.Line || line > fn.End.Line {
			t.Errorf("frame %s: table has %s at %s:%v-%v", f, fn.Name, fn.File, fn.Start, fn.End)
		}
	}
}

// TestStdWithoutRuntime builds and runs a program that uses the
// instrumented standard packages but not package coverage: the counters
// are linked in, and nothing else is needed. go vet is unaffected.
func TestStdWithoutRuntime(t *testing.T) {
	t.Parallel()
	r := stdLib(t)
	bin := filepath.Join(t.TempDir(), "plain")
	if _, err := runGo(r.dir, goEnv(), "build", "-overlay="+r.overlay.File, "-o", bin, "./plain"); err != nil {
		t.Fatal(err)
	}
	syms, err := runGo(r.dir, goEnv(), "tool", "nm", bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range stdTestPackages {
		if !strings.Contains(syms, " "+p+"."+counterVar+"\n") {
			t.Errorf("%s is not instrumented in the program", p)
		}
	}
	if !strings.Contains(syms, " "+rtPath+".stdList\n") || strings.Contains(syms, rtPath+".Register") {
		t.Errorf("the program should hold the list of standard packages and nothing else of %s", rtPath)
	}
	run, err := exec.Command(bin).CombinedOutput()
	if err != nil || !strings.Contains(string(run), fmt.Sprintf("ran %d inputs", len(r.inputs))) {
		t.Errorf("instrumented program: %v\n%s", err, run)
	}
	for _, args := range [][]string{{"vet", "./..."}, {"vet", "-overlay=" + r.overlay.File, "./..."}} {
		if _, err := runGo(r.dir, goEnv(), args...); err != nil {
			t.Error(err)
		}
	}
}

// TestStdOverlayFiles checks that the overlay replaces the files of the
// standard packages in GOROOT, adds the registration file there, and that
// the registration file imports nothing but unsafe.
func TestStdOverlayFiles(t *testing.T) {
	t.Parallel()
	r := stdLib(t)
	goroot, err := runGo(r.dir, goEnv(), "env", "GOROOT")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(strings.TrimSpace(goroot), "src", "encoding", "json")
	for _, name := range []string{"decode.go", registryFile} {
		if _, ok := r.overlay.Replace[filepath.Join(dir, name)]; !ok {
			t.Errorf("overlay lacks %s", filepath.Join(dir, name))
		}
	}
	reg, err := os.ReadFile(r.overlay.Replace[filepath.Join(dir, registryFile)])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(reg), "import "+unsafeName+" \"unsafe\"\n") || strings.Count(string(reg), "import ") != 1 {
		t.Errorf("registration file imports more than unsafe:\n%.400s", reg)
	}
	if orig, err := os.ReadFile(filepath.Join(dir, "decode.go")); err != nil || strings.Contains(string(orig), counterVar) {
		t.Errorf("GOROOT's decode.go changed: %v", err)
	}
}

// TestStdRace measures the standard packages, together with the module's
// own package, in atomic mode under the race detector (the instrumented
// packages import sync/atomic) and checks that the function sets are those
// of count mode, but for the New functions of sync.Pools (closures in
// package-level variables), which under -race run at random because the
// pools drop values at random.
func TestStdRace(t *testing.T) {
	t.Parallel()
	r := stdLib(t)
	ov, err := BuildOverlay(context.Background(), Config{Dir: r.dir, Patterns: append([]string{"."}, stdTestPackages...), BuildFlags: []string{"-race"}})
	if err != nil {
		t.Fatal(err)
	}
	defer ov.Close()
	if m := ov.Table.Mode(); m != coverage.ModeAtomic {
		t.Fatalf("mode %s under -race", m)
	}
	out := t.TempDir()
	msg, err := runGo(r.dir, goEnv("COVTEST_OUT="+out), "test", "-race", "-overlay="+ov.File, "-count=1", "-run=^TestMeasure$", ".")
	if err != nil {
		if strings.Contains(msg, "requires cgo") || strings.Contains(msg, "not supported") {
			t.Skipf("go test -race is not supported here: %s", msg)
		}
		t.Fatal(err)
	}
	got := readMeasured(t, filepath.Join(out, "measure.json"))
	if len(got) != len(r.inputs) {
		t.Fatalf("%d inputs, want %d", len(got), len(r.inputs))
	}
	poolNew := regexp.MustCompile(`\.init\.func\d+$`)
	const exercise = "example.com/stdtest.Exercise"
	for i, in := range got {
		if !slices.Contains(in.Funcs, exercise) {
			t.Errorf("input %q does not cover %s", in.Input, exercise)
		}
		a := slices.DeleteFunc(slices.Clone(in.Funcs), func(f string) bool {
			return poolNew.MatchString(f) || strings.HasPrefix(f, "example.com/stdtest.")
		})
		b := slices.DeleteFunc(slices.Clone(r.inputs[i].Funcs), poolNew.MatchString)
		if in.Input != r.inputs[i].Input || len(a) == 0 || !slices.Equal(a, b) {
			t.Errorf("input %q covers %v under -race, %v in count mode", in.Input, in.Funcs, r.inputs[i].Funcs)
		}
	}
}

// readMeasured reads the measure.json that TestMeasure of a test module
// writes.
func readMeasured(t *testing.T, file string) []measured {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var m struct{ Inputs []measured }
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m.Inputs
}

// TestStdFuzz runs go test -fuzz with encoding/json instrumented; the fuzz
// target fails unless the counters work in the fuzz workers.
func TestStdFuzz(t *testing.T) {
	t.Parallel()
	r := stdLib(t)
	out, err := runGo(r.dir, goEnv("COVTEST_REQUIRE=1"), "test", "-overlay="+r.overlay.File, "-run=^$", "-fuzz=^FuzzJSON$", "-fuzztime=300x", ".")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "execs:") || !strings.Contains(out, "PASS") {
		t.Errorf("fuzzing did not run:\n%s", out)
	}
}
