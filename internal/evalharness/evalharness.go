// Package evalharness is the evaluation of kfuzz's harness (kfuzz eval
// harness): it fuzzes each example twice with go test -fuzz, once through
// fuzzharness and once with plain strings from the same seeds, and compares
// their speed (executions per second and per CPU second) and the statement
// coverage of what the fuzzer kept.
package evalharness

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/internal/gocmd"
)

// A Subject is one example with its two fuzz tests: one through the
// harness and one taking plain strings with the same seeds.
type Subject struct {
	// Name names the example, and Pkg its package, relative to the
	// module root.
	Name, Pkg string
	// Harness is the fuzz test through fuzzharness, Plain the fuzz test of
	// plain strings.
	Harness, Plain string
	// CoverPkg is the -coverpkg list of the packages whose statement
	// coverage is measured.
	CoverPkg string
}

// Subjects are the examples evaluated.
var Subjects = []Subject{
	{"calc", "./examples/calc", "FuzzCalc", "FuzzCalcPlain", "./examples/calc"},
	{"json", "./examples/json", "FuzzJSON", "FuzzJSONPlain", "encoding/json,./examples/json"},
}

// Run is the outcome of fuzzing one fuzz test.
type Run struct {
	// Target is the fuzz test.
	Target string
	// Execs is the number of executions go test -fuzz reported last, after
	// Elapsed.
	Execs   int64
	Elapsed time.Duration
	// Corpus counts the entries the fuzzer kept.
	Corpus int
	// Covered counts the statements covered by the seeds and the kept
	// entries, Stmts the statements of the measured packages.
	Covered, Stmts int
	// Blocks holds the covered blocks (file:start,end) with their
	// statements.
	Blocks map[string]int
	// Failure says why fuzzing stopped early, if it did.
	Failure string
	// FuzzTime is the time asked for, and CPU the CPU time of the fuzzing
	// processes.
	FuzzTime, CPU time.Duration
}

// CPURate returns the executions per CPU second.
func (r *Run) CPURate() float64 {
	if r.CPU <= 0 {
		return 0
	}
	return float64(r.Execs) / r.CPU.Seconds()
}

// Rate returns the executions per second.
func (r *Run) Rate() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Execs) / r.Elapsed.Seconds()
}

// Coverage returns the statement coverage in percent.
func (r *Run) Coverage() float64 {
	if r.Stmts == 0 {
		return 0
	}
	return 100 * float64(r.Covered) / float64(r.Stmts)
}

// A Comparison is the outcome of fuzzing one subject through the harness
// and with plain strings.
type Comparison struct {
	Subject        Subject
	Harness, Plain *Run
}

