package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

func TestISLASolveCommand(t *testing.T) {
	testdata := filepath.Join("..", "..", "fuzzharness", "isla", "testdata")
	defUse, noRedef := filepath.Join(testdata, "scriptsizec-def-use.isla"), filepath.Join(testdata, "scriptsizec-no-redef.isla")
	out, errOut, code := runISLA(t, "solve", "-grammar", "scriptsizec", "-constraint", defUse, "-constraint", noRedef, "-n", "5")
	if code != 0 {
		t.Fatalf("code %d, err %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines, want 5:\n%s", len(lines), out)
	}
	gr := grammar.MustCompile(grammar.MustBuiltin("scriptsizec"))
	var cs []*isla.Constraint
	for _, f := range []string{defUse, noRedef} {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, isla.MustParse(string(src)))
	}
	con, _ := isla.Conjoin(cs...)
	spec, err := isla.Compile(con, gr)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		in, err := strconv.Unquote(l)
		if err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if r, err := spec.Check([]byte(in)); err != nil || !r.Valid {
			t.Errorf("input %q: %v %v", in, err, r)
		}
	}

	dir := t.TempDir()
	for range 2 { // the second run finds the same files and keeps them
		if _, errOut, code := runISLA(t, "solve", "-grammar", "scriptsizec", "-constraint", defUse, "-n", "3", "-o", dir); code != 0 {
			t.Fatalf("-o: code %d, err %q", code, errOut)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("-o: %d files, want 3", len(entries))
	}

	_, errOut, code = runISLA(t, "solve", "-grammar", "scriptsizec", "-n", "1")
	if code != 2 || !strings.Contains(errOut, "no constraint given") {
		t.Errorf("no constraint: code %d, err %q", code, errOut)
	}
}

// TestISLASolveRestarts checks that the default restarts find inputs for a
// seed whose first search finds no third one within its states
// (Scriptsize-C, seed 23), and that without restarts the command reports
// that it gave up.
func TestISLASolveRestarts(t *testing.T) {
	testdata := filepath.Join("..", "..", "fuzzharness", "isla", "testdata")
	defUse, noRedef := filepath.Join(testdata, "scriptsizec-def-use.isla"), filepath.Join(testdata, "scriptsizec-no-redef.isla")
	args := []string{"solve", "-grammar", "scriptsizec", "-constraint", defUse, "-constraint", noRedef, "-n", "3", "-seed", "23"}
	out, errOut, code := runISLA(t, args...)
	if code != 0 || strings.Count(out, "\n") != 3 {
		t.Fatalf("code %d, err %q, output:\n%s", code, errOut, out)
	}
	_, errOut, code = runISLA(t, append(args, "-restart", "0")...)
	if code == 0 || !strings.Contains(errOut, "gave up") {
		t.Errorf("without restarts: code %d, err %q", code, errOut)
	}
}

// TestISLASolveGaveUp checks that when the solver gives up, the error names
// the formula left and the flag that raises the limit that stopped it, and
// that a proof of unsatisfiability is reported as such.
func TestISLASolveGaveUp(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	empty := write("empty.isla", `forall <record> r: (str.in_re(r, re.loop(re.range("a", "z"), 5, 2)))`)
	// isla check says why a checksum fails on a header of the wrong size;
	// solve, giving up, says it too.
	sum := write("sum.isla", `forall <header> h: forall <checksum> c in h: tar_checksum(h, c)`)
	short := filepath.Join("..", "..", "fuzzharness", "isla", "testdata", "tar-short-header.bnf")
	_, errOut, code := runISLA(t, "solve", "-grammar", short, "-constraint", sum, "-n", "1", "-max-states", "100", "-restart", "0")
	if code != 1 || !strings.Contains(errOut, "sum.isla:1:46: tar_checksum: a header has ") {
		t.Errorf("tar_checksum: code %d, err %q; want 1 and the predicate's error", code, errOut)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-time", "300ms"}, "raise it with -time"},
		{[]string{"-max-states", "3", "-restart", "0"}, "raise it with -max-states"},
	} {
		args := append([]string{"solve", "-grammar", "csv", "-constraint", empty, "-n", "1"}, tc.args...)
		_, errOut, code := runISLA(t, args...)
		if code != 1 || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "empty.isla:1:1: forall <record> r") ||
			strings.Contains(errOut, "context deadline exceeded") {
			t.Errorf("%v: code %d, err %q; want 1 and an error naming the formula and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestISLASolveItemLimit checks that a solved text whose parse exceeds the
// Earley item limit stops isla solve with an error naming -max-items, and
// that raising it lets the same constraint solve.
func TestISLASolveItemLimit(t *testing.T) {
	f := filepath.Join(t.TempDir(), "fields.isla")
	if err := os.WriteFile(f, []byte(`forall <non-escaped> f: (f = "ab" or f = "cd")`), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"solve", "-grammar", "csv", "-constraint", f, "-n", "2", "-z3=false"}
	_, errOut, code := runISLA(t, append(args, "-max-items", "1")...)
	if code != 1 || !strings.Contains(errOut, "needs more Earley items than allowed") ||
		!strings.Contains(errOut, "stopped by MaxItems (1), raise it with -max-items") {
		t.Errorf("-max-items 1: code %d, err %q; want 1 and an error naming -max-items", code, errOut)
	}
	if out, errOut, code := runISLA(t, append(args, "-max-items", "1000")...); code != 0 || strings.Count(out, "\n") != 2 {
		t.Errorf("-max-items 1000: code %d, out %q, err %q; want 2 inputs", code, out, errOut)
	}
}

// TestISLASolveNonVacuous checks the report of the share of inputs in which
// each universal quantifier matched, and that -non-vacuous keeps only the
// inputs in which all did.
func TestISLASolveNonVacuous(t *testing.T) {
	con := filepath.Join(t.TempDir(), "escaped.isla")
	if err := os.WriteFile(con, []byte(`forall <escaped> e: str.len(e) > 1`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runISLA(t, "solve", "-grammar", "csv", "-constraint", con, "-n", "40")
	if code != 0 || !strings.Contains(errOut, "escaped.isla:1:1: forall <escaped> e matched in ") || !strings.Contains(errOut, " of 40 inputs (") {
		t.Fatalf("code %d, err %q; want a report of the share of inputs with an <escaped>", code, errOut)
	}
	quoted := 0
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		in, _ := strconv.Unquote(l)
		if strings.Contains(in, `"`) {
			quoted++
		}
	}
	if want := fmt.Sprintf("matched in %d of 40 inputs", quoted); !strings.Contains(errOut, want) {
		t.Errorf("report %q, want %q", errOut, want)
	}
	out, errOut, code = runISLA(t, "solve", "-grammar", "csv", "-constraint", con, "-n", "10", "-non-vacuous")
	if code != 0 || !strings.Contains(errOut, "kept the 10 of ") {
		t.Fatalf("-non-vacuous: code %d, err %q", code, errOut)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if in, _ := strconv.Unquote(l); !strings.Contains(in, `"`) {
			t.Errorf("-non-vacuous: input %q has no <escaped>", in)
		}
	}
}
