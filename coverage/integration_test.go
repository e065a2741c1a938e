package coverage

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/cover"
)

// These tests build and run the test modules in testdata with the go
// command: once instrumented (go test -overlay) and once under
// go test -coverprofile, and compare the two.

// measured is one input's record written by the test modules.
type measured struct {
	Input string
	Funcs []string
	Hits  map[string]uint64
	Err   string
}

// innerRun is what one instrumented and one -coverprofile run of a test
// module produced.
type innerRun struct {
	dir     string   // the module
	out     string   // directory of the output files
	overlay *Overlay // as built for the run
	inputs  []measured
	init    string // profile of what ran during initialization
	total   string // profile of initialization plus all inputs
	goProf  string // profile written by go test -coverprofile
}

func (r *innerRun) read(name string) (string, error) {
	data, err := os.ReadFile(filepath.Join(r.out, name))
	return string(data), err
}

// runInner builds an overlay for patterns in module dir, then runs in
// parallel go test -overlay with runMeasured and go test -coverprofile with
// runAll (with coverpkg for -coverpkg, if set), both in pkgDir.
func runInner(dir, pkgDir string, patterns []string, runMeasured, runAll, coverpkg string, measuredFlags ...string) (*innerRun, error) {
	ov, err := BuildOverlay(context.Background(), Config{Dir: dir, Patterns: patterns})
	if err != nil {
		return nil, err
	}
	tempMu.Lock()
	tempDirs = append(tempDirs, ov.dir)
	tempMu.Unlock()
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		return nil, err
	}
	r := &innerRun{dir: dir, out: out, overlay: ov}
	env := goEnv("COVTEST_OUT=" + out)
	var wg sync.WaitGroup
	var errs [2]error
	wg.Add(2)
	go func() {
		defer wg.Done()
		args := append([]string{"test", "-overlay=" + ov.File, "-count=1", "-run=" + runMeasured}, measuredFlags...)
		_, errs[0] = runGo(filepath.Join(dir, pkgDir), env, append(args, ".")...)
	}()
	go func() {
		defer wg.Done()
		args := []string{"test", "-count=1", "-run=" + runAll, "-covermode=count", "-coverprofile=" + filepath.Join(out, "go.out")}
		if coverpkg != "" {
			args = append(args, "-coverpkg="+coverpkg)
		}
		_, errs[1] = runGo(filepath.Join(dir, pkgDir), env, append(args, ".")...)
	}()
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	data, err := os.ReadFile(filepath.Join(out, "measure.json"))
	if err != nil {
		return nil, err
	}
	var m struct {
		Inputs      []measured
		Init, Total string
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	r.inputs, r.init, r.total = m.Inputs, m.Init, m.Total
	if r.goProf, err = r.read("go.out"); err != nil {
		return nil, err
	}
	return r, nil
}

var (
	calcOnce sync.Once
	calcRun  *innerRun
	calcErr  error
)

// calc returns the shared run of testdata/covtest/calc.
func calc(t *testing.T) *innerRun {
	t.Helper()
	calcOnce.Do(func() {
		var parent, dir string
		if parent, calcErr = sharedTempDir("kfuzz-covtest-"); calcErr != nil {
			return
		}
		if dir, calcErr = newModule(parent, "covtest"); calcErr != nil {
			return
		}
		// Without inlining, closures keep the names the runtime gives
		// them when they are not inlined (TestRuntimeNames).
		calcRun, calcErr = runInner(dir, "calc", []string{"./calc"}, "^(TestMeasure|TestNames|TestPanic)$", "^TestAll$", "",
			"-gcflags=example.com/covtest/calc=-l")
	})
	if calcErr != nil {
		t.Fatal(calcErr)
	}
	return calcRun
}

func parseProfile(t *testing.T, text string) []*cover.Profile {
	t.Helper()
	ps, err := cover.ParseProfilesFromReader(strings.NewReader(text))
	if err != nil {
		t.Fatalf("parsing profile: %v\n%s", err, text)
	}
	return ps
}

