package measure

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/seed72891827/kfuzz/internal/gocmd"
	"github.com/seed72891827/kfuzz/internal/protocol"
	"github.com/seed72891827/kfuzz/learn/oracle"
)

// OracleConfig configures NewOracle.
type OracleConfig struct {
	// Config names the fuzz test and how to build it (Dir, Package,
	// Target, BuildFlags, Env) and limits the target's time on one query
	// (Timeout). Cover, Mode and KeepCounts do not apply: an oracle needs
	// no coverage, so the test binary is built without instrumentation.
	Config
	// Procs is the number of test processes that answer queries at once;
	// zero means GOMAXPROCS.
	Procs int
	// Report, if not nil, is called for every query on which the target
	// failed, panicked, ran out of time or crashed its process (each a
	// rejection), from the goroutine that asked. It must be safe for
	// concurrent use.
	Report func(Failure)
}

// A Failure is a query on which the fuzz target failed: the input and what
// happened.
type Failure struct {
	Input  []byte
	Status Status // protocol.StatusFail, StatusPanic, StatusTimeout or StatusCrash
	// Message is the panic value, the time limit, or the end of the output
	// of the crashed process; Stack is the stack of a panic.
	Message, Stack string
}

// recycleAfter is how many queries a test process answers before it is
// replaced: the testing package keeps the name of every subtest and the
// output of failed ones, so a process that ran forever would grow. (A
// variable for the tests.)
var recycleAfter = 1 << 14

// startTimeout bounds the time a new test process may take to describe its
// harness, on top of the per-query timeout.
const startTimeout = time.Minute

// An Oracle is a membership oracle (oracle.Oracle and oracle.BatchOracle)
// whose answer is a fuzz test's own: an input is accepted if its harness's
// grammar derives it and the target runs over it without failing, panicking
// or skipping. See NewOracle.
type Oracle struct {
	cfg  OracleConfig
	pkg  *listedPackage
	tmp  string
	bin  string
	desc *protocol.Description
	idle chan *server // the pool: a nil entry is a process yet to start

	statuses sync.Map // Status -> *atomic.Int64
	queries  atomic.Int64
	accepted atomic.Int64
	procs    atomic.Int64
}

// NewOracle builds the fuzz test's package into a test binary, once (go
// test -c, without instrumentation), starts one test process in the serve
// mode of fuzzharness (protocol.EnvServe) and checks that the fuzz test runs
// its target through a harness (otherwise the error wraps ErrNotHarness).
// Queries go to up to cfg.Procs such processes, each answering one input at
// a time in microseconds to milliseconds, without a process start.
//
// An input is accepted when the harness's grammar derives it within its
// bounds, it satisfies the harness's constraint and validity predicate, and
// the target neither fails (t.Error, t.Fatal), panics nor calls t.Skip: a
// target reports that its parser rejected an input with t.Skip. A query
// that runs longer than cfg.Timeout is a rejection: its process is killed
// and a new one answers the next queries; so is a query during which the
// process dies. Call Close to stop the processes and remove the binary.
//
// Serving needs a file descriptor beyond the standard three, which os/exec
// passes on Unix systems only.
func NewOracle(ctx context.Context, cfg OracleConfig) (*Oracle, error) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		return nil, fmt.Errorf("measure: a fuzz target cannot serve as an oracle on %s", runtime.GOOS)
	}
	if err := cfg.setDefaults(); err != nil {
		return nil, err
	}
	if cfg.Procs < 0 {
		return nil, fmt.Errorf("measure: negative number of processes %d", cfg.Procs)
	}
	if cfg.Procs == 0 {
		cfg.Procs = runtime.GOMAXPROCS(0)
	}
	pkg, err := findTarget(ctx, &cfg.Config)
	if err != nil {
		return nil, err
	}
	o := &Oracle{cfg: cfg, pkg: pkg, idle: make(chan *server, cfg.Procs)}
	if o.tmp, err = os.MkdirTemp("", "kfuzz-oracle-"); err != nil {
		return nil, fmt.Errorf("measure: %v", err)
	}
	o.bin = filepath.Join(o.tmp, "fuzz.test")
	if err := compileTest(ctx, &o.cfg.Config, pkg, o.bin, ""); err != nil {
		o.Close()
		return nil, err
	}
	s, err := o.start(ctx)
	if err != nil {
		o.Close()
		return nil, err
	}
	o.idle <- s
	for range cfg.Procs - 1 {
		o.idle <- nil
	}
	return o, nil
}

