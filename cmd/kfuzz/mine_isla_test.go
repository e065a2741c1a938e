package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMineISLA mines the XML balance constraint from three valid and one
// invalid document, writes it with -o, and checks inputs with it.
func TestMineISLA(t *testing.T) {
	dir := t.TempDir()
	pos, neg := filepath.Join(dir, "pos"), filepath.Join(dir, "neg")
	os.Mkdir(pos, 0o777)
	os.Mkdir(neg, 0o777)
	os.WriteFile(filepath.Join(pos, "1"), []byte("<a><b>x</b></a>"), 0o666)
	os.WriteFile(filepath.Join(pos, "2"), []byte(`<x y="1"><z/>t</x>`), 0o666)
	os.WriteFile(filepath.Join(pos, "3"), []byte("<p>q<r>s</r></p>"), 0o666)
	os.WriteFile(filepath.Join(neg, "1"), []byte("<a>x</b>"), 0o666)
	out := filepath.Join(dir, "best.isla")
	stdout, errOut, code := kfuzz(t, "mine", "isla", "-grammar", "xml", "-pos", pos, "-neg", neg,
		"-generated", "20", "-n", "2", "-o", out)
	if code != 0 || !strings.Contains(stdout, "# 1. balance: recall 1.000, specificity 1.000") {
		t.Fatalf("mine isla: code %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	if strings.Count(stdout, "# ") != 2 {
		t.Errorf("-n 2 printed:\n%s", stdout)
	}
	_, _, code = kfuzz(t, "isla", "check", "-grammar", "xml", "-constraint", out,
		filepath.Join(pos, "1"), filepath.Join(pos, "2"), filepath.Join(pos, "3"))
	if code != 0 {
		t.Errorf("isla check rejects the valid samples with the mined constraint")
	}
	_, _, code = kfuzz(t, "isla", "check", "-grammar", "xml", "-constraint", out, filepath.Join(neg, "1"))
	if code != 1 {
		t.Errorf("isla check on the invalid sample: code %d, want 1", code)
	}
	// -o never overwrites without -f.
	_, errOut, code = kfuzz(t, "mine", "isla", "-grammar", "xml", "-pos", pos, "-generated", "0", "-o", out)
	if code == 0 || !strings.Contains(errOut, "exists") {
		t.Errorf("mine isla over an existing -o: code %d, stderr %q", code, errOut)
	}
}

func TestMineISLABadCatalog(t *testing.T) {
	dir := t.TempDir()
	pos := filepath.Join(dir, "pos")
	os.Mkdir(pos, 0o777)
	os.WriteFile(filepath.Join(pos, "1"), []byte("<a>x</a>"), 0o666)
	cat := filepath.Join(dir, "cat.isc")
	os.WriteFile(cat, []byte("pattern p\nwhere {a} under {b}\nforall <{a}> x: true\n"), 0o666)
	_, errOut, code := kfuzz(t, "mine", "isla", "-grammar", "xml", "-pos", pos, "-catalog", cat)
	if code != 2 || !strings.Contains(errOut, "cat.isc:2:1: unknown relation \"under\"") {
		t.Errorf("bad catalog: code %d, stderr %q", code, errOut)
	}
}

// With -oracle, the program's rejections of generated inputs are the
// negative samples.
func TestMineISLAOracle(t *testing.T) {
	dir := t.TempDir()
	pos := filepath.Join(dir, "pos")
	os.Mkdir(pos, 0o777)
	os.WriteFile(filepath.Join(dir, "e.bnf"), []byte("<start> ::= <edge> ( \"; \" <edge> )* ;\n<edge> ::= <node> \" \" <op> \" \" <node> ;\n<op> ::= \"--\" | \"->\" ;\n<node> ::= [a-c] ;\n"), 0o666)
	os.WriteFile(filepath.Join(pos, "1"), []byte("a -- b"), 0o666)
	os.WriteFile(filepath.Join(pos, "2"), []byte("b -- c; a -- a"), 0o666)
	stdout, errOut, code := kfuzz(t, "mine", "isla", "-grammar", filepath.Join(dir, "e.bnf"), "-pos", pos,
		"-oracle", "! grep -q -e '->'", "-oracle-inputs", "30", "-generated", "0", "-n", "1")
	if code != 0 || !strings.Contains(stdout, "specificity 1.000") || !strings.Contains(stdout, `forall <op> x: x = "--"`) {
		t.Errorf("code %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	if !strings.Contains(errOut, " inputs the oracle labelled (") {
		t.Errorf("the summary does not count the oracle's inputs: %q", errOut)
	}
}
