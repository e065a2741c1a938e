package fuzzharness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/protocol"
)

var exprGraph = grammar.MustCompile(grammar.MustBuiltin("expr"))

// helperEnv selects what FuzzHelper does in a child process.
const helperEnv = "FUZZHARNESS_HELPER"

// recordingHook returns the order of its calls, which the harness writes
// into the record's Extra.
type recordingHook struct{ calls, begin int }

func (h *recordingHook) Begin() {
	h.calls++
	h.begin = h.calls
}

func (h *recordingHook) End() any {
	h.calls++
	return map[string]int{"begin": h.begin, "end": h.calls}
}

// hookCalls decodes the Extra that recordingHook gave a record.
func hookCalls(t *testing.T, r *protocol.Record) map[string]int {
	t.Helper()
	if len(r.Extra) == 0 {
		return nil
	}
	var m map[string]int
	if err := json.Unmarshal(r.Extra, &m); err != nil {
		t.Fatalf("record %q: Extra %s: %v", r.ID, r.Extra, err)
	}
	return m
}

// FuzzHelper is the fuzz test that the tests below run in a child process
// (the test binary itself) to see the harness from the outside, as go test
// runs it. Outside such a child it skips.
func FuzzHelper(f *testing.F) {
	mode := os.Getenv(helperEnv)
	switch mode {
	case "":
		f.Skip("run by the harness tests in a child process")
	case "fail":
		NewGraph(f, exprGraph, WithKPathSeeds(0), WithExamples("(x+1)*2", "7")).FuzzString(func(t *testing.T, s string) {
			if strings.Contains(s, "(") {
				t.Errorf("found a parenthesis")
			}
		})
	case "panic":
		NewGraph(f, exprGraph, WithKPathSeeds(0), WithExamples("7", "(x+1)*2")).Fuzz(func(t *testing.T, in Input) {
			if strings.Contains(in.String(), "(") {
				panic("boom")
			}
		})
	case "validity":
		valid := func(t *grammar.Tree) bool { return !strings.Contains(t.String(), "+") }
		NewGraph(f, exprGraph, WithKPathSeeds(0), WithExamples("1+2", "3", "x+y", "z"), WithValidity(valid)).FuzzString(func(t *testing.T, s string) {
			if strings.Contains(s, "+") {
				t.Errorf("the target ran on %q", s)
			}
		})
	case "fuzzfail":
		// Fails only on inputs the fuzzer has to find: the seed has no y.
		NewGraph(f, exprGraph, WithKPathSeeds(0), WithExamples("x+1")).FuzzString(func(t *testing.T, s string) {
			if strings.Contains(s, "y") {
				t.Errorf("found a y")
			}
		})
	case "fuzzpanic":
		NewGraph(f, exprGraph, WithKPathSeeds(0), WithExamples("x+1")).FuzzString(func(t *testing.T, s string) {
			if strings.Contains(s, "y") {
				panic("found a y")
			}
		})
	case "constraint":
		constraintHelper(f)
	case "badexample":
		NewGraph(f, exprGraph, WithExamples("1+2", "1+*2")).FuzzString(func(t *testing.T, s string) {})
	case "measure":
		SetMeasureHook(&recordingHook{})
		valid := func(t *grammar.Tree) bool { return t.String() != "6" }
		NewGraph(f, exprGraph, WithValidity(valid)).FuzzString(func(t *testing.T, s string) {
			switch s {
			case "2":
				t.Error("two")
			case "3":
				panic("three")
			case "4":
				t.Skip("four")
			case "5":
				time.Sleep(time.Hour)
			}
		})
	default:
		f.Fatalf("unknown %s=%q", helperEnv, mode)
	}
}

// runHelper runs FuzzHelper in a child process with the mode and extra
// environment and returns its output and exit code.
func runHelper(t *testing.T, mode string, env []string, args ...string) (string, int) {
	t.Helper()
	return runHelperIn(t, "", mode, append([]string{"-test.run=^FuzzHelper$"}, args...), env...)
}

