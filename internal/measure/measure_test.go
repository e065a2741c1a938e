package measure_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/coverage"
	"github.com/seed72891827/kfuzz/coverage/instrument"
	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/gocmd"
	"github.com/seed72891827/kfuzz/internal/measure"
	"github.com/seed72891827/kfuzz/internal/protocol"
)

// These tests build real test binaries with the go command. Builds are
// shared between tests through fixtures, built on first use and removed by
// TestMain.

const (
	calcPath   = "github.com/seed72891827/kfuzz/examples/calc"
	distribute = calcPath + ".(*simplifier).distribute"
)

var (
	cleanupMu sync.Mutex
	cleanups  []func()
)

func atExit(f func()) {
	cleanupMu.Lock()
	cleanups = append(cleanups, f)
	cleanupMu.Unlock()
}

func TestMain(m *testing.M) {
	// The tests' builds go to a cache of their own, removed at the end.
	if cache, err := os.MkdirTemp("", "kfuzz-measure-cache-"); err == nil {
		os.Setenv(measure.CacheEnv, cache)
		atExit(func() { os.RemoveAll(cache) })
	}
	code := m.Run()
	for i := len(cleanups) - 1; i >= 0; i-- {
		cleanups[i]()
	}
	os.Exit(code)
}

// A fixture is a value built once, on first use, for all tests. The
// fixtures build go test binaries: get skips the test under -short.
type fixture[T any] struct {
	once  sync.Once
	val   T
	err   error
	build func() (T, error)
}

func (f *fixture[T]) get(t testing.TB) T {
	t.Helper()
	skipShort(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not available")
	}
	f.once.Do(func() { f.val, f.err = f.build() })
	if f.err != nil {
		t.Fatal(f.err)
	}
	return f.val
}

// runnerFixture builds a Runner once and closes it at exit.
func runnerFixture(cfg func() (measure.Config, error)) *fixture[*measure.Runner] {
	return &fixture[*measure.Runner]{build: func() (*measure.Runner, error) {
		c, err := cfg()
		if err != nil {
			return nil, err
		}
		r, err := measure.Build(context.Background(), c)
		if err != nil {
			return nil, err
		}
		atExit(func() { r.Close() })
		return r, nil
	}}
}

// goEnv is the environment of the go command in the tests: outside any
// workspace, as instrumenting module-cache packages needs.
func goEnv() []string { return append(os.Environ(), "GOWORK=off") }

var (
	calcRunner = runnerFixture(func() (measure.Config, error) {
		return measure.Config{Dir: "../../examples/calc", Target: "FuzzCalc", Mode: coverage.ModeCount, KeepCounts: true, Env: goEnv()}, nil
	})
	jsonRunner = runnerFixture(func() (measure.Config, error) {
		return measure.Config{Dir: "../../examples/json", Target: "FuzzJSON", Mode: coverage.ModeCount, Env: goEnv()}, nil
	})
	semverRunner = runnerFixture(func() (measure.Config, error) {
		dir, err := thirdParty.build()
		return measure.Config{
			Dir: dir, Package: "./semvercheck", Target: "FuzzSemver", Mode: coverage.ModeCount, Env: goEnv(),
			Cover: []string{"golang.org/x/mod/semver", "./semvercheck"},
		}, err
	})
	troubleRunner = runnerFixture(func() (measure.Config, error) {
		dir, err := thirdParty.build()
		return measure.Config{Dir: dir, Package: "./trouble", Target: "FuzzTrouble", Env: goEnv(), Timeout: time.Second}, err
	})
)

// thirdParty is a module made from testdata/thirdparty that requires this
// repository (replaced by its directory) and golang.org/x/mod from the
// module proxy.
var thirdParty = &fixture[string]{build: newThirdPartyModule}

