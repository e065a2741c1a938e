package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

func runISLA(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(&env{stdout: &out, stderr: &errb, stdin: strings.NewReader("")}, append([]string{"isla"}, args...))
	return out.String(), errb.String(), code
}

func TestISLACheckCommand(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"ok.xml":      `<a><b>x</b></a>`,
		"bad.xml":     `<a><b>x</c></a>`,
		"syntax.xml":  `<a>x</a`,
		"broken.isla": "forall <xml-tree> t:\n  (= t x)\nand forall <nope> n: true",
	})
	ok, bad, syntax := filepath.Join(dir, "ok.xml"), filepath.Join(dir, "bad.xml"), filepath.Join(dir, "syntax.xml")
	balance := filepath.Join("..", "..", "fuzzharness", "isla", "testdata", "xml-balance.isla")

	out, errOut, code := runISLA(t, "check", "-grammar", "xml", "-constraint", balance, ok)
	if code != 0 || out != ok+": valid\n" || errOut != "" {
		t.Errorf("valid input: code %d, out %q, err %q", code, out, errOut)
	}

	out, errOut, code = runISLA(t, "check", "-grammar", "xml", "-constraint", balance, ok, bad, syntax)
	if code != 1 || !strings.Contains(errOut, "2 of 3 inputs invalid") {
		t.Errorf("invalid inputs: code %d, err %q", code, errOut)
	}
	for _, want := range []string{
		ok + ": valid\n",
		bad + ": invalid\n\tin forall <xml-tree> tree=",
		`tree = "<b>x</c>" (<xml-tree> at 1:4-12, bytes 3-11)`,
		"\tfails: (= opid clid)\n",
		syntax + ":1:8: unexpected EOF",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	out, _, code = runISLA(t, "check", "-q", "-grammar", "xml", "-constraint", balance, ok, bad)
	if code != 1 || out != bad+": invalid\n" {
		t.Errorf("-q: code %d, out %q", code, out)
	}

	_, errOut, code = runISLA(t, "check", "-grammar", "xml", "-constraint", filepath.Join(dir, "broken.isla"), ok)
	if code != 2 || !strings.Contains(errOut, "broken.isla:2:8: undefined variable x") {
		t.Errorf("broken constraint: code %d, err %q", code, errOut)
	}

	_, errOut, code = runISLA(t, "check", "-grammar", "xml", ok)
	if code != 2 || !strings.Contains(errOut, "no constraint given") {
		t.Errorf("no constraint: code %d, err %q", code, errOut)
	}
	if _, _, code = runISLA(t, "check", "-grammar", "xml", "-constraint", balance); code != 2 {
		t.Errorf("no inputs: code %d, want 2 (usage)", code)
	}
}

func TestISLAPrintCommand(t *testing.T) {
	dir := writeFiles(t, map[string]string{"c.isla": `forall <xml-tree> t: t.<xml-close-tag> = "</a>"`})
	c := filepath.Join(dir, "c.isla")
	out, errOut, code := runISLA(t, "print", "-constraint", c)
	want := `forall <xml-tree> t in start: forall <xml-close-tag> xml_close_tag in t: (nth_child(1, xml_close_tag, t) implies (= xml_close_tag "</a>"))` + "\n"
	if code != 0 || out != want {
		t.Errorf("print: code %d, out %q, err %q", code, out, errOut)
	}
	if _, errOut, code = runISLA(t, "print", "-constraint", c, "-grammar", "csv"); code != 2 || !strings.Contains(errOut, "unknown nonterminal <xml-tree>") {
		t.Errorf("print against the wrong grammar: code %d, err %q", code, errOut)
	}
}