// checkAgreement compares the instrumented run with go test -coverprofile.
func checkAgreement(t *testing.T, r *innerRun) {
	t.Helper()
	table := r.overlay.Table

	// The blocks and their counts agree exactly: those at
	// initialization plus those of the measured inputs are what
	// go test -coverprofile counted.
	ours, theirs := parseProfile(t, r.total), parseProfile(t, r.goProf)
	if len(ours) != len(theirs) {
		t.Errorf("profiles cover %d and %d files", len(ours), len(theirs))
	}
	nblocks := 0
	for i := range min(len(ours), len(theirs)) {
		o, g := ours[i], theirs[i]
		if o.FileName != g.FileName || len(o.Blocks) != len(g.Blocks) {
			t.Errorf("file %d: ours %s with %d blocks, go's %s with %d blocks", i, o.FileName, len(o.Blocks), g.FileName, len(g.Blocks))
			continue
		}
		for k := range o.Blocks {
			if o.Blocks[k] != g.Blocks[k] {
				t.Errorf("%s: block %+v, go's %+v", o.FileName, o.Blocks[k], g.Blocks[k])
			}
			nblocks++
		}
	}
	if nblocks == 0 {
		t.Fatal("no blocks compared")
	}

	// The union of the per-input function sets plus the functions run
	// during initialization is the set of functions with non-zero
	// coverage in go's profile.
	initCounts, err := table.ImportProfiles(parseProfile(t, r.init))
	if err != nil {
		t.Fatal(err)
	}
	union := initCounts.Funcs()
	for _, in := range r.inputs {
		for _, name := range in.Funcs {
			i, ok := table.Lookup(name)
			if !ok {
				t.Fatalf("input %q: unknown function %s", in.Input, name)
			}
			union.Add(i)
		}
	}
	goCounts, err := table.ImportProfiles(theirs)
	if err != nil {
		t.Fatal(err)
	}
	goFuncs := goCounts.Funcs()
	if !union.Equal(goFuncs) {
		t.Errorf("union of per-input sets and initialization\n%v\ndiffers from go test -coverprofile\n%v\nonly ours: %v\nonly go's: %v",
			union, goFuncs, union.Difference(goFuncs), goFuncs.Difference(union))
	}
	if union.Len() < 3 {
		t.Errorf("union of only %d functions", union.Len())
	}

	// go tool cover -func, which maps blocks to function declarations
	// by extent, lists with non-zero coverage exactly the declarations
	// in the union.
	out, err := runGo(r.dir, goEnv(), "tool", "cover", "-func="+filepath.Join(r.out, "go.out"))
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`^(\S+):(\d+):\s+(\S+)\s+([\d.]+)%$`)
	goDecls := make(map[string]bool)
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			continue // the total
		}
		if pct, _ := strconv.ParseFloat(m[4], 64); pct > 0 {
			goDecls[m[1]+":"+m[2]] = true
		}
	}
	ourDecls := make(map[string]bool)
	for i := range union.All() {
		if f := table.Func(i); !f.Closure {
			ourDecls[fmt.Sprintf("%s:%d", f.File, f.Start.Line)] = true
		}
	}
	if fmt.Sprint(sortedKeys(goDecls)) != fmt.Sprint(sortedKeys(ourDecls)) {
		t.Errorf("go tool cover -func covers\n%v\nthe union covers\n%v", sortedKeys(goDecls), sortedKeys(ourDecls))
	}
}

