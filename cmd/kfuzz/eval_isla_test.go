package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
	"github.com/seed72891827/kfuzz/internal/cputime"
)

func runEval(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(&env{stdout: &out, stderr: &errb, stdin: strings.NewReader("")}, append([]string{"eval", "isla"}, args...))
	return out.String(), errb.String(), code
}

// A short run prints a row per subject with every output valid.
func TestEvalIslaTable(t *testing.T) {
	out, errOut, code := runEval(t, "-time", "2s", "-subjects", "csv,tar,rest", "-z3=false")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	for _, want := range []string{"CSV column count", "TAR lengths + checksum", "reST title underline", "k=3 %", "ISLa valid/min",
		"csv: ", "tar: ", "rest: ", "k-paths: one node per nonterminal"} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "csv: ") || strings.HasPrefix(l, "tar: ") || strings.HasPrefix(l, "rest: ") {
			if !strings.Contains(l, "100.0% valid (goal 100%: met)") {
				t.Errorf("not all outputs valid: %s", l)
			}
		}
	}
}

// -json gives the rows as JSON: outputs, all valid under the validator and
// the oracle, k-path coverage and ISLa's figures.
func TestEvalIslaJSON(t *testing.T) {
	out, errOut, code := runEval(t, "-time", "2s", "-subjects", "xml,c", "-json", "-z3=false")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	var rows []islaEvalRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if len(rows) != 2 || rows[0].Subject != "xml" || rows[1].Subject != "c" {
		t.Fatalf("rows %+v", rows)
	}
	for _, r := range rows {
		if r.Outputs == 0 || r.Valid != r.Outputs || r.Validator != r.Outputs || r.OracleOK != r.Outputs || r.ValidPct != 100 {
			t.Errorf("%s: %d outputs, %d valid, %d by the validator, %d by %s: %v", r.Subject, r.Outputs, r.Valid, r.Validator, r.OracleOK, r.Oracle, r.Failures)
		}
		if r.KPath3 <= 0 || r.KPath3 > 100 || r.KPath4 <= 0 || r.KPath4 > 100 {
			t.Errorf("%s: k-path coverage %.1f%%, %.1f%%", r.Subject, r.KPath3, r.KPath4)
		}
		if r.PaperRate == 0 || r.PaperDiv == 0 || r.Speedup <= 0 {
			t.Errorf("%s: ISLa's figures %v/min %v%%, speedup %v", r.Subject, r.PaperRate, r.PaperDiv, r.Speedup)
		}
		if !(0 < r.LatencyP50 && r.LatencyP50 <= r.LatencyP99 && r.LatencyP99 <= r.LatencyMax) {
			t.Errorf("%s: time per output p50 %v, p99 %v, max %v ms", r.Subject, r.LatencyP50, r.LatencyP99, r.LatencyMax)
		}
		if cputime.ThreadCPU() && !(0 < r.ThreadP50 && r.ThreadP50 <= r.ThreadP99 && r.ThreadP99 <= r.ThreadMax) {
			t.Errorf("%s: thread CPU time per output p50 %v, p99 %v, max %v ms", r.Subject, r.ThreadP50, r.ThreadP99, r.ThreadMax)
		}
	}
}

func TestEvalIslaErrors(t *testing.T) {
	if _, errOut, code := runEval(t, "-subjects", "cobol"); code != 2 || !strings.Contains(errOut, `unknown subject "cobol"`) {
		t.Errorf("unknown subject: code %d, %q", code, errOut)
	}
	if _, errOut, code := runEval(t, "-subjects", "c", "-constraints", t.TempDir(), "-time", "1s"); code == 0 || !strings.Contains(errOut, "scriptsizec-def-use.isla") {
		t.Errorf("missing constraint file: code %d, %q", code, errOut)
	}
	if _, errOut, code := runEval(t, "-subjects", "c", "-stall", "-1"); code != 2 || !strings.Contains(errOut, "-stall must not be negative") {
		t.Errorf("negative -stall: code %d, %q", code, errOut)
	}
}

// The Scriptsize-C oracle finds what a compiler finds.
func TestEvalIslaScriptsizeCOracle(t *testing.T) {
	for in, want := range map[string]string{
		"int a;a = 1;":                 "",
		"int a = 2;{int a;a;}a;":       "",
		"int a;{int b;}b;":             `"b" is not declared`,
		"int a;int a;":                 `redefinition of "a"`,
		"{int c;int c;}":               `redefinition of "c"`,
		"if (1) {int x;} else x = 2;":  `"x" is not declared`,
		"do ; while (z);":              `"z" is not declared`,
		"int q = 1 + (q < 3) - 45;;":   "",
		"while (1) {int k;k = k + 1;}": "",
		"int a;{":                      "unclosed block",
	} {
		err := scriptsizeCOracle([]byte(in), nil)
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", in, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: got %v, want %s", in, err, want)
		}
	}
}

// The Scriptsize-C oracle never panics and gives the same verdict twice.
func FuzzEvalIslaScriptsizeCOracle(f *testing.F) {
	for _, s := range []string{"int a;a = 1;", "{int c;int c;}", "do ; while (z);", "int q = 1 + (q < 3) - 45;;", "(((", "int", "}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		err1 := scriptsizeCOracle(in, nil)
		err2 := scriptsizeCOracle(in, nil)
		if (err1 == nil) != (err2 == nil) || err1 != nil && err1.Error() != err2.Error() {
			t.Errorf("%q: %v, then %v", in, err1, err2)
		}
	})
}

