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
// needed, in the memory of the index of the view before.
type fastIndex struct {
	built bool
	width int     // int32s per instance: the node, then the binders' nodes
	insts []int32 // the instances, in the order of Evaluator.Instances
	// The instances of one text are a list in the order of insts: next
	// holds, per instance, the next one's number (-1: none), and byKey
	// the first and last instance of each text.
	next  []int32
	byKey map[string][2]int32
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
	ix := f.indexes[q]
	if ix == nil {
		ix = &fastIndex{byKey: map[string][2]int32{}}
		if f.indexes == nil {
			f.indexes = map[*isla.CompiledQuantifier]*fastIndex{}
		}
		f.indexes[q] = ix
	}
	if ix.built {
		return ix
	}
	e := f.e
	ix.width = 1
	if q.Match != nil {
		ix.width += len(q.Match.Binders)
	}
	ix.insts, ix.next = ix.insts[:0], ix.next[:0]
	clear(ix.byKey)
	saved := f.saveSlots(q)
	e.Instances(q, func() bool {
		i := int32(len(ix.next))
		ix.insts = append(ix.insts, e.Slots[q.Slot].Node)
		if q.Match != nil {
			for _, s := range q.Match.Binders {
				ix.insts = append(ix.insts, e.Slots[s].Node)
			}
		}
		ix.next = append(ix.next, -1)
		key := f.v.Node(e.Slots[eq.in.Slot].Node).Text()
		if ends, ok := ix.byKey[key]; ok {
			ix.next[ends[1]] = i
			ix.byKey[key] = [2]int32{ends[0], i}
		} else {
			ix.byKey[key] = [2]int32{i, i}
		}
		return true
	})
	f.restoreSlots(q, saved)
	ix.built = true
	return ix
}

// resetIndexes marks the indexes of the last view stale, keeping their
// memory.
func (f *fastRun) resetIndexes() {
	for _, ix := range f.indexes {
		ix.built = false
	}
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
	ends, ok := ix.byKey[f.v.Node(e.Slots[eq.out.Slot].Node).Text()]
	if !ok {
		return
	}
	for i := ends[0]; i >= 0; i = ix.next[i] {
		at := int(i) * ix.width
		inst := ix.insts[at : at+ix.width]
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
// of a universal one true. Quantifiers and connectives are evaluated here,
// so that the quantifiers in their bodies are looked up too, and an
// equality of two tree variables compares their texts without building
// SMT-LIB values; other formulas are left to the evaluator.
func (f *fastRun) eval(n isla.Compiled) bool {
	switch n := n.(type) {
	case *isla.CompiledQuantifier:
		result := !n.Exists
		f.instances(n, func() bool {
			if f.eval(n.Body) == n.Exists {
				result = n.Exists
				return false
			}
			return true
		})
		return result
	case *isla.CompiledSMT:
		if pair, ok := f.p.pairs[n]; ok {
			e := f.e
			return f.v.Node(e.Slots[pair[0].Slot].Node).Text() == f.v.Node(e.Slots[pair[1].Slot].Node).Text()
		}
	case *isla.CompiledIntQuantifier:
		if m := f.intMemo(n); m != nil {
			return f.evalInt(n, m)
		}
	case *isla.CompiledNot:
		return !f.eval(n.X)
	case *isla.CompiledBinary:
		x, y := n.X, n.Y
		switch n.Src.Op {
		case isla.And:
			if n.YFirst() {
				x, y = y, x
			}
			return f.eval(x) && f.eval(y)
		case isla.Or:
			if n.YFirst() {
				x, y = y, x
			}
			return f.eval(x) || f.eval(y)
		case isla.Implies:
			return !f.eval(x) || f.eval(y)
		}
	}
	return f.e.Eval(n)
}
