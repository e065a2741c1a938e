package protocol

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/corpus"
)

func TestInputsRoundTrip(t *testing.T) {
	text, empty := "1+2", ""
	want := []InputRecord{{ID: "a", Text: &text}, {ID: "b", Data: []byte{0, 1, 255}}, {ID: "c"}, {Text: &empty}}
	path := filepath.Join(t.TempDir(), "in.jsonl")
	if err := WriteInputs(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := ReadInputs(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read %+v, want %+v", got, want)
	}
}

func TestReadInputsErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, content, want string }{
		{"both", `{"id":"x","text":"1","data":"AA=="}`, "line 1: an input record has both text and data"},
		{"unknown", "\n" + `{"id":"x","txt":"1"}`, `line 2: json: unknown field "txt"`},
		{"broken", `{"id":`, "line 1: unexpected EOF"},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadInputs(path)
		if err == nil || err.Error() != path+": "+tc.want {
			t.Errorf("%s: error %v, want %s: %s", tc.name, err, path, tc.want)
		}
	}
	if _, err := ReadInputs(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Errorf("missing file: error %v", err)
	}
}

func TestReadInputsCorpusDir(t *testing.T) {
	dir := t.TempDir()
	bytesName, _, err := corpus.Add(dir, []byte("ab"))
	if err != nil {
		t.Fatal(err)
	}
	textName, _, err := corpus.Add(dir, "x+1")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadInputs(dir)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]InputRecord{}
	for _, r := range got {
		byID[r.ID] = r
	}
	if len(got) != 2 || string(byID[bytesName].Data) != "ab" || byID[bytesName].Text != nil ||
		byID[textName].Text == nil || *byID[textName].Text != "x+1" || byID[textName].Data != nil {
		t.Errorf("inputs %+v", got)
	}
	if _, _, err := corpus.Add(dir, 1, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadInputs(dir); err == nil || !strings.Contains(err.Error(), "holds 2 values") {
		t.Errorf("error %v for an entry of two values", err)
	}
}

func TestRecords(t *testing.T) {
	var b bytes.Buffer
	recs := []Record{
		{Target: "FuzzX", Index: 0, ID: "a", Input: "ok", Data: []byte{1}, Status: StatusPass, DurationNS: 5,
			Extra: json.RawMessage(`{"before":{"p":[0,1]},"blocks":{"p":[2,3,4,1]}}`)},
		{Target: "FuzzX", Index: 1, Input: "bad\xff", Status: StatusError, Message: "no"},
	}
	for i := range recs {
		if err := WriteRecord(&b, &recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(b.String(), "\n"); n != 2 {
		t.Fatalf("%d lines:\n%s", n, b.String())
	}
	got, err := ReadRecords(&b)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Status != StatusPass || got[0].DurationNS != 5 || got[1].Input != "bad\uFFFD" || recs[1].Input != "bad\xff" {
		t.Fatalf("records %+v", got)
	}
	c, err := got[0].Counters()
	if err != nil {
		t.Fatal(err)
	}
	want := &Counters{Before: map[string][]uint64{"p": {0, 1}}, Blocks: map[string][]uint64{"p": {2, 3, 4, 1}}}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("counters %+v, want %+v", c, want)
	}
	if c, err := got[1].Counters(); c != nil || err != nil {
		t.Errorf("counters of a record without Extra: %v, %v", c, err)
	}
	bad := Record{Index: 3, Extra: json.RawMessage(`{"blocks":{"p":"x"}}`)}
	if _, err := bad.Counters(); err == nil || !strings.Contains(err.Error(), "input 3") {
		t.Errorf("error %v for bad counters", err)
	}
	if _, err := ReadRecords(strings.NewReader("{}\n\n{")); err == nil || !strings.HasPrefix(err.Error(), "line 3:") {
		t.Errorf("error %v for a broken third line", err)
	}
}

func TestDescriptions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "grammar.jsonl")
	ds := []Description{
		{Target: "FuzzA", Grammar: `<s> ::= "a"+ ;`, Start: "s", Bounds: Bounds{MaxDepth: 3, MaxSize: 9, MaxRepeat: 2}, K: 2, Examples: []string{"aa"}},
		{Target: "FuzzB", Grammar: `<t> ::= "b" ;`, Start: "t", Validity: true},
	}
	for i := range ds {
		if err := AppendDescription(path, &ds[i]); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := ReadDescriptions(f)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, ds) {
		t.Errorf("read %+v, want %+v", got, ds)
	}
	gr, err := got[0].Graph()
	if err != nil {
		t.Fatal(err)
	}
	if gr.Root.Rule != "s" {
		t.Errorf("graph from %s", gr.Root.Rule)
	}
	bad := Description{Target: "FuzzC", Grammar: `<s> ::= <u> ;`, Start: "s"}
	if _, err := bad.Graph(); err == nil || !strings.Contains(err.Error(), "FuzzC.grammar") {
		t.Errorf("error %v for an undefined nonterminal, want it positioned in FuzzC.grammar", err)
	}
}

func TestTrace(t *testing.T) {
	var b bytes.Buffer
	for _, i := range []int{0, 1, 17} {
		if err := AppendTrace(&b, i); err != nil {
			t.Fatal(err)
		}
	}
	b.WriteString("2") // cut short by a crash
	got, err := ReadTrace(&b)
	if err != nil || !reflect.DeepEqual(got, []int{0, 1, 17}) {
		t.Errorf("ReadTrace = %v, %v", got, err)
	}
	if _, err := ReadTrace(strings.NewReader("0\nx\n")); err == nil || !strings.HasPrefix(err.Error(), "line 2:") {
		t.Errorf("error %v for a bad line", err)
	}
}

func TestEnviron(t *testing.T) {
	got := Environ([]string{"A=1", EnvInputs + "=x", EnvOut + "=y", EnvTrace + "=z", EnvGrammarOut + "=w", EnvTimeout + "=1s", "B", "KFUZZ_STATS=s"})
	if strings.Join(got, " ") != "A=1 B KFUZZ_STATS=s" {
		t.Errorf("got %q", got)
	}
}
