package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestKPathCounts(t *testing.T) {
	// TRIBBLE section 3.2: the expression grammar has 39, 125, 523, 2331 and
	// 10245 k-paths for k = 1..5.
	for k, want := range []string{"39", "125", "523", "2331", "10245"} {
		out, errOut, code := kfuzz(t, "kpath", "-grammar", "expr", "-k", string(rune('1'+k)))
		if code != 0 || strings.TrimSpace(out) != want {
			t.Errorf("kpath -k %d = %q (code %d, stderr %q), want %s", k+1, out, code, errOut, want)
		}
	}
}

func TestKPathFileCoverage(t *testing.T) {
	dir := t.TempDir()
	x42 := filepath.Join(dir, "x42")
	bad := filepath.Join(dir, "bad")
	os.WriteFile(x42, []byte("x+42"), 0o666)
	os.WriteFile(bad, []byte("x+"), 0o666)
	// TRIBBLE section 3.2: pathcov_2("x+42") = 12/125.
	out, errOut, code := kfuzz(t, "kpath", "-grammar", "expr", "-k", "2", x42)
	if code != 0 || out != x42+": 12/125 2-paths (9.6%)\n" {
		t.Errorf("kpath x+42: code %d, out %q, stderr %q", code, out, errOut)
	}
	out, _, _ = kfuzz(t, "kpath", "-grammar", "expr", "-k", "2", "-list", x42)
	if !strings.Contains(out, "<AddExpr>#0 -> \"+\"#") || strings.Count(out, "\t") != 12 {
		t.Errorf("kpath -list x+42:\n%s", out)
	}
	_, errOut, code = kfuzz(t, "kpath", "-grammar", "expr", "-k", "2", x42, bad)
	if code != 1 || !strings.Contains(errOut, bad+": ") || !strings.Contains(errOut, "1 of 2 files") {
		t.Errorf("kpath with a rejected file: code %d, stderr %q", code, errOut)
	}
}
