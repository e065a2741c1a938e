package fuzzharness

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/protocol"
)

// SetMeasureHook sets the hook of the measure mode for all harnesses of the
// process; nil removes it. It is the entry point of kfuzz's measuring tool,
// which calls it from an init function in a file that it adds to the test
// package; fuzz tests do not need it.
//
// The hook has two methods (the interface is defined in the kfuzz module's
// internal/protocol package): Begin() is called right before the target
// runs over an input, and End() any right after the target returns, fails
// or panics, or when it runs out of time (then from another goroutine,
// while the target still runs); the value End returns is written, as JSON,
// with the input's record. fuzzharness itself knows nothing about coverage.
func SetMeasureHook(h protocol.Hook) {
	measureHook.mu.Lock()
	measureHook.h = h
	measureHook.mu.Unlock()
}

var measureHook struct {
	mu sync.Mutex
	h  protocol.Hook
}

func currentHook() protocol.Hook {
	measureHook.mu.Lock()
	defer measureHook.mu.Unlock()
	return measureHook.h
}

// A measurer runs one harness's target over the inputs of the measure mode.
type measurer struct {
	h       *Harness
	hook    protocol.Hook
	timeout time.Duration
	ids     []string
	trace   *os.File // the file named by protocol.EnvTrace, or nil

	mu    sync.Mutex
	queue map[string][]int // encoded input -> indexes still to run
	out   *os.File
	err   error // first error writing records
}

// measure is Fuzz in measure mode: it adds the inputs as the only seeds and
// runs fn over each of them, recording the outcome. Inputs that f.Fuzz also
// reads from testdata/fuzz are ignored.
func (h *Harness) measure(f *testing.F, path string, fn func(*testing.T, Input)) {
	f.Helper()
	ins, err := protocol.ReadInputs(path)
	if err != nil {
		f.Fatalf("fuzzharness: %s: %v", protocol.EnvInputs, err)
	}
	m := &measurer{h: h, hook: currentHook(), timeout: envTimeout(f), queue: map[string][]int{}}
	if out := os.Getenv(protocol.EnvOut); out != "" {
		m.out = openAppend(f, protocol.EnvOut, out)
		f.Cleanup(func() {
			if err := m.out.Close(); err != nil && m.err == nil {
				m.err = err
			}
			if m.err != nil {
				f.Errorf("fuzzharness: writing %s: %v", out, m.err)
			}
		})
	}
	if trace := os.Getenv(protocol.EnvTrace); trace != "" {
		m.trace = openAppend(f, protocol.EnvTrace, trace)
		f.Cleanup(func() { m.trace.Close() })
	}
	for i, in := range ins {
		m.ids = append(m.ids, in.ID)
		data := in.Data
		if in.Text != nil {
			var t *grammar.Tree
			t, err = h.codec.Parse(*in.Text)
			if err == nil {
				data, err = h.codec.Encode(t)
			}
			if err != nil {
				m.write(&protocol.Record{Target: h.name, Index: i, ID: in.ID, Input: *in.Text, Status: protocol.StatusError, Message: err.Error()})
				continue
			}
		}
		if data == nil {
			data = []byte{}
		}
		m.queue[string(data)] = append(m.queue[string(data)], i)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) { m.run(t, data, fn) })
}

// envTimeout returns the time limit of one input that protocol.EnvTimeout
// sets, or protocol.DefaultTimeout, or ends the fuzz test.
func envTimeout(f *testing.F) time.Duration {
	s := os.Getenv(protocol.EnvTimeout)
	if s == "" {
		return protocol.DefaultTimeout
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		f.Fatalf("fuzzharness: %s=%q is not a positive duration", protocol.EnvTimeout, s)
	}
	return d
}

// openAppend opens the file that the environment variable env names for
// appending, or ends the fuzz test.
func openAppend(f *testing.F, env, path string) *os.File {
	file, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		f.Fatalf("fuzzharness: %s: %v", env, err)
	}
	return file
}

// take returns the index of the next input to run with these bytes, or -1.
func (m *measurer) take(data []byte) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	q := m.queue[string(data)]
	if len(q) == 0 {
		return -1
	}
	m.queue[string(data)] = q[1:]
	return q[0]
}

// write appends the record to the output file, if there is one.
func (m *measurer) write(rec *protocol.Record) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.out == nil || m.err != nil {
		return
	}
	m.err = protocol.WriteRecord(m.out, rec)
}

// end calls the hook's End and stores what it returns in rec.Extra.
func (m *measurer) end(rec *protocol.Record) {
	if m.hook == nil {
		return
	}
	extra, err := json.Marshal(m.hook.End())
	if err != nil {
		m.mu.Lock()
		if m.err == nil {
			m.err = fmt.Errorf("the measure hook's value: %v", err)
		}
		m.mu.Unlock()
		return
	}
	rec.Extra = extra
}

// run runs fn over one measure-mode input.
func (m *measurer) run(t *testing.T, data []byte, fn func(*testing.T, Input)) {
	i := m.take(data)
	if i < 0 {
		return // an entry of testdata/fuzz, not one of ours
	}
	h := m.h
	in, o := h.check(h.decode(data), data)
	h.count(o)
	rec := &protocol.Record{Target: h.name, Index: i, ID: m.ids[i], Input: in.s, Data: data}
	if o == outcomeRejected {
		rec.Status = protocol.StatusInvalid
		m.write(rec)
		return
	}
	var claimed atomic.Bool // set by whoever finishes the run: the target or the timer
	if m.hook != nil {
		m.hook.Begin()
	}
	if m.trace != nil {
		protocol.AppendTrace(m.trace, i) // unbuffered: it names the input if the process dies
	}
	start := time.Now()
	timer := time.AfterFunc(m.timeout, func() {
		if !claimed.CompareAndSwap(false, true) {
			return
		}
		rec.Status, rec.DurationNS = protocol.StatusTimeout, int64(time.Since(start))
		rec.Message = fmt.Sprintf("the target ran longer than %v", m.timeout)
		m.end(rec)
		m.write(rec)
		m.mu.Lock()
		if m.out != nil {
			m.out.Close()
		}
		m.mu.Unlock()
		fmt.Fprintf(os.Stderr, "fuzzharness: %s: input %d (%s) timed out after %v; exiting\n", h.name, i, rec.ID, m.timeout)
		os.Exit(protocol.TimeoutExitCode)
	})
	defer func() {
		p := recover()
		timer.Stop()
		if !claimed.CompareAndSwap(false, true) {
			select {} // the timer has claimed the run and exits the process
		}
		rec.DurationNS = int64(time.Since(start))
		switch {
		case p != nil:
			rec.Status, rec.Message, rec.Stack = protocol.StatusPanic, fmt.Sprint(p), string(debug.Stack())
			t.Logf("fuzzharness: measure mode: the target panicked: %v\n%s", p, in.Describe())
		default:
			rec.Status = testStatus(t)
		}
		m.end(rec)
		m.write(rec)
	}()
	fn(t, in)
}