func newThirdPartyModule() (string, error) {
	root, err := filepath.Abs("../..")
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "kfuzz-measure-test-")
	if err != nil {
		return "", err
	}
	atExit(func() { os.RemoveAll(dir) })
	src := filepath.Join("testdata", "thirdparty")
	err = filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, strings.TrimSuffix(rel, ".in")), data, 0o644)
	})
	if err != nil {
		return "", err
	}
	// Require what this repository requires, at the same versions, so that
	// its go.sum serves.
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	rootMod, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		return "", err
	}
	gomod := filepath.Join(dir, "go.mod")
	data, err = os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	mod, err := modfile.Parse(gomod, data, nil)
	if err != nil {
		return "", err
	}
	mod.AddNewRequire("github.com/seed72891827/kfuzz", "v0.0.0", false)
	for _, r := range rootMod.Require {
		mod.AddNewRequire(r.Mod.Path, r.Mod.Version, r.Indirect)
	}
	if err := mod.AddReplace("github.com/seed72891827/kfuzz", "", root, ""); err != nil {
		return "", err
	}
	if data, err = mod.Format(); err != nil {
		return "", err
	}
	if err := os.WriteFile(gomod, data, 0o644); err != nil {
		return "", err
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		return "", err
	}
	// Corpus entries for FuzzSemver, encoded for its harness.
	entries := []string{"v1.2.3-beta.2+exp.sha.5114f85", "v01.2.3", "1.2.3", "v2.0", "v1.0.0-alpha.1.0a-b"}
	g, err := grammar.Parse("versions", semverGrammar(filepath.Join(dir, "semvercheck", "semvercheck_test.go")))
	if err != nil {
		return "", err
	}
	codec, err := fuzzharness.NewCodec(grammar.MustCompile(g))
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		tree, err := codec.Parse(e)
		if err != nil {
			return "", fmt.Errorf("corpus entry %q: %v", e, err)
		}
		data, err := codec.Encode(tree)
		if err != nil {
			return "", err
		}
		if _, _, err := corpus.Add(filepath.Join(dir, "semvercheck", "testdata", "fuzz", "FuzzSemver"), data); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// semverGrammar returns the grammar in the backquoted constant of file.
func semverGrammar(file string) []byte {
	data, _ := os.ReadFile(file)
	_, after, _ := bytes.Cut(data, []byte("const versions = `"))
	g, _, _ := bytes.Cut(after, []byte("`"))
	return g
}

// defaultInputs returns what plain go test runs: the harness's seeds and
// the entries of testdata/fuzz.
func defaultInputs(t *testing.T, r *measure.Runner) []measure.Input {
	t.Helper()
	d, err := r.Describe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	seeds, err := measure.SeedInputs(d)
	if err != nil {
		t.Fatal(err)
	}
	td, err := r.TestdataInputs()
	if err != nil {
		t.Fatal(err)
	}
	if len(seeds) == 0 || len(td) == 0 {
		t.Fatalf("%d seeds and %d testdata entries; want some of both", len(seeds), len(td))
	}
	return append(seeds, td...)
}

