package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// TestMineGlade mines the language (ab)*c* from two seeds with grep as the
// oracle, writes the grammar, and loads it back.
func TestMineGlade(t *testing.T) {
	if _, err := exec.LookPath("grep"); err != nil {
		t.Skip("no grep")
	}
	dir := t.TempDir()
	seeds := filepath.Join(dir, "seeds")
	os.Mkdir(seeds, 0o777)
	os.WriteFile(filepath.Join(seeds, "1"), []byte("ababcc"), 0o666)
	os.WriteFile(filepath.Join(seeds, "2"), []byte("c"), 0o666)
	out := filepath.Join(dir, "g.bnf")
	oracle := "grep -qxE '(ab)*c*'"
	args := []string{"mine", "glade", "-seeds", seeds, "-oracle", oracle, "-o", out, "-no-chars"}
	_, errOut, code := kfuzz(t, args...)
	if code != 0 || !strings.Contains(errOut, "rules from") || !strings.Contains(errOut, "queries") {
		t.Fatalf("mine glade: code %d, stderr %q", code, errOut)
	}
	g, err := grammar.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	gr, err := grammar.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	p, err := grammar.NewParser(gr)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"ababcc", "c", "abababccc"} {
		if p.Recognize([]byte(s)) != nil {
			t.Errorf("the mined grammar rejects %q:\n%s", s, g)
		}
	}
	for _, s := range []string{"a", "ba", "cab", "abca"} {
		if p.Recognize([]byte(s)) == nil {
			t.Errorf("the mined grammar accepts %q:\n%s", s, g)
		}
	}
	// An existing file is kept without -f.
	_, errOut, code = kfuzz(t, args...)
	if code != 1 || !strings.Contains(errOut, "already exists") {
		t.Errorf("second run: code %d, stderr %q", code, errOut)
	}
}

func TestMineGladeErrors(t *testing.T) {
	dir := t.TempDir()
	_, errOut, code := kfuzz(t, "mine", "glade", "-oracle", "true")
	if code != 2 || !strings.Contains(errOut, "usage:") {
		t.Errorf("without -seeds: code %d, stderr %q", code, errOut)
	}
	_, errOut, code = kfuzz(t, "mine", "glade", "-seeds", dir, "-oracle", "true")
	if code != 1 || !strings.Contains(errOut, "no seed files") {
		t.Errorf("empty seed directory: code %d, stderr %q", code, errOut)
	}
	os.WriteFile(filepath.Join(dir, "s"), []byte("abc"), 0o666)
	_, errOut, code = kfuzz(t, "mine", "glade", "-seeds", dir, "-oracle", "false")
	if code != 1 || !strings.Contains(errOut, "rejected by the oracle") {
		t.Errorf("rejected seed: code %d, stderr %q", code, errOut)
	}
	_, errOut, code = kfuzz(t, "mine", "glade", "-seeds", dir, "-oracle", "true", "-max-queries", "3")
	if code != 1 || !strings.Contains(errOut, "-max-queries") {
		t.Errorf("query limit: code %d, stderr %q", code, errOut)
	}
}
