package main

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver/z3"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/tarpred"
	"github.com/seed72891827/kfuzz/internal/cputime"
)

func init() {
	register(&command{
		name:  "eval isla",
		usage: "[-time 60s] [-subjects c,xml,csv,tar,rest] [-seed S] [-identity nonterminal|occurrence] [-constraints DIR] [-restart N] [-max-states N] [-stall K] [-formal] [-n N] [-retime] [-json] [-z3=false]",
		short: "measure the ISLa solver on the subjects of the ISLa paper (or, with -formal, ISLa's own formalizations): valid inputs per minute, validity (validator and Go oracles), k-path diversity, next to ISLa's Table 2",
		run:   runEvalISLA,
	})
}

// An islaSubject is one constraint set of the ISLa evaluation (Steinhöfel
// and Zeller, "Input Invariants", ESEC/FSE 2022, section 6, Table 2).
type islaSubject struct {
	name    string   // the -subjects name
	label   string   // what is measured
	grammar string   // built-in grammar, or a grammar file (name with a dot) in the constraints directory
	files   []string // constraint files in the constraints directory; none: tarpred.Constraint
	oracle  string   // the Go reader that must accept every output, "" if none
	// evalTree validates the solver's derivation tree (Spec.EvalTree)
	// rather than the input's parses (Spec.Check), for a grammar too
	// ambiguous for Check's bound on derivations.
	evalTree bool
	check    func(in []byte, t *grammar.Tree) error
	// ISLa's figures in Table 2, on the row where the subject's constraints
	// are complete: valid inputs per minute and diversity (% of k-paths).
	paperRate, paperDiversity float64
}

// islaSubjects are the subjects in the order of Table 2. The paper's
// figures are those of its last row per language: Scriptsize-C "+ no-redef"
// (387/min, 58%), XML "+ no-redef" (126/min, 91%), TAR "+ reference"
// (19/min, 87%), reST "+ no-redef" (404/min, 100%), CSV "+ columns"
// (127/min, 100%).
var islaSubjects = []islaSubject{
	{name: "c", label: "Scriptsize-C def-use + no-redef", grammar: "scriptsizec",
		files: []string{"scriptsizec-def-use.isla", "scriptsizec-no-redef.isla"}, oracle: "scope checker",
		check: scriptsizeCOracle, paperRate: 387, paperDiversity: 58},
	{name: "xml", label: "XML balance + def-use (namespaces) + no-redef", grammar: "xml",
		files: []string{"xml-balance.isla", "xml-namespace.isla", "xml-no-redef.isla"}, oracle: "encoding/xml",
		check: xmlOracleCheck, paperRate: 126, paperDiversity: 91},
	{name: "tar", label: "TAR lengths + checksum (tarpred.Constraint)", grammar: "tar",
		oracle: "archive/tar", check: tarOracleCheck, paperRate: 19, paperDiversity: 87},
	{name: "rest", label: "reST title underline", grammar: "rest",
		files: []string{"rest-title.isla"}, paperRate: 404, paperDiversity: 100},
	{name: "csv", label: "CSV column count", grammar: "csv",
		files: []string{"csv-columns.isla"}, oracle: "encoding/csv", check: csvOracleCheck,
		paperRate: 127, paperDiversity: 100},
}

