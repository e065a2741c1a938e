package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// TestEvalMineSmall runs kfuzz eval mine on one subject with few samples and
// checks the figures and the written grammar.
func TestEvalMineSmall(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := kfuzz(t, "eval", "mine", "-subjects", "lisp", "-configs", "glade", "-n", "50", "-seeds", "3", "-o", dir, "-json")
	if code != 0 {
		t.Fatalf("code %d, stderr:\n%s", code, errOut)
	}
	var res struct{ Rows []mineEvalRow }
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	rows := res.Rows
	if len(rows) != 1 {
		t.Fatalf("%d rows, want 1", len(rows))
	}
	r := rows[0]
	if r.Subject != "lisp" || r.Config != "glade" || r.Seeds != 3 || r.Error != "" || r.Queries == 0 || r.Rules == 0 {
		t.Errorf("row %+v", r)
	}
	for name, x := range map[string]float64{"precision": r.Precision, "recall": r.Recall, "F1": r.F1} {
		if !(x > 0 && x <= 1) {
			t.Errorf("%s = %v, not in (0, 1]", name, x)
		}
	}
	if !strings.Contains(errOut, "eval mine: lisp glade: mining from 3 seeds") {
		t.Errorf("no progress on stderr:\n%s", errOut)
	}
	g, err := grammar.Load(filepath.Join(dir, "lisp.glade.bnf"))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Rules) != r.Rules {
		t.Errorf("written grammar has %d rules, the row says %d", len(g.Rules), r.Rules)
	}
	// -o never overwrites.
	_, errOut, code = kfuzz(t, "eval", "mine", "-subjects", "lisp", "-configs", "glade", "-n", "50", "-seeds", "3", "-o", dir)
	if code == 0 || !strings.Contains(errOut, "does not overwrite") {
		t.Errorf("second run into the same directory: code %d, stderr:\n%s", code, errOut)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the output directory, want 1", len(entries))
	}
}

// TestEvalMineSymbolic runs the symbolic configuration through kfuzz eval
// mine: on cgidecode it mines the exact grammar from the code, without
// seeds; on url, which has no code, it is skipped. With the default
// configurations the table shows GLADE's and the symbolic miner's rows.
func TestEvalMineSymbolic(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := kfuzz(t, "eval", "mine", "-subjects", "url,cgidecode", "-configs", "symbolic", "-n", "100", "-o", dir, "-json")
	if code != 0 {
		t.Fatalf("code %d, stderr:\n%s", code, errOut)
	}
	var res struct{ Rows []mineEvalRow }
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(res.Rows) != 1 {
		t.Fatalf("rows %+v, want one: cgidecode symbolic", res.Rows)
	}
	r := res.Rows[0]
	if r.Subject != "cgidecode" || r.Config != "symbolic" || r.Seeds != 0 || r.Queries == 0 || r.Error != "" ||
		r.Precision != 1 || r.Recall != 1 {
		t.Errorf("row %+v, want cgidecode symbolic without seeds, with paths, precision and recall 1", r)
	}
	if !strings.Contains(errOut, "eval mine: cgidecode symbolic: mining from ./internal/subjects/cgidecode.Decode") {
		t.Errorf("no progress on stderr:\n%s", errOut)
	}
	text, err := os.ReadFile(filepath.Join(dir, "cgidecode.symbolic.bnf"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), "from the code of ./internal/subjects/cgidecode.Decode") || strings.Contains(string(text), "# seeds") {
		t.Errorf("written grammar's header:\n%s", text)
	}

	out, errOut, code = kfuzz(t, "eval", "mine", "-subjects", "cgidecode", "-n", "50", "-seeds", "3")
	if code != 0 {
		t.Fatalf("code %d, stderr:\n%s", code, errOut)
	}
	rows := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "cgidecode" {
			rows[f[1]] = true
		}
	}
	for _, config := range []string{"glade", "glade+rec", "bubble", "symbolic"} {
		if !rows[config] {
			t.Errorf("no row of %s in the table:\n%s", config, out)
		}
	}
}

func TestEvalMineBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-subjects", "nope"},
		{"-configs", "nope", "-subjects", "expr"},
		{"-n", "0"},
		{"-max-queries", "0"},
		{"-symbolic-max-paths", "0"},
	} {
		_, errOut, code := kfuzz(t, append([]string{"eval", "mine"}, args...)...)
		if code == 0 || errOut == "" {
			t.Errorf("%v: code %d, stderr %q", args, code, errOut)
		}
	}
}

// TestEvalMineCover fuzzes encoding/json briefly with the reference and a
// mined grammar and checks the coverage rows. It builds and runs test
// binaries, so -short skips it.
func TestEvalMineCover(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and fuzzes test binaries")
	}
	needGo(t)
	out, errOut, code := kfuzz(t, "eval", "mine", "-subjects", "json", "-configs", "glade", "-n", "20", "-seeds", "2",
		"-cover", "5s", "-parallel", "1", "-json")
	if code != 0 {
		t.Fatalf("code %d, stderr:\n%s", code, errOut)
	}
	var res struct{ Cover []mineCoverRow }
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(res.Cover) != 2 || res.Cover[0].Grammar != "reference" || res.Cover[1].Grammar != "glade" {
		t.Fatalf("cover rows %+v, want the reference and the glade grammar", res.Cover)
	}
	for _, r := range res.Cover {
		if r.Subject != "json" || r.Execs == 0 || r.Stmts == 0 || r.Covered == 0 || r.Covered > r.Stmts || r.Failure != "" {
			t.Errorf("cover row %+v", r)
		}
	}
}
