package fuzzharness

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/internal/protocol"
)

// TestServeMode runs FuzzHelper's measure target in the serve mode: the
// description comes first, then one record per input line, in order, each
// input in a subtest of its own, and no hook is called.
func TestServeMode(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no extra file descriptors")
	}
	c, err := NewCodec(exprGraph)
	if err != nil {
		t.Fatal(err)
	}
	// An entry of testdata/fuzz would run too; the serve mode passes it over.
	dir := t.TempDir()
	if _, _, err := corpus.Add(filepath.Join(dir, "testdata", "fuzz", "FuzzHelper"), mustEncode(t, c, "2")); err != nil {
		t.Fatal(err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer respR.Close()
	lines := []string{`{"id":"one","text":"1"}`, `{"text":"2"}`, `{"text":"3"}`, `{"text":"4"}`, `{"text":"1+"}`,
		`{"text":"6"}`, ``, `not json`, `{"data":"MQ=="}`, `{"text":"1","data":"MQ=="}`, `{"text":"1"}`}
	cmd := exec.Command(os.Args[0], "-test.run=^FuzzHelper$", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), helperEnv+"=measure", protocol.EnvServe+"=3")
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n")) // the last line without a newline
	cmd.ExtraFiles = []*os.File{respW}
	var output strings.Builder
	cmd.Stdout, cmd.Stderr = &output, &output
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	respW.Close()
	sc := bufio.NewScanner(respR)
	var answers []string
	for sc.Scan() {
		answers = append(answers, sc.Text())
	}
	cmd.Wait()
	if len(answers) == 0 {
		t.Fatalf("no answers; output:\n%s", output.String())
	}
	var d protocol.Description
	if err := json.Unmarshal([]byte(answers[0]), &d); err != nil || d.Target != "FuzzHelper" || !d.Validity {
		t.Errorf("first line %q, want the description", answers[0])
	}
	want := []struct {
		index  int
		id     string
		input  string
		status protocol.Status
		msg    string
	}{
		{0, "one", "1", protocol.StatusPass, ""},
		{1, "", "2", protocol.StatusFail, ""},
		{2, "", "3", protocol.StatusPanic, "three"},
		{3, "", "4", protocol.StatusSkip, ""},
		{4, "", "1+", protocol.StatusError, "unexpected EOF"},
		{5, "", "6", protocol.StatusInvalid, ""},
		{6, "", "", protocol.StatusError, "bad input record"},
		{7, "", "1", protocol.StatusPass, ""}, // data: the text as bytes
		{8, "", "", protocol.StatusError, "both text and data"},
		{9, "", "1", protocol.StatusPass, ""},
	}
	if len(answers) != 1+len(want) {
		t.Fatalf("%d answers, want %d:\n%s\noutput:\n%s", len(answers)-1, len(want), strings.Join(answers, "\n"), output.String())
	}
	for k, w := range want {
		var r protocol.Record
		if err := json.Unmarshal([]byte(answers[k+1]), &r); err != nil {
			t.Fatal(err)
		}
		if r.Index != w.index || r.ID != w.id || r.Input != w.input || r.Status != w.status || !strings.Contains(r.Message, w.msg) || len(r.Extra) != 0 {
			t.Errorf("answer %d = %+v, want index %d, id %q, input %q, status %s, message with %q, no extra", k, r, w.index, w.id, w.input, w.status, w.msg)
		}
		if w.status == protocol.StatusPanic && !strings.Contains(r.Stack, "goroutine") {
			t.Errorf("answer %d has no stack", k)
		}
	}
	// The failure and the skip were subtests of their own.
	if !strings.Contains(output.String(), "--- FAIL: FuzzHelper/seed#0/1 ") {
		t.Errorf("no failing subtest FuzzHelper/seed#0/1 in the output:\n%s", output.String())
	}
}

// TestServeModeTimeout checks that a serve-mode process whose target hangs
// exits by itself after KFUZZ_TIMEOUT, even while its input stays open.
func TestServeModeTimeout(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no extra file descriptors")
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer inW.Close()
	respR, respW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer respR.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^FuzzHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"=measure", protocol.EnvServe+"=3", protocol.EnvTimeout+"=300ms")
	cmd.Stdin = inR
	cmd.ExtraFiles = []*os.File{respW}
	var output strings.Builder
	cmd.Stdout, cmd.Stderr = &output, &output
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inR.Close()
	respW.Close()
	timer := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
	defer timer.Stop()
	inW.Write([]byte(`{"text":"1"}` + "\n" + `{"text":"5"}` + "\n")) // 5 sleeps for an hour
	sc := bufio.NewScanner(respR)
	var answers []string
	for sc.Scan() {
		answers = append(answers, sc.Text())
	}
	cmd.Wait()
	const msg = "input 1 ran longer than 300ms; exiting"
	if len(answers) != 2 || cmd.ProcessState.ExitCode() != protocol.TimeoutExitCode || !strings.Contains(output.String(), msg) {
		t.Errorf("%d answers, %v, output:\n%s\nwant the description and one answer, exit status %d and %q",
			len(answers), cmd.ProcessState, output.String(), protocol.TimeoutExitCode, msg)
	}
}