// Compare builds and fuzzes each subject of the kfuzz module in root, each
// fuzz test for fuzzTime with parallel workers, in the directory work (one
// subdirectory per subject, for binaries and fuzz caches), and reports each
// step on log.
func Compare(ctx context.Context, root, work string, subjects []Subject, fuzzTime time.Duration, parallel int, log io.Writer) ([]Comparison, error) {
	var out []Comparison
	for _, s := range subjects {
		dir := filepath.Join(work, s.Name)
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return nil, err
		}
		fmt.Fprintf(log, "eval harness: building %s\n", s.Pkg)
		fuzzBin, covBin, err := Build(ctx, root, dir, s)
		if err != nil {
			return nil, err
		}
		c := Comparison{Subject: s}
		for _, target := range []string{s.Harness, s.Plain} {
			fmt.Fprintf(log, "eval harness: fuzzing %s for %v\n", target, fuzzTime)
			r, err := Fuzz(ctx, fuzzBin, covBin, dir, target, fuzzTime, parallel)
			if err != nil {
				return nil, err
			}
			if target == s.Harness {
				c.Harness = r
			} else {
				c.Plain = r
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// Build builds the example's test binary twice: with fuzzing
// instrumentation, and with statement coverage of the measured packages.
func Build(ctx context.Context, root, dir string, s Subject) (fuzzBin, covBin string, err error) {
	fuzzBin = filepath.Join(dir, s.Name+".fuzz.test")
	covBin = filepath.Join(dir, s.Name+".cover.test")
	for _, args := range [][]string{
		{"test", "-c", "-fuzz=^" + s.Harness + "$", "-o", fuzzBin, s.Pkg},
		{"test", "-c", "-cover", "-coverpkg=" + s.CoverPkg, "-o", covBin, s.Pkg},
	} {
		if _, err := (gocmd.Runner{Dir: root}).Go(ctx, args...); err != nil {
			return "", "", err
		}
	}
	return fuzzBin, covBin, nil
}

// fuzzProgressRE matches the progress lines of go test -fuzz.
var fuzzProgressRE = regexp.MustCompile(`^fuzz: elapsed: (\d+)s, execs: (\d+) \(`)

// Fuzz fuzzes target with a fresh fuzz cache, then measures the
// statement coverage of the seeds and of the inputs the fuzzer kept, copied
// into the testdata directory of a scratch directory (never into the
// repository).
func Fuzz(ctx context.Context, fuzzBin, covBin, dir, target string, fuzzTime time.Duration, parallel int) (*Run, error) {
	r := &Run{Target: target, FuzzTime: fuzzTime}
	runDir := filepath.Join(dir, target)
	cache := filepath.Join(runDir, "cache")
	if err := os.MkdirAll(runDir, 0o777); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, fuzzBin, "-test.run=^$", "-test.fuzz=^"+target+"$", "-test.fuzztime="+fuzzTime.String(),
		"-test.fuzzcachedir="+cache, "-test.parallel="+strconv.Itoa(parallel))
	cmd.Dir = runDir
	out, err := cmd.CombinedOutput()
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return nil, err
		}
		// The fuzzer found a failure and stopped early.
		r.Failure = "fuzzing stopped on a failing input"
	}
	// The CPU time of the coordinator and its workers, which it waited
	// for: on a busy machine execs per CPU second compare better than
	// execs per second.
	r.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if m := fuzzProgressRE.FindStringSubmatch(sc.Text()); m != nil {
			secs, _ := strconv.Atoi(m[1])
			r.Elapsed = time.Duration(secs) * time.Second
			r.Execs, _ = strconv.ParseInt(m[2], 10, 64)
		}
	}
	if r.Execs == 0 && r.Failure == "" {
		return nil, fmt.Errorf("%s reported no execs:\n%s", target, out)
	}

	// Coverage: the kept inputs as testdata of the scratch directory.
	entries, err := corpus.ReadDir(filepath.Join(cache, target))
	if err != nil {
		return nil, err
	}
	r.Corpus = len(entries)
	covDir := filepath.Join(runDir, "cover")
	testdata := corpus.TestdataDir(covDir, target)
	for _, e := range entries {
		if _, _, err := corpus.Add(testdata, e.Values...); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(covDir, 0o777); err != nil {
		return nil, err
	}
	profile := filepath.Join(covDir, "cover.out")
	cmd = exec.CommandContext(ctx, covBin, "-test.run=^"+target+"$", "-test.count=1", "-test.coverprofile="+profile)
	cmd.Dir = covDir
	if out, err := cmd.CombinedOutput(); err != nil && r.Failure == "" {
		return nil, fmt.Errorf("%s over its corpus: %v\n%s", target, err, out)
	}
	r.Blocks, r.Stmts, err = readCoverProfile(profile)
	if err != nil {
		return nil, err
	}
	for _, n := range r.Blocks {
		r.Covered += n
	}
	return r, nil
}

// readCoverProfile returns the covered blocks of a Go cover profile, keyed
// by file:start,end, with their statements, and the number of statements in
// all blocks, counting each block once.
func readCoverProfile(path string) (covered map[string]int, total int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	type block struct {
		stmts int
		hit   bool
	}
	blocks := map[string]*block{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if line == 1 && strings.HasPrefix(text, "mode:") || text == "" {
			continue
		}
		// file:startLine.startCol,endLine.endCol numStmt count
		fields := strings.Fields(text)
		if len(fields) != 3 {
			return nil, 0, fmt.Errorf("%s:%d: malformed cover profile line %q", path, line, text)
		}
		stmts, err1 := strconv.Atoi(fields[1])
		count, err2 := strconv.ParseInt(fields[2], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, 0, fmt.Errorf("%s:%d: malformed cover profile line %q", path, line, text)
		}
		b := blocks[fields[0]]
		if b == nil {
			b = &block{stmts: stmts}
			blocks[fields[0]] = b
		}
		b.hit = b.hit || count > 0
	}
	if err := sc.Err(); err != nil {
		return nil, 0, err
	}
	if len(blocks) == 0 {
		return nil, 0, fmt.Errorf("%s: an empty cover profile", path)
	}
	covered = map[string]int{}
	for key, b := range blocks {
		total += b.stmts
		if b.hit {
			covered[key] = b.stmts
		}
	}
	return covered, total, nil
}

// OnlyIn returns the statements covered in a but not in b, in all and per
// file, the files sorted by statements.
func OnlyIn(a, b map[string]int) (int, string) {
	total := 0
	perFile := map[string]int{}
	for key, n := range a {
		if _, ok := b[key]; !ok {
			total += n
			file, _, _ := strings.Cut(key, ":")
			perFile[path.Base(file)] += n
		}
	}
	files := make([]string, 0, len(perFile))
	for f := range perFile {
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool {
		if perFile[files[i]] != perFile[files[j]] {
			return perFile[files[i]] > perFile[files[j]]
		}
		return files[i] < files[j]
	})
	var parts []string
	for _, f := range files {
		parts = append(parts, fmt.Sprintf("%s %d", f, perFile[f]))
	}
	return total, strings.Join(parts, ", ")
}
