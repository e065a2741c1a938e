package measure

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"golang.org/x/tools/cover"

	"github.com/seed72891827/kfuzz/coverage"
	"github.com/seed72891827/kfuzz/coverage/profile"
	"github.com/seed72891827/kfuzz/internal/gocmd"
	"github.com/seed72891827/kfuzz/internal/protocol"
)

// An Input is one input to run the fuzz test's target over.
type Input struct {
	// ID names the input in results, e.g. a corpus file name.
	ID string
	// Data, if not nil, is the input as the harness's codec encodes it:
	// the bytes of a corpus entry. An empty, non-nil Data decodes to the
	// shortest input of the grammar.
	Data []byte
	// Text, used if Data is nil, is the input text; the harness parses it
	// with its grammar.
	Text string
}

// Status is the outcome of running the target over one input: one of the
// statuses that the harness records (protocol.StatusPass and so on) or
// StatusCrash.
type Status = protocol.Status

// StatusCrash is the status of an input during which the test process
// died without reporting it: a fatal error such as a stack overflow or
// concurrent map writes, a panic in another goroutine, or os.Exit. The
// following inputs run in a new process.
const StatusCrash Status = "crash"

// A Result is the outcome and coverage of one input.
type Result struct {
	Index int    // position in the inputs passed to Run
	ID    string // the Input's ID
	// Input is the input text (invalid UTF-8 replaced by U+FFFD) and
	// Data its encoding for the harness, as the harness reported them.
	// With StatusError, Input is the text that could not be parsed and
	// Data is empty; with StatusCrash, both are empty.
	Input    string
	Data     []byte
	Status   Status
	Message  string // the panic value, why the input could not be run, or the end of the output of a crashed process
	Stack    string // the stack of a panic
	Duration time.Duration
	// Funcs holds the functions of the measured packages that ran during
	// the input. It is empty (not nil) if the target did not run.
	Funcs *coverage.FuncSet
	// Counts holds how often each block ran during the input; it is nil
	// unless Config.KeepCounts is set.
	Counts *coverage.Counts
}

// A Report is what Run measured.
type Report struct {
	// Description is the harness's description: its grammar and seed
	// options.
	Description *protocol.Description
	// Table lists the functions and blocks of the measured packages.
	Table *coverage.Table
	// Results holds one result per input, in the order of the inputs.
	Results []Result
	// Outside holds the blocks that ran outside any input: while the
	// packages were initialized, while the fuzz test set up its harness,
	// and between inputs. When several processes ran, their counts are
	// added.
	Outside *coverage.Counts
	// Total is Outside plus the counts of all inputs: what a go test
	// -coverprofile run over the same inputs counts.
	Total *coverage.Counts
	// Processes is the number of test processes that ran: one, plus one
	// after every input that timed out or crashed before the last.
	Processes int
}

// Covered returns the functions that ran at all, during an input or
// outside.
func (r *Report) Covered() *coverage.FuncSet { return r.Total.Funcs() }

// Describe runs the fuzz test's harness to describe itself: its grammar,
// bounds and seed options (see protocol.EnvGrammarOut). If the fuzz test
// does not use fuzzharness, the error wraps ErrNotHarness.
func (r *Runner) Describe(ctx context.Context) (*protocol.Description, error) {
	p, err := r.exec(ctx, nil)
	if err != nil {
		return nil, err
	}
	if p.desc == nil {
		if p.exit != 0 {
			return nil, fmt.Errorf("measure: %s in %s failed before describing its harness (%s):\n%s", r.cfg.Target, r.pkg.ImportPath, p.state, p.output)
		}
		return nil, notHarness(r.cfg.Target, r.pkg.ImportPath, p.output)
	}
	return p.desc, nil
}

