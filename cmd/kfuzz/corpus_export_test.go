package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/corpus"
)

func TestCorpusExport(t *testing.T) {
	src := filepath.Join(t.TempDir(), "FuzzX")
	name, _, err := corpus.Add(src, "ab", []byte{7})
	if err != nil {
		t.Fatal(err)
	}
	bad, _, err := corpus.Add(src, []byte{})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "corpus")
	stdout, errOut, code := kfuzz(t, "corpus", "export", "-o", out, src)
	if code != 1 || !strings.Contains(errOut, bad+": argument 1: an empty []byte") {
		t.Errorf("export with an empty []byte entry: code %d, stderr %q", code, errOut)
	}
	if !strings.Contains(stdout, "1 files written, 0 already there") {
		t.Errorf("stdout %q", stdout)
	}
	got, err := os.ReadFile(filepath.Join(out, name))
	if want := []byte{0, 0, 0, 2, 'a', 'b', 0, 0, 0, 1, 7}; err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s holds % x, %v; want % x", name, got, err, want)
	}

	// Exporting again leaves the file alone; a file with other content is
	// never replaced.
	os.Remove(filepath.Join(src, bad))
	if stdout, errOut, code := kfuzz(t, "corpus", "export", "-o", out, src); code != 0 || !strings.Contains(stdout, "0 files written, 1 already there") {
		t.Errorf("export again: code %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	if err := os.WriteFile(filepath.Join(out, name), []byte("other"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := kfuzz(t, "corpus", "export", "-o", out, src); code != 1 || !strings.Contains(errOut, "already exists with different content") {
		t.Errorf("export over other content: code %d, stderr %q", code, errOut)
	}
	if _, errOut, code := kfuzz(t, "corpus", "export", src); code != 2 || !strings.Contains(errOut, "usage: kfuzz corpus export") {
		t.Errorf("export without -o: code %d, stderr %q", code, errOut)
	}
}
