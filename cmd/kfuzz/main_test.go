package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// kfuzz runs the command line in-process and returns stdout, stderr and the
// exit status.
func kfuzz(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(&env{stdout: &out, stderr: &errb, stdin: strings.NewReader("")}, args)
	return out.String(), errb.String(), code
}

func TestHelpAndUnknown(t *testing.T) {
	out, _, code := kfuzz(t, "help")
	if code != 0 || !strings.Contains(out, "gen") || !strings.Contains(out, "grammar check") {
		t.Errorf("help: code %d, output:\n%s", code, out)
	}
	if _, errOut, code := kfuzz(t, "frobnicate"); code != 2 || !strings.Contains(errOut, "unknown command") {
		t.Errorf("unknown command: code %d, stderr %q", code, errOut)
	}
	if _, errOut, code := kfuzz(t, "gen", "-nosuchflag"); code != 2 || !strings.Contains(errOut, "usage: kfuzz gen") {
		t.Errorf("bad flag: code %d, stderr %q", code, errOut)
	}
}

func TestGenDeterministicAndFiles(t *testing.T) {
	a, _, code := kfuzz(t, "gen", "-grammar", "json", "-n", "20", "-seed", "5", "-quote")
	b, _, _ := kfuzz(t, "gen", "-grammar", "json", "-n", "20", "-seed", "5", "-quote")
	c, _, _ := kfuzz(t, "gen", "-grammar", "json", "-n", "20", "-seed", "6", "-quote")
	if code != 0 || a != b || a == c {
		t.Fatalf("gen is not deterministic per seed (code %d)", code)
	}
	if n := strings.Count(a, "\n"); n != 20 {
		t.Errorf("-quote printed %d lines for 20 inputs", n)
	}
	dir := t.TempDir()
	if _, errOut, code := kfuzz(t, "gen", "-grammar", "expr", "-n", "5", "-o", dir); code != 0 {
		t.Fatalf("gen -o: %s", errOut)
	}
	files, _ := os.ReadDir(dir)
	if len(files) != 5 {
		t.Fatalf("gen -o wrote %d files, want 5", len(files))
	}
	// A second run must not overwrite the files of the first.
	if _, errOut, code := kfuzz(t, "gen", "-grammar", "expr", "-n", "5", "-seed", "9", "-o", dir); code == 0 || !strings.Contains(errOut, "already exists") {
		t.Errorf("gen -o into a full directory: code %d, stderr %q", code, errOut)
	}
}

// TestGenWithinHarnessBounds checks that kfuzz gen's default bounds are a
// default harness's: every generated input can be encoded for it.
func TestGenWithinHarnessBounds(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	out, errOut, code := kfuzz(t, "gen", "-grammar", "json", "-n", strconv.Itoa(n), "-quote")
	if code != 0 {
		t.Fatalf("kfuzz gen: code %d\n%s", code, errOut)
	}
	gr := grammar.MustCompile(grammar.MustBuiltin("json"))
	c, err := fuzzharness.NewCodec(gr)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		text, err := strconv.Unquote(line)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		tree, err := c.Parse(text)
		if err == nil {
			_, err = c.Encode(tree)
		}
		if err != nil {
			t.Errorf("input %d (%d bytes) is outside a default harness's bounds: %v", i+1, len(text), err)
		}
	}
}

func TestKPathSeeds(t *testing.T) {
	dir := t.TempDir()
	_, errOut, code := kfuzz(t, "kpath-seeds", "-grammar", "expr", "-k", "2", "-o", dir)
	if code != 0 || !strings.Contains(errOut, "contain 125 of 125 2-paths") {
		t.Fatalf("kpath-seeds: code %d, stderr %q", code, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "kpath-*"))
	if want := strings.Fields(errOut)[0]; len(files) == 0 || strconv.Itoa(len(files)) != want {
		t.Fatalf("kpath-seeds wrote %d files, said %s", len(files), want)
	}
}

// TestRenamedCommand runs kpath-seeds by its old name, cover-set, which
// works after a notice on stderr, and asks for its help.
func TestRenamedCommand(t *testing.T) {
	const notice = "kfuzz cover-set is now kfuzz kpath-seeds; the old name goes away in the next release\n"
	newOut, newErr, code := kfuzz(t, "kpath-seeds", "-grammar", "expr", "-k", "1", "-quote")
	if code != 0 || strings.Contains(newErr, "cover-set") {
		t.Fatalf("kpath-seeds: code %d, stderr %q", code, newErr)
	}
	out, errOut, code := kfuzz(t, "cover-set", "-grammar", "expr", "-k", "1", "-quote")
	if code != 0 || out != newOut || errOut != notice+newErr {
		t.Errorf("cover-set: code %d, stdout %q, stderr %q; want kpath-seeds' output %q after the notice", code, out, errOut, newOut)
	}
	out, errOut, code = kfuzz(t, "help", "cover-set")
	if code != 0 || errOut != notice || !strings.HasPrefix(out, "usage: kfuzz kpath-seeds ") {
		t.Errorf("help cover-set: code %d, stdout %q, stderr %q", code, out, errOut)
	}
	if out, _, _ := kfuzz(t, "help"); strings.Contains(out, "\tcover-set ") || !strings.Contains(out, "\tkpath-seeds ") {
		t.Errorf("help lists the old name as a command, or not the new one:\n%s", out)
	}
}

