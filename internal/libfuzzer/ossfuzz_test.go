package libfuzzer

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// g118 is the go-118-fuzz-build version that .ci/ossfuzz-build uses.
const g118 = "github.com/AdamKorcz/go-118-fuzz-build@v0.0.0-20250520111509-a70c2aa677fa"

// TestOSSFuzzBuild runs .ci/ossfuzz-build, which builds fuzz targets into
// libFuzzer binaries as OSS-Fuzz does, on the examples calc and json and on
// testdata/crash, whose seed corpus triggers a seeded bug. The examples'
// binaries must run their inputs, and the crash must be reported with the
// input that caused it.
func TestOSSFuzzBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds libFuzzer binaries (minutes); skipped with -short")
	}
	if _, err := exec.LookPath("clang"); err != nil {
		t.Skip("clang is not installed (.ci/ossfuzz-build installs it with apt-get; run it once, or install clang)")
	}
	if out, err := exec.Command("go", "mod", "download", g118).CombinedOutput(); err != nil {
		t.Skipf("go-118-fuzz-build is not available from the module proxy: %v\n%s", err, out)
	}
	const runs = "500"
	dir := t.TempDir()
	cmd := exec.Command("bash", "../../.ci/ossfuzz-build", "-runs", runs, "-out", dir,
		"examples/calc:FuzzCalc", "examples/json:FuzzJSON", "internal/libfuzzer/testdata/crash:FuzzCrash")
	out, err := cmd.CombinedOutput()
	t.Logf(".ci/ossfuzz-build:\n%s", out)
	if err == nil {
		t.Error(".ci/ossfuzz-build succeeded; want a failure: FuzzCrash crashes")
	}
	for _, fuzz := range []string{"FuzzCalc", "FuzzJSON", "FuzzCrash"} {
		if _, err := os.Stat(filepath.Join(dir, fuzz)); err != nil {
			t.Errorf("the libFuzzer binary of %s: %v", fuzz, err)
		}
	}
	for _, fuzz := range []string{"FuzzCalc", "FuzzJSON"} {
		log := readLog(t, filepath.Join(dir, fuzz+".runs.log"))
		if !regexp.MustCompile(`(?m)^Done ` + runs + ` runs in `).MatchString(log) {
			t.Errorf("%s did not run %s inputs; its log ends:\n%s", fuzz, runs, tail(log))
		}
		if !regexp.MustCompile(`INFO: seed corpus: files: [1-9]`).MatchString(log) {
			t.Errorf("%s did not read its seed corpus; its log ends:\n%s", fuzz, tail(log))
		}
		if strings.Contains(log, "panic") {
			t.Errorf("%s panicked:\n%s", fuzz, tail(log))
		}
	}
	log := readLog(t, filepath.Join(dir, "FuzzCrash.runs.log"))
	for _, want := range []string{
		`fuzzharness: the target panicked on this input (3 bytes): "x/0"`,
		`panic: crash: a division by a literal zero in x/0`,
		"Test unit written to " + filepath.Join(dir, "FuzzCrash-crash-"),
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the crash report lacks %q; the log ends:\n%s", want, tail(log))
		}
	}
}

func readLog(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// tail returns the last lines of a log.
func tail(log string) string {
	lines := strings.Split(strings.TrimRight(log, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-40):], "\n")
}
