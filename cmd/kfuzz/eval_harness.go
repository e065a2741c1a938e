package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/internal/gocmd"
	"github.com/seed72891827/kfuzz/internal/gomod"
)

func init() {
	register(&command{
		name:  "eval harness",
		usage: "[-time 30s] [-parallel N] [-examples calc,json] [-keep DIR]",
		short: "compare grammar-aware fuzzing through fuzzharness with plain string fuzzing on the examples",
		run:   runEvalHarness,
	})
}

// An evalSubject is one example with its two fuzz tests: one through the
// harness and one taking plain strings with the same seeds.
type evalSubject struct {
	name     string
	pkg      string // relative to the module root
	harness  string
	plain    string
	coverpkg string // packages whose statement coverage is measured
}

var evalSubjects = []evalSubject{
	{"calc", "./examples/calc", "FuzzCalc", "FuzzCalcPlain", "./examples/calc"},
	{"json", "./examples/json", "FuzzJSON", "FuzzJSONPlain", "encoding/json,./examples/json"},
}

// evalRun is the outcome of fuzzing one fuzz test.
type evalRun struct {
	target   string
	execs    int64
	elapsed  time.Duration
	corpus   int            // entries the fuzzer kept
	covered  int            // statements covered by the seeds and the kept entries
	stmts    int            // statements in the measured packages
	blocks   map[string]int // covered blocks (file:start,end) and their statements
	failure  string
	fuzzTime time.Duration
	cpu      time.Duration // CPU time of the fuzzing processes
}

// cpuRate returns the execs per CPU second.
func (r *evalRun) cpuRate() float64 {
	if r.cpu <= 0 {
		return 0
	}
	return float64(r.execs) / r.cpu.Seconds()
}

func (r *evalRun) rate() float64 {
	if r.elapsed <= 0 {
		return 0
	}
	return float64(r.execs) / r.elapsed.Seconds()
}

func (r *evalRun) coverage() float64 {
	if r.stmts == 0 {
		return 0
	}
	return 100 * float64(r.covered) / float64(r.stmts)
}

func runEvalHarness(e *env, args []string) error {
	c := commands["eval harness"]
	fs := newFlagSet(e, c)
	fuzzTime := fs.Duration("time", 30*time.Second, "how long to fuzz each fuzz test")
	parallel := fs.Int("parallel", 2, "fuzzing worker processes")
	which := fs.String("examples", "calc,json", "comma-separated examples to evaluate")
	keep := fs.String("keep", "", "keep the fuzz caches and binaries in `dir` instead of a temporary directory")
	if pos, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(pos) != 0 {
		fs.Usage()
		return errUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	root, err := kfuzzModuleRoot()
	if err != nil {
		return err
	}
	work := *keep
	if work == "" {
		if work, err = os.MkdirTemp("", "kfuzz-eval-"); err != nil {
			return err
		}
		defer os.RemoveAll(work)
	} else if err := os.MkdirAll(work, 0o777); err != nil {
		return err
	}
	wanted := map[string]bool{}
	for _, n := range strings.Split(*which, ",") {
		wanted[strings.TrimSpace(n)] = true
	}
	type result struct {
		subject        evalSubject
		harness, plain *evalRun
	}
	var results []result
	for _, s := range evalSubjects {
		if !wanted[s.name] {
			continue
		}
		delete(wanted, s.name)
		dir := filepath.Join(work, s.name)
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "eval harness: building %s\n", s.pkg)
		fuzzBin, covBin, err := buildEvalBinaries(ctx, root, dir, s)
		if err != nil {
			return err
		}
		res := result{subject: s}
		for _, target := range []string{s.harness, s.plain} {
			fmt.Fprintf(e.stderr, "eval harness: fuzzing %s for %v\n", target, *fuzzTime)
			r, err := evalFuzz(fuzzBin, covBin, dir, target, *fuzzTime, *parallel)
			if err != nil {
				return err
			}
			if target == s.harness {
				res.harness = r
			} else {
				res.plain = r
			}
		}
		results = append(results, res)
	}
	for n := range wanted {
		return fmt.Errorf("unknown example %q (have calc, json)", n)
	}

	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "example\tfuzz test\texecs\texecs/s\tCPU s\texecs/CPU s\tcorpus\tcovered\tcoverage\t%s\n", "notes")
	for _, res := range results {
		for _, r := range []*evalRun{res.harness, res.plain} {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%.0f\t%.1f\t%.0f\t%d\t%d/%d\t%.1f%%\t%s\n", res.subject.name, r.target, r.execs, r.rate(),
				r.cpu.Seconds(), r.cpuRate(), r.corpus, r.covered, r.stmts, r.coverage(), r.failure)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout)
	for _, res := range results {
		h, p := res.harness, res.plain
		ratio, cpuRatio := 0.0, 0.0
		if p.rate() > 0 {
			ratio = h.rate() / p.rate()
		}
		if p.cpuRate() > 0 {
			cpuRatio = h.cpuRate() / p.cpuRate()
		}
		fmt.Fprintf(e.stdout, "%s: harness execs/s %.0f%% of plain, per CPU second %.0f%% (goal >= 50%%: %s); coverage %+.1f points over plain (goal > 0: %s); coverage of %s\n",
			res.subject.name, 100*ratio, 100*cpuRatio, verdict(ratio >= 0.5 || cpuRatio >= 0.5), h.coverage()-p.coverage(), verdict(h.covered > p.covered), res.subject.coverpkg)
		hn, hf := onlyIn(h.blocks, p.blocks)
		pn, pf := onlyIn(p.blocks, h.blocks)
		fmt.Fprintf(e.stdout, "  statements covered only by %s: %d (%s)\n", h.target, hn, hf)
		fmt.Fprintf(e.stdout, "  statements covered only by %s: %d (%s)\n", p.target, pn, pf)
	}
	return nil
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT met"
}

