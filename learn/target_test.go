package learn

import (
	"errors"
	"slices"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// TestGenerateFig8Rule solves the rule of CODEINE's Fig. 8 as the paper
// writes it: a parenthesised expression as the right factor of a product,
// which is not a mere product.
func TestGenerateFig8Rule(t *testing.T) {
	gr, pt := exprSetup(t)
	x := exprOccurrences(t, gr)
	r := &Rule{
		Required:  []int{pathID(t, pt, x.unary15, x.add36)},
		Forbidden: []int{pathID(t, pt, x.unary15, x.add36, x.mult2)},
	}
	trees, err := Generate(pt, r, 30, &GenerateOptions{Seed: 5, MaxStates: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(trees) < 25 {
		t.Errorf("%d different trees, want at least 25", len(trees))
	}
	seen := map[string]bool{}
	for _, tr := range trees {
		if !tr.Complete() || !r.Satisfied(pt.Paths(tr)) {
			t.Errorf("%q does not satisfy the rule", tr)
		}
		if !distributive(tr) {
			t.Errorf("%q has no parenthesised sum as a right factor", tr)
		}
		if seen[tr.String()] {
			t.Errorf("%q twice", tr)
		}
		seen[tr.String()] = true
	}
}

func TestGenerateDeterministic(t *testing.T) {
	gr, pt := exprSetup(t)
	x := exprOccurrences(t, gr)
	r := &Rule{Required: []int{pathID(t, pt, x.mult13, x.unary8, x.add36, x.minus11)}}
	strs := func(seed uint64) []string {
		trees, err := Generate(pt, r, 10, &GenerateOptions{Seed: seed, MaxStates: 50})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tr := range trees {
			out = append(out, tr.String())
			if !r.Satisfied(pt.Paths(tr)) {
				t.Errorf("%q does not satisfy the rule", tr)
			}
		}
		return out
	}
	a, b, c := strs(1), strs(1), strs(2)
	if !slices.Equal(a, b) {
		t.Errorf("same seed, different trees:\n%q\n%q", a, b)
	}
	if slices.Equal(a, c) {
		t.Errorf("different seeds, same trees: %q", a)
	}
	if trees, err := Generate(pt, r, 0, nil); trees != nil || err != nil {
		t.Errorf("n = 0: %v, %v", trees, err)
	}
}

func TestGenerateUnsatisfiable(t *testing.T) {
	// Exhaustive: the tiny grammar derives "x" or "y", never both.
	gr, pt := tinyGraph(t)
	both := &Rule{Required: []int{
		pathID(t, pt, occurrence(t, gr, "a", `"x"`, 0)),
		pathID(t, pt, occurrence(t, gr, "a", `"y"`, 0)),
	}}
	_, err := Generate(pt, both, 3, &GenerateOptions{MaxStates: 1000})
	if !errors.Is(err, ErrUnsatisfiable) {
		t.Errorf("x and y: %v, want ErrUnsatisfiable", err)
	}

	// Within budget: a parenthesis is required, but every path to it is
	// forbidden. The check for contained paths does not see it; the search
	// runs out of states.
	egr, ept := exprSetup(t)
	paren := occurrence(t, egr, "UnaryExpr", `"("`, 0)
	r := &Rule{Required: []int{pathID(t, ept, paren)}}
	for _, n := range egr.Nodes {
		if n.Kind == grammar.KindRef && n.Name == "UnaryExpr" {
			r.Forbidden = append(r.Forbidden, pathID(t, ept, n, paren))
		}
	}
	slices.Sort(r.Forbidden)
	if !r.Feasible(ept) {
		t.Fatal("the rule fails the feasibility check; the test needs one that passes it")
	}
	_, err = Generate(ept, r, 2, &GenerateOptions{MaxStates: 40})
	if !errors.Is(err, ErrUnsatisfiable) {
		t.Errorf("forbidden parentheses: %v, want ErrUnsatisfiable", err)
	}
	t.Log(err)

	if _, err := Generate(ept, &Rule{Required: []int{ept.Len()}}, 1, nil); err == nil || errors.Is(err, ErrUnsatisfiable) {
		t.Errorf("path ID out of range: %v", err)
	}
}

func TestGenerateAvoidsForbidden(t *testing.T) {
	// No rule requires anything: inputs without any "-" and without
	// parentheses around a product.
	gr, pt := exprSetup(t)
	x := exprOccurrences(t, gr)
	r := &Rule{Forbidden: []int{
		pathID(t, pt, x.minus11),
		pathID(t, pt, occurrence(t, gr, "UnaryExpr", `"-"`, 0)),
		pathID(t, pt, x.add36, x.mult2),
	}}
	r.Required = []int{pathID(t, pt, x.add36)}
	slices.Sort(r.Forbidden)
	trees, err := Generate(pt, r, 20, &GenerateOptions{Seed: 3, MaxStates: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range trees {
		if !r.Satisfied(pt.Paths(tr)) {
			t.Errorf("%q breaks the rule", tr)
		}
	}
	if len(trees) < 10 {
		t.Errorf("%d trees", len(trees))
	}
}

func TestModelGenerateErrors(t *testing.T) {
	m := exprModel(t)
	if _, err := m.Generate("calc.nothing", 1, nil); !errors.Is(err, ErrUnknownFunc) {
		t.Errorf("unknown function: %v", err)
	}
	if _, err := m.Generate("calc.parse", 1, nil); !errors.Is(err, ErrUnknownFunc) {
		t.Errorf("always covered function: %v", err)
	}
}

func TestGenerateShortPaths(t *testing.T) {
	// Tables of 1-paths and 2-paths: the contexts are shorter than usual.
	gr, _ := exprSetup(t)
	x := exprOccurrences(t, gr)
	for k := 1; k <= 2; k++ {
		pt, err := gr.PathTable(k)
		if err != nil {
			t.Fatal(err)
		}
		r := &Rule{Required: []int{pathID(t, pt, x.minus11)}, Forbidden: []int{pathID(t, pt, x.plus10)}}
		if k == 2 {
			r.Required = []int{pathID(t, pt, x.unary15, x.add36)}
			r.Forbidden = []int{pathID(t, pt, x.add36, x.mult2)}
		}
		trees, err := Generate(pt, r, 5, &GenerateOptions{Seed: 1, MaxStates: 50})
		if err != nil {
			t.Fatalf("k = %d: %v", k, err)
		}
		for _, tr := range trees {
			if !r.Satisfied(pt.Paths(tr)) {
				t.Errorf("k = %d: %q breaks the rule", k, tr)
			}
		}
	}
	if _, err := Generate(exprTable, nil, 1, nil); err == nil {
		t.Error("nil rule: no error")
	}
}