// runHelperIn runs the test binary in dir with the helper mode, the
// arguments and extra environment, and returns its output and exit code.
func runHelperIn(t *testing.T, dir, mode string, args []string, env ...string) (string, int) {
	t.Helper()
	args = append([]string{"-test.v", "-test.count=1"}, args...)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), helperEnv+"="+mode), env...)
	out, err := cmd.CombinedOutput()
	code := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatal(err)
		}
		code = ee.ExitCode()
	}
	return string(out), code
}

func TestFailureIsReported(t *testing.T) {
	out, code := runHelper(t, "fail", nil)
	if code == 0 {
		t.Fatalf("the failing fuzz test passed:\n%s", out)
	}
	for _, want := range []string{
		"--- FAIL: FuzzHelper/seed#0",
		"found a parenthesis",
		`fuzzharness: the target failed on this input (7 bytes): "(x+1)*2"`,
		`<AddExpr>#0  "(x+1)*2"`,
		`"("#`,
		"--- PASS: FuzzHelper/seed#1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
}

func TestPanicIsReportedAndRaised(t *testing.T) {
	out, code := runHelper(t, "panic", nil)
	if code == 0 {
		t.Fatalf("the panicking fuzz test passed:\n%s", out)
	}
	for _, want := range []string{
		"--- PASS: FuzzHelper/seed#0",
		`fuzzharness: the target panicked on this input (7 bytes): "(x+1)*2"`,
		`<AddExpr>#0  "(x+1)*2"`,
		"panic: boom",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
}

func TestValidityRejects(t *testing.T) {
	out, code := runHelper(t, "validity", nil)
	if code != 0 {
		t.Fatalf("exit code %d:\n%s", code, out)
	}
	for _, want := range []string{
		"--- SKIP: FuzzHelper/seed#0",
		"--- PASS: FuzzHelper/seed#1",
		"--- SKIP: FuzzHelper/seed#2",
		"--- PASS: FuzzHelper/seed#3",
		"the validity predicate rejected 2 of 4 inputs (50.0%)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
}

func TestBadExampleIsFatal(t *testing.T) {
	out, code := runHelper(t, "badexample", nil)
	if code == 0 {
		t.Fatalf("the fuzz test passed:\n%s", out)
	}
	want := `fuzzharness: example 2 "1+*2": 1:3: unexpected '*', expected one of "(", "+"`
	if !strings.Contains(out, want) {
		t.Errorf("the output lacks %q:\n%s", want, out)
	}
}

// writeInputs writes measure-mode input records.
func writeInputs(t *testing.T, recs ...protocol.InputRecord) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "inputs.jsonl")
	if err := protocol.WriteInputs(path, recs); err != nil {
		t.Fatal(err)
	}
	return path
}

func text(s string) *string { return &s }

func mustEncode(t *testing.T, c *Codec, s string) []byte {
	t.Helper()
	tr, err := c.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	data, err := c.Encode(tr)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func readRecords(t *testing.T, path string) []protocol.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := protocol.ReadRecords(f)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestMeasureMode(t *testing.T) {
	c, err := NewCodec(exprGraph)
	if err != nil {
		t.Fatal(err)
	}
	inputs := writeInputs(t,
		protocol.InputRecord{ID: "one", Text: text("1")},
		protocol.InputRecord{ID: "two", Data: mustEncode(t, c, "2")},
		protocol.InputRecord{ID: "three", Text: text("3")},
		protocol.InputRecord{ID: "four", Text: text("4")},
		protocol.InputRecord{ID: "bad", Text: text("1+")},
		protocol.InputRecord{ID: "six", Text: text("6")},
		protocol.InputRecord{ID: "one again", Text: text("1")},
		protocol.InputRecord{ID: "empty"},
	)
	// An entry of testdata/fuzz would run too; the measure mode ignores it.
	dir := t.TempDir()
	if _, _, err := corpus.Add(filepath.Join(dir, "testdata", "fuzz", "FuzzHelper"), mustEncode(t, c, "2")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "records.jsonl")
	trace := filepath.Join(t.TempDir(), "trace")
	cmd := exec.Command(os.Args[0], "-test.run=^FuzzHelper$", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), helperEnv+"=measure", protocol.EnvInputs+"="+inputs, protocol.EnvOut+"="+out, protocol.EnvTrace+"="+trace)
	output, _ := cmd.CombinedOutput()
	recs := readRecords(t, out)
	got := map[string]protocol.Record{}
	for _, r := range recs {
		got[r.ID] = r
		if r.Target != "FuzzHelper" {
			t.Errorf("record %+v has target %q", r, r.Target)
		}
	}
	if len(recs) != 8 {
		t.Fatalf("got %d records, want 8:\n%+v\n%s", len(recs), recs, output)
	}
	for _, tc := range []struct {
		id     string
		index  int
		input  string
		status protocol.Status
		msg    string
	}{
		{"one", 0, "1", protocol.StatusPass, ""},
		{"two", 1, "2", protocol.StatusFail, ""},
		{"three", 2, "3", protocol.StatusPanic, "three"},
		{"four", 3, "4", protocol.StatusSkip, ""},
		{"bad", 4, "1+", protocol.StatusError, "unexpected EOF"},
		{"six", 5, "6", protocol.StatusInvalid, ""},
		{"one again", 6, "1", protocol.StatusPass, ""},
		{"empty", 7, "x", protocol.StatusPass, ""},
	} {
		r := got[tc.id]
		if r.Index != tc.index || r.Input != tc.input || r.Status != tc.status || !strings.Contains(r.Message, tc.msg) {
			t.Errorf("record %q = %+v, want index %d, input %q, status %s, message with %q", tc.id, r, tc.index, tc.input, tc.status, tc.msg)
		}
		ran := tc.status != protocol.StatusError && tc.status != protocol.StatusInvalid
		extra := hookCalls(t, &r)
		if ran != (extra["begin"] != 0 && extra["end"] != 0) {
			t.Errorf("record %q: Extra %v, want begin and end calls: %v", tc.id, r.Extra, ran)
		}
		if tc.status == protocol.StatusPanic && !strings.Contains(r.Stack, "goroutine") {
			t.Errorf("record %q has no stack: %+v", tc.id, r)
		}
	}
	// The trace names the inputs the target ran over, in order.
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if idx, err := protocol.ReadTrace(f); err != nil || fmt.Sprint(idx) != "[0 1 2 3 6 7]" {
		t.Errorf("trace %v, %v; want the inputs that ran, [0 1 2 3 6 7]", idx, err)
	}
	// Begin and End alternate, in input order.
	last := 0
	for _, r := range recs {
		if extra := hookCalls(t, &r); extra != nil {
			b, e := extra["begin"], extra["end"]
			if b != last+1 || e != b+1 {
				t.Errorf("record %q: begin %v, end %v after %v", r.ID, b, e, last)
			}
			last = e
		}
	}
}

func TestMeasureTimeout(t *testing.T) {
	inputs := writeInputs(t,
		protocol.InputRecord{ID: "one", Text: text("1")},
		protocol.InputRecord{ID: "five", Text: text("5")},
		protocol.InputRecord{ID: "seven", Text: text("7")},
	)
	out := filepath.Join(t.TempDir(), "records.jsonl")
	output, code := runHelper(t, "measure", []string{protocol.EnvInputs + "=" + inputs, protocol.EnvOut + "=" + out, protocol.EnvTimeout + "=3s"})
	if code != protocol.TimeoutExitCode {
		t.Errorf("exit code %d, want %d:\n%s", code, protocol.TimeoutExitCode, output)
	}
	recs := readRecords(t, out)
	if len(recs) != 2 || recs[0].Status != protocol.StatusPass || recs[1].Status != protocol.StatusTimeout || recs[1].ID != "five" {
		t.Fatalf("records %+v, want a pass and a timeout", recs)
	}
	if d := time.Duration(recs[1].DurationNS); d < 3*time.Second {
		t.Errorf("timeout after %v, want at least 3s", d)
	}
}

func TestMeasureCorpusDir(t *testing.T) {
	c, err := NewCodec(exprGraph)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	names := map[string]string{}
	for _, v := range []any{mustEncode(t, c, "1"), "2", mustEncode(t, c, "(3)")} {
		name, _, err := corpus.Add(dir, v)
		if err != nil {
			t.Fatal(err)
		}
		names[name] = map[bool]string{true: "text"}[func() bool { _, ok := v.(string); return ok }()]
	}
	out := filepath.Join(t.TempDir(), "records.jsonl")
	output, _ := runHelper(t, "measure", []string{protocol.EnvInputs + "=" + dir, protocol.EnvOut + "=" + out})
	recs := readRecords(t, out)
	if len(recs) != 3 {
		t.Fatalf("records %+v, want 3:\n%s", recs, output)
	}
	inputs := map[string]protocol.Status{}
	for _, r := range recs {
		if _, ok := names[r.ID]; !ok {
			t.Errorf("record ID %q is not a corpus file name", r.ID)
		}
		inputs[r.Input] = r.Status
	}
	if inputs["1"] != protocol.StatusPass || inputs["2"] != protocol.StatusFail || inputs["(3)"] != protocol.StatusPass {
		t.Errorf("statuses %v", inputs)
	}
}

func TestGrammarOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "grammar.jsonl")
	out, code := runHelper(t, "validity", []string{protocol.EnvGrammarOut + "=" + path})
	if code != 0 || !strings.Contains(out, "--- SKIP: FuzzHelper") {
		t.Fatalf("exit code %d, want the fuzz test skipped:\n%s", code, out)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ds, err := protocol.ReadDescriptions(f)
	if err != nil || len(ds) != 1 {
		t.Fatalf("protocol.ReadDescriptions: %v, %v", ds, err)
	}
	d := ds[0]
	if d.Target != "FuzzHelper" || d.Start != "Expr" || !d.Validity || d.K != 0 || len(d.Examples) != 4 ||
		Bounds(d.Bounds) != (Bounds{MaxDepth: DefaultMaxDepth, MaxSize: DefaultMaxSize, MaxRepeat: DefaultMaxRepeat}) {
		t.Errorf("description %+v", d)
	}
	gr, err := d.Graph()
	if err != nil {
		t.Fatal(err)
	}
	c2, err := NewCodec(gr, WithBounds(Bounds(d.Bounds)))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := NewCodec(exprGraph)
	for _, data := range [][]byte{nil, {1, 2, 3}, bytes.Repeat([]byte{0x9d, 7}, 50)} {
		if a, b := c.Decode(data).String(), c2.Decode(data).String(); a != b {
			t.Errorf("the described codec decodes %x to %q, the original to %q", data, b, a)
		}
	}
}

