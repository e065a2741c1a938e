package solver

import (
	"slices"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// The variables of an SMT-LIB atom fall into groups by the top-level
// conjuncts they share: pickVar lets leaves of different groups take their
// random values together, and must keep those of one group apart.
func TestVarGroups(t *testing.T) {
	gr := grammar.MustCompile(grammar.MustBuiltin("scriptsizec"))
	c := isla.MustParse(`
forall <declaration> d1="int {<id> a}[ = <expr>];":
  forall <declaration> d2="int {<id> b}[ = <expr>];":
    forall <declaration> d3="int {<id> x}[ = <expr>];":
      (and (> (str.len a) 0) (str.in_re b (re.+ (re.range "a" "z"))) (or (< (str.len x) 3) (= a x)))`)
	spec, err := isla.Compile(c, gr)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(spec)
	if err != nil {
		t.Fatal(err)
	}
	var n *isla.CompiledSMT
	for k := range s.atoms {
		names := map[string]bool{}
		for _, v := range k.Vars {
			names[v.Name] = true
		}
		if names["a"] && names["b"] && names["x"] {
			n = k
		}
	}
	if n == nil {
		t.Fatal("no atom over a, b and x")
	}
	slot := map[string]int{}
	for _, v := range n.Vars {
		slot[v.Name] = v.Slot
	}
	info := s.atoms[n]
	g := map[string]int{}
	for _, name := range []string{"a", "b", "x"} {
		x, ok := info.groupOf(slot[name])
		if !ok {
			t.Fatalf("variable %s has no group: %v (vars %v)", name, info.group, n.Vars)
		}
		g[name] = x
	}
	if g["a"] != g["x"] {
		t.Errorf("a and x share a conjunct but not a group: %v", g)
	}
	if g["b"] == g["a"] {
		t.Errorf("b shares no conjunct with a but is in its group: %v", g)
	}
	var groups []int
	for _, v := range info.group {
		if v >= 0 && !slices.Contains(groups, v) {
			groups = append(groups, v)
		}
	}
	if len(groups) != 2 {
		t.Errorf("%d groups, want 2: %v", len(groups), g)
	}
}
