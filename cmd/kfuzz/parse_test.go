package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runParseCmd runs "kfuzz parse args..." in-process with stdin and returns
// stdout, stderr and the exit status.
func runParseCmd(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(&env{stdout: &out, stderr: &errb, stdin: strings.NewReader(stdin)}, append([]string{"parse"}, args...))
	return out.String(), errb.String(), code
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestParseCommand(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"good.json": `{"a": [1, true]}`,
		"bad.json":  "{\"a\": [1,\n  true,]}",
		"num.json":  "-1.5e3",
	})
	good, bad, num := filepath.Join(dir, "good.json"), filepath.Join(dir, "bad.json"), filepath.Join(dir, "num.json")

	out, errOut, code := runParseCmd(t, "", "-grammar", "json", good, num)
	if code != 0 || out != good+": ok\n"+num+": ok\n" || errOut != "" {
		t.Errorf("accepting: code %d, stdout %q, stderr %q", code, out, errOut)
	}

	out, errOut, code = runParseCmd(t, "", "-grammar", "json", good, bad)
	if code != 1 {
		t.Errorf("a rejected file: exit status %d, want 1", code)
	}
	if out != good+": ok\n" {
		t.Errorf("stdout %q", out)
	}
	wantErr := bad + `:2:8: unexpected ']', expected one of "-", "0", "[", "\"", "false", "null", "true", "{", [ \t\n\r], [1-9]`
	if !strings.Contains(errOut, wantErr) || !strings.Contains(errOut, "1 of 2 inputs rejected") {
		t.Errorf("stderr %q, want it to contain %q", errOut, wantErr)
	}

	// -tree prints the derivation tree; standard input is "-".
	out, _, code = runParseCmd(t, "[7]", "-grammar", "json", "-tree", "-")
	for _, want := range []string{"-: ok\n", "<element>#", `"["#`, `<value>#`, `"7"#`} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("-tree: code %d, output lacks %q:\n%s", code, want, out)
		}
	}
	outAll, _, _ := runParseCmd(t, "[7]", "-grammar", "json", "-tree", "-all", "-")
	if !strings.Contains(outAll, "alt#") || strings.Contains(out, "alt#") {
		t.Errorf("-all does not add the synthetic nodes:\n%s", outAll)
	}

	// -start parses from another nonterminal.
	out, _, code = runParseCmd(t, "12", "-grammar", "json", "-start", "int", "-")
	if code != 0 || out != "-: ok\n" {
		t.Errorf("-start int: code %d, output %q", code, out)
	}
	if _, errOut, code := runParseCmd(t, "12", "-grammar", "json", "-start", "nosuch", "-"); code != 1 || !strings.Contains(errOut, "<nosuch>") {
		t.Errorf("-start nosuch: code %d, stderr %q", code, errOut)
	}
}

func TestParseCommandKPaths(t *testing.T) {
	// TRIBBLE's example: "x+42"... here with the expression grammar's
	// simplest input. The 1-paths of "x" are the symbols on its derivation.
	out, errOut, code := runParseCmd(t, "x", "-grammar", "expr", "-kpaths", "1", "-")
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{"-: ok", "<AddExpr>", "<MultExpr>", "<UnaryExpr>", "<Identifier>", `"x"#`}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for _, w := range want[1:] {
		if !strings.Contains(out, "\t"+w) {
			t.Errorf("1-paths lack %s:\n%s", w, out)
		}
	}
	out2, _, _ := runParseCmd(t, "x", "-grammar", "expr", "-kpaths", "2", "-")
	if n := strings.Count(out2, " -> "); n != 4 {
		t.Errorf("-kpaths 2 lists %d 2-paths for \"x\", want 4:\n%s", n, out2)
	}
	// An ambiguous input says how many parses it has.
	out, _, code = runParseCmd(t, "++x", "-grammar", "expr", "-")
	if code != 0 || out != "-: ok (ambiguous: 2 parses)\n" {
		t.Errorf("ambiguous input: code %d, output %q", code, out)
	}
	// Counts that do not fit in 64 bits are not printed as numbers.
	catalan := filepath.Join(t.TempDir(), "s.bnf")
	if err := os.WriteFile(catalan, []byte(`<s> ::= <s> <s> | "a" ;`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code = runParseCmd(t, strings.Repeat("a", 200), "-grammar", catalan, "-")
	if code != 0 || out != "-: ok (ambiguous: at least 2^64-1 parses, too many to count exactly)\n" {
		t.Errorf("saturated count: code %d, output %q", code, out)
	}
	out, _, code = runParseCmd(t, strings.Repeat("a", 36), "-grammar", catalan, "-")
	if code != 0 || out != "-: ok (ambiguous: 3116285494907301262 parses)\n" {
		t.Errorf("Catalan(35): code %d, output %q", code, out)
	}
}

func TestParseCommandUsage(t *testing.T) {
	if _, errOut, code := runParseCmd(t, "", "-grammar", "json"); code != 2 || !strings.Contains(errOut, "usage: kfuzz parse") {
		t.Errorf("no files: code %d, stderr %q", code, errOut)
	}
	if _, errOut, code := runParseCmd(t, "", "-grammar", "nosuch-grammar", "x"); code != 1 || !strings.Contains(errOut, "nosuch-grammar") {
		t.Errorf("unknown grammar: code %d, stderr %q", code, errOut)
	}
	if _, errOut, code := runParseCmd(t, "", "-grammar", "json", "/nonexistent/file.json"); code != 1 || !strings.Contains(errOut, "file.json") {
		t.Errorf("missing file: code %d, stderr %q", code, errOut)
	}
	if _, errOut, code := runParseCmd(t, strings.Repeat("x+", 100)+"x", "-grammar", "expr", "-max-items", "50", "-"); code != 1 || !strings.Contains(errOut, "raise -max-items") || strings.Contains(errOut, "MaxItems") {
		t.Errorf("-max-items: code %d, stderr %q", code, errOut)
	}
}
