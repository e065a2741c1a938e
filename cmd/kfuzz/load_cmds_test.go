package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/corpus"
)

// grammarCommands returns, for every command that reads a grammar, its
// arguments with the grammar spec and whatever else it needs to get as far
// as loading it.
func grammarCommands(t *testing.T, spec string) map[string][]string {
	dir := t.TempDir()
	entry, _, err := corpus.Add(filepath.Join(dir, "FuzzX"), []byte{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	pos := filepath.Join(dir, "pos")
	if err := os.Mkdir(pos, 0o777); err != nil {
		t.Fatal(err)
	}
	return map[string][]string{
		"grammar check": {"grammar", "check", spec},
		"kpath":         {"kpath", "-grammar", spec},
		"corpus show":   {"corpus", "show", "-grammar", spec, filepath.Join(dir, "FuzzX", entry)},
		"specialize":    {"specialize", "-grammar", spec, "-p", "A=<start> is x", "-expr", "A"},
		"mine isla":     {"mine", "isla", "-grammar", spec, "-pos", pos, "-generated", "0"},
		"parse":         {"parse", "-grammar", spec, "-"},
		"gen":           {"gen", "-grammar", spec, "-n", "1"},
	}
}

// TestGrammarCommandsLoadAlike checks that every command that reads a
// grammar reports a broken one with the checker's positioned errors, and
// shows the same progress steps while loading (with slowAfter 0, from the
// start).
func TestGrammarCommandsLoadAlike(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.bnf")
	if err := os.WriteFile(bad, []byte("<start> ::= <a> \"x\" ;\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	for name, args := range grammarCommands(t, bad) {
		_, errOut, code := kfuzz(t, args...)
		if code != 1 || !strings.Contains(errOut, "bad.bnf:1:13: undefined nonterminal <a>") {
			t.Errorf("%s with a broken grammar: code %d, stderr:\n%s", name, code, errOut)
		}
	}

	defer func(d time.Duration) { slowAfter = d }(slowAfter)
	slowAfter = 0
	good := filepath.Join(t.TempDir(), "good.bnf")
	if err := os.WriteFile(good, []byte("<start> ::= \"x\" | \"y\" <start> ;\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	want := "kfuzz: reading grammar " + good + "\nkfuzz: checking and compiling grammar " + good + " (1 rules)\n"
	for name, args := range grammarCommands(t, good) {
		_, errOut, _ := kfuzz(t, args...)
		if !strings.HasPrefix(errOut, want) {
			t.Errorf("%s: stderr does not start with the loading steps %q:\n%s", name, want, errOut)
		}
	}
}
