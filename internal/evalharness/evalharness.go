// Package evalharness is the evaluation of kfuzz's harness (kfuzz eval
// harness): it fuzzes each example twice with go test -fuzz, once through
// fuzzharness and once with plain strings from the same seeds, and compares
// their speed (executions per second and per CPU second) and the statement
// coverage of what the fuzzer kept. The constraint subjects (Scriptsize-C,
// XML, CSV, TAR) have two more fuzz tests: the grammar with the constraint
// as a validity predicate (invalid inputs skipped) and the grammar with
// the constraint repaired, a tenth of the repaired inputs made invalid on
// purpose (fuzzharness.WithInvalidShare); for those, the harness's
// statistics (valid and invalid inputs, repair times) are read from the
// file of fuzzharness.EnvStats.
package evalharness

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
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
	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/internal/gocmd"
	"github.com/seed72891827/kfuzz/internal/protocol"
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
	// Skip and Repair are the fuzz tests of a constraint subject through
	// the harness with the constraint skipped (a validity predicate) and
	// repaired; empty for other subjects. Harness is then the grammar
	// alone.
	Skip, Repair string
	// Overhead marks a pair whose targets only read their input
	// (examples/overhead): the comparison measures the harness's own cost
	// per execution, not the work the inputs cause.
	Overhead bool
}

// Constrained reports whether s is a constraint subject.
func (s Subject) Constrained() bool { return s.Repair != "" }

// Targets returns the subject's fuzz tests: plain, harness (the grammar
// alone for a constraint subject), and for a constraint subject skip and
// repair.
func (s Subject) Targets() []string {
	if s.Constrained() {
		return []string{s.Plain, s.Harness, s.Skip, s.Repair}
	}
	return []string{s.Harness, s.Plain}
}

// Subjects are the examples evaluated: the grammar subjects, the
// constraint subjects, and the pairs that measure the harness's own cost.
var Subjects = []Subject{
	{Name: "calc", Pkg: "./examples/calc", Harness: "FuzzCalc", Plain: "FuzzCalcPlain", CoverPkg: "./examples/calc"},
	{Name: "json", Pkg: "./examples/json", Harness: "FuzzJSON", Plain: "FuzzJSONPlain", CoverPkg: "encoding/json,./examples/json"},
	{Name: "scriptc", Pkg: "./examples/scriptc", Harness: "FuzzInterpGrammar", Plain: "FuzzInterpPlain", CoverPkg: "./examples/scriptc",
		Skip: "FuzzInterpNoRepair", Repair: "FuzzInterp"},
	{Name: "xml", Pkg: "./examples/constrained", Harness: "FuzzXMLGrammar", Plain: "FuzzXMLPlain", CoverPkg: "encoding/xml",
		Skip: "FuzzXMLSkip", Repair: "FuzzXMLRepair"},
	{Name: "csv", Pkg: "./examples/constrained", Harness: "FuzzCSVGrammar", Plain: "FuzzCSVPlain", CoverPkg: "encoding/csv",
		Skip: "FuzzCSVSkip", Repair: "FuzzCSVRepair"},
	{Name: "tar", Pkg: "./examples/constrained", Harness: "FuzzTARGrammar", Plain: "FuzzTARPlain", CoverPkg: "archive/tar",
		Skip: "FuzzTARSkip", Repair: "FuzzTARRepair"},
	{Name: "overhead-calc", Pkg: "./examples/overhead", Harness: "FuzzCalc", Plain: "FuzzCalcPlain", CoverPkg: "./examples/overhead", Overhead: true},
	{Name: "overhead-json", Pkg: "./examples/overhead", Harness: "FuzzJSON", Plain: "FuzzJSONPlain", CoverPkg: "./examples/overhead", Overhead: true},
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
	// Stats are the harness's statistics, summed over the fuzzing
	// workers; nil for a fuzz test without a validity predicate or
	// constraint, which writes none.
	Stats *fuzzharness.Stats
}

// Valid returns the executions with a valid input: those the harness let
// through to the target, less those it made invalid on purpose
// (fuzzharness.WithInvalidShare, WithMaxEdits),
// Stats.Inputs-Stats.Rejected-Stats.Invalid, or without Stats -1 (not
// known).
func (r *Run) Valid() int64 {
	if r.Stats == nil {
		return -1
	}
	return r.Stats.Inputs - r.Stats.Rejected - r.Stats.Invalid
}

