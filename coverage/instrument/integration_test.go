package instrument

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/cover"

	"github.com/seed72891827/kfuzz/coverage"
	"github.com/seed72891827/kfuzz/coverage/profile"
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
//
// The instrumentation counts in coverage.ModeCount, to compare counts with go test's.
func runInner(dir, pkgDir string, patterns []string, runMeasured, runAll, coverpkg string, measuredFlags ...string) (*innerRun, error) {
	ov, err := BuildOverlay(context.Background(), Config{Dir: dir, Patterns: patterns, Mode: coverage.ModeCount})
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
	initCounts, err := profile.Import(table, parseProfile(t, r.init))
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
	goCounts, err := profile.Import(table, theirs)
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

	// go tool cover reads our profile as it reads go's.
	ourFile := filepath.Join(r.out, "ours.out")
	if err := os.WriteFile(ourFile, []byte(r.total), 0o644); err != nil {
		t.Fatal(err)
	}
	ourOut, err := runGo(r.dir, goEnv(), "tool", "cover", "-func="+ourFile)
	if err != nil {
		t.Fatal(err)
	}
	if ourOut != out {
		t.Errorf("go tool cover -func on our profile:\n%s\non go's:\n%s", ourOut, out)
	}
	html := filepath.Join(r.out, "ours.html")
	if _, err := runGo(r.dir, goEnv(), "tool", "cover", "-html="+ourFile, "-o="+html); err != nil {
		t.Fatal(err)
	}
	if page, err := os.ReadFile(html); err != nil || !strings.Contains(string(page), path.Base(theirs[0].FileName)) {
		t.Errorf("go tool cover -html wrote no page for %s: %v", theirs[0].FileName, err)
	}
}

// before reports whether p comes before q.
func before(p, q coverage.Pos) bool {
	return p.Line < q.Line || p.Line == q.Line && p.Col < q.Col
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
				(best < 0 || before(table.Func(best).Start, f.Start)) {
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
	if msg != coverage.ErrNotInstrumented.Error() || !strings.Contains(msg, "-overlay") {
		t.Errorf("message %q", msg)
	}
}

// TestThirdPartyModule measures golang.org/x/mod/semver, fetched into the
// module cache by the go command, and compares with go test -coverprofile
// -coverpkg.
func TestThirdPartyModule(t *testing.T) {
	parent := t.TempDir()
	dir, err := newModule(parent, "semvertest")
	if err != nil {
		t.Fatal(err)
	}
	if out, err := runGo(dir, goEnv(), "get", "golang.org/x/mod@v0.38.0"); err != nil {
		t.Skipf("cannot fetch golang.org/x/mod from the module proxy: %v\n%s", err, out)
	}
	const pkg = "golang.org/x/mod/semver"
	r, err := runInner(dir, ".", []string{pkg}, "^TestMeasure$", "^TestAll$", pkg)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.overlay.Table.Packages(); len(got) != 1 || got[0] != pkg {
		t.Fatalf("instrumented %v", got)
	}
	// The module cache cannot be overlaid: go.mod is, to replace the
	// module with a mirror whose files are overlaid.
	gomod := filepath.Join(dir, "go.mod")
	mod, err := os.ReadFile(r.overlay.Replace[gomod])
	if err != nil {
		t.Fatalf("go.mod not overlaid: %v", err)
	}
	if !strings.Contains(string(mod), "replace golang.org/x/mod => "+r.overlay.dir) {
		t.Errorf("overlaid go.mod does not replace golang.org/x/mod:\n%s", mod)
	}
	modcache, _ := runGo(dir, goEnv(), "env", "GOMODCACHE")
	for orig := range r.overlay.Replace {
		if within(strings.TrimSpace(modcache), orig) {
			t.Errorf("overlay replaces %s in the module cache", orig)
		}
	}
	if target, err := os.Readlink(filepath.Join(r.overlay.dir, "mod", "000_mod", "semver", "semver.go")); err != nil ||
		!strings.Contains(target, "golang.org/x/mod@v0.38.0") {
		t.Errorf("mirror of semver.go links to %q: %v", target, err)
	}
	checkAgreement(t, r)

	// Only inputs with a valid prerelease sort.
	sorts := map[string]bool{"v1.2.3-rc.1+build.5": true, "v1.0.0-alpha.10": true}
	distinct := make(map[string]bool)
	for _, in := range r.inputs {
		distinct[fmt.Sprint(in.Funcs)] = true
		has := false
		for _, f := range in.Funcs {
			has = has || f == pkg+".Sort"
		}
		if has != sorts[in.Input] {
			t.Errorf("input %q: Sort covered = %v", in.Input, has)
		}
		if sorts[in.Input] && in.Hits[pkg+".compareVersion"] < 3 {
			t.Errorf("input %q: compareVersion entered %d times, want at least 3 (by Sort)", in.Input, in.Hits[pkg+".compareVersion"])
		}
	}
	if len(distinct) < 4 {
		t.Errorf("only %d distinct function sets", len(distinct))
	}
}

// TestFuzzWithOverlay runs go test -fuzz on instrumented code; the fuzz
// target fails unless the counters work in the fuzz workers.
func TestFuzzWithOverlay(t *testing.T) {
	r := calc(t)
	out, err := runGo(filepath.Join(r.dir, "calc"), goEnv("COVTEST_REQUIRE=1"),
		"test", "-overlay="+r.overlay.File, "-run=^$", "-fuzz=^FuzzCalc$", "-fuzztime=200x", ".")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "execs:") || !strings.Contains(out, "PASS") {
		t.Errorf("fuzzing did not run:\n%s", out)
	}
}

