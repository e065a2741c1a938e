package fuzzharness

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/cputime"
	"github.com/seed72891827/kfuzz/internal/protocol"
)

// noY is a Constraint on expr inputs: no variable y. Repair renames y to x,
// except in inputs with a z, which it cannot repair.
type noY struct{ c *Codec }

func (noY) Valid(t *grammar.Tree) bool { return !strings.Contains(t.String(), "y") }

func (n noY) Repair(t *grammar.Tree, seed uint64) (*grammar.Tree, bool) {
	s := t.String()
	if strings.Contains(s, "z") {
		return nil, false
	}
	r, err := n.c.Parse(strings.ReplaceAll(s, "y", "x"))
	return r, err == nil
}

func (n noY) Seeds(k int) []*grammar.Tree {
	t, err := n.c.Parse("x*2")
	if err != nil || k < 1 {
		return nil
	}
	return []*grammar.Tree{t}
}

// constraintHelper is FuzzHelper with the noY constraint.
func constraintHelper(f *testing.F) {
	c, err := NewCodec(exprGraph)
	if err != nil {
		f.Fatal(err)
	}
	// No budget: the test's output must not depend on the machine's load.
	NewGraph(f, exprGraph, WithKPathSeeds(0), WithExamples("y+1", "z*y", "3"), WithConstraint(noY{c}), WithRepairBudget(0)).
		FuzzString(func(t *testing.T, s string) {
			if strings.Contains(s, "y") {
				t.Errorf("the target ran on %q", s)
			}
			t.Logf("target: %q", s)
		})
}