// ValidCPURate returns the executions with a valid input per CPU second,
// or -1 if they are not known.
func (r *Run) ValidCPURate() float64 {
	if r.Stats == nil || r.CPU <= 0 {
		return -1
	}
	return float64(r.Valid()) / r.CPU.Seconds()
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
// and with plain strings, and for a constraint subject with the
// constraint skipped and repaired.
type Comparison struct {
	Subject        Subject
	Harness, Plain *Run
	Skip, Repair   *Run // nil for other subjects
	RunIndex       int  // which of the repeated runs, from 0
}

// Options configure Compare.
type Options struct {
	FuzzTime time.Duration // per fuzz test
	Parallel int           // fuzzing worker processes
	// Runs is how many times each subject is fuzzed (the targets of a
	// subject one after the other in each run, so that the same-run
	// ratios compare equal conditions); at least 1.
	Runs int
	// RepairBudget, if not zero, sets the harness's repair budget
	// (protocol.EnvRepairBudget) in every fuzz test.
	RepairBudget time.Duration
}

// Compare builds and fuzzes each subject of the kfuzz module in root, each
// fuzz test for o.FuzzTime with o.Parallel workers, o.Runs times, in the
// directory work (one subdirectory per subject and run, for binaries and
// fuzz caches), and reports each step on log. It returns one Comparison
// per subject and run.
func Compare(ctx context.Context, root, work string, subjects []Subject, o Options, log io.Writer) ([]Comparison, error) {
	var env []string
	if o.RepairBudget > 0 {
		env = append(env, protocol.EnvRepairBudget+"="+o.RepairBudget.String())
	}
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
		for run := range max(o.Runs, 1) {
			c := Comparison{Subject: s, RunIndex: run}
			for _, target := range s.Targets() {
				fmt.Fprintf(log, "eval harness: fuzzing %s for %v (run %d)\n", target, o.FuzzTime, run+1)
				r, err := FuzzEnv(ctx, fuzzBin, covBin, filepath.Join(dir, fmt.Sprint("run", run+1)), target, o.FuzzTime, o.Parallel, env)
				if err != nil {
					return nil, err
				}
				switch target {
				case s.Harness:
					c.Harness = r
				case s.Plain:
					c.Plain = r
				case s.Skip:
					c.Skip = r
				case s.Repair:
					c.Repair = r
				}
			}
			out = append(out, c)
		}
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
	return FuzzEnv(ctx, fuzzBin, covBin, dir, target, fuzzTime, parallel, nil)
}

// FuzzEnv is Fuzz with the environment variables env (KEY=value) added to
// the fuzzing process's. It also reads the harness's statistics, which
// the fuzz test writes to the file named by fuzzharness.EnvStats, if it
// writes them (Run.Stats).
func FuzzEnv(ctx context.Context, fuzzBin, covBin, dir, target string, fuzzTime time.Duration, parallel int, env []string) (*Run, error) {
	r := &Run{Target: target, FuzzTime: fuzzTime}
	runDir := filepath.Join(dir, target)
	cache := filepath.Join(runDir, "cache")
	if err := os.MkdirAll(runDir, 0o777); err != nil {
		return nil, err
	}
	statsFile := filepath.Join(runDir, "stats.json")
	cmd := exec.CommandContext(ctx, fuzzBin, "-test.run=^$", "-test.fuzz=^"+target+"$", "-test.fuzztime="+fuzzTime.String(),
		"-test.fuzzcachedir="+cache, "-test.parallel="+strconv.Itoa(parallel))
	cmd.Dir = runDir
	cmd.Env = append(append(os.Environ(), env...), fuzzharness.EnvStats+"="+statsFile)
	out, err := cmd.CombinedOutput()
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return nil, err
		}
		// The fuzzer found a failure and stopped early, unless the run
		// ended with "context deadline exceeded" at its time limit (Go
		// issue 75804), which is a normal end.
		if !strings.Contains(string(out), "context deadline exceeded") {
			r.Failure = "fuzzing stopped on a failing input"
		}
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
	if data, err := os.ReadFile(statsFile); err == nil {
		var st fuzzharness.Stats
		if err := json.Unmarshal(data, &st); err != nil {
			return nil, fmt.Errorf("%s: %v", statsFile, err)
		}
		// Without a constraint or validity predicate, the workers count
		// nothing: the file holds the seeds alone.
		if st.Inputs > 0 {
			r.Stats = &st
		}
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

// A Spread is the median of a figure over repeated runs, with its least
// and greatest value.
type Spread struct{ Median, Min, Max float64 }

// SpreadOf returns the spread of xs (the mean of the middle two for an
// even number); the zero Spread for none.
func SpreadOf(xs []float64) Spread {
	if len(xs) == 0 {
		return Spread{}
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return Spread{Median: m, Min: s[0], Max: s[len(s)-1]}
}

// String formats the spread as "median [min, max]".
func (s Spread) String() string {
	return fmt.Sprintf("%.4g [%.4g, %.4g]", s.Median, s.Min, s.Max)
}

// A ConstraintSummary sums up the repeated runs of a constraint subject.
type ConstraintSummary struct {
	Subject Subject
	Runs    int
	// SkipValid and RepairValid are the valid executions per CPU second
	// with the constraint skipped and repaired, and Ratio the same-run
	// ratio of repair to skip (+Inf where skip had none).
	SkipValid, RepairValid, Ratio Spread
	// Ceiling estimates, run by run, the greatest ratio that repair could
	// reach on the subject: the ratio if every execution of the repair
	// target cost no more CPU time than one of the grammar-only target
	// (which decodes and parses every input too, but never checks the
	// constraint, repairs or, on most subjects, runs the target's main
	// work). It is the grammar-only target's executions per CPU second,
	// times the repair target's share of valid executions, over skip's
	// valid executions per CPU second; 0 where a figure is missing.
	Ceiling Spread
	// Coverage is the statement coverage in percent of the plain,
	// grammar, skip and repair fuzz tests, in that order.
	Coverage [4]Spread
	// RepairP99 and RepairMax are the greatest 99th percentile and
	// maximum of the repair time over the runs, and OverBudget the
	// repairs over the budget, summed over the runs.
	RepairP99, RepairMax time.Duration
	OverBudget           int64
}

// ceilingOf returns the comparison's ceiling (see
// ConstraintSummary.Ceiling), 0 where a figure is missing.
func ceilingOf(c Comparison) float64 {
	sv := c.Skip.ValidCPURate()
	st := c.Repair.Stats
	if c.Harness == nil || sv <= 0 || st == nil || st.Inputs <= 0 {
		return 0
	}
	share := float64(c.Repair.Valid()) / float64(st.Inputs)
	return c.Harness.CPURate() * share / sv
}

// SummarizeConstraints sums up the comparisons of each constraint
// subject, in the order of their first run.
func SummarizeConstraints(comps []Comparison) []ConstraintSummary {
	var order []string
	by := map[string][]Comparison{}
	for _, c := range comps {
		if !c.Subject.Constrained() || c.Skip == nil || c.Repair == nil {
			continue
		}
		if _, ok := by[c.Subject.Name]; !ok {
			order = append(order, c.Subject.Name)
		}
		by[c.Subject.Name] = append(by[c.Subject.Name], c)
	}
	var out []ConstraintSummary
	for _, name := range order {
		cs := by[name]
		sum := ConstraintSummary{Subject: cs[0].Subject, Runs: len(cs)}
		var skip, repair, ratio, ceiling []float64
		var cov [4][]float64
		for _, c := range cs {
			sv, rv := c.Skip.ValidCPURate(), c.Repair.ValidCPURate()
			skip, repair = append(skip, sv), append(repair, rv)
			if sv > 0 {
				ratio = append(ratio, rv/sv)
			} else {
				ratio = append(ratio, math.Inf(1))
			}
			ceiling = append(ceiling, ceilingOf(c))
			for i, r := range []*Run{c.Plain, c.Harness, c.Skip, c.Repair} {
				cov[i] = append(cov[i], r.Coverage())
			}
			if st := c.Repair.Stats; st != nil {
				sum.RepairP99 = max(sum.RepairP99, st.RepairP99)
				sum.RepairMax = max(sum.RepairMax, st.RepairMax)
				sum.OverBudget += st.OverBudget
			}
		}
		sum.SkipValid, sum.RepairValid, sum.Ratio = SpreadOf(skip), SpreadOf(repair), SpreadOf(ratio)
		sum.Ceiling = SpreadOf(ceiling)
		for i := range cov {
			sum.Coverage[i] = SpreadOf(cov[i])
		}
		out = append(out, sum)
	}
	return out
}
