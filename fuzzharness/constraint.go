package fuzzharness

import (
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/cputime"
)

// A Constraint is a semantic constraint on the inputs of a harness, beyond
// the grammar: for example def-use (every variable is declared before it is
// used). With WithConstraint, the harness checks every decoded tree; a tree
// that violates the constraint is repaired before the target runs, and an
// input that cannot be repaired is skipped. Package isla/solver provides
// one for ISLa constraints (solver.Repairer); the dependency points from
// the solver to this interface, so that fuzzharness itself knows nothing of
// ISLa or its solver.
type Constraint interface {
	// Valid reports whether the complete tree satisfies the constraint. It
	// must not modify the tree.
	Valid(t *grammar.Tree) bool
	// Repair returns a tree of the same graph that satisfies the
	// constraint, keeping as much of t as it can, or false. It must not
	// modify t, and must be deterministic: the same t and seed give the
	// same result, so that the fuzzer's bytes still decide the input. The
	// harness derives the seed from the fuzzer's bytes.
	Repair(t *grammar.Tree, seed uint64) (*grammar.Tree, bool)
	// Seeds returns up to n trees that satisfy the constraint, as seeds
	// for the fuzzer (typically made by a constraint solver).
	Seeds(n int) []*grammar.Tree
}

// DefaultConstraintSeeds is how many seeds WithConstraint asks the
// constraint for.
const DefaultConstraintSeeds = 16

// WithConstraint makes the harness constraint-aware. Every decoded tree is
// checked with c.Valid; a tree that fails is replaced by c.Repair's tree,
// with a seed derived from the fuzzer's bytes (those the decoding read),
// and an input that cannot be repaired is skipped with t.Skip, as with
// WithValidity. The other seeds (k-path forest, examples, seed trees) are
// repaired likewise before they are added (a seed that cannot be repaired
// is left out), and the constraint's own Seeds (WithConstraintSeeds of
// them) are added after them. Stats counts the inputs that were valid as
// decoded, repaired, and skipped; see the package documentation for how
// the counts of go test -fuzz's worker processes are gathered.
func WithConstraint(c Constraint) Option {
	return func(cfg *config) { cfg.constraint = c }
}

// WithConstraintSeeds sets how many seeds the harness asks the constraint
// of WithConstraint for (default DefaultConstraintSeeds).
func WithConstraintSeeds(n int) Option {
	return func(cfg *config) { cfg.constraintSeeds = n }
}

// DefaultRepairBudget is the time an input's repair may take by default
// (see WithRepairBudget).
const DefaultRepairBudget = 500 * time.Microsecond

// WithRepairBudget sets the CPU time the repair of one input may take
// (default DefaultRepairBudget; 0: no limit). An input whose repair takes
// longer is skipped and counted (Stats.OverBudget), so that one hard input
// never stalls a fuzzing worker. The budget counts the CPU time of the
// repairing goroutine's thread, not the time it waits for a core, so it
// means the same on a loaded machine as on an idle one (where the system
// has no per-thread CPU clock, it is wall-clock time). A constraint with a
// method
//
//	RepairWithin(t *grammar.Tree, seed uint64, budget time.Duration) (*grammar.Tree, bool)
//
// such as solver.Repairer gets the budget and stops there; the harness
// calls it in place of Valid and Repair, and takes a result that is t
// itself for valid. A constraint with a method
//
//	RepairBy(t *grammar.Tree, seed uint64, deadline time.Time) (*grammar.Tree, bool)
//
// instead gets a wall-clock deadline the budget after the repair starts.
// Of other constraints, the harness discards a repair that returns late.
// The environment variable KFUZZ_REPAIR_BUDGET, if set to a duration,
// overrides the option (kfuzz eval harness -repair-budget sets it).
func WithRepairBudget(d time.Duration) Option {
	return func(cfg *config) { cfg.repairBudget = d }
}

// budgetRepairer is a Constraint that takes a CPU-time budget (see
// WithRepairBudget).
type budgetRepairer interface {
	RepairWithin(t *grammar.Tree, seed uint64, budget time.Duration) (*grammar.Tree, bool)
}

// deadlineRepairer is a Constraint that takes a deadline (see
// WithRepairBudget).
type deadlineRepairer interface {
	RepairBy(t *grammar.Tree, seed uint64, deadline time.Time) (*grammar.Tree, bool)
}

// repairSeed derives the seed of a repair from the fuzzer's bytes: their
// 64-bit FNV-1a hash.
func repairSeed(data []byte) uint64 {
	h := fnv.New64a()
	h.Write(data)
	return h.Sum64()
}

// outcome is what the validity checks made of one input.
type outcome int

const (
	outcomeValid      outcome = iota // valid as decoded
	outcomeRepaired                  // repaired by the constraint
	outcomeRejected                  // skipped: the target does not run
	outcomeOverBudget                // skipped: the repair took longer than its budget
	outcomeInvalid                   // valid, then changed on purpose: byte edits or the invalid share
)