// islaEvalRow is the outcome for one subject; its JSON form is the output
// of -json.
type islaEvalRow struct {
	Subject     string  `json:"subject"`
	Label       string  `json:"label"`
	Outputs     int     `json:"outputs"`
	Valid       int     `json:"valid"`     // valid under the validator (Spec.Check) and the oracle
	Validator   int     `json:"validator"` // valid under the validator
	Oracle      string  `json:"oracle,omitempty"`
	OracleOK    int     `json:"oracle_ok"`
	SolveSecs   float64 `json:"solve_seconds"`               // time spent in the solver
	SolveCPU    float64 `json:"solve_cpu_seconds,omitempty"` // CPU time (user+sys) of the process while solving
	PerCPUMin   float64 `json:"valid_per_cpu_min,omitempty"`
	ValidPerMin float64 `json:"valid_per_min"`
	ValidPct    float64 `json:"valid_percent"`
	KPath3      float64 `json:"kpath3_percent"` // k-paths of the grammar the valid outputs cover together
	KPath4      float64 `json:"kpath4_percent"`
	MeanLen     float64 `json:"mean_length"`
	MedianLen   int     `json:"median_length"`
	PaperRate   float64 `json:"isla_valid_per_min"`
	PaperDiv    float64 `json:"isla_kpath_percent"`
	Speedup     float64 `json:"speedup"`
	// The time the solver took per output (CPU time of the process, all
	// its threads, where it can be read, else wall time), in
	// milliseconds: median, 99th percentile and maximum, and whether it
	// is CPU time. It is read with cputime.Process, which sums the
	// threads' own clocks: the process clock would charge an output with
	// up to a scheduler tick of the collector's work on another core.
	LatencyP50 float64 `json:"latency_p50_ms"`
	LatencyP99 float64 `json:"latency_p99_ms"`
	LatencyMax float64 `json:"latency_max_ms"`
	LatencyCPU bool    `json:"latency_cpu"`
	// The same for the CPU time of the solving goroutine's OS thread
	// alone, where it can be read: the process's CPU time also counts the
	// garbage collector's background marking on the other cores, work
	// for the whole heap that runs beside the solver without delaying it
	// and that lands on whichever output is being solved.
	ThreadP50 float64 `json:"latency_thread_p50_ms,omitempty"`
	ThreadP99 float64 `json:"latency_thread_p99_ms,omitempty"`
	ThreadMax float64 `json:"latency_thread_max_ms,omitempty"`
	// The wall-clock time per output, where the CPU time is reported
	// above (else the latency_* fields are wall-clock time). On an idle
	// machine it is what a caller of Solver.Next waits.
	WallP50 float64 `json:"latency_wall_p50_ms,omitempty"`
	WallP99 float64 `json:"latency_wall_p99_ms,omitempty"`
	WallMax float64 `json:"latency_wall_max_ms,omitempty"`
	// With -retime: the thread's CPU time per output taken as the lesser
	// of two timings of the same output, the timed run's and a second
	// run's with a new solver of the same seed, which solves the same
	// outputs doing the same work. An interruption of the machine that
	// lands on one output in one run (a preempted virtual CPU, an
	// interrupt) is then not counted; work the solver does is. Retimed is
	// the number of outputs both runs had in common (the first run's,
	// unless the two runs differed: then the rest keep one timing).
	RetimedP50 float64 `json:"latency_retimed_p50_ms,omitempty"`
	RetimedP99 float64 `json:"latency_retimed_p99_ms,omitempty"`
	RetimedMax float64 `json:"latency_retimed_max_ms,omitempty"`
	Retimed    int     `json:"retimed,omitempty"`
	// How much of the slowest outputs was the search's own work: the
	// solving thread's CPU time, and with -retime the lesser of its two
	// timings, of the output with latency_max_ms (MaxThread, MaxRetimed)
	// and of the one with latency_wall_max_ms (WallMaxThread,
	// WallMaxRetimed).
	MaxThread      float64  `json:"latency_max_thread_ms,omitempty"`
	MaxRetimed     float64  `json:"latency_max_retimed_ms,omitempty"`
	WallMaxThread  float64  `json:"latency_wall_max_thread_ms,omitempty"`
	WallMaxRetimed float64  `json:"latency_wall_max_retimed_ms,omitempty"`
	Stopped        string   `json:"stopped,omitempty"` // why the solver stopped before the time was up
	Failures       []string `json:"failures,omitempty"`
}