func TestGrammarCheck(t *testing.T) {
	out, errOut, code := kfuzz(t, "grammar", "check", "expr")
	if code != 0 || !strings.Contains(out, "2-paths:     125") || !strings.Contains(out, "start:       <Expr>") {
		t.Errorf("grammar check expr: code %d\n%s%s", code, out, errOut)
	}
	bad := filepath.Join(t.TempDir(), "bad.bnf")
	os.WriteFile(bad, []byte("<start> ::= <a> \"x\" ;\n<b> ::= \"y\" ;\n<c> ::= <c> ;\n"), 0o666)
	_, errOut, code = kfuzz(t, "grammar", "check", bad)
	if code == 0 || !strings.Contains(errOut, "bad.bnf:1:13") {
		t.Errorf("grammar check of a broken grammar: code %d, stderr:\n%s", code, errOut)
	}
}

// TestCommandGroups runs every command group alone ("kfuzz isla"), with
// help, and with an unknown subcommand: alone and with help it lists its
// commands; an unknown subcommand is an error that lists them on stderr.
func TestCommandGroups(t *testing.T) {
	for _, g := range []struct{ group, sub string }{
		{"isla", "check"}, {"corpus", "show"}, {"mine", "glade"}, {"eval", "learn"}, {"grammar", "check"},
	} {
		out, errOut, code := kfuzz(t, g.group)
		if code != 0 || !strings.Contains(out, "kfuzz "+g.group+" <command>") || !strings.Contains(out, "\t"+g.sub+" ") {
			t.Errorf("kfuzz %s: code %d, stdout %q, stderr %q", g.group, code, out, errOut)
		}
		out, _, code = kfuzz(t, "help", g.group)
		if code != 0 || !strings.Contains(out, "\t"+g.sub+" ") {
			t.Errorf("kfuzz help %s: code %d, stdout %q", g.group, code, out)
		}
		_, errOut, code = kfuzz(t, g.group, "nosuch")
		if code != 2 || !strings.Contains(errOut, "kfuzz "+g.group+`: unknown subcommand "nosuch"`) ||
			!strings.Contains(errOut, "\t"+g.sub+" ") {
			t.Errorf("kfuzz %s nosuch: code %d, stderr %q", g.group, code, errOut)
		}
	}
}

// TestUsageListsFlags runs every registered command with -h and checks its
// usage message: the usage line names every flag the command defines (as
// listed by its FlagSet's PrintDefaults), and names no flag it lacks; no
// flag shows two defaults.
func TestUsageListsFlags(t *testing.T) {
	flagLine := regexp.MustCompile(`^  -([a-zA-Z0-9-]+)`)
	usageFlag := regexp.MustCompile(`(?:^|[\s\[(|])-([a-zA-Z][a-zA-Z0-9-]*)`)
	for name, c := range commands {
		_, errOut, code := kfuzz(t, append(strings.Fields(name), "-h")...)
		if code != 2 || !strings.HasPrefix(errOut, "usage: kfuzz "+name+" ") {
			t.Errorf("kfuzz %s -h: code %d, stderr %q", name, code, errOut)
			continue
		}
		inUsage := map[string]bool{}
		for _, m := range usageFlag.FindAllStringSubmatch(c.usage, -1) {
			inUsage[m[1]] = true
		}
		defined := map[string]bool{}
		_, list, _ := strings.Cut(errOut, "\nFlags:\n")
		for _, line := range strings.Split(list, "\n") {
			if m := flagLine.FindStringSubmatch(line); m != nil {
				defined[m[1]] = true
				if !inUsage[m[1]] {
					t.Errorf("kfuzz %s: the usage line %q lacks -%s", name, c.usage, m[1])
				}
			}
			if strings.Count(line, "(default") > 1 {
				t.Errorf("kfuzz %s: two defaults in %q", name, line)
			}
		}
		for f := range inUsage {
			if !defined[f] {
				t.Errorf("kfuzz %s: the usage line names -%s, which is no flag of it", name, f)
			}
		}
	}
}