// Description returns the harness's description: its grammar, bounds and
// seed options.
func (o *Oracle) Description() *protocol.Description { return o.desc }

// Accept implements oracle.Oracle. The error is non-nil only when ctx is
// done or a test process cannot be started or fails before its harness
// serves.
func (o *Oracle) Accept(ctx context.Context, input []byte) (bool, error) {
	var s *server
	select {
	case s = <-o.idle:
	case <-ctx.Done():
		return false, ctx.Err()
	}
	out := make([]bool, 1)
	given := false
	s, err := o.run(ctx, s, [][]byte{input}, out, func() int {
		if given {
			return -1
		}
		given = true
		return 0
	})
	o.idle <- s
	return out[0], err
}

// AcceptBatch implements oracle.BatchOracle: up to Procs processes answer
// the inputs at once, each sent several inputs ahead of its answers. The
// answers are in the order of inputs.
func (o *Oracle) AcceptBatch(ctx context.Context, inputs [][]byte) ([]bool, error) {
	out := make([]bool, len(inputs))
	var (
		next    atomic.Int64
		wg      sync.WaitGroup
		errOnce sync.Once
		first   error
	)
	take := func() int {
		if i := next.Add(1) - 1; i < int64(len(inputs)) {
			return int(i)
		}
		return -1
	}
	for range min(o.cfg.Procs, len(inputs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var s *server
			select {
			case s = <-o.idle:
			case <-ctx.Done():
				errOnce.Do(func() { first = ctx.Err() })
				return
			}
			s, err := o.run(ctx, s, inputs, out, take)
			o.idle <- s
			if err != nil {
				errOnce.Do(func() { first = err })
				next.Store(int64(len(inputs)))
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return nil, first
	}
	return out, nil
}

// How far a process's inputs run ahead of its answers: at most aheadInputs
// inputs of at most aheadBytes in all (or one larger input), so that
// writing them never blocks while the process writes its answers.
const (
	aheadInputs = 32
	aheadBytes  = 16 << 10
)

// run answers the inputs whose indexes take hands out (-1 when none are
// left) on the process s, starting one if s is nil, and sets their answers
// in out. It sends several inputs ahead of the answers; when the process
// ends during an input (a timeout or a crash), that input is a rejection
// and the inputs sent after it go to a new process. It returns the process
// to use next, nil if none is running.
func (o *Oracle) run(ctx context.Context, s *server, inputs [][]byte, out []bool, take func() int) (*server, error) {
	var pending, retry []int // sent but not answered; to send again
	ahead := 0               // the bytes of the pending inputs
	for {
		for len(pending) < aheadInputs && (len(pending) == 0 || ahead < aheadBytes) {
			if s != nil && s.sent >= recycleAfter {
				if len(pending) > 0 {
					break
				}
				s.stop()
				s = nil
			}
			i := -1
			if len(retry) > 0 {
				i, retry = retry[0], retry[1:]
			} else if i = take(); i < 0 {
				break
			}
			if err := ctx.Err(); err != nil {
				return s, err
			}
			if s == nil {
				var err error
				if s, err = o.start(ctx); err != nil {
					return nil, err
				}
			}
			pending = append(pending, i)
			ahead += len(inputs[i])
			if err := s.send(inputs[i], o.cfg.Timeout); err != nil {
				break // the process has ended: reading says so
			}
		}
		if len(pending) == 0 {
			return s, nil
		}
		i := pending[0]
		pending = pending[1:]
		ahead -= len(inputs[i])
		rec, err := s.read(ctx, o.cfg.Timeout)
		if err != nil {
			if ctx.Err() != nil {
				s.kill()
				return nil, ctx.Err()
			}
			st, msg := StatusCrash, ""
			if errors.Is(err, os.ErrDeadlineExceeded) {
				s.kill()
				st, msg = protocol.StatusTimeout, fmt.Sprintf("the target ran longer than %v", o.cfg.Timeout)
			} else {
				s.stop()
				msg = fmt.Sprintf("the test process died during this input (%s); its output ends with:\n%s", s.state(), s.output.Bytes())
			}
			rec = &protocol.Record{Status: st, Message: msg}
			s = nil
			retry = append(pending, retry...)
			pending, ahead = nil, 0
		}
		out[i] = o.answer(inputs[i], rec)
	}
}

// answer counts the record of a query about input, reports a failure, and
// returns whether the input is accepted.
func (o *Oracle) answer(input []byte, rec *protocol.Record) bool {
	o.count(rec.Status)
	switch rec.Status {
	case protocol.StatusFail, protocol.StatusPanic, protocol.StatusTimeout, StatusCrash:
		if o.cfg.Report != nil {
			o.cfg.Report(Failure{Input: append([]byte(nil), input...), Status: rec.Status, Message: rec.Message, Stack: rec.Stack})
		}
	}
	return rec.Status == protocol.StatusPass
}

// count counts a query's status.
func (o *Oracle) count(st Status) {
	o.queries.Add(1)
	if st == protocol.StatusPass {
		o.accepted.Add(1)
	}
	n, _ := o.statuses.LoadOrStore(st, new(atomic.Int64))
	n.(*atomic.Int64).Add(1)
}

// Statuses returns how many queries ended with each status: pass (the
// accepted ones), and the rejections skip, fail, panic, invalid (the
// constraint or validity predicate rejected it), error (not in the
// harness's grammar), timeout and crash.
func (o *Oracle) Statuses() map[Status]int64 {
	m := map[Status]int64{}
	o.statuses.Range(func(k, v any) bool {
		m[k.(Status)] = v.(*atomic.Int64).Load()
		return true
	})
	return m
}

// Processes returns the number of test processes started so far.
func (o *Oracle) Processes() int { return int(o.procs.Load()) }

// Stats returns the queries answered (Queries, Accepted) and those on which
// the target panicked or ran out of time.
func (o *Oracle) Stats() oracle.Stats {
	st := o.Statuses()
	return oracle.Stats{Queries: o.queries.Load(), Accepted: o.accepted.Load(),
		Panics: st[protocol.StatusPanic], Timeouts: st[protocol.StatusTimeout]}
}

// Close stops the test processes and removes the test binary. It must not
// be called while queries are under way.
func (o *Oracle) Close() error {
	if o.idle != nil {
		for range cap(o.idle) {
			select {
			case s := <-o.idle:
				if s != nil {
					s.stop()
				}
			default:
			}
		}
	}
	if o.tmp == "" {
		return nil
	}
	err := os.RemoveAll(o.tmp)
	o.tmp = ""
	return err
}

// A server is one test process in the serve mode.
type server struct {
	cmd    *exec.Cmd
	stdin  *os.File      // the write end of the process's standard input
	resp   *os.File      // the read end of the process's answers
	rd     *bufio.Reader // reads resp
	output *gocmd.Excerpt
	sent   int    // inputs sent
	line   []byte // the buffer of send
}

// start starts a test process in the serve mode and reads its description.
func (o *Oracle) start(ctx context.Context) (*server, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("measure: %v", err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("measure: %v", err)
	}
	env := o.cfg.Env
	if env == nil {
		env = os.Environ()
	}
	cmd := exec.Command(o.bin, "-test.run=^"+o.cfg.Target+"$", "-test.count=1", "-test.timeout=0")
	cmd.Dir = o.pkg.Dir
	// The harness's own limit is a backstop for when this process is gone.
	cmd.Env = append(protocol.Environ(env), protocol.EnvServe+"=3", protocol.EnvTimeout+"="+(2*o.cfg.Timeout+time.Second).String())
	cmd.Stdin = inR
	cmd.ExtraFiles = []*os.File{respW}
	detach(cmd)
	s := &server{cmd: cmd, stdin: inW, resp: respR, rd: bufio.NewReader(respR), output: &gocmd.Excerpt{Max: maxOutput}}
	cmd.Stdout, cmd.Stderr = s.output, s.output
	err = cmd.Start()
	inR.Close()
	respW.Close()
	if err != nil {
		inW.Close()
		respR.Close()
		return nil, fmt.Errorf("measure: running the test binary of %s: %v", o.pkg.ImportPath, err)
	}
	o.procs.Add(1)
	s.resp.SetReadDeadline(time.Now().Add(startTimeout + o.cfg.Timeout))
	stop := context.AfterFunc(ctx, func() { s.resp.SetReadDeadline(time.Now()) })
	line, err := s.rd.ReadBytes('\n')
	stop()
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, os.ErrDeadlineExceeded) {
			s.kill()
		} else {
			s.stop()
		}
		switch {
		case ctx.Err() != nil:
			return nil, fmt.Errorf("measure: running %s: %w", o.cfg.Target, ctx.Err())
		case errors.Is(err, os.ErrDeadlineExceeded):
			return nil, fmt.Errorf("measure: %s in %s did not start serving within %v:\n%s", o.cfg.Target, o.pkg.ImportPath, startTimeout+o.cfg.Timeout, s.output.Bytes())
		case cmd.ProcessState.ExitCode() == 0:
			return nil, notHarness(o.cfg.Target, o.pkg.ImportPath, s.output.Bytes())
		}
		return nil, fmt.Errorf("measure: %s in %s failed before its harness started (%s):\n%s", o.cfg.Target, o.pkg.ImportPath, s.state(), s.output.Bytes())
	}
	var d protocol.Description
	if err := json.Unmarshal(line, &d); err != nil || d.Target != o.cfg.Target {
		s.kill()
		return nil, fmt.Errorf("measure: %s in %s began serving with %q, not its description", o.cfg.Target, o.pkg.ImportPath, line)
	}
	if o.desc == nil {
		o.desc = &d
	}
	return s, nil
}

