package evalpeers

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/internal/gocmd"
	"golang.org/x/tools/cover"
)

// A Tool is one way of fuzzing a subject.
type Tool struct {
	// Name names the tool in reports.
	Name string
	// Target is the fuzz test in fz/NAME that it runs (for libFuzzer,
	// the fuzz test whose corpus format its inputs replay through).
	Target string
	// LibFuzzer is set for libFuzzer through go-118-fuzz-build.
	LibFuzzer bool
	// Constraint is set for the tool that needs the subject's ISLa
	// constraints.
	Constraint bool
	// Targeted is set for the tool whose seeds kfuzz learn and kfuzz seed
	// generate (see Scratch.TargetedSeeds).
	Targeted bool
}

// Tools are the evaluated tools, the peers first.
var Tools = []Tool{
	{Name: "go-fuzz", Target: "FuzzRaw"},
	{Name: "libFuzzer", Target: "FuzzRaw", LibFuzzer: true},
	{Name: "go-abnf", Target: "FuzzABNF"},
	{Name: "rapid", Target: "FuzzRapid"},
	{Name: "go-fuzz-headers", Target: "FuzzHeaders"},
	{Name: "kfuzz-grammar", Target: "FuzzKfuzzGrammar"},
	{Name: "kfuzz-kpath", Target: "FuzzKfuzzKPath"},
	{Name: "kfuzz-targeted", Target: "FuzzKfuzzTargeted", Targeted: true},
	{Name: "kfuzz-constraints", Target: "FuzzKfuzzConstraints", Constraint: true},
}

// IsKfuzz reports whether the tool is one of kfuzz's configurations.
func (t Tool) IsKfuzz() bool { return strings.HasPrefix(t.Name, "kfuzz") }

// Applies reports whether the tool runs on the subject.
func (t Tool) Applies(s Subject) bool { return !t.Constraint || len(s.Constraints) > 0 }

// Config configures an evaluation.
type Config struct {
	// Root is the kfuzz module root, Work the directory for the scratch
	// modules, binaries and corpora.
	Root, Work string
	Subjects   []Subject
	Tools      []Tool
	// Budget is the fuzzing time of each run, Runs the runs per subject
	// and tool, Parallel the fuzzing workers of go test -fuzz.
	Budget time.Duration
	// Execs, if positive, bounds each run by executions instead of time
	// (go test -fuzztime=Nx, libFuzzer -runs=N), as tests do; Budget still
	// places the measuring times.
	Execs    int64
	Runs     int
	Parallel int
	// Points are the times, within Budget, at which coverage is measured
	// (DefaultPoints if empty).
	Points []time.Duration
	// Log, if not nil, receives one line per step.
	Log io.Writer
}

// DefaultPoints returns the measuring times for a budget: 0 (the seeds),
// 1/8, 1/4, 1/2 and all of it.
func DefaultPoints(budget time.Duration) []time.Duration {
	return []time.Duration{0, budget / 8, budget / 4, budget / 2, budget}
}

// A Point is the statement coverage of the inputs a run had kept by a time.
type Point struct {
	At             time.Duration
	Covered, Stmts int
}

// Percent returns the coverage in percent.
func (p Point) Percent() float64 {
	if p.Stmts == 0 {
		return 0
	}
	return 100 * float64(p.Covered) / float64(p.Stmts)
}

// A Run is the outcome of one tool fuzzing one subject once.
type Run struct {
	Subject, Tool string
	N             int
	// Execs is the number of executions the tool reported last.
	Execs int64
	// Entries counts the inputs it kept (beyond its seeds).
	Entries int
	// Points is the coverage at each measuring time.
	Points []Point
	// Detected maps the ID of each seeded fault that an executed input
	// reached to the time of its first detection.
	Detected map[int]time.Duration
	// Failure says why the run stopped before its budget, if it did.
	Failure string
}

// A Skip is a tool that could not run, and why.
type Skip struct {
	Tool, Reason string
}

