package isla_test

import (
	"strconv"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// TestCountNeedles checks the built-in count, which takes its number from
// the view's lists of nodes by label, against Node.Find, which walks the
// subtree: for every node of random CSV files and every nonterminal.
func TestCountNeedles(t *testing.T) {
	gr := loadGraph(t, "csv")
	lb := isla.NewLabels(gr, "start")
	solve := isla.Count.(isla.NumSolver)
	gen := grammar.NewGenerator(gr, 11)
	nonzero := 0
	for range 30 {
		tr, err := gen.Generate()
		if err != nil {
			t.Fatal(err)
		}
		v := isla.NewView(tr.Bytes(), tr, lb, "start", true)
		for i := range v.Nodes {
			n := v.Node(int32(i))
			for _, name := range lb.Names {
				want := len(n.Find(name))
				got, err := solve.SolveNum([]isla.Arg{{Node: n}, {Str: "<" + name + ">"}, {}}, 2)
				if err != nil || len(got) != 1 {
					t.Fatalf("count(%v, <%s>) = %v, %v", n, name, got, err)
				}
				if got[0] != strconv.Itoa(want) {
					t.Fatalf("count(%v, <%s>) = %s; Find gives %d nodes", n, name, got[0], want)
				}
				if want > 0 {
					nonzero++
				}
			}
		}
	}
	if nonzero == 0 {
		t.Fatal("no node has a needle: the test compares nothing")
	}
	if _, err := solve.SolveNum([]isla.Arg{{}, {Str: "field"}, {}}, 2); err == nil {
		t.Error(`count with the needle "field" (no angle brackets) gave no error`)
	}
}
