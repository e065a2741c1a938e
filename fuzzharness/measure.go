package fuzzharness

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// The environment variables of the measure mode. See the package
// documentation.
const (
	// EnvInputs names a file of input records (JSON lines, see InputRecord)
	// or a corpus directory. When it is set, Fuzz runs the target once over
	// each of these inputs instead of fuzzing.
	EnvInputs = "KFUZZ_INPUTS"
	// EnvOut names a file to which the measure mode appends one Record per
	// input, as JSON lines.
	EnvOut = "KFUZZ_OUT"
	// EnvTimeout is the per-input time limit of the measure mode, in the
	// syntax of time.ParseDuration (default DefaultTimeout).
	EnvTimeout = "KFUZZ_TIMEOUT"
	// EnvGrammarOut names a file to which Fuzz appends a Description of the
	// harness (its grammar and options) as one JSON line. Unless EnvInputs
	// is set too, the fuzz test is then skipped.
	EnvGrammarOut = "KFUZZ_GRAMMAR_OUT"
)

// DefaultTimeout is the per-input time limit of the measure mode.
const DefaultTimeout = 10 * time.Second

// TimeoutExitCode is the exit status of a test process whose target ran out
// of time in measure mode.
const TimeoutExitCode = 3

// An InputRecord is one line of the file named by EnvInputs. If Text is set,
// the input is Text parsed with the harness's grammar; otherwise it is Data
// decoded with the harness's codec (no data at all decodes to the shortest
// input).
type InputRecord struct {
	ID   string  `json:"id,omitempty"`
	Data []byte  `json:"data,omitempty"` // base64 in JSON
	Text *string `json:"text,omitempty"`
}

// Status is the outcome of running the target over one input in measure
// mode.
type Status string

// The statuses of a Record.
const (
	StatusPass    Status = "pass"    // the target returned without failing
	StatusFail    Status = "fail"    // the target failed (t.Error, t.Fatal, ...)
	StatusPanic   Status = "panic"   // the target panicked; the panic was recovered
	StatusSkip    Status = "skip"    // the target called t.Skip
	StatusInvalid Status = "invalid" // the input violates the constraint and was not repaired, or the validity predicate rejected it; the target did not run
	StatusTimeout Status = "timeout" // the target ran out of time; the process exits after this record
	StatusError   Status = "error"   // the input could not be read, parsed or encoded; the target did not run
)

// A Run is one run of the target over one input in measure mode, as the
// MeasureHook sees it.
type Run struct {
	Target string // the fuzz test, e.g. FuzzCalc
	Index  int    // position of the input in the input list, from 0
	ID     string // the input's ID or corpus file name
	Input  Input
	// Set before End is called:
	Status   Status
	Message  string // the panic value, or why an input had StatusError
	Stack    string // the stack of a panic
	Duration time.Duration
	// Extra is written to the Record; End may set it to any value that
	// encoding/json can marshal, such as the functions the input covered.
	Extra any
}

// A MeasureHook is called around every input that the measure mode runs:
// Begin right before the target is called and End right after it returns,
// fails or panics, or when it runs out of time (then from another goroutine,
// while the target still runs). The coverage tooling sets one from a file it
// adds to the test package, to reset coverage counters in Begin and read them
// in End; fuzzharness itself knows nothing about coverage.
type MeasureHook interface {
	Begin(r *Run)
	End(r *Run)
}

var measureHook struct {
	mu sync.Mutex
	h  MeasureHook
}

// SetMeasureHook sets the hook of the measure mode for all harnesses of the
// process; nil removes it. Call it before the fuzz test runs, for example
// from an init function.
func SetMeasureHook(h MeasureHook) {
	measureHook.mu.Lock()
	measureHook.h = h
	measureHook.mu.Unlock()
}

func currentHook() MeasureHook {
	measureHook.mu.Lock()
	defer measureHook.mu.Unlock()
	return measureHook.h
}

// A Record is one line of the file named by EnvOut.
type Record struct {
	Target string `json:"target"`
	Index  int    `json:"index"`
	ID     string `json:"id,omitempty"`
	// Input is the input text; if it is not valid UTF-8, invalid bytes are
	// replaced by U+FFFD, and Data gives the exact input.
	Input      string `json:"input"`
	Data       []byte `json:"data,omitempty"` // the encoded input (base64 in JSON)
	Status     Status `json:"status"`
	Message    string `json:"message,omitempty"`
	Stack      string `json:"stack,omitempty"`
	DurationNS int64  `json:"duration_ns"`
	Extra      any    `json:"extra,omitempty"`
}

// ReadRecords reads the records of a file written in measure mode.
func ReadRecords(r io.Reader) ([]Record, error) {
	var recs []Record
	err := readJSONLines(r, func(line int, data []byte) error {
		var rec Record
		if err := json.Unmarshal(data, &rec); err != nil {
			return err
		}
		recs = append(recs, rec)
		return nil
	})
	return recs, err
}

// readJSONLines calls fn for every non-blank line of r, and reports its
// errors with the line number.
func readJSONLines(r io.Reader, fn func(line int, data []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<30)
	for line := 1; sc.Scan(); line++ {
		data := bytes.TrimSpace(sc.Bytes())
		if len(data) == 0 {
			continue
		}
		if err := fn(line, data); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
	}
	return sc.Err()
}

// measureInput is an input of the measure mode after reading.
type measureInput struct {
	id   string
	data []byte
	text *string
}