// Run runs the fuzz test's target over each input, in order, in the test
// binary, and reports for each its outcome and the functions it covered.
//
// The target runs in the fuzz test's own test process, as go test runs it
// (in the package directory, with the user's build flags), in the measure
// mode of fuzzharness. An input on which the target fails or panics is
// reported and the run goes on. An input that runs longer than the timeout
// or crashes the process is reported, and a new process runs the inputs
// after it. Errors are those of the setup: the fuzz test does not use
// fuzzharness (ErrNotHarness), fails before its target runs, or ctx ends.
func (r *Runner) Run(ctx context.Context, inputs []Input) (*Report, error) {
	rep := &Report{Table: r.table, Results: make([]Result, len(inputs))}
	t := &tally{outside: make([]uint64, r.table.NumBlocks()), total: make([]uint64, r.table.NumBlocks())}
	done := make([]bool, len(inputs))
	pending := make([]int, len(inputs))
	for i := range pending {
		pending[i] = i
	}
	for {
		if len(pending) == 0 && rep.Description != nil {
			break
		}
		p, err := r.exec(ctx, r.inputRecords(inputs, pending))
		if err != nil {
			return nil, err
		}
		rep.Processes++
		if p.desc == nil {
			if p.exit != 0 || len(p.records) > 0 {
				return nil, fmt.Errorf("measure: %s in %s failed before its harness started (%s):\n%s", r.cfg.Target, r.pkg.ImportPath, p.state, p.output)
			}
			return nil, notHarness(r.cfg.Target, r.pkg.ImportPath, p.output)
		}
		if rep.Description == nil {
			rep.Description = p.desc
		}
		progress := false
		for k := range p.records {
			rec := &p.records[k]
			if rec.Index < 0 || rec.Index >= len(pending) || done[pending[rec.Index]] {
				return nil, fmt.Errorf("measure: %s in %s reported input %d, which it was not given or reported before", r.cfg.Target, r.pkg.ImportPath, rec.Index)
			}
			i := pending[rec.Index]
			res, err := r.result(rec, t)
			if err != nil {
				return nil, err
			}
			res.Index, res.ID = i, inputs[i].ID
			rep.Results[i] = *res
			done[i], progress = true, true
		}
		// The last input that began without a record crashed the process.
		for k := len(p.begun) - 1; k >= 0; k-- {
			pos := p.begun[k]
			if pos < 0 || pos >= len(pending) {
				continue
			}
			if i := pending[pos]; !done[i] {
				rep.Results[i] = Result{Index: i, ID: inputs[i].ID, Status: StatusCrash, Funcs: coverage.NewFuncSet(r.table),
					Message: fmt.Sprintf("the test process died during this input (%s); its output ends with:\n%s", p.state, p.output)}
				done[i], progress = true, true
			}
			break
		}
		var rest []int
		for _, i := range pending {
			if !done[i] {
				rest = append(rest, i)
			}
		}
		if len(rest) > 0 && !progress {
			return nil, fmt.Errorf("measure: %s in %s ran none of the %d inputs given (%s):\n%s", r.cfg.Target, r.pkg.ImportPath, len(rest), p.state, p.output)
		}
		pending = rest
	}
	for i, n := range t.outside {
		t.total[i] += n
	}
	var err error
	if rep.Outside, err = r.counts(t.outside); err != nil {
		return nil, err
	}
	if rep.Total, err = r.counts(t.total); err != nil {
		return nil, err
	}
	return rep, nil
}

// inputRecords returns the records of the pending inputs for the harness.
func (r *Runner) inputRecords(inputs []Input, pending []int) []protocol.InputRecord {
	recs := make([]protocol.InputRecord, len(pending))
	for k, i := range pending {
		in := inputs[i]
		recs[k] = protocol.InputRecord{ID: in.ID, Data: in.Data}
		if in.Data == nil {
			text := in.Text
			recs[k].Text = &text
		}
	}
	return recs
}

// tally accumulates the counts of a run.
type tally struct {
	outside, total []uint64 // per block of the table
}

