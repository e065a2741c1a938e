package isla

import (
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// TestCheapOperandFirst checks that a conjunction or disjunction whose
// right operand is cheaper to evaluate is decided by it first, and that
// the order does not change what the formula evaluates to.
func TestCheapOperandFirst(t *testing.T) {
	g, err := grammar.Parse("g.bnf", []byte(`<start> ::= <b> ; <b> ::= "{" <d>* "}" ; <d> ::= "x" | "y" | <b> ;`))
	if err != nil {
		t.Fatal(err)
	}
	gr := grammar.MustCompile(g)
	// Each formula and its twin with the operands swapped: the first is
	// decided by its right operand first, the twin by its left one, and
	// both must say the same of every input.
	inputs := []string{"{}", "{xy}", "{x{x}}", "{x{y}}", "{y{{y}}x}", "{{x}{x}x}"}
	for _, tc := range []struct{ src, twin string }{
		{`forall <d> a in start: forall <d> b in start: (level("GE", "<b>", a, b) and (= a b))`,
			`forall <d> a in start: forall <d> b in start: ((= a b) and level("GE", "<b>", a, b))`},
		{`forall <d> a in start: forall <d> b in start: (level("GE", "<b>", a, b) or (= a b))`,
			`forall <d> a in start: forall <d> b in start: ((= a b) or level("GE", "<b>", a, b))`},
		{`forall <d> a in start: exists <d> b in start: (before(a, b) and (= a b))`,
			`forall <d> a in start: exists <d> b in start: ((= a b) and before(a, b))`},
	} {
		valid := map[string]bool{}
		for i, src := range []string{tc.src, tc.twin} {
			c, err := Parse("c.isla", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			s, err := Compile(c, gr)
			if err != nil {
				t.Fatal(err)
			}
			var bin *CompiledBinary
			for n := s.Formula(); bin == nil; {
				switch q := n.(type) {
				case *CompiledQuantifier:
					n = q.Body
				case *CompiledBinary:
					bin = q
				default:
					t.Fatalf("%s: no connective under the quantifiers (%T)", src, n)
				}
			}
			if bin.yFirst != (i == 0) {
				t.Errorf("%s: yFirst = %v, want %v", src, bin.yFirst, i == 0)
			}
			for _, in := range inputs {
				res, err := Check(gr, c, []byte(in))
				if err != nil {
					t.Fatal(err)
				}
				if i == 0 {
					valid[in] = res.Valid
				} else if res.Valid != valid[in] {
					t.Errorf("on %q: %s says %v, %s says %v", in, tc.src, valid[in], src, res.Valid)
				}
			}
		}
	}
}
