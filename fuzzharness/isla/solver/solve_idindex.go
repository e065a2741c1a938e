package solver

// An idIndex maps the node ids of a view to their view indexes (the
// first index of an id that occurs twice): an open-addressing hash table
// with linear probing. A context builds one per view, with a key per view
// node, and looks ids up in it at every step; unlike a map, refilling it
// for the next view costs no more than clearing the slots the view needs.
type idIndex struct {
	keys  []int32 // id + 1 of the entry in each slot, 0 if it is empty
	vals  []int32 // the view index of each slot's id
	shift uint8   // 32 - log2(len(keys))
}

// reset empties the index and sizes it for n ids, reusing its memory.
func (x *idIndex) reset(n int) {
	bits := uint8(4)
	for 1<<bits < 2*n {
		bits++
	}
	size := 1 << bits
	if cap(x.keys) < size {
		x.keys, x.vals = make([]int32, size), make([]int32, size)
	} else {
		x.keys, x.vals = x.keys[:size], x.vals[:size]
		clear(x.keys)
	}
	x.shift = 32 - bits
}

// slot returns the slot of id: the one holding it, or the empty one where
// it goes.
func (x *idIndex) slot(id int32) int {
	mask := len(x.keys) - 1
	h := int((uint32(id) * 0x9e3779b1) >> x.shift)
	for x.keys[h] != 0 && x.keys[h] != id+1 {
		h = (h + 1) & mask
	}
	return h
}

// add records view index i for id unless id has one.
func (x *idIndex) add(id, i int32) {
	if h := x.slot(id); x.keys[h] == 0 {
		x.keys[h], x.vals[h] = id+1, i
	}
}

// get returns the view index of id.
func (x *idIndex) get(id int32) (int32, bool) {
	if len(x.keys) == 0 {
		return 0, false
	}
	h := x.slot(id)
	if x.keys[h] == 0 {
		return 0, false
	}
	return x.vals[h], true
}

// at returns the view index of id, 0 if it has none.
func (x *idIndex) at(id int32) int32 {
	i, _ := x.get(id)
	return i
}