// -retime solves every output a second time alike, and each output's
// retimed figure is the lesser of its two timings, so no quantile can
// exceed the first run's. The wall-clock figures come with the CPU ones.
func TestEvalIslaRetime(t *testing.T) {
	if !cputime.ThreadCPU() {
		t.Skip("no thread CPU clock on this system")
	}
	out, errOut, code := runEval(t, "-n", "300", "-subjects", "rest,csv", "-retime", "-json", "-z3=false")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	var rows []islaEvalRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	for _, r := range rows {
		if r.Outputs != 300 || r.Retimed != 300 {
			t.Errorf("%s: %d outputs, %d solved again alike", r.Subject, r.Outputs, r.Retimed)
		}
		if !(0 < r.RetimedP50 && r.RetimedP50 <= r.RetimedP99 && r.RetimedP99 <= r.RetimedMax) {
			t.Errorf("%s: retimed p50 %v, p99 %v, max %v ms", r.Subject, r.RetimedP50, r.RetimedP99, r.RetimedMax)
		}
		if r.RetimedP50 > r.ThreadP50 || r.RetimedP99 > r.ThreadP99 || r.RetimedMax > r.ThreadMax {
			t.Errorf("%s: retimed %v/%v/%v ms above the first timings %v/%v/%v", r.Subject, r.RetimedP50, r.RetimedP99, r.RetimedMax, r.ThreadP50, r.ThreadP99, r.ThreadMax)
		}
		if !(0 < r.WallP50 && r.WallP50 <= r.WallP99 && r.WallP99 <= r.WallMax) {
			t.Errorf("%s: wall-clock p50 %v, p99 %v, max %v ms", r.Subject, r.WallP50, r.WallP99, r.WallMax)
		}
		// The slowest outputs' own work: one output's timings, each
		// within the distributions'.
		if !(0 < r.MaxRetimed && r.MaxRetimed <= r.MaxThread && r.MaxThread <= r.ThreadMax && r.MaxRetimed <= r.RetimedMax) {
			t.Errorf("%s: the slowest output's thread CPU %v ms, retimed %v ms", r.Subject, r.MaxThread, r.MaxRetimed)
		}
		if !(0 < r.WallMaxRetimed && r.WallMaxRetimed <= r.WallMaxThread && r.WallMaxThread <= r.ThreadMax && r.WallMaxThread <= r.WallMax) {
			t.Errorf("%s: the slowest output by wall-clock time: thread CPU %v ms, retimed %v ms", r.Subject, r.WallMaxThread, r.WallMaxRetimed)
		}
	}
	if !strings.Contains(errOut, "solving the 300 outputs again (-retime)") {
		t.Errorf("no progress line for the second run:\n%s", errOut)
	}
}

// ofSlowest reads the element at the position of the largest of by.
func TestOfSlowest(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		by, of []time.Duration
		want   float64
	}{
		{[]time.Duration{1 * ms, 5 * ms, 2 * ms}, []time.Duration{10 * ms, 20 * ms, 30 * ms}, 20},
		{[]time.Duration{7 * ms, 5 * ms, 7 * ms}, []time.Duration{1500 * time.Microsecond, 2 * ms, 3 * ms}, 1.5},
		{[]time.Duration{1 * ms, 2 * ms}, nil, 0},
		{nil, nil, 0},
	} {
		if got := ofSlowest(tc.by, tc.of); got != tc.want {
			t.Errorf("ofSlowest(%v, %v) = %v, want %v", tc.by, tc.of, got, tc.want)
		}
	}
}

// timeAgain stops at the first output a second solver does not solve
// alike: a solver with another seed is not retimed.
func TestTimeAgainStopsWhereRunsDiffer(t *testing.T) {
	spec := evalSpec(t, "csv")
	first, err := solver.New(spec, solver.Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	var calls []bool
	var sums []uint64
	for range 50 {
		tr, err := first.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		calls, sums = append(calls, true), append(sums, outputSum(tr.Bytes()))
	}
	validated := 0
	count := func(t *grammar.Tree, in []byte) { // in is t's input
		if t.String() == string(in) {
			validated++
		}
	}
	same, _ := solver.New(spec, solver.Seed(1))
	if _, n := timeAgain(same, calls, sums, count); n != 50 || validated != 50 {
		t.Errorf("the same seed: %d of 50 alike, %d validated", n, validated)
	}
	other, _ := solver.New(spec, solver.Seed(2))
	if _, n := timeAgain(other, calls, sums, count); n == 50 {
		t.Error("another seed solved all 50 outputs alike")
	}
}

// evalSpec compiles the constraints of eval isla's subject name.
func evalSpec(t *testing.T, name string) *isla.Spec {
	t.Helper()
	i := slices.IndexFunc(islaSubjects, func(s islaSubject) bool { return s.name == name })
	root, err := kfuzzModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	sub, dir := islaSubjects[i], filepath.Join(root, "fuzzharness", "isla", "testdata")
	e := &env{stdout: io.Discard, stderr: io.Discard, stdin: strings.NewReader("")}
	gr, err := e.loadGraph(sub.grammar)
	if err != nil {
		t.Fatal(err)
	}
	var cs []*isla.Constraint
	for _, f := range sub.files {
		src, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, isla.MustParse(string(src)))
	}
	con, err := isla.Conjoin(cs...)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := isla.Compile(con, gr)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}
