package islearneval

import (
	"context"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
)

// TestLoop closes the loop: the XML balance constraint mined from 20 valid
// samples, used by fuzzharness.WithConstraint, raises the share of
// executions that run the target on a valid (balanced) document well above
// what the grammar alone gives.
func TestLoop(t *testing.T) {
	if testing.Short() {
		t.Skip("mines XML balance (about a minute); run without -short")
	}
	const n = 500
	s := subject(t, "xml")
	mined, err := Run(context.Background(), s, 1)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Loop(context.Background(), s, mined.Best.Formula, 1, n)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("mined %s\ngrammar only: %v\ngrammar + mined constraint: %v\nsolver: %d of %d valid",
		mined.Best.Formula, r.Plain, r.Constrained, r.SolvedValid, r.Solved)
	if r.SolvedValid != r.Solved || r.Solved != LoopSolved {
		t.Errorf("%d of the solver's %d inputs valid, want all of %d", r.SolvedValid, r.Solved, LoopSolved)
	}
	if r.Plain.Execs != n || r.Constrained.Execs != n {
		t.Fatalf("executions %d and %d, want %d", r.Plain.Execs, r.Constrained.Execs, n)
	}
	if r.Constrained.Rate() < 0.95 || r.Constrained.Rate() < r.Plain.Rate()+0.3 {
		t.Errorf("valid share %.2f with the mined constraint, %.2f without: want at least 0.95 and 0.3 more",
			r.Constrained.Rate(), r.Plain.Rate())
	}
}

// ValidShare counts what the harness does: without a constraint every
// input reaches the target and few are valid; with the constraint that
// defines validity (a repairer) every execution gets a valid input; the
// same seed gives the same counts.
func TestValidShare(t *testing.T) {
	s := subject(t, "icmp")
	spec, err := Compile(s, "forall <type> t: t = \"08 \"")
	if err != nil {
		t.Fatal(err)
	}
	valid := func(b []byte) bool { return len(b) > 0 && string(b[:3]) == "08 " }
	a, err := ValidShare(spec.Graph(), nil, valid, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ValidShare(spec.Graph(), nil, valid, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Errorf("same seed, different counts: %v and %v", a, b)
	}
	if a.Execs != 200 || a.Reached != 200 || a.Valid > 20 {
		t.Errorf("grammar only: %v, want 200 executions, all reached, few valid", a)
	}
	rep, err := solver.NewRepairer(spec)
	if err != nil {
		t.Fatal(err)
	}
	c, err := ValidShare(spec.Graph(), rep, valid, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c.Execs != 200 || c.Valid != 200 {
		t.Errorf("with the constraint: %v, want 200 of 200 valid", c)
	}
}