// result converts a record into a Result and adds its counts to t.
func (r *Runner) result(rec *protocol.Record, t *tally) (*Result, error) {
	res := &Result{
		Input: rec.Input, Data: rec.Data, Status: rec.Status, Message: rec.Message, Stack: rec.Stack,
		Duration: time.Duration(rec.DurationNS), Funcs: coverage.NewFuncSet(r.table),
	}
	ctrs, err := rec.Counters()
	if err != nil {
		return nil, fmt.Errorf("measure: %s in %s: %v", r.cfg.Target, r.pkg.ImportPath, err)
	}
	if ctrs == nil {
		return res, nil // the target did not run
	}
	if err := r.addPairs(t.outside, nil, ctrs.Before); err != nil {
		return nil, err
	}
	if err := r.addPairs(t.total, res.Funcs, ctrs.Blocks); err != nil {
		return nil, err
	}
	if r.cfg.KeepCounts {
		dense := make([]uint64, r.table.NumBlocks())
		if err := r.addPairs(dense, nil, ctrs.Blocks); err != nil {
			return nil, err
		}
		var err error
		if res.Counts, err = r.counts(dense); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// addPairs adds block counts as the glue reports them (protocol.Counters:
// per import path, pairs of a block index in the package and a count) to the counts of the
// table's blocks in dst, and the functions entered to funcs if it is not
// nil.
func (r *Runner) addPairs(dst []uint64, funcs *coverage.FuncSet, m map[string][]uint64) error {
	for path, pairs := range m {
		base, ok := r.base[path]
		if !ok || len(pairs)%2 != 0 {
			return fmt.Errorf("measure: the test process reported counters of %s, which was not instrumented as such; build again", path)
		}
		for k := 0; k < len(pairs); k += 2 {
			idx, n := pairs[k], pairs[k+1]
			if idx >= uint64(r.nblocks[path]) {
				return fmt.Errorf("measure: the test process reported block %d of %s, which has %d; build again", idx, path, r.nblocks[path])
			}
			b := base + int(idx)
			dst[b] += n
			if fn := r.entryOf[b]; funcs != nil && fn >= 0 && n > 0 {
				funcs.Add(int(fn))
			}
		}
	}
	return nil
}

// counts returns the counts of the table's blocks as coverage.Counts.
//
// The counts go through a cover profile with exactly the blocks' extents,
// which profile.Import maps back onto the same blocks (Build checks that it
// does), except for blocks without extent, which a profile cannot tell
// apart and which lose their counts. Counts made so agree block by block
// with a go test -coverprofile profile mapped with profile.Import, which
// the tests check.
func (r *Runner) counts(dense []uint64) (*coverage.Counts, error) {
	byFile := map[string]*cover.Profile{}
	var profiles []*cover.Profile
	for i, n := range dense {
		if n == 0 {
			continue
		}
		b := r.table.Block(i)
		file := r.table.Func(b.Func).File
		p := byFile[file]
		if p == nil {
			p = &cover.Profile{FileName: file, Mode: string(coverage.ModeCount)}
			byFile[file] = p
			profiles = append(profiles, p)
		}
		p.Blocks = append(p.Blocks, cover.ProfileBlock{
			StartLine: b.Start.Line, StartCol: b.Start.Col, EndLine: b.End.Line, EndCol: b.End.Col,
			NumStmt: b.NumStmt, Count: int(min(n, math.MaxInt32)),
		})
	}
	if len(profiles) == 0 {
		return coverage.NewCounts(r.table), nil
	}
	c, err := profile.Import(r.table, profiles)
	if err != nil {
		return nil, fmt.Errorf("measure: %v", err)
	}
	return c, nil
}

// mapEntries finds the block that counts the entries of each function,
// and checks that counts converts block counts exactly: every block gets
// a distinct count, and the counts must come back unchanged. Blocks
// without extent (the empty body of a case clause) are the exception: a
// profile cannot tell them apart, so they get no counts. They hold no
// statements, and the first block of a function, which counts its entries,
// always spans its braces.
func (r *Runner) mapEntries() error {
	nb := r.table.NumBlocks()
	dense := make([]uint64, nb)
	for i := range dense {
		dense[i] = uint64(i) + 1
	}
	c, err := r.counts(dense)
	if err != nil {
		return err
	}
	for i := range dense {
		if b := r.table.Block(i); c.Block(i) != dense[i] && b.Start != b.End {
			return fmt.Errorf("measure: block %s-%s of %s cannot be told apart from its neighbours in a profile", b.Start, b.End, r.table.Func(b.Func).File)
		}
	}
	r.entryOf = make([]int32, nb)
	for i := range r.entryOf {
		r.entryOf[i] = -1
	}
	for fn := range r.table.Len() {
		if h := c.Hits(fn); h > 0 {
			r.entryOf[h-1] = int32(fn)
		}
	}
	return nil
}

// process is what one run of the test binary left.
type process struct {
	exit    int    // exit status, -1 if killed by a signal
	state   string // the exit status as text
	output  []byte // the end of its output
	desc    *protocol.Description
	records []protocol.Record
	begun   []int // inputs begun, in order
}

// maxOutput bounds the output of a test process kept for error messages.
const maxOutput = 8 << 10

// exec runs the test binary once, in measure mode over inputs if it is not
// nil, and otherwise only to describe the harness.
func (r *Runner) exec(ctx context.Context, inputs []protocol.InputRecord) (*process, error) {
	r.runs++
	name := func(s string) string { return filepath.Join(r.tmp, fmt.Sprintf("%d.%s", r.runs, s)) }
	descFile := name("grammar.jsonl")
	env := append(append([]string(nil), r.environ()...), protocol.EnvGrammarOut+"="+descFile)
	var outFile, traceFile string
	if inputs != nil {
		inFile := name("inputs.jsonl")
		outFile, traceFile = name("out.jsonl"), name("trace")
		if err := protocol.WriteInputs(inFile, inputs); err != nil {
			return nil, fmt.Errorf("measure: %v", err)
		}
		env = append(env,
			protocol.EnvInputs+"="+inFile,
			protocol.EnvOut+"="+outFile,
			protocol.EnvTimeout+"="+r.cfg.Timeout.String(),
			protocol.EnvTrace+"="+traceFile)
	}
	cmd := exec.CommandContext(ctx, r.bin, "-test.run=^"+r.cfg.Target+"$", "-test.count=1", "-test.timeout=0")
	cmd.Dir = r.pkg.Dir
	cmd.Env = env
	out := &gocmd.Excerpt{Max: maxOutput}
	cmd.Stdout, cmd.Stderr = out, out
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("measure: running %s: %w", r.cfg.Target, ctx.Err())
	}
	var ee *exec.ExitError
	if runErr != nil && !errors.As(runErr, &ee) {
		return nil, fmt.Errorf("measure: running the test binary of %s: %v", r.pkg.ImportPath, runErr)
	}
	p := &process{output: out.Bytes(), exit: cmd.ProcessState.ExitCode(), state: cmd.ProcessState.String()}
	descs, err := readFile(descFile, protocol.ReadDescriptions)
	if err != nil {
		return nil, fmt.Errorf("measure: reading the description of %s: %v", r.cfg.Target, err)
	}
	for i := range descs {
		if descs[i].Target == r.cfg.Target {
			p.desc = &descs[i]
			break
		}
	}
	if inputs == nil {
		return p, nil
	}
	if p.records, err = readFile(outFile, protocol.ReadRecords); err != nil {
		return nil, fmt.Errorf("measure: reading the records of %s: %v", r.cfg.Target, err)
	}
	if p.begun, err = readFile(traceFile, protocol.ReadTrace); err != nil {
		return nil, fmt.Errorf("measure: reading the trace of %s: %v", r.cfg.Target, err)
	}
	return p, nil
}

// environ returns the environment of the test process.
func (r *Runner) environ() []string {
	env := r.cfg.Env
	if env == nil {
		env = os.Environ()
	}
	return protocol.Environ(env)
}

// readFile reads the file at path with read; a missing file reads as
// nothing.
func readFile[T any](path string, read func(io.Reader) ([]T, error)) ([]T, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(f)
}