// latencies returns the median, 99th percentile and maximum of each in
// milliseconds (zeros if each is empty). It sorts each.
func latencies(each []time.Duration) (p50, p99, max float64) {
	if len(each) == 0 {
		return 0, 0, 0
	}
	slices.Sort(each)
	ms := func(q float64) float64 {
		return float64(each[min(len(each)-1, int(q*float64(len(each))))].Microseconds()) / 1000
	}
	return ms(0.5), ms(0.99), float64(each[len(each)-1].Microseconds()) / 1000
}

// ofSlowest returns, in milliseconds, the element of of at the position of
// the largest element of by (the first, if several are equal), or 0 if of
// is shorter than by.
func ofSlowest(by, of []time.Duration) float64 {
	if len(by) == 0 || len(of) < len(by) {
		return 0
	}
	i := 0
	for j, d := range by {
		if d > by[i] {
			i = j
		}
	}
	return float64(of[i].Microseconds()) / 1000
}

// runEvalISLA runs the solver on each subject for the time budget.
func runEvalISLA(e *env, args []string) error {
	c := commands["eval isla"]
	fs := newFlagSet(e, c)
	budget := fs.Duration("time", time.Minute, "solving time per subject")
	which := fs.String("subjects", "c,xml,tar,rest,csv", "comma-separated subjects: c, xml, tar, rest, csv")
	seed := fs.Uint64("seed", 1, "seed of the solver")
	identity := identityValue(grammar.ByNonterminal)
	fs.Var(&identity, "identity", "k-path node `identity`: nonterminal (one node per nonterminal, as ISLa counts) or occurrence")
	dir := fs.String("constraints", "", "`directory` of the constraint files (default: fuzzharness/isla/testdata of the kfuzz module)")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	useZ3 := fs.Bool("z3", true, "solve with Z3 the atoms the solver cannot solve in Go")
	restart := fs.Int("restart", solveRestart, "start the search over after every `n` solutions (solver.RestartEvery; 0: never)")
	maxStates := fs.Int("max-states", solveMaxStates, "the solver's state budget per solution (solver.MaxStates); with -restart, a search that runs out starts over")
	stall := fs.Int("stall", solver.DefaultStallFactor, "with -restart, start a search over once it has gone `k` times the median states between solutions without a new one (solver.StallFactor; 0: never)")
	formal := fs.Bool("formal", false, "solve ISLa's own formalizations (fuzzharness/isla/testdata/formal) instead of the paper's subjects")
	maxOut := fs.Int("n", 0, "stop a subject after `N` outputs (0: when -time is up)")
	retime := fs.Bool("retime", false, "solve each subject's outputs a second time with a new solver of the same seed and report each output's thread CPU time as the lesser of its two timings (takes twice as long)")
	if pos, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(pos) != 0 {
		fs.Usage()
		return errUsage
	}
	if *budget <= 0 {
		return &exitError{code: 2, err: errors.New("-time must be positive")}
	}
	if *maxOut < 0 {
		return &exitError{code: 2, err: errors.New("-n must not be negative")}
	}
	all := islaSubjects
	if *formal {
		all = formalSubjects
	}
	var subjects []islaSubject
	for _, n := range strings.Split(*which, ",") {
		n = strings.TrimSpace(n)
		i := slices.IndexFunc(all, func(s islaSubject) bool { return s.name == n })
		if i < 0 {
			return &exitError{code: 2, err: fmt.Errorf("unknown subject %q (have c, xml, tar, rest, csv)", n)}
		}
		subjects = append(subjects, all[i])
	}
	if *dir == "" {
		root, err := kfuzzModuleRoot()
		if err != nil {
			return &exitError{code: 2, err: fmt.Errorf("%v; or give -constraints DIR", err)}
		}
		*dir = filepath.Join(root, "fuzzharness", "isla", "testdata")
		if *formal {
			*dir = filepath.Join(*dir, "formal")
		}
	}
	var smt solver.SMTSolver
	if *useZ3 {
		z, err := z3.New()
		switch {
		case errors.Is(err, z3.ErrNoZ3):
			fmt.Fprintln(e.stderr, "kfuzz eval isla: Z3 is not available in this build; solving in Go only")
		case err != nil:
			return err
		default:
			defer z.Close()
			smt = z
		}
	}
	if *stall < 0 {
		return &exitError{code: 2, err: errors.New("-stall must not be negative")}
	}
	opts := []solver.Option{solver.RestartEvery(*restart), solver.MaxStates(*maxStates), solver.StallFactor(*stall)}
	var rows []*islaEvalRow
	for _, sub := range subjects {
		fmt.Fprintf(e.stderr, "eval isla: %s for %v\n", sub.label, *budget)
		row, err := evalISLASubject(e, sub, *dir, *seed, grammar.Identity(identity), smt, *budget, *maxOut, *retime, opts)
		if err != nil {
			return err
		}
		rows = append(rows, row)
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	return printISLAEval(e.stdout, rows, *budget, *seed, grammar.Identity(identity))
}

// evalISLASubject solves for the budget and validates every output.
func evalISLASubject(e *env, sub islaSubject, dir string, seed uint64, id grammar.Identity, smt solver.SMTSolver, budget time.Duration, maxOut int, retime bool, extra []solver.Option) (*islaEvalRow, error) {
	gfile := sub.grammar
	if strings.Contains(gfile, ".") {
		gfile = filepath.Join(dir, gfile)
	}
	gr, err := e.loadGraph(gfile, grammar.WithIdentity(id))
	if err != nil {
		return nil, err
	}
	var cs []*isla.Constraint
	if len(sub.files) == 0 {
		c, err := isla.Parse("tarpred.Constraint", []byte(tarpred.Constraint))
		if err != nil {
			return nil, err
		}
		cs = append(cs, c)
	}
	for _, f := range sub.files {
		src, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		c, err := isla.Parse(filepath.Join(dir, f), src)
		if err != nil {
			return nil, err
		}
		cs = append(cs, c)
	}
	con, err := isla.Conjoin(cs...)
	if err != nil {
		return nil, err
	}
	spec, err := isla.Compile(con, gr, tarpred.Predicates())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sub.name, err)
	}
	opts := append([]solver.Option{solver.Seed(seed)}, extra...)
	if smt != nil {
		opts = append(opts, solver.WithSMTSolver(smt))
	}
	s, err := solver.New(spec, opts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sub.name, err)
	}
	pt, err := gr.PathTable(4)
	if err != nil {
		return nil, err
	}
	covered := pt.NewPathSet()
	row := &islaEvalRow{Subject: sub.name, Label: sub.label, Oracle: sub.oracle,
		PaperRate: sub.paperRate, PaperDiv: sub.paperDiversity}
	fail := func(format string, args ...any) {
		if len(row.Failures) < 5 {
			row.Failures = append(row.Failures, fmt.Sprintf(format, args...))
		}
	}
	var lens []int
	var solving, cpu time.Duration
	var wallEach, cpuEach, threadEach []time.Duration // per output
	var calls []bool                                  // with -retime, per completed call of Next: whether it returned an output
	var sums []uint64                                 // with -retime, per output: a hash of its bytes
	cpuOK, threadOK := true, cputime.ThreadCPU()
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	var proc cputime.Process // all threads' CPU per output, the collector's included
	// validate checks an output, tree t of input in, with the validator
	// and the oracle.
	validate := func(t *grammar.Tree, in []byte) (r *isla.Result, err, oracleErr error) {
		if sub.evalTree {
			r = spec.EvalTree(t)
		} else {
			r, err = spec.Check(in)
		}
		if sub.check != nil {
			oracleErr = sub.check(in, t)
		}
		return r, err, oracleErr
	}
	for maxOut == 0 || row.Outputs < maxOut {
		ok0 := proc.Start()
		start := time.Now()
		timer := cputime.Start()
		t, err := s.Next(ctx)
		thread := timer.Stop()
		wall := time.Since(start)
		solving += wall
		used, ok1 := proc.Stop()
		cpu += used
		cpuOK = cpuOK && ok0 && ok1
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			if errors.Is(err, solver.ErrInvalidOutput) {
				row.Outputs++
				if retime {
					calls = append(calls, false)
				}
				fail("%v", err)
				continue
			}
			row.Stopped = err.Error()
			break
		}
		row.Outputs++
		wallEach, cpuEach, threadEach = append(wallEach, wall), append(cpuEach, used), append(threadEach, thread)
		in := t.Bytes()
		if retime {
			calls, sums = append(calls, true), append(sums, outputSum(in))
		}
		ok := true
		r, err, oracleErr := validate(t, in)
		if err != nil || !r.Valid {
			ok = false
			fail("validator: %q: %v", in, firstNonNil(err, r))
		} else {
			row.Validator++
		}
		if sub.check != nil {
			if oracleErr != nil {
				ok = false
				fail("%s: %q: %v", sub.oracle, in, oracleErr)
			} else {
				row.OracleOK++
			}
		}
		if ok {
			row.Valid++
			pt.AddPaths(covered, t)
			lens = append(lens, len(in))
		}
	}
	var lesser []time.Duration // with -retime, per output
	if retime && threadOK {
		again, err := solver.New(spec, opts...)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(e.stderr, "eval isla: %s: solving the %d outputs again (-retime)\n", sub.label, len(sums))
		second, same := timeAgain(again, calls, sums, func(t *grammar.Tree, in []byte) { validate(t, in) })
		lesser = slices.Clone(threadEach)
		for i := range same {
			lesser[i] = min(lesser[i], second[i])
		}
		row.Retimed = same
	}
	each := wallEach
	if row.LatencyCPU = cpuOK; cpuOK {
		each = cpuEach
	}
	// The slowest outputs' own work, read before latencies sorts.
	if threadOK {
		row.MaxThread, row.MaxRetimed = ofSlowest(each, threadEach), ofSlowest(each, lesser)
		if cpuOK {
			row.WallMaxThread, row.WallMaxRetimed = ofSlowest(wallEach, threadEach), ofSlowest(wallEach, lesser)
		}
	}
	if cpuOK {
		row.WallP50, row.WallP99, row.WallMax = latencies(wallEach)
	}
	row.LatencyP50, row.LatencyP99, row.LatencyMax = latencies(each)
	if threadOK {
		row.ThreadP50, row.ThreadP99, row.ThreadMax = latencies(threadEach)
	}
	if lesser != nil {
		row.RetimedP50, row.RetimedP99, row.RetimedMax = latencies(lesser)
	}
	row.SolveSecs = solving.Seconds()
	if solving > 0 {
		row.ValidPerMin = float64(row.Valid) / solving.Minutes()
	}
	if cpuOK && cpu > 0 {
		row.SolveCPU = cpu.Seconds()
		row.PerCPUMin = float64(row.Valid) / cpu.Minutes()
	}
	if row.Outputs > 0 {
		row.ValidPct = 100 * float64(row.Valid) / float64(row.Outputs)
	}
	for k, p := range map[int]*float64{3: &row.KPath3, 4: &row.KPath4} {
		lo, hi := pt.Range(k)
		if hi > lo {
			*p = 100 * float64(covered.CountRange(lo, hi)) / float64(hi-lo)
		}
	}
	if len(lens) > 0 {
		total := 0
		for _, l := range lens {
			total += l
		}
		row.MeanLen = float64(total) / float64(len(lens))
		slices.Sort(lens)
		row.MedianLen = lens[len(lens)/2]
	}
	if row.PaperRate > 0 {
		row.Speedup = row.ValidPerMin / row.PaperRate
	}
	return row, nil
}