// TestConstraintSeeds checks that the seeds are repaired or left out, and
// that the constraint's own seeds follow them.
func TestConstraintSeeds(t *testing.T) {
	c, err := NewCodec(exprGraph)
	if err != nil {
		t.Fatal(err)
	}
	seeds, err := Seeds(exprGraph, WithKPathSeeds(0), WithExamples("y+1", "z*y", "3"), WithConstraint(noY{c}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range seeds {
		got = append(got, s.String())
	}
	if strings.Join(got, " ") != "x+1 3 x*2" {
		t.Errorf("seeds %q, want x+1 3 x*2", got)
	}
}

// TestConstraintRepairs runs the noY harness in measure mode over inputs
// that are valid, repairable and not: the target sees the repaired input,
// the unrepairable one is recorded as invalid, and the counts are logged
// and written to the KFUZZ_STATS file.
func TestConstraintRepairs(t *testing.T) {
	inputs := writeInputs(t,
		protocol.InputRecord{ID: "valid", Text: text("3")},
		protocol.InputRecord{ID: "repairable", Text: text("y*y+1")},
		protocol.InputRecord{ID: "unrepairable", Text: text("z+y")},
		protocol.InputRecord{ID: "valid too", Text: text("x")},
	)
	dir := t.TempDir()
	out, statsFile := filepath.Join(dir, "records.jsonl"), filepath.Join(dir, "stats.json")
	output, code := runHelper(t, "constraint", []string{protocol.EnvInputs + "=" + inputs, protocol.EnvOut + "=" + out, EnvStats + "=" + statsFile})
	if code != 0 {
		t.Fatalf("exit code %d:\n%s", code, output)
	}
	recs := readRecords(t, out)
	var got []string
	for _, r := range recs {
		got = append(got, r.ID+":"+r.Input+":"+string(r.Status))
	}
	want := "valid:3:pass repairable:x*x+1:pass unrepairable:z+y:invalid valid too:x:pass"
	if strings.Join(got, " ") != want {
		t.Errorf("records %q, want %q", got, want)
	}
	const summary = "fuzzharness: 4 inputs: 2 valid as decoded, 1 repaired, 1 skipped; 75.0% reached the target with a valid input, "
	if !strings.Contains(output, summary) || !strings.Contains(output, "(counted in this process)") || !strings.Contains(output, `target: "x*x+1"`) {
		t.Errorf("the output lacks %q or the repaired input:\n%s", summary, output)
	}
	data, err := os.ReadFile(statsFile)
	if err != nil {
		t.Fatal(err)
	}
	var s Stats
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	if s.Inputs != 4 || s.Repaired != 1 || s.Rejected != 1 || s.ValidRate() != 0.75 {
		t.Errorf("stats %+v, want 4 inputs, 1 repaired, 1 rejected", s)
	}
	// Two repairs were attempted: the repairable and the unrepairable input.
	if n := sum(s.RepairTimes); n != 2 || s.RepairMax <= 0 || s.RepairP50 > s.RepairMax || s.Elapsed <= 0 || s.ValidPerSecond <= 0 {
		t.Errorf("stats %+v, want 2 repair times, a maximum, the elapsed time and valid inputs per second", s)
	}
}

// TestConstraintSkips runs the noY harness as go test does: the seeds are
// repaired or left out, so every seed reaches the target.
func TestConstraintSkips(t *testing.T) {
	output, code := runHelper(t, "constraint", nil)
	if code != 0 {
		t.Fatalf("exit code %d:\n%s", code, output)
	}
	for _, want := range []string{`target: "x+1"`, `target: "3"`, `target: "x*2"`,
		"3 inputs: 3 valid as decoded, 0 repaired, 0 skipped; 100.0%"} {
		if !strings.Contains(output, want) {
			t.Errorf("the output lacks %q:\n%s", want, output)
		}
	}
}

func sum(hist []int64) int64 {
	var n int64
	for _, x := range hist {
		n += x
	}
	return n
}

func TestStatsString(t *testing.T) {
	s := Stats{Inputs: 200, Repaired: 30, Rejected: 10}
	want := "200 inputs: 160 valid as decoded, 30 repaired, 10 skipped; 95.0% reached the target with a valid input"
	if got := s.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	s = Stats{Inputs: 200, Repaired: 30, Rejected: 10, OverBudget: 2, ValidPerSecond: 950,
		RepairP50: 40 * time.Microsecond, RepairP99: 310 * time.Microsecond, RepairMax: 520 * time.Microsecond}
	want = "200 inputs: 160 valid as decoded, 30 repaired, 10 skipped (2 over the repair budget); 95.0% reached the target with a valid input, 950 valid per second; repair CPU time p50 40µs, p99 310µs, max 520µs"
	if got := s.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if r := (Stats{}).ValidRate(); r != 1 {
		t.Errorf("ValidRate of no inputs = %v, want 1", r)
	}
}

// TestConstraintThenEdits checks that byte edits apply to the repaired
// text, and that the edited input is counted as invalid, not as repaired.
func TestConstraintThenEdits(t *testing.T) {
	c, err := NewCodec(exprGraph, WithMaxEdits(2))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := c.Parse("y+1")
	if err != nil {
		t.Fatal(err)
	}
	data, err := c.Encode(tree)
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, make([]byte, c.Decode(data).Used()-len(data))...)
	h := &Harness{cfg: config{constraint: noY{c}}, codec: c}
	if in, o := h.check(c.Decode(data), data); o != outcomeRepaired || in.Edited() {
		t.Errorf("without a tail: outcome %v, input %q (edited %v); want repaired", o, in, in.Edited())
	} else {
		h.count(o)
	}
	data = append(data, 1, 2, 0, 0, '-') // replace the first byte with "-"
	in, o := h.check(c.Decode(data), data)
	h.count(o)
	if s := h.Stats(); s.Inputs != 2 || s.Repaired != 1 || s.Invalid != 1 || s.ValidRate() != 0.5 {
		t.Errorf("stats %+v, want 2 inputs, 1 repaired, 1 invalid", s)
	}
	if o != outcomeInvalid || in.String() != "-+1" || !in.Edited() || in.Original() != "x+1" || in.Tree().String() != "x+1" {
		t.Errorf("outcome %v, input %q (edited %v) of %q, tree %q; want invalid, \"-+1\" of \"x+1\"",
			o, in, in.Edited(), in.Original(), in.Tree())
	}
}

// slowNoY is noY with a repair that works (or, with sleep, waits) for a
// while.
type slowNoY struct {
	noY
	d     time.Duration
	sleep bool
}

func (s slowNoY) Repair(t *grammar.Tree, seed uint64) (*grammar.Tree, bool) {
	if s.sleep {
		time.Sleep(s.d)
	} else {
		// work for d of the thread's CPU time (wall time would be less
		// work on a loaded machine)
		tm := cputime.Start()
		for tm.Elapsed() < s.d {
		}
		tm.Stop()
	}
	return s.noY.Repair(t, seed)
}

// budgetNoY is deadlineNoY with RepairWithin; it records the budgets it
// gets (and, through RepairBy, deadlines it should not get).
type budgetNoY struct {
	deadlineNoY
	budgets *[]time.Duration
}

func (b budgetNoY) RepairWithin(t *grammar.Tree, seed uint64, budget time.Duration) (*grammar.Tree, bool) {
	*b.budgets = append(*b.budgets, budget)
	if b.Valid(t) {
		return t, true
	}
	return b.Repair(t, seed)
}

// deadlineNoY is noY with RepairBy; it records the deadlines it gets.
type deadlineNoY struct {
	noY
	deadlines *[]time.Time
}

func (d deadlineNoY) RepairBy(t *grammar.Tree, seed uint64, deadline time.Time) (*grammar.Tree, bool) {
	*d.deadlines = append(*d.deadlines, deadline)
	if d.Valid(t) {
		return t, true
	}
	return d.Repair(t, seed)
}

// TestRepairBudget checks that a repair that works longer than the budget
// skips its input and is counted while one that only waits as long does
// not (the budget is CPU time), that a constraint with RepairWithin gets
// the budget, and one with RepairBy only the deadline (none without a
// budget), in place of Valid and Repair, and that their valid inputs count
// as valid.
func TestRepairBudget(t *testing.T) {
	c, err := NewCodec(exprGraph)
	if err != nil {
		t.Fatal(err)
	}
	decode := func(s string) (Input, []byte) {
		tree, err := c.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		data, err := c.Encode(tree)
		if err != nil {
			t.Fatal(err)
		}
		return c.Decode(data), data
	}

	h := &Harness{cfg: config{constraint: slowNoY{noY{c}, 5 * time.Millisecond, false}, repairBudget: time.Millisecond}, codec: c}
	in, data := decode("y+1")
	_, o := h.check(in, data)
	h.count(o)
	if s := h.Stats(); o != outcomeOverBudget || s.OverBudget != 1 || s.Rejected != 1 || s.RepairMax < 5*time.Millisecond {
		t.Errorf("outcome %v, stats %+v; want over the budget, counted, with the repair's time", o, s)
	}
	if cputime.ThreadCPU() {
		h = &Harness{cfg: config{constraint: slowNoY{noY{c}, 20 * time.Millisecond, true}, repairBudget: 5 * time.Millisecond}, codec: c}
		in, data := decode("y+1")
		if _, o := h.check(in, data); o != outcomeRepaired || h.Stats().RepairMax >= 5*time.Millisecond {
			t.Errorf("a repair that waits 20 ms: outcome %v, time %v; want repaired within the 5 ms CPU budget", o, h.Stats().RepairMax)
		}
	}

	var budgets []time.Duration
	var unwanted []time.Time
	h = &Harness{cfg: config{constraint: budgetNoY{deadlineNoY{noY{c}, &unwanted}, &budgets}, repairBudget: 3 * time.Millisecond}, codec: c}
	for _, src := range []string{"y+1", "x+1"} {
		in, data := decode(src)
		if _, o := h.check(in, data); o == outcomeRejected || o == outcomeOverBudget {
			t.Errorf("%s: outcome %v, want repaired or valid", src, o)
		}
	}
	if len(budgets) != 2 || budgets[0] != 3*time.Millisecond || len(unwanted) != 0 {
		t.Errorf("budgets %v, deadlines %v; want 3ms twice and no RepairBy call", budgets, unwanted)
	}

	var deadlines []time.Time
	h = &Harness{cfg: config{constraint: deadlineNoY{noY{c}, &deadlines}, repairBudget: time.Second}, codec: c}
	before := time.Now()
	in, data = decode("y+1")
	if in, o := h.check(in, data); o != outcomeRepaired || in.String() != "x+1" {
		t.Errorf("outcome %v, input %q; want repaired x+1", o, in)
	}
	in, data = decode("x+1")
	if _, o := h.check(in, data); o != outcomeValid {
		t.Errorf("outcome %v of a valid input; want valid", o)
	}
	if len(deadlines) != 2 || deadlines[0].Before(before.Add(time.Second)) || deadlines[0].After(time.Now().Add(time.Second)) {
		t.Errorf("deadlines %v, want two, a second after the check began", deadlines)
	}
	if _, times := h.times.snapshot(); times <= 0 || sum(h.Stats().RepairTimes) != 1 {
		t.Errorf("repair times %v, want one: the valid input is not a repair", h.Stats().RepairTimes)
	}
	deadlines = nil
	h.cfg.repairBudget = 0
	in, data = decode("y+1")
	if _, o := h.check(in, data); o != outcomeRepaired || len(deadlines) != 1 || !deadlines[0].IsZero() {
		t.Errorf("outcome %v, deadlines %v without a budget; want repaired, the zero time", o, deadlines)
	}
}

// TestRepairTimePercentiles checks the histogram buckets and the
// percentiles read from them.
func TestRepairTimePercentiles(t *testing.T) {
	for _, d := range []time.Duration{4, 5, 7, 8, 100, 1000, 12345, time.Millisecond, 3 * time.Second} {
		b := timeBucket(d)
		if top := bucketTop(b); d >= top || top > d*5/4+1 {
			t.Errorf("%v: bucket %d ends at %v, want above it and within 25%%", d, b, top)
		}
		if b > 0 && bucketTop(b-1) > d {
			t.Errorf("%v: the bucket below %d ends at %v, above it", d, b, bucketTop(b-1))
		}
	}
	var r repairTimes
	for i := range 100 {
		r.add(time.Duration(i+1) * time.Microsecond)
	}
	hist, most := r.snapshot()
	s := Stats{Inputs: 100, RepairTimes: hist, RepairMax: most}.derive(2 * time.Second)
	if s.RepairMax != 100*time.Microsecond || s.RepairP50 < 50*time.Microsecond || s.RepairP50 > 63*time.Microsecond ||
		s.RepairP99 < 99*time.Microsecond || s.RepairP99 > s.RepairMax || s.ValidPerSecond != 50 {
		t.Errorf("derived %+v; want max 100µs, p50 in [50µs, 63µs), p99 in [99µs, 100µs], 50 valid per second", s)
	}
	if p := percentile(nil, 0.5, 0); p != 0 {
		t.Errorf("percentile of no times = %v, want 0", p)
	}
}

// TestRepairBudgetEnv checks that KFUZZ_REPAIR_BUDGET overrides the budget
// of the options, and that a malformed value stops the fuzz test.
func TestRepairBudgetEnv(t *testing.T) {
	t.Setenv(protocol.EnvRepairBudget, "3ms")
	h := NewGraph(&fakeF{t: t}, exprGraph, WithRepairBudget(time.Second))
	if h.cfg.repairBudget != 3*time.Millisecond {
		t.Errorf("budget %v, want 3ms from %s", h.cfg.repairBudget, protocol.EnvRepairBudget)
	}
	t.Setenv(protocol.EnvRepairBudget, "soon")
	f := &fakeF{t: t}
	func() {
		defer func() { recover() }()
		NewGraph(f, exprGraph)
	}()
	if !strings.Contains(f.fatal, protocol.EnvRepairBudget) {
		t.Errorf("a malformed budget gives the error %q, want one naming %s", f.fatal, protocol.EnvRepairBudget)
	}
}

// fakeF is an F that records the message of Fatal.
type fakeF struct {
	t     *testing.T
	fatal string
}

func (f *fakeF) Add(args ...any)   {}
func (f *fakeF) Fuzz(ff any)       {}
func (f *fakeF) Fatal(args ...any) { f.fatal = fmt.Sprint(args...) }