// kfuzzModuleRoot returns the root directory of the kfuzz module, in which
// the evaluations run.
func kfuzzModuleRoot() (string, error) {
	root, err := gomod.KfuzzRoot(context.Background())
	if err != nil {
		return "", fmt.Errorf("%v: run the evaluations inside the kfuzz module", err)
	}
	return root, nil
}

// buildEvalBinaries builds the example's test binary twice: with fuzzing
// instrumentation, and with statement coverage of the measured packages.
func buildEvalBinaries(ctx context.Context, root, dir string, s evalSubject) (fuzzBin, covBin string, err error) {
	fuzzBin = filepath.Join(dir, s.name+".fuzz.test")
	covBin = filepath.Join(dir, s.name+".cover.test")
	for _, args := range [][]string{
		{"test", "-c", "-fuzz=^" + s.harness + "$", "-o", fuzzBin, s.pkg},
		{"test", "-c", "-cover", "-coverpkg=" + s.coverpkg, "-o", covBin, s.pkg},
	} {
		if _, err := (gocmd.Runner{Dir: root}).Go(ctx, args...); err != nil {
			return "", "", err
		}
	}
	return fuzzBin, covBin, nil
}

var fuzzProgressRE = regexp.MustCompile(`^fuzz: elapsed: (\d+)s, execs: (\d+) \(`)

// evalFuzz fuzzes target with a fresh fuzz cache, then measures the
// statement coverage of the seeds and of the inputs the fuzzer kept, copied
// into the testdata directory of a scratch directory (never into the
// repository).
func evalFuzz(fuzzBin, covBin, dir, target string, fuzzTime time.Duration, parallel int) (*evalRun, error) {
	r := &evalRun{target: target, fuzzTime: fuzzTime}
	runDir := filepath.Join(dir, target)
	cache := filepath.Join(runDir, "cache")
	if err := os.MkdirAll(runDir, 0o777); err != nil {
		return nil, err
	}
	cmd := exec.Command(fuzzBin, "-test.run=^$", "-test.fuzz=^"+target+"$", "-test.fuzztime="+fuzzTime.String(),
		"-test.fuzzcachedir="+cache, "-test.parallel="+strconv.Itoa(parallel))
	cmd.Dir = runDir
	out, err := cmd.CombinedOutput()
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return nil, err
		}
		// The fuzzer found a failure and stopped early.
		r.failure = "fuzzing stopped on a failing input"
	}
	// The CPU time of the coordinator and its workers, which it waited
	// for: on a busy machine execs per CPU second compare better than
	// execs per second.
	r.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if m := fuzzProgressRE.FindStringSubmatch(sc.Text()); m != nil {
			secs, _ := strconv.Atoi(m[1])
			r.elapsed = time.Duration(secs) * time.Second
			r.execs, _ = strconv.ParseInt(m[2], 10, 64)
		}
	}
	if r.execs == 0 && r.failure == "" {
		return nil, fmt.Errorf("%s reported no execs:\n%s", target, out)
	}

	// Coverage: the kept inputs as testdata of the scratch directory.
	entries, err := corpus.ReadDir(filepath.Join(cache, target))
	if err != nil {
		return nil, err
	}
	r.corpus = len(entries)
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
	cmd = exec.Command(covBin, "-test.run=^"+target+"$", "-test.count=1", "-test.coverprofile="+profile)
	cmd.Dir = covDir
	if out, err := cmd.CombinedOutput(); err != nil && r.failure == "" {
		return nil, fmt.Errorf("%s over its corpus: %v\n%s", target, err, out)
	}
	r.blocks, r.stmts, err = readCoverProfile(profile)
	if err != nil {
		return nil, err
	}
	for _, n := range r.blocks {
		r.covered += n
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

// onlyIn returns the statements covered in a but not in b, in all and per
// file, the files sorted by statements.
func onlyIn(a, b map[string]int) (int, string) {
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
