package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// recognizer loads the grammar in file and returns its Earley recognizer.
func recognizer(t *testing.T, file string) (*grammar.Grammar, *grammar.Parser) {
	t.Helper()
	g, err := grammar.Load(file)
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
	return g, p
}

// seedDir writes the seeds into files 1, 2, ... of a new directory seeds in
// dir and returns its name.
func seedDir(t *testing.T, dir string, seeds ...string) string {
	t.Helper()
	d := filepath.Join(dir, "seeds")
	if err := os.Mkdir(d, 0o777); err != nil {
		t.Fatal(err)
	}
	for i, s := range seeds {
		if err := os.WriteFile(filepath.Join(d, strconv.Itoa(i+1)), []byte(s), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// TestMineGladeFuzzCalc mines a grammar with the calculator's fuzz target
// as the oracle, end to end.
func TestMineGladeFuzzCalc(t *testing.T) {
	needGo(t)
	dir := t.TempDir()
	seeds := seedDir(t, dir, "x*(y+1)", "++x/--y%3")
	out := filepath.Join(dir, "calc.bnf")
	_, errOut, code := kfuzz(t, "mine", "glade", "-seeds", seeds, "-o", out, calcDir, "-fuzz", "FuzzCalc")
	if code != 0 {
		t.Fatalf("code %d, stderr:\n%s", code, errOut)
	}
	if !regexp.MustCompile(`kfuzz mine glade: \d+ rules from 2 of 2 seeds; \d+ queries`).MatchString(errOut) ||
		!regexp.MustCompile(`kfuzz mine glade: FuzzCalc: \d+ error, \d+ pass; \d+ test processes\n`).MatchString(errOut) {
		t.Errorf("no summary lines in stderr:\n%s", errOut)
	}
	g, p := recognizer(t, out)
	for _, s := range []string{"x*(y+1)", "++x/--y%3", "x", "y+1"} {
		if p.Recognize([]byte(s)) != nil {
			t.Errorf("the mined grammar rejects %q:\n%s", s, g)
		}
	}
	for _, s := range []string{"", "x*", "(1", "1+", "x y"} {
		if p.Recognize([]byte(s)) == nil {
			t.Errorf("the mined grammar accepts %q:\n%s", s, g)
		}
	}
}

// shellABC is a command oracle for (ab)*c*. Unlike grep alone, it accepts
// the empty input, on which grep finds no line to match.
const shellABC = `in=$(cat); [ -z "$in" ] || printf '%s\n' "$in" | grep -qxE '(ab)*c*'`

// TestMineGladeFuzzTargetTrouble mines (ab)*c* with a fuzz target whose
// parser panics on one input and hangs on another: both are printed with
// the input, the mining goes on, and the grammar is the one that a command
// oracle for the same language gives.
func TestMineGladeFuzzTargetTrouble(t *testing.T) {
	needGo(t)
	if _, err := exec.LookPath("grep"); err != nil {
		t.Skip("no grep")
	}
	dir := t.TempDir()
	seeds := seedDir(t, dir, "ababcc", "c")
	target := filepath.Join(dir, "target.bnf")
	_, errOut, code := kfuzz(t, "mine", "glade", "-seeds", seeds, "-o", target, "-no-chars", "-timeout", "1s",
		"./testdata/minetarget", "-fuzz", "FuzzABC")
	if code != 0 {
		t.Fatalf("code %d, stderr:\n%s", code, errOut)
	}
	for _, want := range []string{
		`kfuzz mine glade: FuzzABC on input "bcc": panicked: bcc on request` + "\n",
		`kfuzz mine glade: FuzzABC on input "acc": the target ran longer than 1s` + "\n",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if !regexp.MustCompile(`\(\d+ cache hits, 1 timeouts\)`).MatchString(errOut) {
		t.Errorf("stderr does not count one timeout:\n%s", errOut)
	}
	if !regexp.MustCompile(`FuzzABC: 1 panic, \d+ pass, \d+ skip, 1 timeout; \d+ test processes`).MatchString(errOut) {
		t.Errorf("no summary of the target's answers:\n%s", errOut)
	}
	shell := filepath.Join(dir, "shell.bnf")
	if _, errOut, code := kfuzz(t, "mine", "glade", "-seeds", seeds, "-o", shell, "-no-chars", "-oracle", shellABC); code != 0 {
		t.Fatalf("with a command oracle: code %d, stderr:\n%s", code, errOut)
	}
	a, _ := recognizer(t, target)
	b, _ := recognizer(t, shell)
	if a.String() != b.String() {
		t.Errorf("the fuzz target's grammar:\n%s\nthe command oracle's:\n%s", a, b)
	}
}

func TestMineGladeFuzzTargetErrors(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "s"), []byte("abc"), 0o666)
	_, errOut, code := kfuzz(t, "mine", "glade", "-seeds", dir, "-oracle", "true", "-fuzz", "FuzzCalc", calcDir)
	if code != 2 || !strings.Contains(errOut, "-oracle and -fuzz exclude each other") {
		t.Errorf("-oracle and -fuzz: code %d, stderr %q", code, errOut)
	}
	_, errOut, code = kfuzz(t, "mine", "glade", "-seeds", dir, "-oracle", "true", calcDir)
	if code != 2 || !strings.Contains(errOut, "usage:") {
		t.Errorf("a package without -fuzz: code %d, stderr %q", code, errOut)
	}
	_, errOut, code = kfuzz(t, "mine", "glade", "-seeds", dir, "-fuzz", "FuzzCalc", calcDir, "./x")
	if code != 1 || !strings.Contains(errOut, "one package holds the -fuzz test, not 2") {
		t.Errorf("two packages: code %d, stderr %q", code, errOut)
	}
	needGo(t)
	_, errOut, code = kfuzz(t, "mine", "glade", "-seeds", dir, "-fuzz", "FuzzCalcPlain", calcDir)
	if code != 1 || !strings.Contains(errOut, "does not use fuzzharness") {
		t.Errorf("a plain fuzz test: code %d, stderr %q", code, errOut)
	}
}

// TestMineISLAFuzzTarget labels generated inputs with a fuzz target.
func TestMineISLAFuzzTarget(t *testing.T) {
	needGo(t)
	dir := t.TempDir()
	pos := seedDir(t, dir, "ababcc", "abc", "cc")
	g := filepath.Join(dir, "abc.bnf")
	if err := os.WriteFile(g, []byte("<s> ::= [abc]* ;\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	_, errOut, _ := kfuzz(t, "mine", "isla", "-grammar", g, "-pos", pos, "-timeout", "1s", "-oracle-inputs", "100",
		"./testdata/minetarget", "-fuzz", "FuzzABC")
	if !regexp.MustCompile(`and (\d+) inputs the oracle labelled \(\d+ valid\)`).MatchString(errOut) ||
		!regexp.MustCompile(`kfuzz mine isla: FuzzABC: .*\d+ pass, \d+ skip.*; \d+ test processes\n`).MatchString(errOut) {
		t.Errorf("stderr does not report the inputs FuzzABC labelled:\n%s", errOut)
	}
	_, errOut, code := kfuzz(t, "mine", "isla", "-grammar", g, "-pos", pos, "-oracle", "true", "./testdata/minetarget", "-fuzz", "FuzzABC")
	if code != 2 || !strings.Contains(errOut, "usage:") {
		t.Errorf("-oracle and -fuzz: code %d, stderr %q", code, errOut)
	}
}