// A Preparation is the targeted seeds of one subject: how long learning
// and generating took (not part of any run's budget), the functions aimed
// at, and the inputs that reached them.
type Preparation struct {
	Subject string
	Time    time.Duration
	Funcs   []string
	Seeds   int
}

// Result is the outcome of an evaluation.
type Result struct {
	Config Config
	Runs   []*Run
	Skips  []Skip
	// Prepared holds the targeted seeds' preparation per subject.
	Prepared []Preparation
}

// Evaluate writes the scratch modules, proves the seeded faults reachable,
// builds every tool's binaries, and fuzzes each subject with each tool
// Runs times for Budget, measuring coverage at the Points and the time to
// the first detection of each seeded fault.
func Evaluate(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.Runs < 1 || cfg.Budget <= 0 || cfg.Parallel < 1 {
		return nil, fmt.Errorf("evalpeers: runs (%d), budget (%v) and parallel (%d) must be positive", cfg.Runs, cfg.Budget, cfg.Parallel)
	}
	if len(cfg.Points) == 0 {
		cfg.Points = DefaultPoints(cfg.Budget)
	}
	logf := func(format string, args ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, "eval peers: "+format+"\n", args...)
		}
	}
	res := &Result{Config: cfg}
	logf("writing the scratch modules in %s", cfg.Work)
	sc, err := WriteScratch(ctx, cfg.Root, cfg.Work, cfg.Subjects)
	if err != nil {
		return nil, err
	}
	logf("checking that every seeded fault is reachable")
	if err := sc.CheckFaults(ctx); err != nil {
		return nil, err
	}
	bin := filepath.Join(cfg.Work, "bin")
	b := &builder{sc: sc, bin: bin, targeted: map[string][][]byte{}}
	wantLF, wantTargeted := false, false
	for _, t := range cfg.Tools {
		wantLF = wantLF || t.LibFuzzer
		wantTargeted = wantTargeted || t.Targeted
	}
	if wantLF {
		if reason := b.libFuzzerTools(ctx); reason != "" {
			res.Skips = append(res.Skips, Skip{"libFuzzer", reason})
			logf("skipping libFuzzer: %s", reason)
		}
	}
	for _, s := range cfg.Subjects {
		logf("building %s", s.Name)
		if err := b.build(ctx, s); err != nil {
			return nil, err
		}
		if !wantTargeted {
			continue
		}
		logf("learning %s and generating targeted seeds", s.Name)
		start := time.Now()
		seeds, funcs, err := sc.TargetedSeeds(ctx, s, 1)
		if err != nil {
			return nil, err
		}
		b.targeted[s.Name] = seeds
		p := Preparation{Subject: s.Name, Time: time.Since(start), Funcs: funcs, Seeds: len(seeds)}
		res.Prepared = append(res.Prepared, p)
		logf("  %d seeds for %d functions in %v", p.Seeds, len(p.Funcs), p.Time.Round(time.Second))
	}
	for n := 1; n <= cfg.Runs; n++ {
		for _, s := range cfg.Subjects {
			for _, t := range cfg.Tools {
				if !t.Applies(s) || t.LibFuzzer && !b.libFuzzer {
					continue
				}
				logf("run %d: %s on %s for %v", n, t.Name, s.Name, cfg.Budget)
				r, err := b.run(ctx, cfg, s, t, n)
				if err != nil {
					return nil, err
				}
				logf("  %d execs, %d kept, coverage %.1f%%, %d of %d faults%s", r.Execs, r.Entries,
					r.Points[len(r.Points)-1].Percent(), len(r.Detected), len(FaultsOf(s.Name)), failureNote(r.Failure))
				res.Runs = append(res.Runs, r)
			}
		}
	}
	return res, nil
}

func failureNote(f string) string {
	if f == "" {
		return ""
	}
	return " (" + f + ")"
}