// goCoverage runs the fuzz test with go test -coverprofile, in plain mode
// (its seeds and testdata entries as regression inputs), and maps the
// profile onto the functions of the cover packages.
func goCoverage(t *testing.T, dir, pkg, target string, cover []string) *coverage.Counts {
	t.Helper()
	prof := filepath.Join(t.TempDir(), "go.cover")
	args := []string{"test", "-count=1", "-run=^" + target + "$", "-covermode=count", "-coverprofile=" + prof}
	if len(cover) > 0 {
		args = append(args, "-coverpkg="+strings.Join(cover, ","))
	}
	if out, err := (gocmd.Runner{Dir: dir, Env: goEnv()}).Go(context.Background(), append(args, pkg)...); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	c, err := instrument.ReadProfile(context.Background(), instrument.Config{Dir: dir, Patterns: cover, Env: goEnv()}, prof)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// checkAgreement checks that what rep measured agrees with Go's coverage:
// the union of the inputs' function sets and what ran outside inputs is the
// set of functions with non-zero coverage in go's profile, and, since both
// count, every block ran as often.
func checkAgreement(t *testing.T, rep *measure.Report, goCounts *coverage.Counts) {
	t.Helper()
	union := rep.Outside.Funcs()
	for _, res := range rep.Results {
		if res.Status != protocol.StatusPass {
			t.Errorf("input %s %q: %s %s", res.ID, res.Input, res.Status, res.Message)
		}
		union.UnionWith(res.Funcs)
	}
	ours, theirs := union.Names(), goCounts.Funcs().Names()
	if !slices.Equal(ours, theirs) {
		t.Errorf("covered functions differ from go test -coverprofile's:\nonly measured: %v\nonly go: %v",
			minus(ours, theirs), minus(theirs, ours))
	}
	if !union.Equal(rep.Covered()) {
		t.Errorf("the union of the per-input sets %v differs from Report.Covered %v", union, rep.Covered())
	}
	tab := rep.Table
	if tab.NumBlocks() != goCounts.Table().NumBlocks() {
		t.Fatalf("%d blocks measured, %d in the profile's table", tab.NumBlocks(), goCounts.Table().NumBlocks())
	}
	diffs := 0
	for i := range tab.NumBlocks() {
		if a, b := rep.Total.Block(i), goCounts.Block(i); a != b {
			if diffs++; diffs <= 5 {
				bl := tab.Block(i)
				t.Errorf("block %s:%s of %s ran %d times, go test counts %d", tab.Func(bl.Func).File, bl.Start, tab.Func(bl.Func).Name, a, b)
			}
		}
	}
	t.Logf("%d inputs; %d of %d functions covered (%d outside inputs); %d blocks, %d counts differ",
		len(rep.Results), len(ours), tab.Len(), rep.Outside.Funcs().Len(), tab.NumBlocks(), diffs)
}

func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

func TestAgreesWithGoCoverageCalc(t *testing.T) {
	r := calcRunner.get(t)
	rep, err := r.Run(context.Background(), defaultInputs(t, r))
	if err != nil {
		t.Fatal(err)
	}
	checkAgreement(t, rep, goCoverage(t, "../../examples/calc", ".", "FuzzCalc", []string{calcPath}))
}

func TestAgreesWithGoCoverageJSON(t *testing.T) {
	r := jsonRunner.get(t)
	rep, err := r.Run(context.Background(), defaultInputs(t, r))
	if err != nil {
		t.Fatal(err)
	}
	checkAgreement(t, rep, goCoverage(t, "../../examples/json", ".", "FuzzJSON", []string{r.ImportPath()}))
}

// TestAgreesWithGoCoverageThirdParty measures golang.org/x/mod/semver, a
// package in the module cache, through a fuzz test in another module.
func TestAgreesWithGoCoverageThirdParty(t *testing.T) {
	r := semverRunner.get(t)
	rep, err := r.Run(context.Background(), defaultInputs(t, r))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(rep.Table.Packages(), "golang.org/x/mod/semver") {
		t.Fatalf("semver is not measured: %v", rep.Table.Packages())
	}
	checkAgreement(t, rep, goCoverage(t, thirdParty.get(t), "./semvercheck", "FuzzSemver",
		[]string{"golang.org/x/mod/semver", "example.com/thirdparty/semvercheck"}))
	if n := rep.Covered().Len(); n < 10 {
		t.Errorf("only %d functions covered: %v", n, rep.Covered())
	}
	// semvercheck has an empty case body, a block without extent, which a
	// profile cannot carry; Run must cope with it.
	empty := 0
	for i := range rep.Table.NumBlocks() {
		if b := rep.Table.Block(i); b.Start == b.End {
			empty++
		}
	}
	if empty == 0 {
		t.Error("no block without extent")
	}
	// The package's init function and the fuzz test's setup ran outside
	// the inputs, before the first.
	out := rep.Outside.Funcs()
	for _, f := range []string{"example.com/thirdparty/semvercheck.init.0", "example.com/thirdparty/semvercheck.Check", "golang.org/x/mod/semver.IsValid"} {
		if !out.HasName(f) {
			t.Errorf("%s did not run outside the inputs: %v", f, out)
		}
	}
}

// TestDistributive checks that per-input function sets tell inputs apart:
// in examples/calc, Simplify's distributive law runs exactly for inputs
// with a product that has a parenthesised sum as a factor (here, with
// variables only, so that nothing folds away).
func TestDistributive(t *testing.T) {
	r := calcRunner.get(t)
	inputs := []string{
		"x*(y+z)", "(x-y)*z", "x*y+z", "(x*y)*z", "((x+y))*z", "(x+y)", "x*(y)", "x+(y-z)",
		"(x+y)*(z+x)", "x*y*(z-x)", "(x*(y+z))", "x-(y*z)",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for len(inputs) < 80 {
		// Keep within the harness's bounds (MaxSize 500 nodes).
		if s := genSum(rng, 2); len(s) <= 40 {
			inputs = append(inputs, s)
		}
	}
	ins := make([]measure.Input, len(inputs))
	for i, s := range inputs {
		ins[i] = measure.Input{ID: fmt.Sprint(i), Text: s}
	}
	rep, err := r.Run(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for i, res := range rep.Results {
		if res.Status != protocol.StatusPass || res.Input != inputs[i] {
			t.Fatalf("input %q: %s %q %s", inputs[i], res.Status, res.Input, res.Message)
		}
		if res.Funcs.HasName(distribute) {
			got = append(got, inputs[i])
		}
		if hasProductOfParenSum(inputs[i]) {
			want = append(want, inputs[i])
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("distribute covered by\n%q\nwant\n%q", got, want)
	}
	if len(want) < 10 || len(inputs)-len(want) < 10 {
		t.Errorf("%d of %d inputs distribute; want more of both kinds", len(want), len(inputs))
	}
	// Other functions are covered by other inputs.
	sets := map[string]bool{}
	for _, res := range rep.Results {
		sets[res.Funcs.String()] = true
	}
	if len(sets) < 5 {
		t.Errorf("only %d different function sets among %d inputs", len(sets), len(inputs))
	}
}

// genSum generates a sum of products of the variables x, y, z and
// parenthesised sums.
func genSum(rng *rand.Rand, depth int) string {
	var b strings.Builder
	for i := range 1 + rng.IntN(3) {
		if i > 0 {
			b.WriteByte("+-"[rng.IntN(2)])
		}
		for j := range 1 + rng.IntN(3) {
			if j > 0 {
				b.WriteByte('*')
			}
			if depth > 0 && rng.IntN(3) == 0 {
				b.WriteString("(" + genSum(rng, depth-1) + ")")
			} else {
				b.WriteByte("xyz"[rng.IntN(3)])
			}
		}
	}
	return b.String()
}

// hasProductOfParenSum reports whether s, a sum of products of variables
// and parenthesised sums, has a product with two or more factors one of
// which is a parenthesised sum or difference.
func hasProductOfParenSum(s string) bool {
	p := &syntax{s: s}
	p.sum()
	return p.found
}

type syntax struct {
	s     string
	i     int
	found bool
}

func (p *syntax) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

// sum reports whether the sum has more than one term.
func (p *syntax) sum() bool {
	p.product()
	terms := 1
	for p.peek() == '+' || p.peek() == '-' {
		p.i++
		p.product()
		terms++
	}
	return terms > 1
}

func (p *syntax) product() {
	parenSum := p.factor()
	factors := 1
	for p.peek() == '*' {
		p.i++
		parenSum = p.factor() || parenSum
		factors++
	}
	if factors > 1 && parenSum {
		p.found = true
	}
}

// factor reports whether the factor is a parenthesised sum.
func (p *syntax) factor() bool {
	if p.peek() == '(' {
		p.i++
		isSum := p.sum()
		p.i++ // ')'
		return isSum
	}
	p.i++ // a variable
	return false
}

func TestSyntaxCheck(t *testing.T) {
	for s, want := range map[string]bool{
		"x*(y+z)": true, "(x-y)*z": true, "x*y*(z-x)": true, "(x*(y+z))": true,
		"x*y+z": false, "(x*y)*z": false, "((x+y))*z": false, "(x+y)": false, "x*(y)": false, "x+(y-z)": false,
	} {
		if got := hasProductOfParenSum(s); got != want {
			t.Errorf("hasProductOfParenSum(%q) = %v", s, got)
		}
	}
}

// TestTrouble checks that inputs that fail, panic, hang or crash the
// process are reported with their input and that the run goes on.
func TestTrouble(t *testing.T) {
	r := troubleRunner.get(t)
	words := []string{"a", "panic", "b", "hang", "c", "exit", "d", "gopanic", "e", "fail", "skip", "f"}
	ins := make([]measure.Input, len(words))
	for i, w := range words {
		ins[i] = measure.Input{ID: w, Text: w}
	}
	ins = append(ins, measure.Input{ID: "digits", Text: "123"}, measure.Input{ID: "bytes", Data: []byte{}})
	rep, err := r.Run(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]protocol.Status{
		"panic": protocol.StatusPanic, "hang": protocol.StatusTimeout, "exit": measure.StatusCrash,
		"gopanic": measure.StatusCrash, "fail": protocol.StatusFail, "skip": protocol.StatusSkip,
		"digits": protocol.StatusError,
	}
	doFunc := "example.com/thirdparty/trouble.Do"
	for i, res := range rep.Results {
		w, ok := want[res.ID]
		if !ok {
			w = protocol.StatusPass
		}
		if res.Status != w || res.Index != i || res.ID != ins[i].ID {
			t.Errorf("result %d: %s %q %s %q, want %s", i, res.ID, res.Input, res.Status, res.Message, w)
		}
		// Skipped before the call; no record survives a crash.
		ran := w != protocol.StatusError && w != protocol.StatusSkip && w != measure.StatusCrash
		if res.Funcs.HasName(doFunc) != ran {
			t.Errorf("%s (%s): covered %v, want %s covered: %v", res.ID, res.Status, res.Funcs, doFunc, ran)
		}
	}
	byID := func(id string) measure.Result {
		for _, res := range rep.Results {
			if res.ID == id {
				return res
			}
		}
		t.Fatalf("no result %s", id)
		return measure.Result{}
	}
	if res := byID("panic"); res.Message != "trouble on request" || !strings.Contains(res.Stack, "trouble.explode") ||
		!res.Funcs.HasName("example.com/thirdparty/trouble.explode") {
		t.Errorf("panic: message %q, stack %q, funcs %v", res.Message, res.Stack, res.Funcs)
	}
	if res := byID("exit"); res.Input != "" || !strings.Contains(res.Message, "exit status 7") {
		t.Errorf("exit: %q %q", res.Input, res.Message)
	}
	if res := byID("gopanic"); !strings.Contains(res.Message, "trouble on request") {
		t.Errorf("gopanic: %q", res.Message)
	}
	if res := byID("hang"); res.Duration < time.Second || res.Input != "hang" {
		t.Errorf("hang: %q after %v", res.Input, res.Duration)
	}
	if res := byID("bytes"); res.Input != "" || len(res.Data) != 0 {
		t.Errorf("empty data: %q %v", res.Input, res.Data)
	}
	if rep.Processes != 4 {
		t.Errorf("%d processes, want 4 (after hang, exit and gopanic)", rep.Processes)
	}
}

func TestNotHarness(t *testing.T) {
	dir := thirdParty.get(t)
	ctx := context.Background()
	cfg := measure.Config{Dir: dir, Package: "./trouble", Target: "FuzzPlain", Env: goEnv()}
	_, err := measure.Describe(ctx, cfg)
	if !errors.Is(err, measure.ErrNotHarness) || !strings.Contains(err.Error(), "fuzzharness.New(f, g).FuzzString") {
		t.Errorf("Describe: %v", err)
	}
	r, err := measure.Build(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Run(ctx, []measure.Input{{Text: "a"}}); !errors.Is(err, measure.ErrNotHarness) {
		t.Errorf("Run: %v", err)
	}
	if _, err := r.Describe(ctx); !errors.Is(err, measure.ErrNotHarness) {
		t.Errorf("Runner.Describe: %v", err)
	}
}

// skipShort skips a test that builds go test binaries under -short.
func skipShort(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds go test binaries; run without -short")
	}
}

func TestDescribe(t *testing.T) {
	skipShort(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not available")
	}
	d, err := measure.Describe(context.Background(), measure.Config{Dir: "../..", Package: "./examples/calc", Target: "FuzzCalc"})
	if err != nil {
		t.Fatal(err)
	}
	if d.Target != "FuzzCalc" || d.Start != "Expr" || !strings.Contains(d.Grammar, "<MultExpr>") || len(d.Examples) == 0 {
		t.Errorf("description %+v", d)
	}
}

func TestBuildErrors(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not available")
	}
	ctx := context.Background()
	for _, tc := range []struct {
		cfg  measure.Config
		want string
	}{
		{measure.Config{Dir: "../../examples/calc", Target: "FuzzNone"}, "has no fuzz test FuzzNone (it has FuzzCalc, FuzzCalcPlain)"},
		{measure.Config{Dir: "../../examples/calc", Target: "Fuzzy"}, `"Fuzzy" cannot name a fuzz test`},
		{measure.Config{Dir: "../../examples/calc"}, "no fuzz test named"},
		{measure.Config{Dir: "../..", Package: "./examples/...", Target: "FuzzCalc"}, "packages; name the one package that holds FuzzCalc"},
		{measure.Config{Dir: "../..", Package: "./corpus", Target: "FuzzCalc"}, "has no fuzz test FuzzCalc"},
		{measure.Config{Dir: "../../examples/calc", Target: "FuzzCalc", Timeout: -1}, "negative timeout"},
		{measure.Config{Dir: "../../examples/calc", Target: "FuzzCalc", Cover: []string{"sync/atomic"}}, "cannot instrument sync/atomic"},
	} {
		r, err := measure.Build(ctx, tc.cfg)
		if err == nil {
			r.Close()
			t.Errorf("Build(%+v) succeeded", tc.cfg)
		} else if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Build(%+v): %v\nwant %q", tc.cfg, err, tc.want)
		}
	}
}

// TestKeepCounts checks that per-input counts add up to the total.
func TestKeepCounts(t *testing.T) {
	r := calcRunner.get(t)
	rep, err := r.Run(context.Background(), []measure.Input{{Text: "x*(y+1)"}, {Text: "x*(y+1)"}, {Text: "1/0"}})
	if err != nil {
		t.Fatal(err)
	}
	sum := rep.Outside.Clone()
	for _, res := range rep.Results {
		if res.Counts == nil {
			t.Fatal("no counts kept")
		}
		sum.Add(res.Counts)
		if !res.Counts.Funcs().Equal(res.Funcs) {
			t.Errorf("%q: counts cover %v, Funcs %v", res.Input, res.Counts.Funcs(), res.Funcs)
		}
	}
	for i := range sum.Table().NumBlocks() {
		if sum.Block(i) != rep.Total.Block(i) {
			t.Fatalf("block %d: inputs and outside add up to %d, total %d", i, sum.Block(i), rep.Total.Block(i))
		}
	}
	a, b := rep.Results[0], rep.Results[1]
	id, _ := rep.Table.Lookup(distribute)
	if a.Counts.Hits(id) == 0 || a.Counts.Hits(id) != b.Counts.Hits(id) || rep.Total.Hits(id) != 2*a.Counts.Hits(id) {
		t.Errorf("distribute entered %d and %d times, %d in total", a.Counts.Hits(id), b.Counts.Hits(id), rep.Total.Hits(id))
	}
	if rep.Results[2].Funcs.HasName(distribute) || !rep.Results[2].Funcs.HasName(calcPath+".divide") {
		t.Errorf("1/0 covers %v", rep.Results[2].Funcs)
	}
}

// TestPoolsEmptyPerInput checks that every input finds the sync.Pools
// empty, whenever the garbage collector last ran: a pool's New function is
// covered by every input that uses the pool, not only by the first.
func TestPoolsEmptyPerInput(t *testing.T) {
	r := troubleRunner.get(t)
	words := []string{"pool", "pool", "a", "pool", "pool", "pool"}
	ins := make([]measure.Input, len(words))
	for i, w := range words {
		ins[i] = measure.Input{ID: fmt.Sprint(i), Text: w}
	}
	rep, err := r.Run(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	for i, res := range rep.Results {
		want := words[i] == "pool"
		if got := res.Funcs.HasName("example.com/thirdparty/trouble.newBuffer"); got != want || res.Status != protocol.StatusPass {
			t.Errorf("input %d %q: %s, newBuffer covered %v, want %v", i, words[i], res.Status, got, want)
		}
	}
}

// TestUserModuleGoSum measures a fuzz test in a user's module that
// requires kfuzz for fuzzharness only, with the go.sum that go mod tidy
// writes for it: the file that Build adds to the test package must build
// without a go.sum line beyond those, since the go command refuses to add
// lines while it builds (-mod=readonly).
func TestUserModuleGoSum(t *testing.T) {
	skipShort(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not available")
	}
	dir := userModule(t, "example.com/user", map[string]string{
		"words/words.go": `package words

import "strings"

// Count returns the number of words of s.
func Count(s string) int {
	if s == "" {
		return 0
	}
	return len(strings.Fields(s))
}
`,
		"words/words_test.go": `package words_test

import (
	"testing"

	"example.com/user/words"
	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

func FuzzWords(f *testing.F) {
	g, err := grammar.Parse("words", []byte(` + "`" + `<words> ::= <word> (" " <word>)* ; <word> ::= [a-z]+ ;` + "`" + `))
	if err != nil {
		f.Fatal(err)
	}
	fuzzharness.New(f, g).FuzzString(func(t *testing.T, s string) {
		if words.Count(s) == 0 {
			t.Error("no words")
		}
	})
}
`,
	})
	env := append(goEnv(), "GOFLAGS=-mod=readonly", "GOPROXY=off")
	sum, err := os.ReadFile(filepath.Join(dir, "go.sum"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	t.Logf("go.sum after go mod tidy: %d bytes", len(sum))

	rep, err := measure.Measure(context.Background(),
		measure.Config{Dir: dir, Package: "./words", Target: "FuzzWords", Cover: []string{"./words"}, Env: env},
		[]measure.Input{{ID: "two", Text: "ab cd"}})
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Results[0]
	if res.Status != protocol.StatusPass || !res.Funcs.HasName("example.com/user/words.Count") {
		t.Errorf("result %s %q, functions %v; want pass, covering words.Count", res.Status, res.Message, res.Funcs)
	}
	after, err := os.ReadFile(filepath.Join(dir, "go.sum"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if !bytes.Equal(sum, after) {
		t.Errorf("go.sum changed while measuring:\n%s\nnow:\n%s", sum, after)
	}
}

// userModule writes a module of the given path with files into a new
// directory, requiring this repository (replaced by its directory), and
// runs go mod tidy there without the network. It returns the directory.
func userModule(t *testing.T, path string, files map[string]string) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files["go.mod"] = "module " + path + "\n\ngo 1.25.0\n\nrequire github.com/seed72891827/kfuzz v0.0.0\n\nreplace github.com/seed72891827/kfuzz => " + root + "\n"
	for name, content := range files {
		file := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	measure.CopyGoSum(t, root, dir)
	tidy := gocmd.Runner{Dir: dir, Env: append(goEnv(), "GOFLAGS=-mod=mod", "GOPROXY=off")}
	if _, err := tidy.Go(context.Background(), "mod", "tidy"); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestGoCommandErrors checks that when the go command fails, the error
// names the command, the package and holds what the go command wrote.
func TestGoCommandErrors(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not available")
	}
	dir := userModule(t, "example.com/broken", map[string]string{
		"broken.go": "package broken\n\n// Twice returns 2*n.\nfunc Twice(n int) int { return 2 * n }\n",
		"broken_test.go": `package broken

import (
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness"
)

var _ int = "not an int"

func FuzzBroken(f *testing.F) {
	fuzzharness.New(f, nil)
}
`,
	})
	ctx := context.Background()
	env := append(goEnv(), "GOFLAGS=-mod=readonly", "GOPROXY=off")
	cfg := measure.Config{Dir: dir, Target: "FuzzBroken", Env: env}
	var cmdErr *gocmd.Error
	_, err := measure.Describe(ctx, cfg)
	if !errors.As(err, &cmdErr) {
		t.Fatalf("Describe: %v; want a *gocmd.Error", err)
	}
	t.Logf("Describe: %v", err)
	for _, want := range []string{"describing FuzzBroken in example.com/broken", "go test -count=1 -run=^FuzzBroken$ .", "broken_test.go:9:", "test output:\nFAIL\texample.com/broken [build failed]"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Describe: %v\nwant %q", err, want)
		}
	}
	r, err := measure.Build(ctx, cfg)
	if err == nil {
		r.Close()
		t.Fatal("Build succeeded")
	}
	t.Logf("Build: %v", err)
	for _, want := range []string{"building the test of example.com/broken with instrumentation", "go test -c -o ", "broken_test.go:9:"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Build: %v\nwant %q", err, want)
		}
	}

	cfg.BuildFlags = []string{"-nosuchflag"}
	for name, f := range map[string]func() error{
		"Describe": func() error { _, err := measure.Describe(ctx, cfg); return err },
		"Build": func() error {
			r, err := measure.Build(ctx, cfg)
			if err == nil {
				r.Close()
			}
			return err
		},
	} {
		err := f()
		if !errors.As(err, &cmdErr) || cmdErr.Args[1] != "list" {
			t.Fatalf("%s with a bad flag: %v; want a *gocmd.Error of go list", name, err)
		}
		t.Logf("%s with a bad flag: %v", name, err)
		for _, want := range []string{"measure: listing .: go list ", "-nosuchflag -- .", "flag provided but not defined"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s with a bad flag: %v\nwant %q", name, err, want)
			}
		}
	}
}
