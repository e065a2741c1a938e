package solver

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// pickVar's record of a run's atoms (pickCached, groups) finds what the
// walk of the view (pickWalk) finds: the same leaves in the same order,
// the same numbers and the same groups, at every call of the solves of
// XML (whose large attribute lists the record is for) and Scriptsize-C
// (numbers, batches that fail and go back to a snapshot), with the
// evaluation's settings; and a leaf tiedToAll finds sharing an atom with
// every other leaf has no batch (batchScratch.more on the walk's groups).
func TestPickCachedAsWalk(t *testing.T) {
	calls, most, tied := 0, 0, 0
	pickCheck = func(r *cspRun, c *evalCtx, und []item, got *picks) {
		calls++
		most = max(most, len(und))
		var want picks
		want.last = -1
		r.pickWalk(c, und, &want)
		gs := groupSet{last: -1} // the groups the record makes when asked
		r.cache.groups(r, und, &gs)
		for _, l := range got.leaves {
			if len(got.leaves) > 1 && r.cache.tiedToAll(r, und, l, got.leaves) {
				tied++
				if more := r.batch.more(c, l, want.leaves, want.groups, want.pinned, len(r.ints)); len(more) > 0 {
					t.Fatalf("call %d: tiedToAll for a leaf that %d leaves may join in a batch", calls, len(more))
				}
			}
		}
		same := slices.Equal(got.leaves, want.leaves) && slices.Equal(got.later, want.later) &&
			slices.Equal(got.ints, want.ints) && slices.Equal(gs.pinned, want.pinned) &&
			slices.EqualFunc(gs.groups, want.groups, slices.Equal[[]int32])
		if !same {
			t.Fatalf("call %d (%d atoms undecided): the record found leaves %d, numbers %v, groups %v; the walk leaves %d, numbers %v, groups %v",
				calls, len(und), len(got.leaves), got.ints, gs.groups, len(want.leaves), want.ints, want.groups)
		}
	}
	defer func() { pickCheck = nil }()
	solveXMLAndC(t)
	if calls == 0 || most < 100 || tied == 0 {
		t.Fatalf("the record was read %d times, on at most %d undecided atoms, %d leaves tied to all others: no large state was solved", calls, most, tied)
	}
	t.Logf("%d calls compared, up to %d undecided atoms; %d leaves tied to all others", calls, most, tied)
}

// solveXMLAndC solves 1,500 XML outputs (balance, namespaces, no-redef)
// and 300 Scriptsize-C outputs (def-use, no-redef) with the settings of
// kfuzz eval isla.
func solveXMLAndC(t *testing.T) {
	t.Helper()
	subjects := []struct {
		grammar string
		files   []string
		n       int
	}{
		{"xml", []string{"xml-balance.isla", "xml-namespace.isla", "xml-no-redef.isla"}, 1500},
		{"scriptsizec", []string{"scriptsizec-def-use.isla", "scriptsizec-no-redef.isla"}, 300},
	}
	for _, sub := range subjects {
		var cs []*isla.Constraint
		for _, f := range sub.files {
			src, err := os.ReadFile("../testdata/" + f)
			if err != nil {
				t.Fatal(err)
			}
			c, err := isla.Parse(f, src)
			if err != nil {
				t.Fatal(err)
			}
			cs = append(cs, c)
		}
		con, err := isla.Conjoin(cs...)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := isla.Compile(con, grammar.MustCompile(grammar.MustBuiltin(sub.grammar)))
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(spec, Seed(1), RestartEvery(1500), MaxStates(1000))
		if err != nil {
			t.Fatal(err)
		}
		for range sub.n {
			if _, err := s.Next(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
	}
}