// builder builds and runs the binaries of the scratch modules.
type builder struct {
	sc        *Scratch
	bin       string
	libFuzzer bool                // libFuzzer can be built
	g118      string              // the go-118-fuzz-build binary
	targeted  map[string][][]byte // subject -> targeted seeds (corpus entries)
}

// libFuzzerTools installs go-118-fuzz-build if clang is there, and returns
// why libFuzzer cannot run, if it cannot.
func (b *builder) libFuzzerTools(ctx context.Context) string {
	if _, err := exec.LookPath("clang"); err != nil {
		return "clang is not installed (.ci/ossfuzz-build installs it)"
	}
	env := append(os.Environ(), "GOBIN="+b.bin, "GOWORK=off")
	if _, err := (gocmd.Runner{Dir: b.sc.Fuzz, Env: env}).Go(ctx, "install", "github.com/AdamKorcz/go-118-fuzz-build@"+G118Version); err != nil {
		return "installing go-118-fuzz-build: " + err.Error()
	}
	b.g118 = filepath.Join(b.bin, "go-118-fuzz-build")
	b.libFuzzer = true
	return ""
}

func (b *builder) fuzzBin(s Subject) string  { return filepath.Join(b.bin, s.Name+".fuzz.test") }
func (b *builder) coverBin(s Subject) string { return filepath.Join(b.bin, s.Name+".cover.test") }
func (b *builder) lfBin(s Subject) string    { return filepath.Join(b.bin, s.Name+".libfuzzer") }

// build builds the subject's fuzzing binary (mutated copy, fuzzing
// instrumentation), its coverage binary (clean copy, -cover of the subject
// package), and its libFuzzer binary if libFuzzer can be built.
func (b *builder) build(ctx context.Context, s Subject) error {
	env := append(os.Environ(), "GOWORK=off")
	fuzzRun := gocmd.Runner{Dir: b.sc.Fuzz, Env: env}
	if _, err := fuzzRun.Go(ctx, "test", "-c", "-fuzz=^FuzzRaw$", "-o", b.fuzzBin(s), "./fz/"+s.Name); err != nil {
		return err
	}
	if _, err := (gocmd.Runner{Dir: b.sc.Cover, Env: env}).Go(ctx, "test", "-c", "-cover", "-coverpkg="+scratchModule+"/subj/"+s.Name,
		"-o", b.coverBin(s), "./fz/"+s.Name); err != nil {
		return err
	}
	if !b.libFuzzer {
		return nil
	}
	archive := b.lfBin(s) + ".a"
	cmd := exec.CommandContext(ctx, b.g118, "-func", "FuzzRaw", "-o", archive, "./lf/"+s.Name)
	cmd.Dir, cmd.Env = b.sc.Fuzz, env
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go-118-fuzz-build ./lf/%s: %v\n%s", s.Name, err, out)
	}
	cmd = exec.CommandContext(ctx, "clang", "-fsanitize=fuzzer", archive, "-o", b.lfBin(s))
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("clang -fsanitize=fuzzer %s: %v\n%s", archive, err, out)
	}
	return nil
}

// progressRE matches go test -fuzz's progress lines, libFuzzerRE
// libFuzzer's final count of executions.
var (
	progressRE  = regexp.MustCompile(`(?m)^fuzz: elapsed: \d+s, execs: (\d+) `)
	libFuzzerRE = regexp.MustCompile(`(?m)^stat::number_of_executed_units: (\d+)`)
)