// check applies the constraint and the validity predicate to the decoded
// input in, returning the input the target gets. An input that data
// selects for the invalid share (see WithInvalidShare) is mutated as
// decoded and is outcomeInvalid without a repair: the repair's CPU time
// goes to the inputs that stay valid, and the mutated text may break the
// constraint as well as the grammar. A valid input whose text byte edits
// changed is outcomeInvalid too.
func (h *Harness) check(in Input, data []byte) (Input, outcome) {
	if in, ok := h.invalidate(in, data); ok {
		return in, outcomeInvalid
	}
	in, o := h.checkValid(in, data)
	if o != outcomeValid && o != outcomeRepaired {
		return in, o
	}
	if in.Edited() {
		return in, outcomeInvalid
	}
	return in, o
}

// checkValid is check without the invalid share.
func (h *Harness) checkValid(in Input, data []byte) (Input, outcome) {
	c, valid := h.cfg.constraint, h.cfg.valid
	if c == nil && valid == nil {
		return in, outcomeValid
	}
	tree, res := in.Tree(), outcomeValid
	if c != nil {
		repaired, o := h.repair(c, tree, data[:min(in.Used(), len(data))])
		switch o {
		case outcomeRejected, outcomeOverBudget:
			return in, o
		case outcomeRepaired:
			tree, res = repaired, outcomeRepaired
			b := tree.Bytes()
			// Byte edits (Bounds.MaxEdits) apply to the repaired text.
			in = h.codec.edit(Input{s: string(b), b: b, st: &inputState{tree: tree, used: in.Used()}}, data)
		}
	}
	if valid != nil && !valid(tree) {
		return in, outcomeRejected
	}
	return in, res
}

// repair checks tree against the constraint and repairs it within the
// budget, with a seed derived from used, the bytes the decoding read (not
// those after them, which do not change the input either). It records the
// CPU time of every repair attempted (see WithRepairBudget).
func (h *Harness) repair(c Constraint, tree *grammar.Tree, used []byte) (*grammar.Tree, outcome) {
	budget := h.cfg.repairBudget
	seed := repairSeed(used)
	var out *grammar.Tree
	var ok bool
	var timer *cputime.Timer
	switch c := c.(type) {
	case budgetRepairer:
		timer = cputime.Start()
		out, ok = c.RepairWithin(tree, seed, budget)
	case deadlineRepairer:
		timer = cputime.Start()
		var deadline time.Time
		if budget > 0 {
			deadline = time.Now().Add(budget)
		}
		out, ok = c.RepairBy(tree, seed, deadline)
	default:
		if c.Valid(tree) {
			return tree, outcomeValid
		}
		timer := cputime.Start()
		out, ok := c.Repair(tree, seed)
		return out, h.repairOutcome(timer.Stop(), out, ok)
	}
	d := timer.Stop()
	if ok && out == tree {
		return tree, outcomeValid // the repairer found tree valid
	}
	return out, h.repairOutcome(d, out, ok)
}

// repairOutcome records a repair that took d and returned out and ok, and
// returns its outcome.
func (h *Harness) repairOutcome(d time.Duration, out *grammar.Tree, ok bool) outcome {
	h.times.add(d)
	switch {
	case h.cfg.repairBudget > 0 && d > h.cfg.repairBudget:
		return outcomeOverBudget
	case !ok || out == nil:
		return outcomeRejected
	}
	return outcomeRepaired
}

// count records an outcome in the harness's counts.
func (h *Harness) count(o outcome) {
	h.inputs.Add(1)
	switch o {
	case outcomeRepaired:
		h.repaired.Add(1)
	case outcomeRejected:
		h.rejected.Add(1)
	case outcomeOverBudget:
		h.rejected.Add(1)
		h.overBudget.Add(1)
	case outcomeInvalid:
		h.invalid.Add(1)
	}
	if h.workerStats != nil {
		h.workerStats.maybeFlush(h)
	}
}

// EnvStats names a file to which a harness writes its final Stats as JSON
// when the fuzz test ends: under go test -fuzz, the counts of all worker
// processes added up; otherwise the counts of the process.
const EnvStats = "KFUZZ_STATS"

// statsFlushInterval is how often a go test -fuzz worker writes its counts.
const statsFlushInterval = 200 * time.Millisecond

// fuzzRole tells whether the process is the coordinator of go test -fuzz,
// one of its workers, or neither.
func fuzzRole() (coordinator, worker bool) {
	if f := flag.Lookup("test.fuzzworker"); f != nil && f.Value.String() == "true" {
		return false, true
	}
	if f := flag.Lookup("test.fuzz"); f != nil && f.Value.String() != "" {
		return true, false
	}
	return false, false
}

// statsDir is the directory where the workers of the go test -fuzz
// coordinator with process id pid write their counts.
func statsDir(pid int) string {
	return filepath.Join(os.TempDir(), "kfuzz-fuzzharness-stats-"+strconv.Itoa(pid))
}

// workerStats writes a worker's counts to its file in the coordinator's
// stats directory, at most every statsFlushInterval and when the test
// ends.
type workerStats struct {
	mu   sync.Mutex
	path string
	last time.Time
}

