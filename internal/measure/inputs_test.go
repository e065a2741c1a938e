package measure

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/protocol"
)

func TestSeedInputs(t *testing.T) {
	g := grammar.MustBuiltin("expr")
	d := &protocol.Description{
		Target: "FuzzX", Grammar: g.String(), Start: "Expr", K: 2, Examples: []string{"(x+1)*2"},
		Bounds: protocol.Bounds{MaxDepth: fuzzharness.DefaultMaxDepth, MaxSize: fuzzharness.DefaultMaxSize, MaxRepeat: fuzzharness.DefaultMaxRepeat},
	}
	ins, err := SeedInputs(d)
	if err != nil {
		t.Fatal(err)
	}
	gr := grammar.MustCompile(g)
	trees, err := fuzzharness.Seeds(gr, seedOptions(d)...)
	if err != nil {
		t.Fatal(err)
	}
	codec, err := fuzzharness.NewCodec(gr)
	if err != nil {
		t.Fatal(err)
	}
	if len(ins) != len(trees) || len(ins) < 10 {
		t.Fatalf("%d inputs for %d seeds", len(ins), len(trees))
	}
	for i, in := range ins {
		if got := codec.Decode(in.Data).String(); got != trees[i].String() || in.ID != "seed#"+strconv.Itoa(i+1) {
			t.Errorf("input %d (%s) decodes to %q, want %q", i, in.ID, got, trees[i])
		}
	}
	if last := codec.Decode(ins[len(ins)-1].Data).String(); last != "(x+1)*2" {
		t.Errorf("the last seed is %q, want the example", last)
	}
	d.Grammar = "<a> ::= <b> ;"
	if _, err := SeedInputs(d); err == nil || !strings.Contains(err.Error(), "FuzzX") {
		t.Errorf("a bad grammar: %v", err)
	}
}

func TestCorpusAndFileInputs(t *testing.T) {
	dir := t.TempDir()
	cdir := filepath.Join(dir, "FuzzX")
	b, _, err := corpus.Add(cdir, []byte{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := corpus.Add(cdir, "x+1")
	if err != nil {
		t.Fatal(err)
	}
	ins, err := CorpusInputs(cdir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Input{
		filepath.Join(cdir, b): {ID: filepath.Join(cdir, b), Data: []byte{1, 2}},
		filepath.Join(cdir, s): {ID: filepath.Join(cdir, s), Text: "x+1"},
	}
	if len(ins) != 2 {
		t.Fatalf("%d inputs: %+v", len(ins), ins)
	}
	for _, in := range ins {
		w := want[in.ID]
		if string(in.Data) != string(w.Data) || (in.Data == nil) != (w.Data == nil) || in.Text != w.Text {
			t.Errorf("%+v, want %+v", in, w)
		}
	}
	if ins, err := CorpusInputs(filepath.Join(dir, "none")); err != nil || len(ins) != 0 {
		t.Errorf("a missing directory: %v, %v", ins, err)
	}

	text := filepath.Join(dir, "input.txt")
	if err := os.WriteFile(text, []byte("(x+1)*2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ins, err = FileInputs(text, filepath.Join(cdir, b), cdir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ins) != 4 || ins[0].ID != text || ins[0].Text != "(x+1)*2\n" || ins[0].Data != nil ||
		string(ins[1].Data) != "\x01\x02" || ins[1].ID != filepath.Join(cdir, b) {
		t.Errorf("FileInputs: %+v", ins)
	}

	two, err := corpus.Marshal([]byte("a"), "b")
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "two")
	if err := os.WriteFile(bad, two, 0o644); err != nil {
		t.Fatal(err)
	}
	malformed := filepath.Join(dir, "malformed")
	if err := os.WriteFile(malformed, []byte("go test fuzz v1\n[]byte(\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = FileInputs(bad, malformed, filepath.Join(dir, "missing"))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{bad + ": the entry holds 2 values", malformed + ":2", "missing"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q: %v", want, err)
		}
	}
}

func TestValidTarget(t *testing.T) {
	for name, want := range map[string]bool{
		"FuzzCalc": true, "Fuzz": true, "Fuzz_x": true, "Fuzz1": true, "FuzzÄ": true,
		"Fuzzy": false, "fuzzCalc": false, "TestX": false, "": false, "Fuzz-x": false, "Fuzz x": false,
	} {
		if got := validTarget(name); got != want {
			t.Errorf("validTarget(%q) = %v", name, got)
		}
	}
}

func TestGlueSource(t *testing.T) {
	src, err := glueSource("calc_test")
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), glueFile, src, parser.ImportsOnly)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	if f.Name.Name != "calc_test" {
		t.Errorf("package %s", f.Name.Name)
	}
	for _, imp := range f.Imports {
		switch p, _ := strconv.Unquote(imp.Path.Value); p {
		case "github.com/seed72891827/kfuzz/fuzzharness", "github.com/seed72891827/kfuzz/coverage", "runtime":
		default:
			// A user's module may import neither kfuzz's internal
			// packages nor a module it does not require, and coverage
			// imports only std and kfuzz (see its TestDependencies).
			t.Errorf("the glue imports %s; it may import only fuzzharness, coverage and the standard library", p)
		}
	}
}

func TestCheckGOFLAGS(t *testing.T) {
	for _, tc := range []struct {
		env []string
		ok  bool
	}{
		{[]string{"GOFLAGS=-mod=mod -tags=x"}, true},
		{[]string{"GOFLAGS=-cover"}, false},
		{[]string{"GOFLAGS=-mod=mod --coverpkg=./..."}, false},
		{[]string{"GOFLAGS=-cover", "GOFLAGS="}, true},
		{[]string{}, true},
	} {
		if err := checkGOFLAGS(tc.env); (err == nil) != tc.ok {
			t.Errorf("checkGOFLAGS(%q) = %v", tc.env, err)
		}
	}
}

// TestFileInputsPlainDir reads a directory of plain inputs, as kfuzz gen -o
// writes, with a corpus entry among them: each file is read as it would be
// alone, in name order, and the errors are not prefixed twice.
func TestFileInputsPlainDir(t *testing.T) {
	dir := t.TempDir()
	entry, err := corpus.Marshal([]byte("\x01"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"a": []byte("1+2"), "b": entry, "c": []byte("x")} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	ins, err := FileInputs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ins) != 3 || ins[0].Text != "1+2" || string(ins[1].Data) != "\x01" || ins[2].Text != "x" ||
		ins[2].ID != filepath.Join(dir, "c") {
		t.Errorf("FileInputs(dir): %+v", ins)
	}
	two, err := corpus.Marshal([]byte("a"), "b")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "d"), two, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = FileInputs(dir)
	if err == nil || strings.Count(err.Error(), "measure:") > 1 {
		t.Errorf("FileInputs with a bad entry: %v", err)
	}
}
