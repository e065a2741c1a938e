package protocol

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// The environment variables of the measure mode. See the package
// documentation.
const (
	EnvInputs     = "KFUZZ_INPUTS"
	EnvOut        = "KFUZZ_OUT"
	EnvTimeout    = "KFUZZ_TIMEOUT"
	EnvGrammarOut = "KFUZZ_GRAMMAR_OUT"
	EnvTrace      = "KFUZZ_MEASURE_TRACE"
	EnvServe      = "KFUZZ_SERVE"
)

// EnvRepairBudget, if set to a duration (time.ParseDuration), overrides
// the repair budget of every fuzzharness harness with a constraint
// (fuzzharness.WithRepairBudget), in any mode: kfuzz eval harness
// -repair-budget sets it for the fuzz tests it runs.
const EnvRepairBudget = "KFUZZ_REPAIR_BUDGET"

// DefaultTimeout is the per-input time limit when EnvTimeout is not set.
const DefaultTimeout = 10 * time.Second

// TimeoutExitCode is the exit status of a test process whose target ran out
// of time on an input.
const TimeoutExitCode = 3

// Environ returns env without the variables of the protocol, which would
// switch a harness into measure mode.
func Environ(env []string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case EnvInputs, EnvOut, EnvTimeout, EnvGrammarOut, EnvTrace, EnvServe:
			continue
		}
		out = append(out, kv)
	}
	return out
}

// An InputRecord is one line of the file named by EnvInputs. If Text is set,
// the input is Text parsed with the harness's grammar; otherwise it is Data
// decoded with the harness's codec (no data at all decodes to the shortest
// input).
type InputRecord struct {
	ID   string  `json:"id,omitempty"`
	Data []byte  `json:"data,omitempty"` // base64 in JSON
	Text *string `json:"text,omitempty"`
}

