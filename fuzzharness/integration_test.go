package fuzzharness

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// The integration tests build the examples' fuzz tests with the go command
// and run them as go test does, in all three modes.

var execsRE = regexp.MustCompile(`execs: (\d+) \(`)

// goTool returns the path of the go command, or skips the test if there is
// none or under -short.
func goTool(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds go test binaries; run without -short")
	}
	path, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not available:", err)
	}
	return path
}

// moduleRoot is the directory of go.mod, the parent of this package.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestGoTestFuzz builds each example's grammar-aware fuzz test with fuzzing
// instrumentation and fuzzes it for 20000 executions (a few seconds), as go
// test -fuzz does
// (the binary runs in a temporary directory, with a temporary fuzz cache, so
// that nothing is written into the repository or the build cache). It checks
// that the run passes, executes inputs, and that every input the fuzzer kept
// decodes to an input of the grammar.
func TestGoTestFuzz(t *testing.T) {
	gotool := goTool(t)
	// A number of executions rather than a duration, so that a busy machine
	// slows the test down instead of making it fail.
	const execsWanted = 20000
	fuzztime := strconv.Itoa(execsWanted) + "x"
	for _, tc := range []struct {
		pkg, target, grammar string
	}{
		{"./examples/calc", "FuzzCalc", "expr"},
		{"./examples/json", "FuzzJSON", "json"},
	} {
		t.Run(tc.target, func(t *testing.T) {
			tmp := t.TempDir()
			bin := filepath.Join(tmp, tc.target+".test")
			build := exec.Command(gotool, "test", "-c", "-fuzz=^"+tc.target+"$", "-o", bin, tc.pkg)
			build.Dir = moduleRoot(t)
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("%v: %v\n%s", build.Args, err, out)
			}
			cache := filepath.Join(tmp, "cache")
			run := exec.Command(bin, "-test.run=^$", "-test.fuzz=^"+tc.target+"$", "-test.fuzztime="+fuzztime,
				"-test.fuzzcachedir="+cache, "-test.parallel=2")
			run.Dir = tmp
			out, err := run.CombinedOutput()
			if err != nil {
				t.Fatalf("%v: %v\n%s", run.Args, err, out)
			}
			m := execsRE.FindAllStringSubmatch(string(out), -1)
			if len(m) == 0 || !strings.Contains(string(out), "PASS") {
				t.Fatalf("no execs reported, or no PASS:\n%s", out)
			}
			execs, _ := strconv.Atoi(m[len(m)-1][1])
			if execs < execsWanted {
				t.Fatalf("the fuzzer executed %d inputs, want %d:\n%s", execs, execsWanted, out)
			}
			t.Logf("%s: %d execs", tc.target, execs)
			entries, err := corpus.ReadDir(filepath.Join(cache, tc.target))
			if err != nil {
				t.Fatal(err)
			}
			gr := grammar.MustCompile(grammar.MustBuiltin(tc.grammar))
			c, err := NewCodec(gr)
			if err != nil {
				t.Fatal(err)
			}
			parser, err := grammar.NewParser(gr)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				data, ok := e.Values[0].([]byte)
				if !ok || len(e.Values) != 1 {
					t.Fatalf("%s holds %v, want one []byte", e.Path, e.Values)
				}
				if err := parser.Recognize(c.Decode(data).Bytes()); err != nil {
					t.Errorf("%s decodes to %q, not in the language: %v", e.Path, c.Decode(data), err)
				}
			}
		})
	}
}

// TestGoTestRunEntry runs go test on the examples as regression tests: all
// seeds and testdata entries, and one testdata entry by name.
func TestGoTestRunEntry(t *testing.T) {
	gotool := goTool(t)
	for _, tc := range []struct {
		pkg, target, entry string
	}{
		{"./examples/calc", "FuzzCalc", "265416b1ffdb2b2f"},
		{"./examples/json", "FuzzJSON", "4f84280615e97035"},
	} {
		cmd := exec.Command(gotool, "test", "-count=1", "-v", "-run=^"+tc.target+"$/^"+tc.entry+"$", tc.pkg)
		cmd.Dir = moduleRoot(t)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
		}
		if want := "--- PASS: " + tc.target + "/" + tc.entry; !strings.Contains(string(out), want) {
			t.Errorf("%v: the output lacks %q:\n%s", cmd.Args, want, out)
		}
		if strings.Contains(string(out), tc.target+"/seed#") {
			t.Errorf("%v ran seeds as well:\n%s", cmd.Args, out)
		}

		cmd = exec.Command(gotool, "test", "-count=1", "-v", "-run=^"+tc.target+"$", tc.pkg)
		cmd.Dir = moduleRoot(t)
		out, err = cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
		}
		for _, want := range []string{"--- PASS: " + tc.target + "/seed#0", "--- PASS: " + tc.target + "/" + tc.entry} {
			if !strings.Contains(string(out), want) {
				t.Errorf("%v: the output lacks %q:\n%s", cmd.Args, want, out)
			}
		}
	}
}
