package instrument

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/coverage"
)

// The benchmarks below build and run the test module in testdata/covtest
// with the go command and report what they measure as metrics. Each does
// its work once, whatever b.N is; run them with
//
//	go test -run='^$' -bench=GoCommand ./coverage/

// benchModule is the covtest module with a generated package gen of about
// 1,000 counters, and an overlay instrumenting all its packages.
type benchModule struct {
	dir string
	ov  *Overlay
}

var (
	benchOnce sync.Once
	bench     *benchModule
	benchErr  error
)

func benchSetup(b *testing.B) *benchModule {
	b.Helper()
	benchOnce.Do(func() {
		bench, benchErr = newBenchModule()
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return bench
}

func newBenchModule() (*benchModule, error) {
	parent, err := sharedTempDir("kfuzz-covbench-")
	if err != nil {
		return nil, err
	}
	dir, err := newModule(parent, "covtest")
	if err != nil {
		return nil, err
	}
	if err := writeGen(filepath.Join(dir, "gen"), 170); err != nil {
		return nil, err
	}
	ov, err := BuildOverlay(context.Background(), Config{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		return nil, err
	}
	tempMu.Lock()
	tempDirs = append(tempDirs, ov.dir)
	tempMu.Unlock()
	return &benchModule{dir: dir, ov: ov}, nil
}

// writeGen writes package gen: n functions of 6 blocks each, and
// benchmarks of measuring a call of 10 of them.
func writeGen(dir string, n int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var src bytes.Buffer
	src.WriteString("// Package gen is generated: many small functions.\npackage gen\n\n")
	for i := range n {
		fmt.Fprintf(&src, "func F%d(x int) int {\n\tif x&1 != 0 {\n\t\tx += %d\n\t}\n\tswitch x %% 3 {\n\tcase 0:\n\t\tx *= 3\n\tcase 1:\n\t\tx--\n\t}\n\treturn x\n}\n\n", i, i)
	}
	src.WriteString("var fs = []func(int) int{")
	for i := range n {
		fmt.Fprintf(&src, "F%d, ", i)
	}
	src.WriteString("}\n\n// Touch calls 10 of the functions.\nfunc Touch(i int) int {\n\ts := 0\n\tfor k := range 10 {\n\t\ts += fs[(i+17*k)%len(fs)](i + k)\n\t}\n\treturn s\n}\n")
	test := `package gen

import (
	"testing"

	"github.com/seed72891827/kfuzz/coverage"
)

func BenchmarkMeasure(b *testing.B) {
	p, err := coverage.Current()
	if err != nil {
		b.Skip(err)
	}
	b.ReportMetric(float64(p.Table().NumBlocks()), "counters")
	i := 0
	for b.Loop() {
		p.Measure(func() { Touch(i) })
		i++
	}
}

func BenchmarkMeasureInto(b *testing.B) {
	p, err := coverage.Current()
	if err != nil {
		b.Skip(err)
	}
	var res coverage.Result
	i := 0
	run := func() { Touch(i) }
	for b.Loop() {
		p.MeasureInto(&res, run)
		i++
	}
}

func BenchmarkPlain(b *testing.B) {
	i := 0
	for b.Loop() {
		Touch(i)
		i++
	}
}
`
	if err := os.WriteFile(filepath.Join(dir, "gen.go"), src.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "gen_test.go"), []byte(test), 0o644)
}

var nsPerOp = regexp.MustCompile(`(?m)^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op`)

// goBench runs benchmarks in pkg of the module, with the overlay if ov is
// set, five times each, and returns the best ns/op of each.
func goBench(b *testing.B, dir, pkg, bench string, ov *Overlay) map[string]float64 {
	b.Helper()
	args := []string{"test", "-run=^$", "-bench=" + bench, "-count=5", "-benchtime=200ms"}
	if ov != nil {
		args = append(args, "-overlay="+ov.File)
	}
	out, err := runGo(dir, goEnv(), append(args, pkg)...)
	if err != nil {
		b.Fatal(err)
	}
	res := make(map[string]float64)
	for _, m := range nsPerOp.FindAllStringSubmatch(out, -1) {
		ns, _ := strconv.ParseFloat(m[2], 64)
		if old, ok := res[m[1]]; !ok || ns < old {
			res[m[1]] = ns
		}
	}
	if len(res) == 0 {
		b.Fatalf("no benchmark results:\n%s", out)
	}
	return res
}

// BenchmarkGoCommandSlowdown reports how much slower instrumented
// CPU-bound code runs (an expression evaluator and a hash) in hits (the
// default), count and set mode. The test binaries run alternately, many times; the fastest run
// of each counts, which discounts other load on the machine.
func BenchmarkGoCommandSlowdown(b *testing.B) {
	m := benchSetup(b)
	overlays := make(map[coverage.Mode]*Overlay)
	for _, mode := range []coverage.Mode{coverage.ModeCount, coverage.ModeSet} {
		ov, err := BuildOverlay(context.Background(), Config{Dir: m.dir, Patterns: []string{"./cpu"}, Mode: mode})
		if err != nil {
			b.Fatal(err)
		}
		defer ov.Close()
		overlays[mode] = ov
	}
	bins := b.TempDir()
	variants := []struct {
		name string
		ov   *Overlay
	}{{"plain", nil}, {"hits", m.ov}, {"count", overlays[coverage.ModeCount]}, {"set", overlays[coverage.ModeSet]}}
	best := make(map[string]float64)
	for _, v := range variants {
		args := []string{"test", "-c", "-o", filepath.Join(bins, v.name)}
		if v.ov != nil {
			args = append(args, "-overlay="+v.ov.File)
		}
		if _, err := runGo(m.dir, goEnv(), append(args, "./cpu")...); err != nil {
			b.Fatal(err)
		}
	}
	for range 15 {
		for _, v := range variants {
			out, err := exec.Command(filepath.Join(bins, v.name), "-test.run=^$", "-test.bench=^BenchmarkEval$", "-test.benchtime=100ms").CombinedOutput()
			if err != nil {
				b.Fatalf("%v\n%s", err, out)
			}
			ms := nsPerOp.FindStringSubmatch(string(out))
			if ms == nil {
				b.Fatalf("no result:\n%s", out)
			}
			ns, _ := strconv.ParseFloat(ms[2], 64)
			if best[v.name] == 0 || ns < best[v.name] {
				best[v.name] = ns
			}
		}
	}
	b.ReportMetric(best["plain"], "plain-ns/op")
	b.ReportMetric(best["hits"]/best["plain"], "hits-slowdown")
	b.ReportMetric(best["count"]/best["plain"], "count-slowdown")
	b.ReportMetric(best["set"]/best["plain"], "set-slowdown")
}

// BenchmarkGoCommandMeasure reports the overhead of Measure (reset, run,
// read) per input in a binary with about 1,000 counters.
func BenchmarkGoCommandMeasure(b *testing.B) {
	m := benchSetup(b)
	res := goBench(b, m.dir, "./gen", ".", m.ov)
	b.ReportMetric(res["BenchmarkPlain"], "run-ns/input")
	b.ReportMetric(res["BenchmarkMeasure"]-res["BenchmarkPlain"], "measure-overhead-ns/input")
	b.ReportMetric(res["BenchmarkMeasureInto"]-res["BenchmarkPlain"], "measureinto-overhead-ns/input")
}

// BenchmarkGoCommandProcessPerInput compares measuring inputs in process
// with the alternative of one go test -coverprofile process per input.
func BenchmarkGoCommandProcessPerInput(b *testing.B) {
	m := benchSetup(b)
	calcDir := filepath.Join(m.dir, "calc")
	inProcess := goBench(b, calcDir, ".", "^BenchmarkMeasureInputs$", m.ov)["BenchmarkMeasureInputs"] / 14
	inputs := []string{"add 1 2 3", "fib 10", "sort pear apple fig", "classify -1 0 7", "pipe 1 2 3"}

	// A prebuilt test binary run once per input.
	bin := filepath.Join(b.TempDir(), "calc.test")
	if _, err := runGo(calcDir, goEnv(), "test", "-c", "-covermode=count", "-coverpkg=./", "-o", bin, "."); err != nil {
		b.Fatal(err)
	}
	prof := filepath.Join(b.TempDir(), "c.out")
	start := time.Now()
	for _, in := range inputs {
		cmd := exec.Command(bin, "-test.run=^TestOne$", "-test.coverprofile="+prof)
		cmd.Dir = calcDir
		cmd.Env = goEnv("COVTEST_INPUT=" + in)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v\n%s", err, out)
		}
	}
	perBinary := float64(time.Since(start).Nanoseconds()) / float64(len(inputs))

	// go test itself once per input (its build cached).
	start = time.Now()
	for _, in := range inputs {
		if _, err := runGo(calcDir, goEnv("COVTEST_INPUT="+in), "test", "-count=1", "-run=^TestOne$",
			"-covermode=count", "-coverprofile="+prof, "."); err != nil {
			b.Fatal(err)
		}
	}
	perGoTest := float64(time.Since(start).Nanoseconds()) / float64(len(inputs))

	b.ReportMetric(inProcess, "inprocess-ns/input")
	b.ReportMetric(perBinary, "binary-ns/input")
	b.ReportMetric(perGoTest, "gotest-ns/input")
	b.ReportMetric(perBinary/inProcess, "binary/inprocess")
	b.ReportMetric(perGoTest/inProcess, "gotest/inprocess")
}

// BenchmarkGoCommandFuzz reports go test -fuzz executions per second of
// FuzzCalc, with every input measured under instrumentation and plain. The
// runs are bounded by counts of executions, never by a duration (Go issue
// 75804: a -fuzztime duration can fail the run): the rate is the executions
// of a long run less those of a one-execution run, over the difference of
// their wall times, which discounts building, starting the workers and
// gathering the baseline coverage.
func BenchmarkGoCommandFuzz(b *testing.B) {
	m := benchSetup(b)
	calcDir := filepath.Join(m.dir, "calc")
	const execs = 100000
	rate := func(ov *Overlay) float64 {
		run := func(n int) time.Duration {
			args := []string{"test", "-run=^$", "-fuzz=^FuzzCalc$", "-fuzztime=" + strconv.Itoa(n) + "x", "-parallel=1"}
			env := goEnv()
			if ov != nil {
				args = append(args, "-overlay="+ov.File)
				env = goEnv("COVTEST_REQUIRE=1")
			}
			start := time.Now()
			if _, err := runGo(calcDir, env, append(args, ".")...); err != nil {
				b.Fatal(err)
			}
			return time.Since(start)
		}
		one, long := run(1), run(execs)
		if long <= one {
			b.Fatalf("%d executions took %v, one took %v", execs, long, one)
		}
		return float64(execs-1) / (long - one).Seconds()
	}
	plain := rate(nil)
	inst := rate(m.ov)
	b.ReportMetric(plain, "plain-execs/s")
	b.ReportMetric(inst, "instrumented-execs/s")
	b.ReportMetric(inst/plain, "ratio")
}

// BenchmarkGoCommandStd reports, for the standard packages that
// testdata/stdtest parses with (encoding/json, net/url, encoding/csv,
// go/parser, go/scanner): the time BuildOverlay takes to instrument them,
// their counters, how much slower the instrumented parsers run (hits mode)
// on the 13 small test inputs and on four inputs of about 20 kB, and what
// measuring each small input costs on top.
//
// Times are CPU times of the benchmark processes (user and system, less
// that of a run of one iteration), the best of five runs of each binary
// in turn: on a loaded machine they vary much less than wall-clock times.
func BenchmarkGoCommandStd(b *testing.B) {
	parent := b.TempDir()
	dir, err := newModule(parent, "stdtest")
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	ov, err := BuildOverlay(context.Background(), Config{Dir: dir, Patterns: stdTestPackages})
	if err != nil {
		b.Fatal(err)
	}
	instrumenting := time.Since(start)
	defer ov.Close()
	bins := b.TempDir()
	for _, v := range []string{"plain", "hits"} {
		args := []string{"test", "-c", "-o", filepath.Join(bins, v)}
		if v == "hits" {
			args = append(args, "-overlay="+ov.File)
		}
		if _, err := runGo(dir, goEnv(), append(args, ".")...); err != nil {
			b.Fatal(err)
		}
	}
	// cpu returns the CPU time of running bench n times in bin.
	cpu := func(bin, bench string, n int) time.Duration {
		cmd := exec.Command(filepath.Join(bins, bin), "-test.run=^$", "-test.bench=^Benchmark"+bench+"$",
			"-test.benchtime="+strconv.Itoa(n)+"x", "-test.cpu=1")
		if out, err := cmd.CombinedOutput(); err != nil || !nsPerOp.Match(out) {
			b.Fatalf("%s: %v\n%s", bench, err, out)
		}
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	runs := []struct {
		bin, bench string
		n          int
	}{{"plain", "Exercise", 5000}, {"hits", "Exercise", 5000}, {"hits", "MeasureInto", 5000},
		{"plain", "ExerciseLarge", 200}, {"hits", "ExerciseLarge", 200}}
	best := make(map[string]float64)
	for range 5 {
		for _, r := range runs {
			ns := float64((cpu(r.bin, r.bench, r.n) - cpu(r.bin, r.bench, 1)).Nanoseconds()) / float64(r.n-1)
			key := r.bin + " " + r.bench
			if best[key] == 0 || ns < best[key] {
				best[key] = ns
			}
		}
	}
	n := float64(stdTestInputs)
	b.ReportMetric(float64(instrumenting.Milliseconds()), "buildoverlay-ms")
	b.ReportMetric(float64(ov.Table.NumBlocks()), "counters")
	b.ReportMetric(best["plain Exercise"]/n, "plain-ns/input")
	b.ReportMetric(best["hits Exercise"]/best["plain Exercise"], "hits-slowdown")
	b.ReportMetric((best["hits MeasureInto"]-best["hits Exercise"])/n, "measureinto-overhead-ns/input")
	b.ReportMetric(best["plain ExerciseLarge"]/4, "plain-ns/large-input")
	b.ReportMetric(best["hits ExerciseLarge"]/best["plain ExerciseLarge"], "hits-slowdown-large")
}