// run fuzzes s with t once and measures the run.
func (b *builder) run(ctx context.Context, cfg Config, s Subject, t Tool, n int) (*Run, error) {
	dir := filepath.Join(cfg.Work, "runs", fmt.Sprintf("%s-%s-%d", s.Name, t.Name, n))
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	faults := filepath.Join(dir, "faults.txt")
	r := &Run{Subject: s.Name, Tool: t.Name, N: n}
	var cmd *exec.Cmd
	corpusDir := filepath.Join(dir, "cache", t.Target)
	if t.LibFuzzer {
		corpusDir = filepath.Join(dir, "corpus")
		if err := os.MkdirAll(corpusDir, 0o777); err != nil {
			return nil, err
		}
		for i, e := range s.Examples {
			if err := os.WriteFile(filepath.Join(corpusDir, fmt.Sprintf("example%d", i)), []byte(e), 0o666); err != nil {
				return nil, err
			}
		}
		limit := fmt.Sprintf("-max_total_time=%d", int(cfg.Budget.Seconds()+0.5))
		if cfg.Execs > 0 {
			limit = fmt.Sprintf("-runs=%d", cfg.Execs)
		}
		cmd = exec.CommandContext(ctx, b.lfBin(s), limit, "-print_final_stats=1", "-artifact_prefix="+dir+"/", corpusDir)
	} else {
		limit := cfg.Budget.String()
		if cfg.Execs > 0 {
			limit = fmt.Sprintf("%dx", cfg.Execs)
		}
		cmd = exec.CommandContext(ctx, b.fuzzBin(s), "-test.run=^$", "-test.fuzz=^"+t.Target+"$",
			"-test.fuzztime="+limit, "-test.fuzzcachedir="+filepath.Join(dir, "cache"),
			"-test.parallel="+strconv.Itoa(cfg.Parallel))
	}
	if t.Targeted {
		if err := b.writeTargeted(s, t, dir); err != nil {
			return nil, err
		}
	}
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), FaultsEnv+"="+faults)
	// Seeds written before start count as time 0; mtimes have a coarse
	// resolution on some file systems.
	time.Sleep(10 * time.Millisecond)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ctx.Err() != nil {
			return nil, fmt.Errorf("%s on %s: %v", t.Name, s.Name, err)
		}
		// go test -fuzz may fail at the end of a timed run with "context
		// deadline exceeded" (Go issue 75804): a normal end.
		if !bytes.Contains(out, []byte("context deadline exceeded")) {
			r.Failure = firstFailure(out)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "fuzz.log"), out, 0o666); err != nil {
		return nil, err
	}
	re := progressRE
	if t.LibFuzzer {
		re = libFuzzerRE
	}
	for _, m := range re.FindAllSubmatch(out, -1) {
		r.Execs, _ = strconv.ParseInt(string(m[1]), 10, 64)
	}
	if r.Detected, err = readFaults(faults, start); err != nil {
		return nil, err
	}
	entries, err := corpusFiles(corpusDir, start)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.at > 0 {
			r.Entries++
		}
	}
	if r.Points, err = b.measure(ctx, cfg, s, t, dir, entries); err != nil {
		return nil, err
	}
	return r, nil
}

// writeTargeted writes the subject's targeted seeds into the seed corpus
// (testdata/fuzz/TARGET) of the directory dir, in which a fuzzing or
// coverage binary runs.
func (b *builder) writeTargeted(s Subject, t Tool, dir string) error {
	testdata := corpus.TestdataDir(dir, t.Target)
	if err := os.MkdirAll(testdata, 0o777); err != nil {
		return err
	}
	for i, e := range b.targeted[s.Name] {
		if err := os.WriteFile(filepath.Join(testdata, fmt.Sprintf("targeted%d", i)), e, 0o666); err != nil {
			return err
		}
	}
	return nil
}

// firstFailure returns the first line of go test's or libFuzzer's report
// of a failure.
func firstFailure(out []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "panic:") || strings.HasPrefix(l, "==") && strings.Contains(l, "ERROR") || strings.HasPrefix(l, "fuzz_test.go") || strings.HasPrefix(l, "--- FAIL") {
			return l
		}
	}
	return "the fuzzer exited with an error"
}

// readFaults reads a fault record file: the earliest time after start of
// each fault.
func readFaults(path string, start time.Time) (map[int]time.Duration, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[int]time.Duration{}, nil
	} else if err != nil {
		return nil, err
	}
	out := map[int]time.Duration{}
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var id int
		var ns int64
		if _, err := fmt.Sscanf(line, "%d %d", &id, &ns); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
		}
		at := max(time.Unix(0, ns).Sub(start), 0)
		if old, ok := out[id]; !ok || at < old {
			out[id] = at
		}
	}
	return out, nil
}