// outputSeed seeds outputSum for the life of the process.
var outputSeed = maphash.MakeSeed()

// outputSum hashes an output, to tell whether a second run solved the
// same output.
func outputSum(in []byte) uint64 { return maphash.Bytes(outputSeed, in) }

// timeAgain makes the calls of a timed run again on s, a new solver with
// the same seed and options, and returns the thread CPU time of each
// output and the number of outputs, from the first, that were the same as
// sums. It stops at the first output that differs (Z3's time limits can
// make a run differ). It validates each output as the timed run did, so
// that the two runs solve in the same conditions (the validator's garbage
// and its use of the caches).
func timeAgain(s *solver.Solver, calls []bool, sums []uint64, validate func(t *grammar.Tree, in []byte)) ([]time.Duration, int) {
	times := make([]time.Duration, 0, len(sums))
	for _, output := range calls {
		timer := cputime.Start()
		t, err := s.Next(context.Background())
		d := timer.Stop()
		if output != (err == nil) {
			break
		}
		if err != nil {
			if errors.Is(err, solver.ErrInvalidOutput) {
				continue
			}
			break
		}
		in := t.Bytes()
		if outputSum(in) != sums[len(times)] {
			break
		}
		validate(t, in)
		times = append(times, d)
	}
	return times, len(times)
}

