package stdtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/coverage"
)

var stdPackages = []string{"encoding/csv", "encoding/json", "go/parser", "go/scanner", "net/url"}

func out(t *testing.T, name string) string {
	dir := os.Getenv("COVTEST_OUT")
	if dir == "" {
		t.Skip("COVTEST_OUT not set")
	}
	return filepath.Join(dir, name)
}

// TestAll runs every input; go test -coverprofile -coverpkg measures it.
func TestAll(t *testing.T) {
	out(t, "")
	for _, in := range Inputs {
		Exercise(in)
	}
	if _, err := coverage.Current(); !errors.Is(err, coverage.ErrNotInstrumented) {
		t.Fatalf("Current() error = %v, want ErrNotInstrumented", err)
	}
}

type measured struct {
	Input string
	Funcs []string
	Hits  map[string]uint64
	Err   string
}

// TestMeasure measures every input. It writes its results with
// encoding/json, which is instrumented, only after taking the totals.
func TestMeasure(t *testing.T) {
	file := out(t, "measure.json")
	p, err := coverage.Current(stdPackages...)
	if err != nil {
		t.Fatal(err)
	}
	var initProfile, totalProfile bytes.Buffer
	total := p.Snapshot()
	if err := total.WriteProfile(&initProfile); err != nil {
		t.Fatal(err)
	}
	var results []measured
	for _, in := range Inputs {
		res, err := p.Measure(func() { Exercise(in) })
		if err != nil {
			t.Fatal(err)
		}
		m := measured{Input: in, Funcs: res.Funcs.Names(), Hits: make(map[string]uint64)}
		for fn := range res.Funcs.All() {
			m.Hits[p.Table().Func(fn).Name] = res.Counts.Hits(fn)
		}
		results = append(results, m)
		total.Add(res.Counts)
	}
	if err := total.WriteProfile(&totalProfile); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(map[string]any{"Inputs": results, "Init": initProfile.String(), "Total": totalProfile.String()})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// probe panics when encoding/json hands it its value, after recording the
// frames that called it.
type probe struct{}

var probeFrames []string

func (*probe) UnmarshalJSON([]byte) error {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	for {
		f, more := frames.Next()
		probeFrames = append(probeFrames, fmt.Sprintf("%s %s:%d", f.Function, f.File, f.Line))
		if !more {
			break
		}
	}
	panic("probe")
}

// TestProbe records the frames of encoding/json that call a panicking
// UnmarshalJSON method and the stack at the panic, instrumented (through
// coverage.Measure) or not.
func TestProbe(t *testing.T) {
	file := out(t, "probe.txt")
	var target struct{ P []probe }
	run := func() { json.Unmarshal([]byte(`{"P":[{}]}`), &target) }
	var stack []byte
	if p, err := coverage.Current("encoding/json"); err == nil {
		res, err := p.Measure(run)
		var pe *coverage.PanicError
		if !errors.As(err, &pe) || pe.Value != "probe" {
			t.Fatalf("Measure error %v, want the probe's panic", err)
		}
		stack = pe.Stack
		for _, name := range []string{"encoding/json.Unmarshal", "encoding/json.(*decodeState).object", "encoding/json.(*decodeState).array"} {
			if i, ok := p.Table().Lookup(name); !ok || !res.Funcs.Has(i) {
				t.Errorf("%s not covered by the panicking input", name)
			}
		}
	} else {
		func() {
			defer func() {
				if v := recover(); v != "probe" {
					t.Fatalf("recovered %v, want the probe's panic", v)
				}
				stack = debug.Stack()
			}()
			run()
		}()
	}
	// The lines of the stack that name files of encoding/json.
	var lines []string
	re := regexp.MustCompile(`\S*/encoding/json/\w+\.go:\d+`)
	for _, l := range strings.Split(string(stack), "\n") {
		if m := re.FindString(l); m != "" {
			lines = append(lines, m)
		}
	}
	text := "frames\n" + strings.Join(probeFrames, "\n") + "\nstack\n" + strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// FuzzJSON measures each fuzz input in encoding/json; with COVTEST_REQUIRE
// set, it fails unless the counters work in the fuzz workers.
func FuzzJSON(f *testing.F) {
	for _, in := range Inputs {
		if text, ok := strings.CutPrefix(in, "json:"); ok {
			f.Add(text)
		}
	}
	p, err := coverage.Current("encoding/json")
	if err != nil && os.Getenv("COVTEST_REQUIRE") != "" {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if p == nil {
			Exercise("json:" + s)
			return
		}
		res, _ := p.Measure(func() { Exercise("json:" + s) })
		if !res.Funcs.HasName("encoding/json.Valid") {
			t.Fatalf("encoding/json.Valid not covered: %v", res.Funcs)
		}
	})
}

// BenchmarkExercise runs all inputs once per iteration.
func BenchmarkExercise(b *testing.B) {
	for b.Loop() {
		for _, in := range Inputs {
			Exercise(in)
		}
	}
}

// largeInputs returns one input of about 20 kB for each parser.
func largeInputs() []string {
	var js, csv, src strings.Builder
	js.WriteString("json:[")
	csv.WriteString("csv:")
	src.WriteString("go:package p\n\n")
	for i := range 200 {
		if i > 0 {
			js.WriteString(",")
		}
		fmt.Fprintf(&js, `{"id":%d,"name":"item %d","tags":["a","b\u00e9"],"price":%d.25,"ok":%v,"next":null}`, i, i, i, i%2 == 0)
		fmt.Fprintf(&csv, "%d,\"name, %d\",%d.5,\"say \"\"hi\"\"\"\n", i, i, i)
		fmt.Fprintf(&src, "// F%d is generated.\nfunc F%d(x []int) (s int) {\n\tfor i, v := range x {\n\t\tif v > %d {\n\t\t\ts += i * v\n\t\t}\n\t}\n\treturn\n}\n\n", i, i, i)
	}
	js.WriteString("]")
	url := "url:https://user:secret@example.com:8443/a/b%20c/d?x=1&y=two&z=%C3%A9&w=" + strings.Repeat("q", 2000) + "#frag"
	return []string{js.String(), csv.String(), src.String(), url}
}

// BenchmarkExerciseLarge runs the large inputs once per iteration.
func BenchmarkExerciseLarge(b *testing.B) {
	ins := largeInputs()
	for b.Loop() {
		for _, in := range ins {
			Exercise(in)
		}
	}
}

// BenchmarkMeasureInto measures all inputs once per iteration, each on its
// own.
func BenchmarkMeasureInto(b *testing.B) {
	p, err := coverage.Current(stdPackages...)
	if err != nil {
		b.Skip(err)
	}
	b.ReportMetric(float64(p.Table().NumBlocks()), "counters")
	var res coverage.Result
	runs := make([]func(), len(Inputs))
	for i, in := range Inputs {
		runs[i] = func() { Exercise(in) }
	}
	for b.Loop() {
		for _, run := range runs {
			p.MeasureInto(&res, run)
		}
	}
}