// A corpusFile is an input a fuzzer kept, and when (0: before the start).
type corpusFile struct {
	path string
	at   time.Duration
}

// corpusFiles lists the files of a corpus directory by the time they were
// written.
func corpusFiles(dir string, start time.Time) ([]corpusFile, error) {
	des, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var out []corpusFile
	for _, de := range des {
		if de.IsDir() {
			continue
		}
		info, err := de.Info()
		if err != nil {
			return nil, err
		}
		out = append(out, corpusFile{filepath.Join(dir, de.Name()), max(info.ModTime().Sub(start), 0)})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].at < out[j].at || out[i].at == out[j].at && out[i].path < out[j].path
	})
	return out, nil
}

// measure replays, for each measuring time, the inputs kept by then (with
// the target's own seeds) through the coverage binary of the clean copy,
// and returns the statement coverage of the subject package.
func (b *builder) measure(ctx context.Context, cfg Config, s Subject, t Tool, dir string, entries []corpusFile) ([]Point, error) {
	var points []Point
	prevN := -1
	for i, at := range cfg.Points {
		n := sort.Search(len(entries), func(j int) bool { return entries[j].at > at })
		if n == prevN {
			p := points[len(points)-1]
			p.At = at
			points = append(points, p)
			continue
		}
		prevN = n
		covDir := filepath.Join(dir, fmt.Sprintf("cover%d", i))
		testdata := corpus.TestdataDir(covDir, t.Target)
		if err := os.MkdirAll(testdata, 0o777); err != nil {
			return nil, err
		}
		if t.Targeted {
			if err := b.writeTargeted(s, t, covDir); err != nil {
				return nil, err
			}
		}
		for _, e := range entries[:n] {
			data, err := os.ReadFile(e.path)
			if err != nil {
				return nil, err
			}
			if t.LibFuzzer {
				// libFuzzer keeps raw inputs; FuzzRaw takes them as []byte.
				if data, err = corpus.Marshal(data); err != nil {
					return nil, err
				}
			}
			if err := os.WriteFile(filepath.Join(testdata, filepath.Base(e.path)), data, 0o666); err != nil {
				return nil, err
			}
		}
		profile := filepath.Join(covDir, "cover.out")
		cmd := exec.CommandContext(ctx, b.coverBin(s), "-test.run=^"+t.Target+"$", "-test.count=1", "-test.coverprofile="+profile)
		cmd.Dir = covDir
		out, runErr := cmd.CombinedOutput()
		covered, stmts, err := readProfile(profile)
		if err != nil {
			if runErr != nil {
				return nil, fmt.Errorf("replaying %s's inputs on %s: %v\n%s", t.Name, s.Name, runErr, out)
			}
			return nil, err
		}
		points = append(points, Point{At: at, Covered: covered, Stmts: stmts})
	}
	return points, nil
}

// readProfile returns the statements covered and all statements of a Go
// cover profile, counting each block once.
func readProfile(path string) (covered, total int, err error) {
	profiles, err := cover.ParseProfiles(path)
	if err != nil {
		return 0, 0, err
	}
	type key struct {
		file                                 string
		startLine, startCol, endLine, endCol int
	}
	hit := map[key]bool{}
	stmts := map[key]int{}
	for _, p := range profiles {
		for _, b := range p.Blocks {
			k := key{p.FileName, b.StartLine, b.StartCol, b.EndLine, b.EndCol}
			stmts[k] = b.NumStmt
			hit[k] = hit[k] || b.Count > 0
		}
	}
	if len(stmts) == 0 {
		return 0, 0, fmt.Errorf("%s: an empty cover profile", path)
	}
	for k, n := range stmts {
		total += n
		if hit[k] {
			covered += n
		}
	}
	return covered, total, nil
}