func firstNonNil(err error, r *isla.Result) any {
	if err != nil {
		return err
	}
	return r
}

// printISLAEval prints the table and the verdicts on the goals.
func printISLAEval(w io.Writer, rows []*islaEvalRow, budget time.Duration, seed uint64, id grammar.Identity) error {
	idName := "one node per nonterminal, as ISLa counts"
	if id == grammar.ByOccurrence {
		idName = "one node per occurrence"
	}
	fmt.Fprintf(w, "ISLa subjects, %v of solving each, seed %d; k-paths: %s; ISLa: Table 2 of \"Input Invariants\"\n\n", budget, seed, idName)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "subject\toutputs\tvalid\tvalid/min\tvalid/CPU min\t% valid\toracle\tk=3 %\tk=4 %\tlength mean (median)\tISLa valid/min\tISLa %k-paths\tspeedup\tspeedup per CPU min")
	for _, r := range rows {
		oracle := "-"
		if r.Oracle != "" {
			oracle = fmt.Sprintf("%s %d/%d", r.Oracle, r.OracleOK, r.Outputs)
		}
		paper := "-\t-\t-\t-"
		if r.PaperRate > 0 {
			paper = fmt.Sprintf("%.0f\t%.0f\t%.0fx\t%.0fx", r.PaperRate, r.PaperDiv, r.Speedup, r.PerCPUMin/r.PaperRate)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.0f\t%.0f\t%.1f\t%s\t%.1f\t%.1f\t%.0f (%d)\t%s\n", r.Label, r.Outputs, r.Valid, r.ValidPerMin,
			r.PerCPUMin, r.ValidPct, oracle, r.KPath3, r.KPath4, r.MeanLen, r.MedianLen, paper)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for _, r := range rows {
		if r.PaperRate > 0 {
			fmt.Fprintf(w, "%s: %.0fx ISLa's valid inputs/min (goal >= 100x: %s); k=3 diversity %.1f%% vs ISLa's %.0f%% (goal >=: %s); %.1f%% valid (goal 100%%: %s)\n",
				r.Subject, r.Speedup, verdict(r.Speedup >= 100), r.KPath3, r.PaperDiv, verdict(r.KPath3 >= r.PaperDiv),
				r.ValidPct, verdict(r.Outputs > 0 && r.Valid == r.Outputs))
		} else {
			fmt.Fprintf(w, "%s: %.1f%% valid (goal 100%%: %s)\n", r.Subject, r.ValidPct, verdict(r.Outputs > 0 && r.Valid == r.Outputs))
		}
		if r.Outputs > 0 {
			kind := "wall"
			if r.LatencyCPU {
				kind = "CPU"
			}
			ratio := 0.0
			if r.LatencyP50 > 0 {
				ratio = r.LatencyMax / r.LatencyP50
			}
			fmt.Fprintf(w, "  %s time per output: p50 %.2f ms, p99 %.2f ms, max %.2f ms (max %.0fx the median; goal <= 100x: %s)%s\n",
				kind, r.LatencyP50, r.LatencyP99, r.LatencyMax, ratio, verdict(r.LatencyP50 > 0 && ratio <= 100), ownWork(r.MaxThread, r.MaxRetimed))
			if r.ThreadP50 > 0 {
				ratio := r.ThreadMax / r.ThreadP50
				fmt.Fprintf(w, "  solving thread's CPU time per output: p50 %.2f ms, p99 %.2f ms, max %.2f ms (max %.0fx the median; goal <= 100x: %s)\n",
					r.ThreadP50, r.ThreadP99, r.ThreadMax, ratio, verdict(ratio <= 100))
			}
			if r.RetimedP50 > 0 {
				ratio := r.RetimedMax / r.RetimedP50
				fmt.Fprintf(w, "  the same, lesser of two timings of each output (%d of %d outputs solved again alike): p50 %.2f ms, p99 %.2f ms, max %.2f ms (max %.0fx the median; goal <= 100x: %s)\n",
					r.Retimed, r.Outputs, r.RetimedP50, r.RetimedP99, r.RetimedMax, ratio, verdict(ratio <= 100))
			}
			if r.WallP50 > 0 {
				fmt.Fprintf(w, "  wall-clock time per output: p50 %.2f ms, p99 %.2f ms, max %.2f ms (max %.0fx the median)%s\n",
					r.WallP50, r.WallP99, r.WallMax, r.WallMax/r.WallP50, ownWork(r.WallMaxThread, r.WallMaxRetimed))
			}
		}
		if r.Stopped != "" {
			fmt.Fprintf(w, "  the solver stopped early: %s\n", r.Stopped)
		}
		for _, f := range r.Failures {
			fmt.Fprintf(w, "  invalid: %s\n", f)
		}
	}
	return nil
}

