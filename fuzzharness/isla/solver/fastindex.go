package solver

import "github.com/seed72891827/kfuzz/fuzzharness/isla"

// fastIndex holds the instances of a quantifier searched in the constant
// by the text of the variable its body equates with an outer one: an
// existential quantifier (def-use: exists decl in start with def = use),
// whose instances with another text make the body false, or a universal
// one whose body negates the equality (no-redef: forall d2 with not n1 =
// n2), whose instances with another text make it true. A use then looks
// up the declarations of its name alone instead of scanning them all, and
// no-redef compares a declaration with those of the same name alone
// instead of with all of them. It is built once per view, when first
// needed.
type fastIndex struct {
	width int                // int32s per instance: the node, then the binders' nodes
	insts []int32            // the instances, in the order of Evaluator.Instances
	byKey map[string][]int32 // text of the equated variable -> offsets into insts
}

// keyed returns the equality by which the instances of quantifier q are
// looked up, if q's instances do not depend on outer variables and its
// body equates one of its variables with an outer one (exists) or negates
// that (forall), so that fastRun.eval can look its instances up.
func (p *fastPlan) keyed(q *isla.CompiledQuantifier) (fastEq, bool) {
	if q.In != 0 || q.Child != 0 {
		return fastEq{}, false
	}
	if q.Exists {
		if eqs := p.eqs[q]; len(eqs) == 1 {
			return eqs[0], true
		}
		return fastEq{}, false
	}
	eq, ok := p.neqs[q]
	return eq, ok
}

// index returns the index of the instances of quantifier q, looked up by
// eq (see keyed), on the current view.
func (f *fastRun) index(q *isla.CompiledQuantifier, eq fastEq) *fastIndex {
	if ix, ok := f.indexes[q]; ok {
		return ix
	}
	e := f.e
	ix := &fastIndex{width: 1, byKey: map[string][]int32{}}
	if q.Match != nil {
		ix.width += len(q.Match.Binders)
	}
	saved := f.saveSlots(q)
	e.Instances(q, func() bool {
		at := int32(len(ix.insts))
		ix.insts = append(ix.insts, e.Slots[q.Slot].Node)
		if q.Match != nil {
			for _, s := range q.Match.Binders {
				ix.insts = append(ix.insts, e.Slots[s].Node)
			}
		}
		key := f.v.Node(e.Slots[eq.in.Slot].Node).Text()
		ix.byKey[key] = append(ix.byKey[key], at)
		return true
	})
	f.restoreSlots(q, saved)
	if f.indexes == nil {
		f.indexes = map[*isla.CompiledQuantifier]*fastIndex{}
	}
	f.indexes[q] = ix
	return ix
}

// saveSlots returns the values of the slots quantifier q binds.
func (f *fastRun) saveSlots(q *isla.CompiledQuantifier) []isla.SlotValue {
	out := f.slotBuf[:0]
	for _, b := range q.Bound {
		out = append(out, f.e.Slots[b.Slot])
	}
	f.slotBuf = out
	return out
}

// restoreSlots sets the slots quantifier q binds to saved.
func (f *fastRun) restoreSlots(q *isla.CompiledQuantifier, saved []isla.SlotValue) {
	for i, b := range q.Bound {
		f.e.Slots[b.Slot] = saved[i]
	}
}

// instances binds the variables of quantifier q to each of its instances
// that can decide it, in the order of Evaluator.Instances, calling fn
// until it returns false: those whose equated variable has the outer
// variable's text if q is looked up by text (see keyed), all of them
// otherwise.
func (f *fastRun) instances(q *isla.CompiledQuantifier, fn func() bool) {
	eq, ok := f.p.keyed(q)
	if !ok {
		f.e.Instances(q, fn)
		return
	}
	e := f.e
	ix := f.index(q, eq)
	for _, at := range ix.byKey[f.v.Node(e.Slots[eq.out.Slot].Node).Text()] {
		inst := ix.insts[at : int(at)+ix.width]
		e.Slots[q.Slot].Node = inst[0]
		if q.Match != nil {
			for i, s := range q.Match.Binders {
				e.Slots[s].Node = inst[1+i]
			}
		}
		if !fn() {
			return
		}
	}
}

// eval decides formula n as the evaluator's Eval does, with the instances
// of quantifiers looked up by text (see keyed) where it can: an instance
// with another text makes the body of an existential one false and that
// of a universal one true. Other quantifiers are evaluated here too, so
// that those in their bodies are looked up; other formulas are left to
// the evaluator.
func (f *fastRun) eval(n isla.Compiled) bool {
	q, ok := n.(*isla.CompiledQuantifier)
	if !ok {
		return f.e.Eval(n)
	}
	result := !q.Exists
	f.instances(q, func() bool {
		if f.eval(q.Body) == q.Exists {
			result = q.Exists
			return false
		}
		return true
	})
	return result
}
