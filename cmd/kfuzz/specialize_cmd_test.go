package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

func TestSpecialize(t *testing.T) {
	args := []string{"specialize", "-grammar", "json", "-p", `E=<member> is "":<element>`, "-p", "N=<value> is null", "-expr", "E and not N"}
	out, errOut, code := kfuzz(t, args...)
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	if !strings.HasPrefix(out, "# E and not N\n# 28 rules, 117 symbols (base grammar: 17 rules, 66 symbols)") ||
		!strings.Contains(out, "\n<JSON-text:+E&-N> ::= <element:+E&-N> ;\n") {
		t.Errorf("output:\n%s", out)
	}
	g, err := grammar.Parse("out", []byte(out))
	if err != nil {
		t.Fatalf("the printed grammar does not parse: %v", err)
	}
	if g.Start != "JSON-text:+E&-N" {
		t.Errorf("start symbol <%s>", g.Start)
	}

	file := filepath.Join(t.TempDir(), "spec.bnf")
	out, errOut, code = kfuzz(t, append(args, "-o", file)...)
	if code != 0 || !strings.HasPrefix(out, file+": 28 rules") {
		t.Fatalf("-o: code %d, out %q, stderr %q", code, out, errOut)
	}
	if _, err := grammar.Load(file); err != nil {
		t.Errorf("the written grammar: %v", err)
	}
	_, errOut, code = kfuzz(t, append(args, "-o", file)...)
	if code != 1 || !strings.Contains(errOut, "already exists") {
		t.Errorf("-o over an existing file: code %d, stderr %q", code, errOut)
	}
	if data, _ := os.ReadFile(file); !strings.HasPrefix(string(data), "# E and not N\n") {
		t.Errorf("the file was changed: %q", data[:min(len(data), 40)])
	}
}

func TestSpecializeErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-p", "N=<value> is nul", "-expr", "N"}, "kfuzz specialize: algebra: pattern N: 1:17: <value> cannot derive the text: unexpected EOF"},
		{[]string{"-p", "N=<value> is null", "-expr", "N and"}, "kfuzz specialize: expr:1:6: expected a pattern name"},
		{[]string{"-p", "N=<value> is null", "-expr", "N and M"}, "kfuzz specialize: expr:1:7: undefined pattern M"},
		{[]string{"-p", "V=<element> is <ws><value><ws>", "-expr", "not V"}, "every <JSON-text> contains pattern V"},
		{[]string{"-p", `E=<member> is "":<element>`, "-p", `F=<member> is "a":<element>`, "-expr", "E and F", "-max-rules", "5"}, "raise the limit with -max-rules"},
	} {
		_, errOut, code := kfuzz(t, append([]string{"specialize", "-grammar", "json"}, tc.args...)...)
		if code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: code %d, stderr %q, want %q", tc.args, code, errOut, tc.want)
		}
	}
	if _, _, code := kfuzz(t, "specialize", "-grammar", "json"); code != 2 {
		t.Errorf("without -p and -expr: code %d, want 2", code)
	}
}