// ownWork describes the search's own work in the slowest output: its
// thread CPU time and, if known, the lesser of its two timings.
func ownWork(thread, retimed float64) string {
	switch {
	case thread == 0:
		return ""
	case retimed == 0:
		return fmt.Sprintf("; of that output, the solving thread's CPU %.2f ms", thread)
	}
	return fmt.Sprintf("; of that output, the solving thread's CPU %.2f ms, retimed %.2f ms", thread, retimed)
}

// xmlOracleCheck reads every token with a strict encoding/xml Decoder.
func xmlOracleCheck(in []byte, _ *grammar.Tree) error {
	d := xml.NewDecoder(bytes.NewReader(in))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// csvOracleCheck reads every record with encoding/csv, which requires the
// same number of fields in each.
func csvOracleCheck(in []byte, _ *grammar.Tree) error {
	r := csv.NewReader(bytes.NewReader(in))
	_, err := r.ReadAll()
	return err
}

// tarOracleCheck reads every entry and its data with archive/tar and
// compares the number of entries with the derivation tree's.
func tarOracleCheck(in []byte, t *grammar.Tree) error {
	want := 0
	t.Walk(func(u *grammar.Tree) bool {
		if u.Node.Kind == grammar.KindRef && u.Node.Name == "entry" {
			want++
			return false
		}
		return true
	})
	r := tar.NewReader(bytes.NewReader(in))
	for n := 0; ; n++ {
		h, err := r.Next()
		if err == io.EOF {
			if n != want {
				return fmt.Errorf("%d entries, the derivation tree has %d", n, want)
			}
			return nil
		}
		if err != nil {
			return err
		}
		m, err := io.Copy(io.Discard, r)
		if err != nil {
			return err
		}
		if m != h.Size {
			return fmt.Errorf("entry %d: %d bytes of data, the size is %d", n, m, h.Size)
		}
	}
}