// send sends input to the process; the write may take up to timeout.
func (s *server) send(input []byte, timeout time.Duration) error {
	rec := protocol.InputRecord{Data: input}
	if utf8.Valid(input) {
		text := string(input)
		rec = protocol.InputRecord{Text: &text}
	}
	line, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	s.line = append(append(s.line[:0], line...), '\n')
	s.stdin.SetWriteDeadline(time.Now().Add(timeout))
	if _, err := s.stdin.Write(s.line); err != nil {
		return err
	}
	s.sent++
	return nil
}

// read reads the record of the process's next answer. The error is that of
// the pipe: os.ErrDeadlineExceeded if no answer came within timeout, or
// when ctx ended, or io.EOF if the process ended.
func (s *server) read(ctx context.Context, timeout time.Duration) (*protocol.Record, error) {
	s.resp.SetReadDeadline(time.Now().Add(timeout))
	stop := context.AfterFunc(ctx, func() { s.resp.SetReadDeadline(time.Now()) })
	ans, err := s.rd.ReadBytes('\n')
	stop()
	if err != nil {
		return nil, err
	}
	rec := new(protocol.Record)
	if err := json.Unmarshal(ans, rec); err != nil {
		return nil, fmt.Errorf("measure: a bad record from the test process: %v", err)
	}
	return rec, nil
}

// kill ends the process and waits for it.
func (s *server) kill() {
	s.cmd.Process.Kill()
	s.wait()
}

// stop ends the process's input, so that it ends, and waits for it; a
// process that does not end in time is killed.
func (s *server) stop() {
	s.stdin.Close()
	t := time.AfterFunc(5*time.Second, func() { s.cmd.Process.Kill() })
	s.wait()
	t.Stop()
}

// wait waits for the process to end and closes the pipes.
func (s *server) wait() {
	s.stdin.Close()
	s.cmd.Wait()
	s.resp.Close()
}

// state describes how the process ended.
func (s *server) state() string {
	if s.cmd.ProcessState == nil {
		return "running"
	}
	return s.cmd.ProcessState.String()
}
