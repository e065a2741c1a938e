package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/gocmd"
)

const (
	calcDir        = "../../examples/calc"
	calcImportPath = "github.com/seed72891827/kfuzz/examples/calc"
	calcDistribute = calcImportPath + ".(*simplifier).distribute"
)

func needGo(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the go command (-short)")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not available")
	}
}

// TestCoverSeedsAndTestdata runs kfuzz cover over FuzzCalc's seeds and
// testdata entries, checks the text report and that go tool cover reads
// the profile.
func TestCoverSeedsAndTestdata(t *testing.T) {
	needGo(t)
	prof := filepath.Join(t.TempDir(), "calc.cover")
	out, errOut, code := kfuzz(t, "cover", "-run", "FuzzCalc", "-profile", prof, calcDir)
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	// Each input: its ID, the input quoted and its status, then the
	// functions it covered, indented.
	blocks := map[string][]string{}
	var cur string
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if name, ok := strings.CutPrefix(line, "\t"); ok {
			blocks[cur] = append(blocks[cur], name)
		} else {
			cur = line
		}
	}
	entry := `testdata/fuzz/FuzzCalc/265416b1ffdb2b2f "(x+1)*(y-2)" pass`
	if !slices.Contains(blocks[entry], calcDistribute) || !slices.Contains(blocks[entry], calcImportPath+".Parse") {
		t.Errorf("%s covers %v, want distribute and Parse among them", entry, blocks[entry])
	}
	seed := `seed#1 "x" pass`
	if fs := blocks[seed]; len(fs) == 0 || slices.Contains(fs, calcDistribute) {
		t.Errorf("%s covers %v", seed, fs)
	}
	if fs := blocks["covered by no input"]; !slices.Contains(fs, calcImportPath+".Eval") {
		t.Errorf("covered by no input: %v", fs)
	}
	if !regexp.MustCompile(`(?m)^FuzzCalc: (\d+) inputs \((\d+) pass\); \d+ of \d+ functions covered in ` + regexp.QuoteMeta(calcImportPath) + `\n\z`).MatchString(out) {
		t.Errorf("no summary line at the end:\n%s", out)
	}
	if len(blocks) < 20 {
		t.Errorf("only %d inputs reported:\n%s", len(blocks), out)
	}

	funcs, err := gocmd.Runner{Dir: calcDir}.Go(context.Background(), "tool", "cover", "-func="+prof)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`calc\.go:\d+:\s+distribute\s+[1-9]\d*\.\d%`),
		regexp.MustCompile(`calc\.go:\d+:\s+Eval\s+0\.0%`),
		regexp.MustCompile(`total:\s+\(statements\)\s+[1-9]\d\.\d%`),
	} {
		if !want.Match(funcs) {
			t.Errorf("go tool cover -func output lacks %s:\n%s", want, funcs)
		}
	}
}

// TestCoverFilesJSON runs kfuzz cover over input files, with flags after
// the package, and reads the JSON report.
func TestCoverFilesJSON(t *testing.T) {
	needGo(t)
	dir := t.TempDir()
	text := filepath.Join(dir, "product.txt")
	if err := os.WriteFile(text, []byte("2*(x-y)"), 0o644); err != nil {
		t.Fatal(err)
	}
	codec, err := fuzzharness.NewCodec(grammar.MustCompile(grammar.MustBuiltin("expr")))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := codec.Parse("x/y%3")
	if err != nil {
		t.Fatal(err)
	}
	data, err := codec.Encode(tree)
	if err != nil {
		t.Fatal(err)
	}
	name, _, err := corpus.Add(filepath.Join(dir, "FuzzCalc"), data)
	if err != nil {
		t.Fatal(err)
	}
	entry := filepath.Join(dir, "FuzzCalc", name)
	out, errOut, code := kfuzz(t, "cover", calcDir, text, entry, "-run", "FuzzCalc", "-json")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	var doc coverJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if doc.Target != "FuzzCalc" || doc.Package != calcImportPath || !slices.Equal(doc.Packages, []string{calcImportPath}) ||
		len(doc.Inputs) != 2 || doc.Processes != 1 {
		t.Fatalf("report %+v", doc)
	}
	a, b := doc.Inputs[0], doc.Inputs[1]
	if a.ID != text || a.Input != "2*(x-y)" || a.Status != "pass" || !slices.Contains(a.Funcs, calcDistribute) {
		t.Errorf("first input %+v", a)
	}
	if b.ID != entry || b.Input != "x/y%3" || string(b.Data) != string(data) || slices.Contains(b.Funcs, calcDistribute) ||
		!slices.Contains(b.Funcs, calcImportPath+".remainder") {
		t.Errorf("second input %+v", b)
	}
	union := slices.Clone(doc.Outside)
	for _, in := range doc.Inputs {
		union = append(union, in.Funcs...)
	}
	slices.Sort(union)
	if union = slices.Compact(union); !slices.Equal(union, doc.Covered) {
		t.Errorf("covered %v, want the union %v", doc.Covered, union)
	}
	if len(doc.Covered)+len(doc.Uncovered) != doc.Functions || len(doc.Uncovered) == 0 {
		t.Errorf("%d covered and %d uncovered of %d functions", len(doc.Covered), len(doc.Uncovered), doc.Functions)
	}
}

func TestCoverErrors(t *testing.T) {
	needGo(t)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"cover", calcDir}, 2, "-run FuzzX is required"},
		{[]string{"cover", "-run", "FuzzCalc", "-covermode", "often", calcDir}, 1, "-covermode must be"},
		{[]string{"cover", "-run", "FuzzCalc", "-timeout", "0s", calcDir}, 1, "-timeout must be positive"},
		{[]string{"cover", "-run", "FuzzCalc", calcDir + "/calc.go"}, 1, "is a file; name the package first"},
		{[]string{"cover", "-run", "FuzzNope", calcDir}, 1, "has no fuzz test FuzzNope (it has FuzzCalc, FuzzCalcPlain)"},
		{[]string{"cover", "-run", "FuzzCalc", calcDir, "no/such/file"}, 1, "no/such/file"},
		{[]string{"cover", "-run", "FuzzCalcPlain", calcDir}, 1, "does not use fuzzharness"},
	} {
		_, errOut, code := kfuzz(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("kfuzz %s: code %d, stderr:\n%s\nwant code %d and %q", strings.Join(tc.args, " "), code, errOut, tc.code, tc.want)
		}
	}
}

// TestCoverBadInputsErrors gives kfuzz cover a directory with two bad
// corpus entries and a missing file: it fails before building anything,
// reporting each bad file once, with its path, under one "kfuzz cover:"
// prefix and no prefix repeated.
func TestCoverBadInputsErrors(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"mal": "go test fuzz v1\n[]byte(\n",
		"two": "go test fuzz v1\n[]byte(\"a\")\nstring(\"b\")\n",
		"ok":  "1+2",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	missing := filepath.Join(dir, "missing")
	_, errOut, code := kfuzz(t, "cover", "-run", "FuzzX", calcDir, dir, missing)
	if code != 1 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	want := []string{filepath.Join(dir, "mal") + ":2:", filepath.Join(dir, "two") + ":", missing}
	if len(lines) != len(want) || strings.Count(errOut, "kfuzz cover:") != 1 || strings.Contains(errOut, "measure:") {
		t.Fatalf("stderr:\n%s", errOut)
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("line %d %q does not name %q", i+1, lines[i], w)
		}
	}
}
