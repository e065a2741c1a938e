package scriptc_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/internal/protocol"
)

var execsRE = regexp.MustCompile(`execs: (\d+) \((\d+)/sec\)`)

// fuzzRun builds the package's test binary with fuzzing instrumentation
// and fuzzes target for n executions (-fuzztime=Nx: a count, not a
// duration, so that a busy machine slows the test down instead of making it
// fail), as go test -fuzz does, in a temporary directory with a temporary
// fuzz cache. It returns the harness's counts, gathered from the worker
// processes (KFUZZ_STATS), and the executions the fuzzer reported.
func fuzzRun(t *testing.T, target string, n int) (fuzzharness.Stats, int) {
	t.Helper()
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not available:", err)
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "scriptc.test")
	build := exec.Command(gotool, "test", "-c", "-fuzz=^"+target+"$", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", build.Args, err, out)
	}
	statsFile := filepath.Join(tmp, "stats.json")
	run := exec.Command(bin, "-test.run=^$", "-test.fuzz=^"+target+"$", "-test.fuzztime="+strconv.Itoa(n)+"x",
		"-test.fuzzcachedir="+filepath.Join(tmp, "cache"), "-test.parallel=2", "-test.v")
	run.Dir = tmp
	// No repair budget: the budget is wall-clock time, and the share of
	// valid inputs must not depend on the machine's load.
	run.Env = append(os.Environ(), fuzzharness.EnvStats+"="+statsFile, protocol.EnvRepairBudget+"=0s")
	start := time.Now()
	out, err := run.CombinedOutput()
	elapsed := time.Since(start)
	if err != nil {
		t.Fatalf("%v: %v\n%s", run.Args, err, out)
	}
	data, err := os.ReadFile(statsFile)
	if err != nil {
		t.Fatalf("the fuzz run wrote no counts: %v\n%s", err, out)
	}
	var s fuzzharness.Stats
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("%s: %v", statsFile, err)
	}
	execs := 0
	if m := execsRE.FindAllStringSubmatch(string(out), -1); len(m) > 0 {
		execs, _ = strconv.Atoi(m[len(m)-1][1])
	}
	t.Logf("%s: %d execs in %v (%.0f/s); %s", target, execs, elapsed.Round(time.Millisecond), float64(execs)/elapsed.Seconds(), s)
	return s, execs
}

// TestFuzzInterpValidShare runs go test -fuzz=FuzzInterp for 3,000
// executions and checks that at least 95% of the executions, counted in the
// fuzz worker processes, that the harness did not make invalid on purpose
// (invalidShare of them, give or take) reached the interpreter with a
// program that satisfies def-use and no-redef (valid as decoded or
// repaired). For comparison it runs FuzzInterpNoRepair, which only skips
// invalid programs, and logs its share.
func TestFuzzInterpValidShare(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and fuzzes a go test binary; run without -short")
	}
	const n = 3000
	s, execs := fuzzRun(t, "FuzzInterp", n)
	if execs < n {
		t.Errorf("the fuzzer reported %d executions, want at least %d", execs, n)
	}
	if s.Inputs < 100 {
		t.Fatalf("the workers counted %d inputs, want at least 100", s.Inputs)
	}
	if share := float64(s.Invalid) / float64(s.Inputs); share < invalidShare/2 || share > 2*invalidShare {
		t.Errorf("%.1f%% of the executions were made invalid on purpose, want about %.0f%%", 100*share, 100*invalidShare)
	}
	if rate := float64(s.Inputs-s.Rejected-s.Invalid) / float64(s.Inputs-s.Invalid); rate < 0.95 {
		t.Errorf("%.1f%% of the other executions got a valid input, want at least 95%%", 100*rate)
	}
	if s.Repaired == 0 {
		t.Errorf("no input was repaired: the fuzzer's mutations never broke the constraint?")
	}
	if s.OverBudget != 0 || s.RepairMax <= 0 || s.RepairP50 > s.RepairP99 || s.RepairP99 > s.RepairMax {
		t.Errorf("without a budget, %d repairs over it; repair times p50 %v, p99 %v, max %v", s.OverBudget, s.RepairP50, s.RepairP99, s.RepairMax)
	}
	fuzzRun(t, "FuzzInterpNoRepair", n)
}
