package solver

// An instTable is a set of instKeys: an open-addressing hash table with
// linear probing whose slots carry the number of the generation that
// filled them, so that emptying it (reset) costs nothing and keeps its
// memory. simplify's instance set holds up to hundreds of keys per call
// (XML no-redef: one per pair of attributes of a list), one call per
// state.
type instTable struct {
	slots []instSlot
	gen   uint32 // the current generation, from 1
	n     int    // keys of the current generation
}

// An instSlot is a slot of an instTable: a key, valid if gen is the
// table's.
type instSlot struct {
	k   instKey
	gen uint32
}

// maxInstSlots bounds the slots a table keeps across reset.
const maxInstSlots = 1 << 12

// reset empties the table.
func (t *instTable) reset() {
	t.n = 0
	if len(t.slots) > maxInstSlots {
		t.slots = nil
	}
	t.gen++
	if t.gen == 0 { // wrapped around: old slots could match
		clear(t.slots)
		t.gen = 1
	}
}

// hash mixes the fields of an instKey.
func (k *instKey) hash() uint64 {
	h := uint64(uint32(k.node))*0x9e3779b97f4a7c15 + 1
	if k.neg {
		h ^= 0x5851f42d4c957f2d
	}
	for _, v := range k.v {
		h = (h ^ uint64(uint32(v))) * 0x100000001b3
	}
	return h ^ h>>29
}

// add adds k and reports whether it is new.
func (t *instTable) add(k instKey) bool {
	if t.gen == 0 {
		t.gen = 1
	}
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	mask := len(t.slots) - 1
	for i := int(k.hash()) & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.gen != t.gen {
			s.k, s.gen = k, t.gen
			t.n++
			return true
		}
		if s.k == k {
			return false
		}
	}
}

// grow doubles the table (at least 32 slots), keeping the current keys.
func (t *instTable) grow() {
	old := t.slots
	t.slots = make([]instSlot, max(32, 2*len(old)))
	mask := len(t.slots) - 1
	for _, s := range old {
		if s.gen != t.gen {
			continue
		}
		i := int(s.k.hash()) & mask
		for t.slots[i].gen == t.gen {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}
