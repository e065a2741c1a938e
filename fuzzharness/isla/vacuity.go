package isla

import (
	"cmp"
	"slices"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// Universals returns the universal quantifiers of the constraint, in the
// order of the source: the quantifiers whose vacuity Matched reports.
func (s *Spec) Universals() []*Quantifier {
	var out []*Quantifier
	for _, q := range s.universals() {
		out = append(out, q.Src)
	}
	return out
}

// universals returns the compiled universal quantifiers, sorted by their
// position in the source (conjunctions of several files: by file, in the
// order of the conjunction).
func (s *Spec) universals() []*CompiledQuantifier {
	var out []*CompiledQuantifier
	walkCompiled(s.root, func(q *CompiledQuantifier) {
		if !q.Exists {
			out = append(out, q)
		}
	})
	files := map[string]int{}
	for _, q := range out {
		if _, ok := files[q.Src.P.File]; !ok {
			files[q.Src.P.File] = len(files)
		}
	}
	slices.SortStableFunc(out, func(a, b *CompiledQuantifier) int {
		if c := cmp.Compare(files[a.Src.P.File], files[b.Src.P.File]); c != 0 {
			return c
		}
		return cmp.Compare(a.Src.P.Offset, b.Src.P.Offset)
	})
	return out
}

// Matched reports, for each quantifier of Universals, whether it has at
// least one instance in the complete derivation tree t (rooted as EvalTree
// takes it), in any binding of the quantifiers around it. A universal
// quantifier without an instance holds vacuously: an input valid only so
// says little about the constraint.
func (s *Spec) Matched(t *grammar.Tree) []bool {
	v := NewView(t.Bytes(), t, s.lb, s.rootLabel, s.virtual)
	e := NewEvaluator(s, v)
	hit := map[*CompiledQuantifier]bool{}
	var visit func(n Compiled)
	visit = func(n Compiled) {
		switch n := n.(type) {
		case *CompiledNot:
			visit(n.X)
		case *CompiledBinary:
			visit(n.X)
			visit(n.Y)
		case *CompiledQuantifier:
			e.Instances(n, func() bool {
				hit[n] = true
				visit(n.Body)
				return true
			})
		case *CompiledIntQuantifier:
			for _, c := range e.Candidates(n) {
				e.Slots[n.Slot].Num = c
				visit(n.Body)
			}
		}
	}
	visit(s.root)
	var out []bool
	for _, q := range s.universals() {
		out = append(out, hit[q])
	}
	return out
}

// walkCompiled calls f on every quantifier of n, in pre-order.
func walkCompiled(n Compiled, f func(*CompiledQuantifier)) {
	switch n := n.(type) {
	case *CompiledNot:
		walkCompiled(n.X, f)
	case *CompiledBinary:
		walkCompiled(n.X, f)
		walkCompiled(n.Y, f)
	case *CompiledQuantifier:
		f(n)
		walkCompiled(n.Body, f)
	case *CompiledIntQuantifier:
		walkCompiled(n.Body, f)
	}
}
