package solver

import "github.com/seed72891827/kfuzz/fuzzharness/isla"

// fastIndex holds the instances of an existential quantifier searched in
// the constant (def-use: exists decl in start) by the text of the variable
// its body equates with an outer one: a use then looks up the
// declarations of its name alone instead of scanning them all. It is built
// once per view, when first needed.
type fastIndex struct {
	width int                // int32s per instance: the node, then the binders' nodes
	insts []int32            // the instances, in the order of Evaluator.Instances
	byKey map[string][]int32 // text of the equated variable -> offsets into insts
}

// indexable reports whether the instances of existential quantifier q do
// not depend on outer variables and its body equates one of its variables
// with an outer one, so that fastRun.eval can look its instances up.
func (p *fastPlan) indexable(q *isla.CompiledQuantifier) bool {
	return q.Exists && q.In == 0 && q.Child == 0 && len(p.eqs[q]) == 1
}

// index returns the index of the instances of quantifier q (indexable) on
// the current view.
func (f *fastRun) index(q *isla.CompiledQuantifier) *fastIndex {
	if ix, ok := f.indexes[q]; ok {
		return ix
	}
	e := f.e
	eq := f.p.eqs[q][0]
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

// eval decides formula n as the evaluator's Eval does, with the instances
// of indexable existential quantifiers looked up by the text of the outer
// variable their body equates: an instance with another text makes the
// equality, and so the body, false. Universal quantifiers are evaluated
// here so that the existential ones in their bodies are looked up too;
// other formulas are left to the evaluator.
func (f *fastRun) eval(n isla.Compiled) bool {
	q, ok := n.(*isla.CompiledQuantifier)
	if !ok {
		return f.e.Eval(n)
	}
	e := f.e
	if !q.Exists {
		result := true
		e.Instances(q, func() bool {
			if !f.eval(q.Body) {
				result = false
			}
			return result
		})
		return result
	}
	if !f.p.indexable(q) {
		return e.Eval(n)
	}
	ix := f.index(q)
	eq := f.p.eqs[q][0]
	for _, at := range ix.byKey[f.v.Node(e.Slots[eq.out.Slot].Node).Text()] {
		inst := ix.insts[at : int(at)+ix.width]
		e.Slots[q.Slot].Node = inst[0]
		if q.Match != nil {
			for i, s := range q.Match.Binders {
				e.Slots[s].Node = inst[1+i]
			}
		}
		if e.Eval(q.Body) {
			return true
		}
	}
	return false
}
