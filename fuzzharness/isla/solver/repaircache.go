package solver

import (
	"encoding/binary"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// repairCacheSize bounds the repairs a Repairer remembers. A fuzzing worker
// repairs the same decoded tree with the same seed again and again (go
// test -fuzz re-runs inputs, and mutations of the bytes after those the
// decoder read change neither): in runs of examples/scriptc's FuzzInterp,
// about a quarter of a worker's repairs had been made before, nearly all
// of them among its last 256.
const repairCacheSize = 256

// A repairCache remembers the last repairs, by the exact tree and seed. A
// repair is a function of the two (Repairer.Repair is deterministic, and a
// limit only stops it without a result), so a remembered result is the
// one the repair would give again.
type repairCache struct {
	byKey map[string]*grammar.Tree // nil: the tree held as it was
	ring  []string                 // the keys, oldest first from next
	next  int
	buf   []byte // the key being built
}

// key encodes tree t and seed exactly into c.buf and returns it (valid
// until the next call), and whether t is complete (no open node).
func (c *repairCache) key(t *grammar.Tree, seed uint64) ([]byte, bool) {
	b := binary.LittleEndian.AppendUint64(c.buf[:0], seed)
	b, ok := appendTreeKey(b, t)
	c.buf = b
	return b, ok
}

// appendTreeKey appends an encoding of tree t to b, from which t's graph
// nodes, shape and leaf values can be read back: per node in pre-order
// its graph node ID, doubled, and then, unless the node has the children
// its graph node implies (one for a reference or an alternation, all for a
// sequence, none for a literal of the literal's text: the node ID plus
// one then), its number of children and, without children, its value. It
// returns false, with b unfinished, if t has an open node.
func appendTreeKey(b []byte, t *grammar.Tree) ([]byte, bool) {
	if t.Open {
		return b, false
	}
	n := len(t.Children)
	if n == impliedChildren(t.Node) && (n > 0 || t.Value == t.Node.Lit) {
		b = binary.AppendUvarint(b, uint64(t.Node.ID)<<1)
	} else {
		b = binary.AppendUvarint(b, uint64(t.Node.ID)<<1|1)
		b = binary.AppendUvarint(b, uint64(n))
		if n == 0 {
			b = binary.AppendUvarint(b, uint64(len(t.Value)))
			return append(b, t.Value...), true
		}
	}
	for _, c := range t.Children {
		var ok bool
		if b, ok = appendTreeKey(b, c); !ok {
			return b, false
		}
	}
	return b, true
}

// impliedChildren returns the number of children a tree node of graph node
// n has by n's kind, or -1 if its kind implies none.
func impliedChildren(n *grammar.Node) int {
	switch n.Kind {
	case grammar.KindRef, grammar.KindAlt:
		return 1
	case grammar.KindSeq:
		return len(n.Children)
	case grammar.KindLit:
		return 0
	}
	return -1
}

// get returns the repair remembered under key, and whether there is one:
// t itself if the tree held as it was.
func (c *repairCache) get(key []byte, t *grammar.Tree) (*grammar.Tree, bool) {
	out, ok := c.byKey[string(key)]
	if ok && out == nil {
		out = t
	}
	return out, ok
}

// put remembers out as the repair of tree t under key (nil out if t held
// as it was), forgetting the oldest repair if the cache is full.
func (c *repairCache) put(key []byte, t, out *grammar.Tree) {
	if out == t {
		out = nil // do not keep t alive twice
	}
	if c.byKey == nil {
		c.byKey = make(map[string]*grammar.Tree, repairCacheSize)
		c.ring = make([]string, repairCacheSize)
	}
	k := string(key)
	if _, ok := c.byKey[k]; ok {
		return
	}
	if old := c.ring[c.next]; old != "" {
		delete(c.byKey, old)
	}
	c.ring[c.next] = k
	c.next = (c.next + 1) % len(c.ring)
	c.byKey[k] = out
}