func newWorkerStats(name string) *workerStats {
	dir := statsDir(os.Getppid())
	return &workerStats{path: filepath.Join(dir, fmt.Sprintf("%s.%d.json", name, os.Getpid()))}
}

func (w *workerStats) maybeFlush(h *Harness) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if time.Since(w.last) < statsFlushInterval {
		return
	}
	w.flushLocked(h)
}

func (w *workerStats) flush(h *Harness) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.flushLocked(h)
}

// flushLocked writes the counts atomically (a temporary file renamed over
// the old one), so that the coordinator never reads half a file. Errors
// are ignored: the counts are a report, not a result of the test.
func (w *workerStats) flushLocked(h *Harness) {
	w.last = time.Now()
	data, err := json.Marshal(h.Stats())
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(w.path), 0o755); err != nil {
		return
	}
	tmp := w.path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return
	}
	os.Rename(tmp, w.path)
}

// gatherWorkerStats adds up the counts that the workers of this
// coordinator wrote for the fuzz test name, and removes their files.
func gatherWorkerStats(name string) (Stats, int) {
	dir := statsDir(os.Getpid())
	entries, err := os.ReadDir(dir)
	if err != nil {
		return Stats{}, 0
	}
	var sum Stats
	n := 0
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), name+".") || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(path)
		os.Remove(path)
		if err != nil {
			continue
		}
		var s Stats
		if json.Unmarshal(data, &s) != nil {
			continue
		}
		sum.Inputs += s.Inputs
		sum.Repaired += s.Repaired
		sum.Rejected += s.Rejected
		sum.OverBudget += s.OverBudget
		sum.Invalid += s.Invalid
		sum.RepairTimes = addHist(sum.RepairTimes, s.RepairTimes)
		sum.RepairMax = max(sum.RepairMax, s.RepairMax)
		n++
	}
	os.Remove(dir) // only if empty: another fuzz test of the process may still need it
	return sum, n
}

// reportStats logs the harness's counts at the end of the fuzz test and writes
// them to the file named by EnvStats, if set. The coordinator of go test
// -fuzz reports the sum of its workers' counts.
func (h *Harness) reportStats() {
	f, ok := h.f.(reporter)
	if !ok {
		return
	}
	coordinator, worker := fuzzRole()
	if worker {
		if h.workerStats != nil {
			h.workerStats.flush(h)
		}
		return
	}
	s := h.Stats()
	where := "this process"
	if coordinator {
		// Fuzz tests other than the one being fuzzed run their seeds in
		// this process, and no worker writes counts for them.
		if ws, n := gatherWorkerStats(h.name); n > 0 {
			ws.Seeds = s.Seeds
			s = ws.derive(s.Elapsed)
			where = fmt.Sprintf("%d fuzz worker processes", n)
		}
	}
	switch {
	case h.cfg.constraint != nil:
		f.Log(fmt.Sprintf("fuzzharness: %s (counted in %s)", s, where))
	case s.Rejected > 0:
		f.Log(fmt.Sprintf("fuzzharness: the validity predicate rejected %d of %d inputs (%.1f%%)",
			s.Rejected, s.Inputs, 100*s.RejectRate()))
	}
	if path := os.Getenv(EnvStats); path != "" {
		data, err := json.MarshalIndent(s, "", "  ")
		if err == nil {
			err = os.WriteFile(path, append(data, '\n'), 0o644)
		}
		if err != nil {
			f.Error(fmt.Sprintf("fuzzharness: %s: %v", EnvStats, err))
		}
	}
}

// String summarizes the counts, for example "1000 inputs: 930 valid as
// decoded, 60 repaired, 10 skipped (2 over the repair budget); 99.0%
// reached the target with a valid input, 4950 valid per second; repair
// time p50 40µs, p99 310µs, max 520µs".
func (s Stats) String() string {
	str := fmt.Sprintf("%d inputs: %d valid as decoded, %d repaired, %d skipped", s.Inputs, s.Inputs-s.Repaired-s.Rejected-s.Invalid, s.Repaired, s.Rejected)
	if s.OverBudget > 0 {
		str += fmt.Sprintf(" (%d over the repair budget)", s.OverBudget)
	}
	if s.Invalid > 0 {
		str += fmt.Sprintf(", %d made invalid on purpose", s.Invalid)
	}
	str += fmt.Sprintf("; %.1f%% reached the target with a valid input", 100*s.ValidRate())
	if s.ValidPerSecond > 0 {
		str += fmt.Sprintf(", %.0f valid per second", s.ValidPerSecond)
	}
	if s.RepairMax > 0 {
		str += fmt.Sprintf("; repair CPU time p50 %v, p99 %v, max %v", s.RepairP50, s.RepairP99, s.RepairMax)
	}
	return str
}

// ValidRate returns the share of inputs that reached the target with a
// valid input, as decoded or repaired: (Inputs-Rejected-Invalid)/Inputs,
// or 1 if there were no inputs.
func (s Stats) ValidRate() float64 {
	if s.Inputs == 0 {
		return 1
	}
	return float64(s.Inputs-s.Rejected-s.Invalid) / float64(s.Inputs)
}
