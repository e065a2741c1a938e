package solver

import "hash/maphash"

// A canonSet maps byte strings (contradictory's canonical atoms) to a
// polarity: an open-addressing hash table whose keys are kept in one
// byte buffer, so that neither a call's keys nor its table allocate once
// the memory has grown (contradictory runs once per state).
type canonSet struct {
	seed  maphash.Seed
	buf   []byte      // the keys, one after the other
	slots []canonSlot // len is a power of two; off < 0: empty
	n     int
}

// A canonSlot is a slot of a canonSet: a key, as its span in buf, and its
// polarity.
type canonSlot struct {
	off, end int32
	neg      bool
}

// maxCanonSlots bounds the slots a set keeps across reset.
const maxCanonSlots = 1 << 10

// reset empties the set.
func (c *canonSet) reset() {
	if len(c.slots) > maxCanonSlots {
		c.slots, c.buf = nil, nil
	}
	for i := range c.slots {
		c.slots[i].off = -1
	}
	c.buf, c.n = c.buf[:0], 0
}

// find returns the slot of key k: the one holding it, or the empty one
// where it goes.
func (c *canonSet) find(k []byte) int {
	mask := len(c.slots) - 1
	i := int(maphash.Bytes(c.seed, k)) & mask
	for {
		s := c.slots[i]
		if s.off < 0 || string(c.buf[s.off:s.end]) == string(k) {
			return i
		}
		i = (i + 1) & mask
	}
}

// get returns the polarity of key k, if the set has it.
func (c *canonSet) get(k []byte) (neg, ok bool) {
	if c.n == 0 {
		return false, false
	}
	s := c.slots[c.find(k)]
	if s.off < 0 {
		return false, false
	}
	return s.neg, true
}

// put sets the polarity of key k.
func (c *canonSet) put(k []byte, neg bool) {
	if 2*(c.n+1) > len(c.slots) {
		c.grow()
	}
	i := c.find(k)
	if c.slots[i].off < 0 {
		off := len(c.buf)
		c.buf = append(c.buf, k...)
		c.slots[i] = canonSlot{off: int32(off), end: int32(len(c.buf))}
		c.n++
	}
	c.slots[i].neg = neg
}

// grow doubles the table (at least 16 slots), keeping its keys.
func (c *canonSet) grow() {
	if c.seed == (maphash.Seed{}) {
		c.seed = maphash.MakeSeed()
	}
	old := c.slots
	c.slots = make([]canonSlot, max(16, 2*len(old)))
	for i := range c.slots {
		c.slots[i].off = -1
	}
	mask := len(c.slots) - 1
	for _, s := range old {
		if s.off < 0 {
			continue
		}
		i := int(maphash.Bytes(c.seed, c.buf[s.off:s.end])) & mask
		for c.slots[i].off >= 0 {
			i = (i + 1) & mask
		}
		c.slots[i] = s
	}
}