// WriteInputs writes the input records to a new file at path.
func WriteInputs(path string, recs []InputRecord) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// ReadInputs reads the inputs that EnvInputs names: a file of InputRecord
// lines or a corpus directory whose entries each hold one []byte (read as
// Data) or string (read as Text) value, named by their file names.
func ReadInputs(path string) ([]InputRecord, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	var ins []InputRecord
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
				ins = append(ins, InputRecord{ID: e.Name, Data: v})
			case string:
				ins = append(ins, InputRecord{ID: e.Name, Text: &v})
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
	err = readLines(f, func(data []byte) error {
		var r InputRecord
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			return err
		}
		if r.Text != nil && r.Data != nil {
			return errors.New("an input record has both text and data")
		}
		ins = append(ins, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ins, nil
}

// Status is the outcome of running the target over one input.
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

// A Record is one line of the file named by EnvOut: the outcome of one
// input.
type Record struct {
	Target string `json:"target"` // the fuzz test, e.g. FuzzCalc
	Index  int    `json:"index"`  // position of the input in the inputs, from 0
	ID     string `json:"id,omitempty"`
	// Input is the input text (the repaired one, if a constraint repaired
	// it); if it is not valid UTF-8, invalid bytes are replaced by U+FFFD,
	// and Data gives the exact input. With StatusError, Input is the text
	// that could not be parsed and Data is empty.
	Input      string `json:"input"`
	Data       []byte `json:"data,omitempty"` // the encoded input (base64 in JSON)
	Status     Status `json:"status"`
	Message    string `json:"message,omitempty"` // the panic value, or why an input had StatusError
	Stack      string `json:"stack,omitempty"`   // the stack of a panic
	DurationNS int64  `json:"duration_ns"`
	// Extra is what the Hook's End returned, as JSON; it is empty if the
	// target did not run or no hook is set.
	Extra json.RawMessage `json:"extra,omitempty"`
}

// WriteRecord writes rec as one line, in one Write call. It replaces
// invalid UTF-8 in rec.Input.
func WriteRecord(w io.Writer, rec *Record) error {
	r := *rec
	if !utf8.ValidString(r.Input) {
		r.Input = strings.ToValidUTF8(r.Input, "\uFFFD")
	}
	data, err := json.Marshal(&r)
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// ReadRecords reads the records of a file named by EnvOut.
func ReadRecords(r io.Reader) ([]Record, error) {
	return readAll[Record](r)
}

// A Hook is called around every input of the measure mode: Begin right
// before the target is called, End right after it returns, fails or
// panics, or when it runs out of time (then from another goroutine, while
// the target still runs). The value End returns is marshalled with
// encoding/json into the input's Record.Extra.
type Hook interface {
	Begin()
	End() any
}

// Counters is the Record.Extra of kfuzz's measuring hook: the coverage
// counters that ran between the previous input's end and this input's
// start (Before; for the first input, package initialization and the fuzz
// test's setup) and those of the input itself (Blocks). Both map an import
// path to pairs of a block index in the package and its count, as
// coverage.Counts marshals itself; zero counts are left out.
type Counters struct {
	Before map[string][]uint64 `json:"before,omitempty"`
	Blocks map[string][]uint64 `json:"blocks"`
}

// Counters decodes the record's Extra as Counters. It returns nil and no
// error if Extra is empty.
func (r *Record) Counters() (*Counters, error) {
	if len(r.Extra) == 0 || string(r.Extra) == "null" {
		return nil, nil
	}
	c := new(Counters)
	if err := json.Unmarshal(r.Extra, c); err != nil {
		return nil, fmt.Errorf("the counters of input %d: %v", r.Index, err)
	}
	return c, nil
}

// A Description is what a harness appends to the file named by
// EnvGrammarOut: enough to rebuild its codec outside the test process, so
// that tools can decode and encode the fuzz test's corpus entries
// (fuzzharness.NewCodec with fuzzharness.WithBounds).
type Description struct {
	Target string `json:"target"` // the fuzz test, e.g. FuzzCalc
	// Grammar is the grammar in the notation (grammar.Grammar.String) and
	// Start the nonterminal the harness's graph starts from.
	Grammar  string   `json:"grammar"`
	Start    string   `json:"start"`
	Bounds   Bounds   `json:"bounds"`
	K        int      `json:"k"`                  // k of the k-path seeds, 0 for none
	Examples []string `json:"examples,omitempty"` // the example inputs
	Validity bool     `json:"validity"`           // whether a validity predicate is set
}

// Bounds are the harness's fuzzharness.Bounds, a struct of the same fields
// (convert one into the other).
type Bounds struct {
	MaxDepth  int `json:"max_depth"`
	MaxSize   int `json:"max_size"`
	MaxRepeat int `json:"max_repeat"`
	MaxEdits  int `json:"max_edits,omitempty"`
}

// Graph parses and compiles the described grammar from its start symbol.
func (d *Description) Graph() (*grammar.Graph, error) {
	g, err := grammar.Parse(d.Target+".grammar", []byte(d.Grammar))
	if err != nil {
		return nil, err
	}
	return grammar.Compile(g, grammar.WithStart(d.Start))
}

// AppendDescription appends d as one line to the file at path.
func AppendDescription(path string, d *Description) error {
	data, err := json.Marshal(d)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(data, '\n'))
	if err2 := f.Close(); err == nil {
		err = err2
	}
	return err
}

// ReadDescriptions reads the descriptions that harnesses appended to a file
// named by EnvGrammarOut.
func ReadDescriptions(r io.Reader) ([]Description, error) {
	return readAll[Description](r)
}

// AppendTrace writes the index of an input as one line of the file named
// by EnvTrace.
func AppendTrace(w io.Writer, index int) error {
	_, err := w.Write(strconv.AppendInt(nil, int64(index), 10))
	if err == nil {
		_, err = w.Write([]byte{'\n'})
	}
	return err
}

// ReadTrace reads the indexes of a file named by EnvTrace. A last line cut
// short by a crash is ignored.
func ReadTrace(r io.Reader) ([]int, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var idx []int
	for n, line := range strings.SplitAfter(string(data), "\n") {
		if !strings.HasSuffix(line, "\n") {
			break
		}
		i, err := strconv.Atoi(strings.TrimSuffix(line, "\n"))
		if err != nil {
			return nil, fmt.Errorf("line %d: bad line %q", n+1, line)
		}
		idx = append(idx, i)
	}
	return idx, nil
}

// readAll decodes one T from every non-blank line of r.
func readAll[T any](r io.Reader) ([]T, error) {
	var vs []T
	err := readLines(r, func(data []byte) error {
		var v T
		if err := json.Unmarshal(data, &v); err != nil {
			return err
		}
		vs = append(vs, v)
		return nil
	})
	return vs, err
}

// readLines calls fn for every non-blank line of r, and reports its
// errors with the line number.
func readLines(r io.Reader, fn func(data []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<30)
	for line := 1; sc.Scan(); line++ {
		data := bytes.TrimSpace(sc.Bytes())
		if len(data) == 0 {
			continue
		}
		if err := fn(data); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
	}
	return sc.Err()
}
