package isla

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// A Result is the verdict on one input or derivation tree.
type Result struct {
	// Valid reports whether the constraint holds.
	Valid bool
	// Derivations is the number of derivation trees evaluated: 1 for an
	// unambiguous input, up to the spec's MaxDerivations otherwise.
	Derivations int
	// Total is the number of derivation trees of the input (saturating at
	// the largest uint64); Infinite is set if there are infinitely many.
	Total    uint64
	Infinite bool
	// Failure explains why the first derivation does not satisfy the
	// constraint; nil if Valid.
	Failure *Failure
}

// String summarizes the result: "valid", or "invalid" followed by the
// failure.
func (r *Result) String() string {
	if r.Valid {
		return "valid"
	}
	var b strings.Builder
	b.WriteString("invalid")
	if r.Derivations > 1 || r.Total > 1 {
		switch {
		case r.Infinite:
			fmt.Fprintf(&b, " (none of %d of infinitely many derivations satisfies the constraint)", r.Derivations)
		case uint64(r.Derivations) < r.Total:
			fmt.Fprintf(&b, " (none of %d of %d derivations satisfies the constraint)", r.Derivations, r.Total)
		default:
			fmt.Fprintf(&b, " (none of the %d derivations satisfies the constraint)", r.Derivations)
		}
	}
	b.WriteString("\n")
	if r.Failure != nil {
		b.WriteString(r.Failure.String())
	}
	return b.String()
}

// Check parses input with the grammar (the Earley parser, from the spec's
// StartSymbol) and evaluates the constraint on its derivation trees.
//
// An ambiguous input is valid if some derivation satisfies the constraint.
// Check evaluates the derivations in the order grammar.Forest.Trees returns
// them, at most MaxDerivations of them (default DefaultMaxDerivations), and
// stops at the first that satisfies the constraint; the Failure of an
// invalid input explains the first derivation. So an input whose only
// satisfying derivations lie beyond the bound is reported invalid; Result
// tells how many derivations were evaluated out of how many.
//
// Check returns an error if the input is not in the grammar's language (a
// *grammar.SyntaxError) or the parse exceeds the parser's limits.
func (s *Spec) Check(input []byte) (*Result, error) {
	f, err := s.parser.Parse(input)
	if err != nil {
		return nil, err
	}
	defer s.parser.Recycle(f) // nothing returned refers to f
	total, _ := f.Count()
	r := &Result{Total: total, Infinite: f.Infinite()}
	c := s.checks.get()
	defer s.checks.put(c)
	ok, fail := c.eval(s, input, f.TreeIn(&c.trees), true)
	r.Derivations = 1
	if ok {
		r.Valid = true
		return r, nil
	}
	r.Failure = fail
	if r.Total > 1 && s.maxDerivations > 1 {
		trees := f.Trees(s.maxDerivations)
		for _, t := range trees[1:] {
			r.Derivations++
			if ok, _ := c.eval(s, input, t, false); ok {
				r.Valid, r.Failure = true, nil
				return r, nil
			}
		}
	}
	return r, nil
}

// checkSpare keeps the memory of one Check for the next.
type checkSpare struct{ spare atomic.Pointer[checkScratch] }

// A checkScratch is the memory Check reuses from one input to the next:
// the first tree's, the view's and the evaluator's. Nothing Check returns
// refers to it (a Failure holds strings).
type checkScratch struct {
	trees grammar.TreeBuffer
	view  *View
	e     *Evaluator
}

// maxSpareViewNodes bounds the view a spare checkScratch keeps (about 40
// bytes a node).
const maxSpareViewNodes = 1 << 16

// get returns the spare scratch, or a new one if another Check holds it.
func (k *checkSpare) get() *checkScratch {
	if c := k.spare.Swap(nil); c != nil {
		return c
	}
	return new(checkScratch)
}

// put keeps c as the spare scratch unless its view is large.
func (k *checkSpare) put(c *checkScratch) {
	if c.view != nil && cap(c.view.Nodes) > maxSpareViewNodes {
		return
	}
	k.spare.Store(c)
}

// eval evaluates spec s's constraint on derivation t of input in c's
// view and evaluator, and explains a failure if explain is set.
func (c *checkScratch) eval(s *Spec, input []byte, t *grammar.Tree, explain bool) (bool, *Failure) {
	c.view = NewViewReusing(c.view, input, t, s.lb, s.rootLabel, s.virtual)
	if c.e == nil {
		c.e = NewEvaluator(s, c.view)
	} else {
		c.e.ResetReusing(c.view)
	}
	if c.e.Eval(s.root) {
		return true, nil
	}
	if !explain {
		return false, nil
	}
	return false, c.e.explain(s.root, nil)
}

// EvalTree evaluates the constraint on a complete derivation tree rooted at
// the right-hand side of the spec's StartSymbol, as grammar.Forest.Tree and
// grammar.Generator.Generate return them.
func (s *Spec) EvalTree(t *grammar.Tree) *Result {
	ok, fail := new(checkScratch).eval(s, t.Bytes(), t, true)
	return &Result{Valid: ok, Derivations: 1, Total: 1, Failure: fail}
}

// Holds reports whether the constraint holds on a complete derivation tree,
// as EvalTree does, without explaining a failure.
func (s *Spec) Holds(t *grammar.Tree) bool {
	v := NewView(t.Bytes(), t, s.lb, s.rootLabel, s.virtual)
	return NewEvaluator(s, v).Eval(s.root)
}

// Check is a shortcut: it compiles the constraint against the grammar graph
// and checks one input. To check many inputs, Compile once and call
// Spec.Check.
func Check(gr *grammar.Graph, c *Constraint, input []byte, opts ...Option) (*Result, error) {
	s, err := Compile(c, gr, opts...)
	if err != nil {
		return nil, err
	}
	return s.Check(input)
}
