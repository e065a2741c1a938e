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
		r := bufio.NewReader(os.Stdin)
		for i := 0; ; {
			line, err := r.ReadBytes('\n')
			if line = bytes.TrimSpace(line); len(line) > 0 {
				h.serveLine(t, i, line, out, fn, timeout)
				i++
			}
			if err == io.EOF {
				return
			}
			if err != nil {
				t.Fatalf("fuzzharness: %s: reading the inputs: %v", protocol.EnvServe, err)
			}
		}
	})
}

// serveLine answers the input record line, the input i, with a record
// written to out.
func (h *Harness) serveLine(t *testing.T, i int, line []byte, out io.Writer, fn func(*testing.T, Input), timeout time.Duration) {
	rec := &protocol.Record{Target: h.name, Index: i}
	var in protocol.InputRecord
	switch err := json.Unmarshal(line, &in); {
	case err != nil:
		rec.Status, rec.Message = protocol.StatusError, fmt.Sprintf("bad input record: %v", err)
	case in.Text != nil && in.Data != nil:
		rec.ID, rec.Status, rec.Message = in.ID, protocol.StatusError, "an input record has both text and data"
	default:
		text := string(in.Data) // the text as bytes: JSON strings cannot hold invalid UTF-8
		if in.Text != nil {
			text = *in.Text
		}
		rec.ID = in.ID
		h.serveOne(t, i, text, rec, fn, timeout)
	}
	if err := protocol.WriteRecord(out, rec); err != nil {
		t.Fatalf("fuzzharness: %s: %v", protocol.EnvServe, err)
	}
}

// serveOne runs fn over text in the subtest i of t and fills in rec. If
// fn runs longer than timeout, the process exits with
// protocol.TimeoutExitCode: a backstop for when the tool is gone (a tool
// kills a process that does not answer in time itself), so that a process
// whose target hangs does not outlive it for long.
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