// measureWith runs TestMeasure of the calc package instrumented by cfg,
// with extra go test flags, and returns its records; it skips the test if
// the go command lacks what the flags need.
func measureWith(t *testing.T, r *innerRun, cfg Config, flags ...string) []measured {
	t.Helper()
	cfg.Dir, cfg.Patterns = r.dir, []string{"./calc"}
	ov, err := BuildOverlay(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer ov.Close()
	out := t.TempDir()
	args := append([]string{"test", "-overlay=" + ov.File, "-count=1", "-run=^TestMeasure$"}, flags...)
	msg, err := runGo(filepath.Join(r.dir, "calc"), goEnv("COVTEST_OUT="+out), append(args, ".")...)
	if err != nil {
		if strings.Contains(msg, "requires cgo") || strings.Contains(msg, "not supported") {
			t.Skipf("go test %v is not supported here: %s", flags, msg)
		}
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(out, "measure.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct{ Inputs []measured }
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Inputs) != len(r.inputs) {
		t.Fatalf("%d inputs, want %d", len(m.Inputs), len(r.inputs))
	}
	return m.Inputs
}

// TestModesAgree checks that every mode gives the function sets of count
// mode, and hits mode also its hit counts. Under -race the mode is atomic,
// and the race detector finds no race in the counters of the goroutines of
// the "pipe" input.
func TestModesAgree(t *testing.T) {
	r := calc(t)
	for _, tt := range []struct {
		cfg   Config
		flags []string
		hits  bool // hit counts as in count mode, else at most 1
	}{
		{Config{}, nil, true},
		{Config{Mode: coverage.ModeSet}, nil, false},
		{Config{BuildFlags: []string{"-race"}}, []string{"-race"}, true},
	} {
		t.Run(fmt.Sprint(tt.cfg.Mode, tt.flags), func(t *testing.T) {
			t.Parallel()
			got := measureWith(t, r, tt.cfg, tt.flags...)
			for i, in := range got {
				want := r.inputs[i]
				if fmt.Sprint(in.Funcs) != fmt.Sprint(want.Funcs) {
					t.Errorf("input %q covers %v, count mode %v", in.Input, in.Funcs, want.Funcs)
				}
				for name, n := range in.Hits {
					if tt.hits && n != want.Hits[name] || !tt.hits && n != 1 {
						t.Errorf("input %q enters %s %d times, count mode %d", in.Input, name, n, want.Hits[name])
					}
				}
			}
		})
	}
}

func TestBuildOverlayErrors(t *testing.T) {
	r := calc(t)
	ctx := context.Background()
	bare := t.TempDir()
	os.WriteFile(filepath.Join(bare, "go.mod"), []byte("module example.com/bare\n\ngo 1.25.0\n"), 0o644)
	os.WriteFile(filepath.Join(bare, "b.go"), []byte("package bare\n\nfunc B() {}\n"), 0o644)
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{Dir: r.dir, Patterns: []string{"runtime"}}, "cannot instrument runtime: it is part of the Go runtime"},
		{Config{Dir: r.dir, Patterns: []string{"math/bits"}}, "cannot instrument math/bits: it is part of the Go runtime"},
		{Config{Dir: r.dir, Patterns: []string{"internal/runtime/maps"}}, "cannot instrument internal/runtime/maps: it is part of the Go runtime"},
		{Config{Dir: r.dir, Patterns: []string{"runtime/cgo"}}, "cannot instrument runtime/cgo: it is part of the Go runtime"},
		{Config{Dir: r.dir, Patterns: []string{"sync/atomic"}}, "cannot instrument sync/atomic: the coverage runtime"},
		{Config{Dir: r.dir, Patterns: []string{"github.com/seed72891827/kfuzz/coverage/rt"}}, "cannot instrument github.com/seed72891827/kfuzz/coverage/rt"},
		{Config{Dir: r.dir, Patterns: []string{"./nosuch"}}, "nosuch"},
		{Config{Dir: r.dir, Patterns: []string{"./calc"}, BuildFlags: []string{"-cover"}}, "-cover cannot be combined with an overlay"},
		{Config{Dir: r.dir, Patterns: []string{"./calc"}, BuildFlags: []string{"-overlay=x.json"}}, "writes the overlay itself"},
		{Config{Dir: r.dir, Patterns: []string{"./calc"}, Mode: "fast"}, `unknown mode "fast"`},
		{Config{Dir: r.dir}, "no package patterns"},
		{Config{Dir: bare, Patterns: []string{"."}}, "run go get github.com/seed72891827/kfuzz"},
	}
	for _, tt := range tests {
		ov, err := BuildOverlay(ctx, tt.cfg)
		if err == nil {
			ov.Close()
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("BuildOverlay(%v %v %v): error %v, want %q", tt.cfg.Patterns, tt.cfg.BuildFlags, tt.cfg.Mode, err, tt.want)
		}
	}
	// Other standard packages can be instrumented, internal ones too.
	ov, err := BuildOverlay(ctx, Config{Dir: r.dir, Patterns: []string{"strconv", "internal/fmtsort"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := ov.Table.Packages(); fmt.Sprint(got) != "[internal/fmtsort strconv]" {
		t.Errorf("instrumented %v", got)
	}
	ov.Close()
	// Analysis alone works for any package and needs no kfuzz.
	table, err := LoadTable(ctx, Config{Dir: bare, Patterns: []string{"strconv", "runtime", "."}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"strconv.Itoa", "strconv.(*NumError).Error", "runtime.GC", "example.com/bare.B"} {
		if _, ok := table.Lookup(name); !ok {
			t.Errorf("LoadTable lacks %s", name)
		}
	}
}

// TestOverlayLeavesOriginals checks that the overlay replaces files by
// copies and adds the registration file, while the originals stay.
func TestOverlayLeavesOriginals(t *testing.T) {
	r := calc(t)
	orig := filepath.Join(r.dir, "calc", "calc.go")
	data, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), counterVar) {
		t.Error("original file instrumented")
	}
	cp, ok := r.overlay.Replace[orig]
	if !ok {
		t.Fatalf("overlay lacks %s: %v", orig, r.overlay.Replace)
	}
	if copied, _ := os.ReadFile(cp); !strings.Contains(string(copied), counterVar) {
		t.Error("copy not instrumented")
	}
	reg := filepath.Join(r.dir, "calc", registryFile)
	if _, err := os.Stat(reg); !os.IsNotExist(err) {
		t.Errorf("registration file on disk: %v", err)
	}
	if _, ok := r.overlay.Replace[reg]; !ok {
		t.Error("overlay lacks the registration file")
	}
	var ov struct{ Replace map[string]string }
	data, err = os.ReadFile(r.overlay.File)
	if err != nil || json.Unmarshal(data, &ov) != nil || len(ov.Replace) != len(r.overlay.Replace) {
		t.Errorf("overlay file %s: %v\n%s", r.overlay.File, err, data)
	}
}

// TestReadProfile maps go test's profile onto the functions by loading the
// packages it names.
func TestReadProfile(t *testing.T) {
	r := calc(t)
	c, err := ReadProfile(context.Background(), Config{Dir: r.dir}, filepath.Join(r.out, "go.out"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := profile.Import(r.overlay.Table, parseProfile(t, r.goProf))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(c.Funcs().Names()) != fmt.Sprint(want.Funcs().Names()) {
		t.Errorf("ReadProfile covers %v, want %v", c.Funcs(), want.Funcs())
	}
	if _, err := ReadProfile(context.Background(), Config{Dir: r.dir}, filepath.Join(r.out, "nosuch.out")); err == nil {
		t.Error("no error for a missing profile")
	}
}

// TestCompileErrorPositions checks that the compiler reports errors in
// instrumented code at the original file, line and column.
func TestCompileErrorPositions(t *testing.T) {
	r := calc(t)
	dir := filepath.Join(r.dir, "broken")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// Counters go in before the errors on lines 4 and 7, moving them in
	// the copy.
	src := "package broken\n\nfunc F(x int) string {\n\tif x > 0 { return x }\n\tswitch {\n\tcase x == 0:\n\t\tvar s string = x\n\t\treturn s\n\t}\n\treturn \"\"\n}\n"
	file := filepath.Join(dir, "broken.go")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ov, err := BuildOverlay(context.Background(), Config{Dir: r.dir, Patterns: []string{"./broken"}})
	if err != nil {
		t.Fatal(err)
	}
	defer ov.Close()
	plain, err := runGo(r.dir, goEnv(), "build", "./broken")
	if err == nil {
		t.Fatal("broken code builds")
	}
	instrumented, err := runGo(r.dir, goEnv(), "build", "-overlay="+ov.File, "./broken")
	if err == nil {
		t.Fatal("broken code builds instrumented")
	}
	// The go command shortens the names of files in the module.
	for _, want := range []string{"broken/broken.go:4:20: ", "broken/broken.go:7:18: "} {
		re := regexp.MustCompile("(?m)^" + regexp.QuoteMeta(want))
		if !re.MatchString(plain) {
			t.Fatalf("uninstrumented build does not report %s:\n%s", want, plain)
		}
		if !re.MatchString(instrumented) {
			t.Errorf("instrumented build does not report %s:\n%s", want, instrumented)
		}
	}
}
