package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/corpus"
)

const calcCorpus = "../../examples/calc/testdata/fuzz/FuzzCalc"

func TestCorpusLsWithGrammar(t *testing.T) {
	out, errOut, code := kfuzz(t, "corpus", "ls", "-grammar", "expr", calcCorpus)
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	for _, want := range []string{
		`265416b1ffdb2b2f    26 B ->   11 B  "(x+1)*(y-2)"`,
		`806a25b8019eb39a    15 B ->    9 B  "++x/--y%3"`,
		"4 entries",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	// Other bounds decode the same bytes differently.
	out, _, _ = kfuzz(t, "corpus", "ls", "-grammar", "expr", "-max-depth", "3", calcCorpus)
	if strings.Contains(out, "(x+1)*(y-2)") {
		t.Errorf("with -max-depth 3 the entry still decodes to (x+1)*(y-2):\n%s", out)
	}
}

// TestCorpusShowAsksTheFuzzTest runs go test on examples/calc to learn
// FuzzCalc's grammar.
func TestCorpusShowAsksTheFuzzTest(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not available")
	}
	out, errOut, code := kfuzz(t, "corpus", "show", "-tree", filepath.Join(calcCorpus, "265416b1ffdb2b2f"))
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	for _, want := range []string{
		"data:   26 bytes, 26 read by the decoder",
		`input:  11 bytes "(x+1)*(y-2)"`,
		"raw:\n(x+1)*(y-2)\n",
		"tree:\n<AddExpr>#0  \"(x+1)*(y-2)\"\n",
		`    <MultExpr>#42  "(x+1)"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
}

func TestCorpusPlainEntries(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "FuzzPlain")
	name, _, err := corpus.Add(dir, "1+\x00", 3)
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := kfuzz(t, "corpus", "ls", dir)
	if code != 0 || !strings.Contains(out, name+`  "1+\x00" 3`) {
		t.Errorf("ls: code %d, stderr %q, output:\n%s", code, errOut, out)
	}
	out, errOut, code = kfuzz(t, "corpus", "show", filepath.Join(dir, name))
	if code != 0 || !strings.Contains(out, `value: string "1+\x00"`) || !strings.Contains(out, "value: int 3") {
		t.Errorf("show: code %d, stderr %q, output:\n%s", code, errOut, out)
	}
}

func TestCorpusErrors(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "entries")
	if _, _, err := corpus.Add(dir, []byte{1, 2}); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := kfuzz(t, "corpus", "ls", dir); code != 1 || !strings.Contains(errOut, "give the grammar with -grammar") {
		t.Errorf("ls of bytes without a grammar: code %d, stderr %q", code, errOut)
	}
	if _, errOut, code := kfuzz(t, "corpus", "show", filepath.Join(dir, "nosuchfile")); code != 1 || !strings.Contains(errOut, "no such file") {
		t.Errorf("show of a missing file: code %d, stderr %q", code, errOut)
	}
	if _, errOut, code := kfuzz(t, "corpus", "ls"); code != 2 || !strings.Contains(errOut, "usage: kfuzz corpus ls") {
		t.Errorf("ls without a directory: code %d, stderr %q", code, errOut)
	}
}

// TestCorpusShowEdits shows an entry whose bytes after the decisions make a
// byte edit (fuzzharness.WithMaxEdits): the input and the tree's text.
func TestCorpusShowEdits(t *testing.T) {
	entries, err := corpus.ReadDir(calcCorpus)
	if err != nil {
		t.Fatal(err)
	}
	var data []byte
	for _, e := range entries {
		if e.Name == "265416b1ffdb2b2f" {
			data = e.Values[0].([]byte)
		}
	}
	if len(data) != 26 {
		t.Fatalf("entry 265416b1ffdb2b2f not found or not 26 bytes: %q", data)
	}
	dir := filepath.Join(t.TempDir(), "FuzzCalc")
	// One edit: replace the first byte with "-".
	name, _, err := corpus.Add(dir, append(data, 1, 2, 0, 0, '-'))
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := kfuzz(t, "corpus", "show", "-grammar", "expr", "-max-edits", "2", filepath.Join(dir, name))
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	for _, want := range []string{
		`input:  11 bytes "-x+1)*(y-2)"`,
		`edits:  of 11 bytes "(x+1)*(y-2)" (the tree's text)`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	// Without -max-edits the same bytes decode to the tree's text.
	out, _, _ = kfuzz(t, "corpus", "show", "-grammar", "expr", filepath.Join(dir, name))
	if !strings.Contains(out, `input:  11 bytes "(x+1)*(y-2)"`) || strings.Contains(out, "edits:") {
		t.Errorf("without -max-edits:\n%s", out)
	}
}

// TestCorpusBadFiles gives corpus show two bad files among good ones: each
// bad file is reported, the good ones after them are shown, and the exit
// status is 1. corpus ls quotes only a prefix of a binary first line.
func TestCorpusBadFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "FuzzPlain")
	good, _, err := corpus.Add(dir, "ok")
	if err != nil {
		t.Fatal(err)
	}
	binary := filepath.Join(dir, "binary")
	if err := os.WriteFile(binary, bytes.Repeat([]byte{0, 0xff, 7}, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	out, errOut, code := kfuzz(t, "corpus", "show", binary, missing, filepath.Join(dir, good))
	if code != 1 || !strings.Contains(out, `value: string "ok"`) ||
		!strings.Contains(errOut, binary+":1:1: expected the header") || !strings.Contains(errOut, missing) {
		t.Errorf("show: code %d, stderr %q, output:\n%s", code, errOut, out)
	}
	out, errOut, code = kfuzz(t, "corpus", "ls", dir)
	if code != 1 || !strings.Contains(out, "1 entries") || !strings.Contains(errOut, "(a line of 3000 bytes)") || len(errOut) > 300 {
		t.Errorf("ls: code %d, stderr of %d bytes %q, output:\n%s", code, len(errOut), errOut, out)
	}
}
