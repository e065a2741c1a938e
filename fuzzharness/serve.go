package fuzzharness

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/protocol"
)

// serveSeed is the one seed that the serve mode adds: while the target runs
// over it, the harness answers the inputs that arrive on standard input.
// Other seeds (the entries of testdata/fuzz) are passed over.
const serveSeed = "kfuzz serve mode\x00"

// serve is Fuzz in the serve mode (protocol.EnvServe): it writes the
// description to the file descriptor that spec names, then reads input
// records from standard input until it ends and answers each with a record,
// running the target over it in a subtest of its own.
func (h *Harness) serve(f *testing.F, spec string, fn func(*testing.T, Input)) {
	f.Helper()
	fd, err := strconv.Atoi(spec)
	if err != nil || fd < 3 {
		f.Fatalf("fuzzharness: %s=%q is not the number of an open file descriptor above 2", protocol.EnvServe, spec)
	}
	out := os.NewFile(uintptr(fd), protocol.EnvServe)
	if out == nil {
		f.Fatalf("fuzzharness: %s=%q is not an open file descriptor", protocol.EnvServe, spec)
	}
	f.Cleanup(func() { out.Close() })
	desc, err := json.Marshal(h.description())
	if err == nil {
		_, err = out.Write(append(desc, '\n'))
	}
	if err != nil {
		f.Fatalf("fuzzharness: %s: %v", protocol.EnvServe, err)
	}
	timeout := envTimeout(f)
	f.Add([]byte(serveSeed))
	f.Fuzz(func(t *testing.T, data []byte) {
		if string(data) != serveSeed {
			return // an entry of testdata/fuzz
		}
		q := &lineQueue{ready: make(chan struct{}, 1)}
		go q.read(os.Stdin)
		for i := 0; ; i++ {
			line, err := q.next()
			if line == nil {
				if err != nil {
					t.Fatalf("fuzzharness: %s: reading the inputs: %v", protocol.EnvServe, err)
				}
				return
			}
			rec := &protocol.Record{Target: h.name, Index: i}
			var in protocol.InputRecord
			switch jerr := json.Unmarshal(line, &in); {
			case jerr != nil:
				rec.Status, rec.Message = protocol.StatusError, fmt.Sprintf("bad input record: %v", jerr)
			case in.Text != nil && in.Data != nil:
				rec.ID, rec.Status, rec.Message = in.ID, protocol.StatusError, "an input record has both text and data"
			default:
				text := string(in.Data) // the text as bytes: JSON strings cannot hold invalid UTF-8
				if in.Text != nil {
					text = *in.Text
				}
				rec.ID = in.ID
				q.running.Store(true)
				h.serveOne(t, i, text, rec, fn, timeout)
				q.running.Store(false)
			}
			if werr := protocol.WriteRecord(out, rec); werr != nil {
				t.Fatalf("fuzzharness: %s: %v", protocol.EnvServe, werr)
			}
		}
	})
}

// A lineQueue holds the non-blank input lines of the serve mode that have
// been read but not yet served. Reading goes on while the target runs, so
// that the end of the input is seen at once: the tool ends the input only
// when it expects no more answers, or when it has gone away, so an input
// that ends while the target runs ends the process rather than leaving it
// to run (perhaps to hang) with no one to answer.
type lineQueue struct {
	mu      sync.Mutex
	lines   [][]byte
	end     bool  // the input has ended
	err     error // why, if not at EOF
	ready   chan struct{}
	running atomic.Bool // the target runs
}

// read reads r into the queue until it ends.
func (q *lineQueue) read(r io.Reader) {
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadBytes('\n')
		q.mu.Lock()
		if line = bytes.TrimSpace(line); len(line) > 0 {
			q.lines = append(q.lines, line)
		}
		if err != nil {
			q.end = true
			if err != io.EOF {
				q.err = err
			}
		}
		q.mu.Unlock()
		select {
		case q.ready <- struct{}{}:
		default:
		}
		if err != nil {
			if q.running.Load() {
				fmt.Fprintf(os.Stderr, "fuzzharness: %s: the input ended while the target ran; exiting\n", protocol.EnvServe)
				os.Exit(0)
			}
			return
		}
	}
}

// next returns the next line, waiting for one; nil when the input has
// ended, with the error that ended it if it was not EOF.
func (q *lineQueue) next() ([]byte, error) {
	for {
		q.mu.Lock()
		if len(q.lines) > 0 {
			line := q.lines[0]
			q.lines = q.lines[1:]
			q.mu.Unlock()
			return line, nil
		}
		if q.end {
			q.mu.Unlock()
			return nil, q.err
		}
		q.mu.Unlock()
		<-q.ready
	}
}

// serveOne runs fn over text in the subtest i of t and fills in rec. If
// fn runs longer than timeout, the process exits with
// protocol.TimeoutExitCode: a backstop for when the tool is gone, which
// kills a process that does not answer in time itself.
func (h *Harness) serveOne(t *testing.T, i int, text string, rec *protocol.Record, fn func(*testing.T, Input), timeout time.Duration) {
	rec.Input = text
	tree, err := h.codec.Parse(text)
	if err != nil {
		rec.Status, rec.Message = protocol.StatusError, err.Error()
		return
	}
	if !h.satisfies(tree) {
		rec.Status = protocol.StatusInvalid
		return
	}
	in := Input{s: text, b: []byte(text), st: &inputState{tree: tree}}
	start := time.Now()
	timer := time.AfterFunc(timeout, func() {
		fmt.Fprintf(os.Stderr, "fuzzharness: %s: input %d ran longer than %v; exiting\n", h.name, i, timeout)
		os.Exit(protocol.TimeoutExitCode)
	})
	defer timer.Stop()
	var sub *testing.T
	t.Run(strconv.Itoa(i), func(t *testing.T) {
		sub = t
		defer func() {
			if p := recover(); p != nil {
				rec.Status, rec.Message, rec.Stack = protocol.StatusPanic, fmt.Sprint(p), string(debug.Stack())
			}
		}()
		fn(t, in)
	})
	rec.DurationNS = int64(time.Since(start))
	if rec.Status == "" {
		rec.Status = testStatus(sub)
	}
}

// testStatus returns the status of a test that ended without a panic.
func testStatus(t *testing.T) protocol.Status {
	switch {
	case t.Failed():
		return protocol.StatusFail
	case t.Skipped():
		return protocol.StatusSkip
	}
	return protocol.StatusPass
}

// satisfies reports whether the tree satisfies the constraint and the
// validity predicate, whichever are set, without repairing it.
func (h *Harness) satisfies(t *grammar.Tree) bool {
	if c := h.cfg.constraint; c != nil && !c.Valid(t) {
		return false
	}
	return h.cfg.valid == nil || h.cfg.valid(t)
}