func TestSeeds(t *testing.T) {
	c, err := NewCodec(exprGraph)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := c.Parse("(x+1)*2")
	if err != nil {
		t.Fatal(err)
	}
	seeds, err := Seeds(exprGraph, WithKPathSeeds(0), WithExamples("1", "(x+1)*2", "1"), WithSeedTrees(tree))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range seeds {
		got = append(got, s.String())
	}
	if strings.Join(got, " ") != "1 (x+1)*2" {
		t.Errorf("Seeds = %q, want the examples once each", got)
	}

	// The 2-path covering forest covers every 2-path within the bounds.
	forest, err := Seeds(exprGraph)
	if err != nil {
		t.Fatal(err)
	}
	pt, err := exprGraph.PathTable(2)
	if err != nil {
		t.Fatal(err)
	}
	if covered, total := pt.Coverage(2, forest...); covered != total {
		t.Errorf("the seeds cover %d of %d 2-paths", covered, total)
	}

	for _, tc := range []struct {
		opts []Option
		want string
	}{
		{[]Option{WithKPathSeeds(0), WithExamples("1+")}, `example 1 "1+": 1:3: unexpected EOF`},
		{[]Option{WithKPathSeeds(0), WithMaxRepeat(1), WithExamples("123")}, `example 1 "123": fuzzharness: at input offset 0, repeat+: 3 repetitions, more than MaxRepeat 1`},
		{[]Option{WithKPathSeeds(0), WithMaxDepth(5), WithSeedTrees(tree)}, `seed tree 1 "(x+1)*2"`},
		{[]Option{WithKPathSeeds(3), WithMaxDepth(4)}, "the 3-path covering forest"},
	} {
		if _, err := Seeds(exprGraph, tc.opts...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Seeds: %v, want an error containing %q", err, tc.want)
		}
	}
}

