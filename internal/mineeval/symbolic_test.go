package mineeval

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/gomod"
	"github.com/seed72891827/kfuzz/learn/symbolic"
)

// moduleRoot returns the root of the kfuzz module, in which the tests run.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := gomod.KfuzzRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestSymbolicCGIDecode runs ConfigSymbolic on cgidecode through Run: the
// mined grammar is exact (precision and recall 1), no seeds are made and
// the queries column holds the paths explored.
func TestSymbolicCGIDecode(t *testing.T) {
	s, err := Lookup("cgidecode")
	if err != nil {
		t.Fatal(err)
	}
	c := Symbolic(moduleRoot(t), symbolic.Config{})
	if !c.Runs(s) {
		t.Fatal("symbolic does not run on cgidecode")
	}
	res, err := Run(context.Background(), s, c, RunOptions{Options: Options{N: testN(), Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if res.Score.Precision != 1 || res.Score.Recall != 1 {
		t.Errorf("precision %v, recall %v; want 1 and 1\n%s", res.Score.Precision, res.Score.Recall, res.Grammar)
	}
	if len(res.Seeds) != 0 || res.Queries == 0 || res.Config != ConfigSymbolic {
		t.Errorf("%d seeds, %d queries, config %q; want no seeds, paths counted, %q", len(res.Seeds), res.Queries, res.Config, ConfigSymbolic)
	}
}

// TestSymbolicRefinedCGIDecode runs ConfigSymbolicRefined on cgidecode
// through Run: Run hands the subject's oracle to the refinement, whose
// calls count as work on top of the paths, and the grammar stays exact.
func TestSymbolicRefinedCGIDecode(t *testing.T) {
	s, err := Lookup("cgidecode")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := Run(context.Background(), s, Symbolic(moduleRoot(t), symbolic.Config{}), RunOptions{Options: Options{N: testN(), Seed: 1}})
	if err != nil || plain.Err != nil {
		t.Fatal(err, plain.Err)
	}
	res, err := Run(context.Background(), s, SymbolicRefined(moduleRoot(t), symbolic.Config{}, symbolic.RefineConfig{Seed: 1, Samples: 50}),
		RunOptions{Options: Options{N: testN(), Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if res.Config != ConfigSymbolicRefined || res.Score.F1 != 1 || res.Queries <= plain.Queries {
		t.Errorf("config %q, F1 %v, %d queries (%d paths); want %q, 1, more than the paths", res.Config, res.Score.F1, res.Queries, plain.Queries, ConfigSymbolicRefined)
	}
	if _, _, err := SymbolicRefined(moduleRoot(t), symbolic.Config{}, symbolic.RefineConfig{}).MineCode(context.Background(), *s.Code); err == nil ||
		!strings.Contains(err.Error(), "oracle") {
		t.Errorf("without the oracle: error %v, want one naming the oracle", err)
	}
}

// TestSymbolicCalc checks the symbolic configuration on calc, whose oracle
// counts division by zero as accepted: the mined grammar is exact.
func TestSymbolicCalc(t *testing.T) {
	if testing.Short() {
		t.Skip("calc's symbolic run takes about 10 s of CPU")
	}
	s, err := Lookup("calc")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), s, Symbolic(moduleRoot(t), symbolic.Config{}), RunOptions{Options: Options{N: testN(), Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if res.Score.F1 != 1 {
		t.Errorf("precision %v, recall %v; want 1 and 1\n%s", res.Score.Precision, res.Score.Recall, res.Grammar)
	}
}

// TestSymbolicNeedsCode checks that a code miner on a subject without code
// is reported, not run.
func TestSymbolicNeedsCode(t *testing.T) {
	s, err := Lookup("url")
	if err != nil {
		t.Fatal(err)
	}
	ran := false
	c := Config{Name: "code", MineCode: func(context.Context, Code) (*grammar.Grammar, int64, error) {
		ran = true
		return nil, 0, nil
	}}
	if c.Runs(s) {
		t.Error("a code miner runs on url, which has no code")
	}
	res, err := Run(context.Background(), s, c, RunOptions{})
	if err != nil || !errors.Is(res.Err, ErrNoCode) || ran {
		t.Errorf("Run = %v, result error %v, miner ran %v; want ErrNoCode without running", err, res.Err, ran)
	}
}

// TestSubjectsWithCode checks that the subjects whose oracle is their parser
// name the same code.
func TestSubjectsWithCode(t *testing.T) {
	var with []string
	for _, s := range Subjects() {
		if s.Code != nil {
			with = append(with, s.Name+":"+s.Code.Package+"."+s.Code.Entry)
		}
	}
	want := "calc:./internal/subjects/calc.Eval cgidecode:./internal/subjects/cgidecode.Decode jsonparse:./internal/subjects/jsonparse.Parse tinyc:./internal/subjects/tinyc.Parse"
	if got := strings.Join(with, " "); got != want {
		t.Errorf("subjects with code: %s\nwant %s", got, want)
	}
}
