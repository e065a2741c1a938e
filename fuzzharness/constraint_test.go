package fuzzharness

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/protocol"
)

// noY is a Constraint on expr inputs: no variable y. Repair renames y to x,
// except in inputs with a z, which it cannot repair.
type noY struct{ c *Codec }

func (noY) Valid(t *grammar.Tree) bool { return !strings.Contains(t.String(), "y") }

func (n noY) Repair(t *grammar.Tree, seed uint64) (*grammar.Tree, bool) {
	s := t.String()
	if strings.Contains(s, "z") {
		return nil, false
	}
	r, err := n.c.Parse(strings.ReplaceAll(s, "y", "x"))
	return r, err == nil
}

func (n noY) Seeds(k int) []*grammar.Tree {
	t, err := n.c.Parse("x*2")
	if err != nil || k < 1 {
		return nil
	}
	return []*grammar.Tree{t}
}

// constraintHelper is FuzzHelper with the noY constraint.
func constraintHelper(f *testing.F) {
	c, err := NewCodec(exprGraph)
	if err != nil {
		f.Fatal(err)
	}
	NewGraph(f, exprGraph, WithKPathSeeds(0), WithExamples("y+1", "z*y", "3"), WithConstraint(noY{c})).
		FuzzString(func(t *testing.T, s string) {
			if strings.Contains(s, "y") {
				t.Errorf("the target ran on %q", s)
			}
			t.Logf("target: %q", s)
		})
}

// TestConstraintSeeds checks that the seeds are repaired or left out, and
// that the constraint's own seeds follow them.
func TestConstraintSeeds(t *testing.T) {
	c, err := NewCodec(exprGraph)
	if err != nil {
		t.Fatal(err)
	}
	seeds, err := Seeds(exprGraph, WithKPathSeeds(0), WithExamples("y+1", "z*y", "3"), WithConstraint(noY{c}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range seeds {
		got = append(got, s.String())
	}
	if strings.Join(got, " ") != "x+1 3 x*2" {
		t.Errorf("seeds %q, want x+1 3 x*2", got)
	}
}

// TestConstraintRepairs runs the noY harness in measure mode over inputs
// that are valid, repairable and not: the target sees the repaired input,
// the unrepairable one is recorded as invalid, and the counts are logged
// and written to the KFUZZ_STATS file.
func TestConstraintRepairs(t *testing.T) {
	inputs := writeInputs(t,
		protocol.InputRecord{ID: "valid", Text: text("3")},
		protocol.InputRecord{ID: "repairable", Text: text("y*y+1")},
		protocol.InputRecord{ID: "unrepairable", Text: text("z+y")},
		protocol.InputRecord{ID: "valid too", Text: text("x")},
	)
	dir := t.TempDir()
	out, statsFile := filepath.Join(dir, "records.jsonl"), filepath.Join(dir, "stats.json")
	output, code := runHelper(t, "constraint", []string{protocol.EnvInputs + "=" + inputs, protocol.EnvOut + "=" + out, EnvStats + "=" + statsFile})
	if code != 0 {
		t.Fatalf("exit code %d:\n%s", code, output)
	}
	recs := readRecords(t, out)
	var got []string
	for _, r := range recs {
		got = append(got, r.ID+":"+r.Input+":"+string(r.Status))
	}
	want := "valid:3:pass repairable:x*x+1:pass unrepairable:z+y:invalid valid too:x:pass"
	if strings.Join(got, " ") != want {
		t.Errorf("records %q, want %q", got, want)
	}
	const summary = "fuzzharness: 4 inputs: 2 valid as decoded, 1 repaired, 1 skipped; 75.0% reached the target with a valid input (counted in this process)"
	if !strings.Contains(output, summary) || !strings.Contains(output, `target: "x*x+1"`) {
		t.Errorf("the output lacks %q or the repaired input:\n%s", summary, output)
	}
	data, err := os.ReadFile(statsFile)
	if err != nil {
		t.Fatal(err)
	}
	var s Stats
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	if s.Inputs != 4 || s.Repaired != 1 || s.Rejected != 1 || s.ValidRate() != 0.75 {
		t.Errorf("stats %+v, want 4 inputs, 1 repaired, 1 rejected", s)
	}
}

// TestConstraintSkips runs the noY harness as go test does: the seeds are
// repaired or left out, so every seed reaches the target.
func TestConstraintSkips(t *testing.T) {
	output, code := runHelper(t, "constraint", nil)
	if code != 0 {
		t.Fatalf("exit code %d:\n%s", code, output)
	}
	for _, want := range []string{`target: "x+1"`, `target: "3"`, `target: "x*2"`,
		"3 inputs: 3 valid as decoded, 0 repaired, 0 skipped; 100.0%"} {
		if !strings.Contains(output, want) {
			t.Errorf("the output lacks %q:\n%s", want, output)
		}
	}
}

func TestStatsString(t *testing.T) {
	s := Stats{Inputs: 200, Repaired: 30, Rejected: 10}
	want := "200 inputs: 160 valid as decoded, 30 repaired, 10 skipped; 95.0% reached the target with a valid input"
	if got := s.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if r := (Stats{}).ValidRate(); r != 1 {
		t.Errorf("ValidRate of no inputs = %v, want 1", r)
	}
}

// TestConstraintThenEdits checks that byte edits apply to the repaired text.
func TestConstraintThenEdits(t *testing.T) {
	c, err := NewCodec(exprGraph, WithMaxEdits(2))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := c.Parse("y+1")
	if err != nil {
		t.Fatal(err)
	}
	data, err := c.Encode(tree)
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, make([]byte, c.Decode(data).Used()-len(data))...)
	data = append(data, 1, 2, 0, 0, '-') // replace the first byte with "-"
	h := &Harness{cfg: config{constraint: noY{c}}, codec: c}
	in, o := h.check(c.Decode(data), data)
	if o != outcomeRepaired || in.String() != "-+1" || !in.Edited() || in.Original() != "x+1" || in.Tree().String() != "x+1" {
		t.Errorf("outcome %v, input %q (edited %v) of %q, tree %q; want repaired, \"-+1\" of \"x+1\"",
			o, in, in.Edited(), in.Original(), in.Tree())
	}
}