func sortedKeys(m map[string]bool) []string {
	var s []string
	for k := range m {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}

func TestAgreementWithGoCover(t *testing.T) {
	checkAgreement(t, calc(t))
}

func TestPerInputSets(t *testing.T) {
	r := calc(t)
	const p = "example.com/covtest/calc."
	want := map[string][]string{
		"fib 10":    {"Run", "fib", "note"},
		"fib":       {"Run", "note"},
		"add 1 2 3": {"Run", "Sum", "Sum.func1", "note", "nums"},
		"sort pear apple fig": {"(*Stack[...]).Push", "(*Stack[...]).Sorted", "(*Stack[...]).Sorted.func1",
			"(*Stack[...]).Sorted.func1.1", "Run", "note"},
		"point a b": {"(*Point).Norm1", "(*Point).Norm1.func1", "Point.String", "Run", "note"},
		"panic now": {"Run", "explode", "note"},
	}
	wantHits := map[string]map[string]uint64{
		"add 1 2 3":           {"Sum.func1": 3, "Sum": 1, "note": 5},
		"sort pear apple fig": {"(*Stack[...]).Push": 3},
		"point a b":           {"(*Point).Norm1.func1": 2},
	}
	seen := 0
	for _, in := range r.inputs {
		if w, ok := want[in.Input]; ok {
			seen++
			var full []string
			for _, n := range w {
				full = append(full, p+n)
			}
			sort.Strings(full)
			if fmt.Sprint(in.Funcs) != fmt.Sprint(full) {
				t.Errorf("input %q covers\n%v\nwant\n%v", in.Input, in.Funcs, full)
			}
		}
		for name, n := range wantHits[in.Input] {
			if in.Hits[p+name] != n {
				t.Errorf("input %q: %s entered %d times, want %d", in.Input, name, in.Hits[p+name], n)
			}
		}
		if strings.HasPrefix(in.Input, "panic") && !strings.HasPrefix(in.Err, "panic: ") {
			t.Errorf("input %q: error %q, want a panic", in.Input, in.Err)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of %d inputs", seen, len(want))
	}
}

// TestRuntimeNames checks the names of functions against those the runtime
// reports for the same code.
func TestRuntimeNames(t *testing.T) {
	r := calc(t)
	data, err := r.read("names.json")
	if err != nil {
		t.Fatal(err)
	}
	var recs []struct {
		Function, File string
		Line           int
	}
	if err := json.Unmarshal([]byte(data), &recs); err != nil {
		t.Fatal(err)
	}
	table := r.overlay.Table
	checked := make(map[string]bool)
	for _, rec := range recs {
		file := "example.com/covtest/calc/" + filepath.Base(rec.File)
		// The innermost function with code on the line.
		best := -1
		for i := range table.Len() {
			f := table.Func(i)
			if f.File == file && f.Start.Line <= rec.Line && rec.Line <= f.End.Line &&
				(best < 0 || table.Func(best).Start.before(f.Start)) {
				best = i
			}
		}
		if best < 0 {
			t.Errorf("%s:%d: no function", file, rec.Line)
			continue
		}
		if got := table.Func(best).Name; got != rec.Function {
			t.Errorf("%s:%d: function named %s, runtime says %s", file, rec.Line, got, rec.Function)
		}
		checked[rec.Function] = true
	}
	// Closures of every kind are among those checked.
	for _, name := range []string{"init.func1", "init.func2", "init.1.func1", "Sum.func1", "(*Stack[...]).Sorted.func1.1",
		"pipe.func1", "Evens.func1", "(*Point).Norm1", "Point.String", "Max[...]"} {
		if !checked["example.com/covtest/calc."+name] {
			t.Errorf("%s not traced", name)
		}
	}
}

// TestPanicPositions checks that panics in instrumented code report the
// original file and line.
func TestPanicPositions(t *testing.T) {
	r := calc(t)
	stacks, err := r.read("panic.txt")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(r.dir, "calc", "calc.go"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	lineOf := func(text string) int {
		for i, l := range lines {
			if strings.Contains(l, text) {
				return i + 1
			}
		}
		t.Fatalf("%q not in calc.go", text)
		return 0
	}
	file := filepath.Join(r.dir, "calc", "calc.go")
	for _, text := range []string{`panic("explode: "`, `m["boom"]++`, `explode(args)`} {
		want := fmt.Sprintf("%s:%d ", file, lineOf(text))
		if !strings.Contains(stacks, want) {
			t.Errorf("stacks lack %s (for %s):\n%s", want, text, stacks)
		}
	}
}

func TestNotInstrumentedMessage(t *testing.T) {
	r := calc(t)
	msg, err := r.read("notinstrumented.txt")
	if err != nil {
		t.Fatal(err)
	}
	if msg != ErrNotInstrumented.Error() || !strings.Contains(msg, "-overlay") {
		t.Errorf("message %q", msg)
	}
}