func TestDescribeInput(t *testing.T) {
	c, err := NewCodec(exprGraph)
	if err != nil {
		t.Fatal(err)
	}
	small := c.Decode([]byte{1}).Describe()
	if want := "input (3 bytes): \"x+x\"\ntree:\n  <AddExpr>#0  \"x+x\"\n"; !strings.HasPrefix(small, want) {
		t.Errorf("Describe = %q, want it to start with %q", small, want)
	}
	many, err := NewCodec(mustGraph(t, `<start> ::= <a>* ; <a> ::= "a" ;`), WithMaxRepeat(250))
	if err != nil {
		t.Fatal(err)
	}
	big := many.Decode([]byte{250}).Describe()
	if lines := strings.Count(big, "\n"); lines != maxOutlineLines+3 || !strings.Contains(big, "more lines)\n") {
		t.Errorf("Describe of a big tree has %d lines:\n%s", lines, big)
	}
}

// TestFuzzModeFailure fuzzes FuzzHelper in a child process, as go test
// -fuzz does, until it finds a failing input, and checks that the failure
// report shows the decoded input, that go test records the failing bytes,
// and that running that entry with -run reproduces the failure.
func TestFuzzModeFailure(t *testing.T) {
	for _, mode := range []string{"fuzzfail", "fuzzpanic"} {
		dir := t.TempDir()
		cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.fuzz=^FuzzHelper$", "-test.fuzztime=60s",
			"-test.fuzzcachedir="+filepath.Join(dir, "cache"), "-test.parallel=1")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), helperEnv+"="+mode)
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Fatalf("%s: fuzzing found no failure:\n%s", mode, out)
		}
		for _, want := range []string{"fuzzharness: the target", "on this input (", "<AddExpr>#0", `"y"#9`, "Failing input written to testdata/fuzz/FuzzHelper/"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("%s: the output lacks %q:\n%s", mode, want, out)
			}
		}
		entries, err := corpus.ReadDir(filepath.Join(dir, "testdata", "fuzz", "FuzzHelper"))
		if err != nil || len(entries) != 1 {
			t.Fatalf("%s: the failing input was not recorded: %v, %v", mode, entries, err)
		}
		data := entries[0].Values[0].([]byte)
		c, _ := NewCodec(exprGraph)
		if s := c.Decode(data).String(); !strings.Contains(s, "y") {
			t.Errorf("%s: the recorded input decodes to %q, which has no y", mode, s)
		}
		rerun, code := runHelperIn(t, dir, mode, []string{"-test.run=^FuzzHelper$/^" + entries[0].Name + "$"})
		if code == 0 || !strings.Contains(rerun, "--- FAIL: FuzzHelper/"+entries[0].Name) {
			t.Errorf("%s: -run=FuzzHelper/%s did not reproduce the failure (code %d):\n%s", mode, entries[0].Name, code, rerun)
		}
	}
}
