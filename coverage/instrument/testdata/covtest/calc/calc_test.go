package calc

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/seed72891827/kfuzz/coverage"
)

// inputs are the commands that TestMeasure measures one by one and TestAll
// runs in one go, for comparison with go test -coverprofile.
var inputs = []string{
	"add 1 2 3",
	"max 3 9 4",
	"fib 10",
	"fib",
	"sort pear apple fig",
	"classify -1 0 7 2.5 true word",
	"count a b c",
	"pipe 1 2 3",
	"evens 1 2 3 4 5 6",
	"point a b",
	"panic now",
	"panic",
	"",
	"bogus",
}

// run runs one input, recovering a panic.
func run(s string) {
	defer func() { recover() }()
	Run(s)
}

var initTraced []uintptr

func TestMain(m *testing.M) {
	traceMu.Lock()
	initTraced = Traced
	Traced, Tracing = nil, false
	traceMu.Unlock()
	os.Exit(m.Run())
}

// out returns the path of an output file, or skips the test if no output
// directory is set.
func out(t *testing.T, name string) string {
	dir := os.Getenv("COVTEST_OUT")
	if dir == "" {
		t.Skip("COVTEST_OUT not set")
	}
	return filepath.Join(dir, name)
}

func writeJSON(t *testing.T, name string, v any) {
	data, err := json.MarshalIndent(v, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out(t, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAll runs every input; go test -coverprofile measures it.
func TestAll(t *testing.T) {
	file := out(t, "notinstrumented.txt")
	for _, in := range inputs {
		run(in)
	}
	_, err := coverage.Current()
	if !errors.Is(err, coverage.ErrNotInstrumented) {
		t.Fatalf("Current() error = %v, want ErrNotInstrumented", err)
	}
	os.WriteFile(file, []byte(err.Error()), 0o644)
}

type measured struct {
	Input string
	Funcs []string
	Hits  map[string]uint64
	Err   string
}

// TestMeasure measures every input and writes the function sets, the
// coverage at initialization and the total as profiles.
func TestMeasure(t *testing.T) {
	file := out(t, "measure.json")
	p, err := coverage.Current("example.com/covtest/calc")
	if err != nil {
		t.Fatal(err)
	}
	var initProfile, totalProfile bytes.Buffer
	total := p.Snapshot() // what ran while the package was initialized
	if err := total.WriteProfile(&initProfile); err != nil {
		t.Fatal(err)
	}
	var results []measured
	for _, in := range inputs {
		res, err := p.Measure(func() { Run(in) })
		m := measured{Input: in, Funcs: res.Funcs.Names(), Hits: make(map[string]uint64)}
		for fn := range res.Funcs.All() {
			m.Hits[p.Table().Func(fn).Name] = res.Counts.Hits(fn)
		}
		if err != nil {
			m.Err = err.Error()
		}
		results = append(results, m)
		total.Add(res.Counts)
	}
	if err := total.WriteProfile(&totalProfile); err != nil {
		t.Fatal(err)
	}
	writeJSON(t, "measure.json", map[string]any{
		"Inputs": results,
		"Init":   initProfile.String(),
		"Total":  totalProfile.String(),
	})
	_ = file
}

type traced struct {
	Function, File string
	Line           int
}

// TestNames records the runtime's names of the traced functions.
func TestNames(t *testing.T) {
	out(t, "names.json")
	traceMu.Lock()
	Traced, Tracing = nil, true
	traceMu.Unlock()
	for _, in := range inputs {
		run(in)
	}
	traceMu.Lock()
	pcs := append(initTraced, Traced...)
	Traced, Tracing = nil, false
	traceMu.Unlock()
	var recs []traced
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		recs = append(recs, traced{f.Function, f.File, f.Line})
		if !more {
			break
		}
	}
	writeJSON(t, "names.json", recs)
}

// TestPanic writes the stack of a panic in instrumented code.
func TestPanic(t *testing.T) {
	file := out(t, "panic.txt")
	var stacks []byte
	for _, in := range []string{"panic now", "panic"} {
		_, err := coverage.Measure(func() { Run(in) })
		var pe *coverage.PanicError
		if !errors.As(err, &pe) {
			t.Fatalf("Measure(%q) error = %v, want a PanicError", in, err)
		}
		stacks = append(stacks, pe.Stack...)
	}
	os.WriteFile(file, stacks, 0o644)
}

// TestOne runs the input in COVTEST_INPUT, for measuring one input per
// process with go test -coverprofile.
func TestOne(t *testing.T) {
	in, ok := os.LookupEnv("COVTEST_INPUT")
	if !ok {
		t.Skip("COVTEST_INPUT not set")
	}
	run(in)
}

// BenchmarkMeasureInputs measures every input once per iteration.
func BenchmarkMeasureInputs(b *testing.B) {
	p, err := coverage.Current()
	if err != nil {
		b.Skip(err)
	}
	b.ReportMetric(float64(len(inputs)), "inputs/op")
	for b.Loop() {
		for _, in := range inputs {
			p.Measure(func() { Run(in) })
		}
	}
}

// FuzzCalc checks that the counters work in fuzz workers.
func FuzzCalc(f *testing.F) {
	for _, in := range inputs {
		f.Add(in)
	}
	p, err := coverage.Current()
	if err != nil && os.Getenv("COVTEST_REQUIRE") != "" {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if p == nil {
			run(s)
			return
		}
		res, _ := p.Measure(func() { Run(s) })
		if !res.Funcs.HasName("example.com/covtest/calc.Run") {
			t.Fatalf("Run not covered: %v", res.Funcs)
		}
	})
}
