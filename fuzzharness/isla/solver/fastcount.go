package solver

import (
	"slices"

	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// A fastIntMemo holds, for one pass, what the fast repair computes of a
// numeric quantifier over a universal one, exists int n: forall <l> x in
// the constant: body (CSV: every record has n fields): its candidate
// values and whether the body holds for each instance and candidate. The
// pass decides the formula, picks the candidate under which the fewest
// instances fail, fixes those and looks for instances that hold, all on
// one view: without the memo each step evaluates the bodies (their counts
// and inner numeric quantifiers) anew.
type fastIntMemo struct {
	n     *isla.CompiledIntQuantifier
	q     *isla.CompiledQuantifier // n's body
	built bool                     // cands and nodes are those of the pass's view
	cands []string                 // Evaluator.Candidates(n)
	nodes []int32                  // q's instances, in order
	// per candidate tried, per instance: 0 not evaluated yet, 1 holds, 2
	// fails
	holds [][]int8
}

// memoizable reports whether the memo applies to numeric quantifier n:
// its only free variable is the constant, its body a universal quantifier
// q over the constant's nodes without match expression, and q's body reads
// no variable but q's, n's and the constant. The candidates of n and the
// body of an instance of q then depend on the view alone.
func memoizable(n *isla.CompiledIntQuantifier) (*isla.CompiledQuantifier, bool) {
	q, ok := n.Body.(*isla.CompiledQuantifier)
	if !ok || q.Exists || q.Match != nil || q.Child > 0 || q.In != 0 {
		return nil, false
	}
	for _, v := range n.Vars {
		if v.Slot != 0 {
			return nil, false
		}
	}
	for _, v := range varsOf(q.Body) {
		if v.Slot != 0 && v.Slot != q.Slot && v.Slot != n.Slot {
			return nil, false
		}
	}
	return q, true
}

// intMemo returns the memo of numeric quantifier n for the pass, or nil if
// it has none (see memoizable).
func (f *fastRun) intMemo(n *isla.CompiledIntQuantifier) *fastIntMemo {
	m, ok := f.ints[n]
	if !ok {
		m = nil
		if q, ok := memoizable(n); ok {
			m = &fastIntMemo{n: n, q: q}
		}
		if f.ints == nil {
			f.ints = map[*isla.CompiledIntQuantifier]*fastIntMemo{}
		}
		f.ints[n] = m
	}
	if m == nil || m.built {
		return m
	}
	e := f.e
	m.built = true
	m.cands = e.Candidates(n)
	m.nodes = append(m.nodes[:0], f.v.InRange(m.q.Label, 0, f.v.Nodes[0].End)...)
	for len(m.holds) < len(m.cands) {
		m.holds = append(m.holds, nil)
	}
	for i := range m.cands {
		m.holds[i] = m.holds[i][:0] // filled when the candidate is first tried
	}
	return m
}

// resetIntMemos marks the memos as computed on an earlier view.
func (f *fastRun) resetIntMemos() {
	for _, m := range f.ints {
		if m != nil {
			m.built = false
		}
	}
}

// bodyAt reports whether the body of m's universal quantifier holds for
// its i-th instance under the c-th candidate, evaluated once per pass. It
// leaves the instance and the candidate in their slots, as the evaluator
// does.
func (f *fastRun) bodyAt(m *fastIntMemo, c, i int) bool {
	e := f.e
	e.Slots[m.n.Slot].Num = m.cands[c]
	e.Slots[m.q.Slot].Node = m.nodes[i]
	if len(m.holds[c]) == 0 {
		m.holds[c] = slices.Grow(m.holds[c], len(m.nodes))[:len(m.nodes)]
		clear(m.holds[c])
	}
	switch m.holds[c][i] {
	case 1:
		return true
	case 2:
		return false
	}
	ok := f.eval(m.q.Body)
	m.holds[c][i] = 2
	if ok {
		m.holds[c][i] = 1
	}
	return ok
}

// evalInt decides numeric quantifier n as Evaluator.Eval does, from its
// memo.
func (f *fastRun) evalInt(n *isla.CompiledIntQuantifier, m *fastIntMemo) bool {
	for c := range m.cands {
		holds := true
		for i := range m.nodes {
			if !f.bodyAt(m, c, i) {
				holds = false
				break
			}
		}
		if holds == n.Src.Exists {
			if len(m.nodes) == 0 {
				f.e.Slots[n.Slot].Num = m.cands[c]
			}
			return n.Src.Exists
		}
	}
	return !n.Src.Exists
}

// memoBody reports whether the body of universal quantifier q holds under
// the current variable values, from the memo of the numeric quantifier
// around q if it has one and the current values are among those it holds.
func (f *fastRun) memoBody(q *isla.CompiledQuantifier) bool {
	for _, m := range f.ints {
		if m == nil || m.q != q || !m.built {
			continue
		}
		e := f.e
		c := slices.Index(m.cands, e.Slots[m.n.Slot].Num)
		i, found := slices.BinarySearch(m.nodes, e.Slots[q.Slot].Node)
		if c >= 0 && found {
			return f.bodyAt(m, c, i)
		}
	}
	return f.eval(q.Body)
}