// readMeasureInputs reads the inputs named by path: a file of InputRecord
// lines or a corpus directory whose entries each hold one []byte (data) or
// string (text) value.
func readMeasureInputs(path string) ([]measureInput, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	var ins []measureInput
	if st.IsDir() {
		entries, err := corpus.ReadDir(path)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if len(e.Values) != 1 {
				return nil, fmt.Errorf("%s: the entry holds %d values, want one []byte or string", e.Path, len(e.Values))
			}
			switch v := e.Values[0].(type) {
			case []byte:
				ins = append(ins, measureInput{id: e.Name, data: v})
			case string:
				ins = append(ins, measureInput{id: e.Name, text: &v})
			default:
				return nil, fmt.Errorf("%s: the entry holds a %T, want []byte or string", e.Path, v)
			}
		}
		return ins, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	err = readJSONLines(f, func(line int, data []byte) error {
		var r InputRecord
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			return err
		}
		if r.Text != nil && r.Data != nil {
			return errors.New("an input record has both text and data")
		}
		ins = append(ins, measureInput{id: r.ID, data: r.Data, text: r.Text})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ins, nil
}

// A measurer runs one harness's target over the inputs of the measure mode.
type measurer struct {
	h       *Harness
	hook    MeasureHook
	timeout time.Duration
	ids     []string

	mu    sync.Mutex
	queue map[string][]int // encoded input -> indexes still to run
	out   *os.File
	enc   *json.Encoder
	err   error // first error writing records
}

// measure is Fuzz in measure mode: it adds the inputs as the only seeds and
// runs fn over each of them, recording the outcome. Inputs that f.Fuzz also
// reads from testdata/fuzz are ignored.
func (h *Harness) measure(path string, fn func(*testing.T, Input)) {
	f := h.f
	f.Helper()
	ins, err := readMeasureInputs(path)
	if err != nil {
		f.Fatalf("fuzzharness: %s: %v", EnvInputs, err)
	}
	m := &measurer{h: h, hook: currentHook(), timeout: DefaultTimeout, queue: map[string][]int{}}
	if s := os.Getenv(EnvTimeout); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			f.Fatalf("fuzzharness: %s=%q is not a positive duration", EnvTimeout, s)
		}
		m.timeout = d
	}
	if out := os.Getenv(EnvOut); out != "" {
		file, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			f.Fatalf("fuzzharness: %s: %v", EnvOut, err)
		}
		m.out, m.enc = file, json.NewEncoder(file)
		f.Cleanup(func() {
			if err := file.Close(); err != nil && m.err == nil {
				m.err = err
			}
			if m.err != nil {
				f.Errorf("fuzzharness: writing %s: %v", out, m.err)
			}
		})
	}
	for i, in := range ins {
		m.ids = append(m.ids, in.id)
		data := in.data
		if in.text != nil {
			var t *grammar.Tree
			t, err = h.codec.Parse(*in.text)
			if err == nil {
				data, err = h.codec.Encode(t)
			}
			if err != nil {
				m.write(&Run{Target: h.name, Index: i, ID: in.id, Input: Input{s: *in.text}, Status: StatusError, Message: err.Error()}, nil)
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

// write appends the record of r to the output file, if there is one.
func (m *measurer) write(r *Run, data []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.enc == nil || m.err != nil {
		return
	}
	rec := Record{
		Target: r.Target, Index: r.Index, ID: r.ID, Input: r.Input.s, Data: data, Status: r.Status,
		Message: r.Message, Stack: r.Stack, DurationNS: int64(r.Duration), Extra: r.Extra,
	}
	if !utf8.ValidString(rec.Input) {
		rec.Input = string(bytes.ToValidUTF8([]byte(rec.Input), []byte("\uFFFD")))
	}
	if err := m.enc.Encode(rec); err != nil {
		m.err = err
	}
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
	r := &Run{Target: h.name, Index: i, ID: m.ids[i], Input: in}
	if o == outcomeRejected {
		r.Status = StatusInvalid
		m.write(r, data)
		return
	}
	var claimed atomic.Bool // set by whoever finishes the run: the target or the timer
	if m.hook != nil {
		m.hook.Begin(r)
	}
	start := time.Now()
	timer := time.AfterFunc(m.timeout, func() {
		if !claimed.CompareAndSwap(false, true) {
			return
		}
		r.Status, r.Duration = StatusTimeout, time.Since(start)
		r.Message = fmt.Sprintf("the target ran longer than %v", m.timeout)
		if m.hook != nil {
			m.hook.End(r)
		}
		m.write(r, data)
		m.mu.Lock()
		if m.out != nil {
			m.out.Close()
		}
		m.mu.Unlock()
		fmt.Fprintf(os.Stderr, "fuzzharness: %s: input %d (%s) timed out after %v; exiting\n", h.name, i, r.ID, m.timeout)
		os.Exit(TimeoutExitCode)
	})
	defer func() {
		p := recover()
		timer.Stop()
		if !claimed.CompareAndSwap(false, true) {
			select {} // the timer has claimed the run and exits the process
		}
		r.Duration = time.Since(start)
		switch {
		case p != nil:
			r.Status, r.Message, r.Stack = StatusPanic, fmt.Sprint(p), string(debug.Stack())
			t.Logf("fuzzharness: measure mode: the target panicked: %v\n%s", p, in.Describe())
		case t.Failed():
			r.Status = StatusFail
		case t.Skipped():
			r.Status = StatusSkip
		default:
			r.Status = StatusPass
		}
		if m.hook != nil {
			m.hook.End(r)
		}
		m.write(r, data)
	}()
	fn(t, in)
}
