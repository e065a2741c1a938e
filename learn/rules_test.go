package learn

import (
	"slices"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

func pathID(t testing.TB, pt *grammar.PathTable, nodes ...*grammar.Node) int {
	t.Helper()
	id, ok := pt.ID(kpath(nodes...))
	if !ok {
		t.Fatalf("%s is not a path", PathLabel(pt.Graph, kpath(nodes...)))
	}
	return id
}

func TestRuleFeasible(t *testing.T) {
	gr, pt := exprSetup(t)
	x := exprOccurrences(t, gr)
	long := pathID(t, pt, x.unary15, x.add36, x.mult2)
	for _, tc := range []struct {
		req, forb []int
		want      bool
	}{
		{[]int{long}, []int{pathID(t, pt, x.add36, x.mult2)}, false},          // suffix
		{[]int{long}, []int{pathID(t, pt, x.unary15, x.add36)}, false},        // prefix
		{[]int{long}, []int{pathID(t, pt, x.add36)}, false},                   // one symbol
		{[]int{long}, []int{long}, false},                                     // itself
		{[]int{pathID(t, pt, x.unary15, x.add36)}, []int{long}, true},         // Fig. 8
		{[]int{long}, []int{pathID(t, pt, x.unary15, x.add36, x.add5)}, true}, // another path
		{nil, []int{long}, true},
	} {
		r := &Rule{Required: tc.req, Forbidden: tc.forb}
		if got := r.Feasible(pt); got != tc.want {
			t.Errorf("requires %v forbids %v: feasible %v, want %v", tc.req, tc.forb, got, tc.want)
		}
	}
}

func TestLeafRulesAndCovering(t *testing.T) {
	gr, pt := exprSetup(t)
	x := exprOccurrences(t, gr)
	a := pathID(t, pt, x.unary15, x.add36)
	b := pathID(t, pt, x.unary15, x.add36, x.mult2)
	c := pathID(t, pt, x.add36, x.mult2)
	features := []int{a, b, c}
	// a? (b? leaf1 : leaf2) : (c? leaf3 : leaf4)
	tree := []Node{
		{Feature: 0, Yes: 1, No: 4, Pos: 50, Neg: 50},
		{Feature: 1, Yes: 2, No: 3, Pos: 40, Neg: 10},
		{Feature: -1, Pos: 0, Neg: 8},  // a, b: not covered
		{Feature: -1, Pos: 40, Neg: 2}, // a, not b: covered, gini 0.09
		{Feature: 2, Yes: 5, No: 6, Pos: 10, Neg: 40},
		{Feature: -1, Pos: 10, Neg: 6}, // c, not a: covered but gini 0.47
		{Feature: -1, Pos: 0, Neg: 34},
	}
	leaves := leafRules("f", tree, features)
	if len(leaves) != 4 {
		t.Fatalf("%d leaves", len(leaves))
	}
	check := func(leaf int, req, forb []int) {
		r := leaves[leaf]
		slices.Sort(req)
		slices.Sort(forb)
		if r == nil || !slices.Equal(r.Required, req) || !slices.Equal(r.Forbidden, forb) || r.Pos != tree[leaf].Pos {
			t.Errorf("leaf %d: %+v, want requires %v forbids %v", leaf, r, req, forb)
		}
	}
	check(2, []int{a, b}, nil)
	check(3, []int{a}, []int{b})
	check(5, []int{c}, []int{a})
	check(6, nil, []int{a, c})

	rules := coveringRules(pt, leaves, DefaultRuleGini)
	if len(rules) != 1 || rules[0].leaf != 3 {
		t.Fatalf("covering rules %+v, want leaf 3 only", rules)
	}
	if rules = coveringRules(pt, leaves, 0.5); len(rules) != 2 || rules[0].leaf != 3 || rules[1].leaf != 5 {
		t.Errorf("with gini 0.5: %+v, want leaves 3 and 5", rules)
	}
	// The same tree with c being a sub-path of b: leaf 3 forbids b only, but
	// a leaf requiring b and forbidding c is infeasible.
	tree[2] = Node{Feature: 2, Yes: 7, No: 8, Pos: 0, Neg: 8}
	tree = append(tree, Node{Feature: -1, Pos: 5, Neg: 0}, Node{Feature: -1, Pos: 0, Neg: 3})
	leaves = leafRules("f", tree, features)
	check(7, []int{a, b, c}, nil)
	check(8, []int{a, b}, []int{c})
	tree[8] = Node{Feature: -1, Pos: 3, Neg: 0}
	leaves = leafRules("f", tree, features)
	for _, r := range coveringRules(pt, leaves, DefaultRuleGini) {
		if r.leaf == 8 {
			t.Errorf("infeasible leaf 8 kept: requires %v forbids %v", r.Required, r.Forbidden)
		}
	}

	text := leaves[3].Format(pt)
	for _, want := range []string{
		"f: 40 of 42 training inputs covered (gini 0.09)",
		`requires <MultExpr>: <MultExpr> ("*" | "/" | "%") "(" <AddExpr> ")"  [<UnaryExpr>#47 -> <AddExpr>#25]`,
		`forbids  <MultExpr>: <MultExpr> ("*" | "/" | "%") "(" <MultExpr> ")"  [<UnaryExpr>#47 -> <AddExpr>#25 -> <MultExpr>#2]`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("Format lacks %q:\n%s", want, text)
		}
	}
}
