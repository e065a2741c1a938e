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

// repairCacheKeyMax bounds the key of a tree the cache remembers, and so
// the trees it keeps alive: 1,000 to 4,000 nodes (one to five bytes a
// node), more than the trees of the harness's codec (500). Larger trees
// (TAR archives of 3 KB) are not remembered: 256 of them would hold tens
// of megabytes.
const repairCacheKeyMax = 4096

// A repairCache remembers the last repairs, by the exact tree and seed. A
// repair is a function of the two (Repairer.Repair is deterministic, and a
// limit only stops it without a result), so a remembered result is the
// one the repair would give again.
type repairCache struct {
	byKey map[string]*grammar.Tree // nil: the tree held as it was
	ring  []string                 // the keys, oldest first from next
	next  int
	w     keyWriter
}

// key encodes tree t and seed exactly and returns the encoding (valid
// until the next call; nil if t is too large to remember), and whether t
// is complete (no open node).
func (c *repairCache) key(t *grammar.Tree, seed uint64) ([]byte, bool) {
	w := &c.w
	w.b, w.over = binary.LittleEndian.AppendUint64(w.b[:0], seed), false
	if !w.tree(t) {
		return nil, false
	}
	if w.over {
		return nil, true
	}
	return w.b, true
}

// A keyWriter encodes a tree for the cache: per node in pre-order its
// graph node ID, doubled, and then, unless the node has the children its
// graph node implies (one for a reference or an alternation, all for a
// sequence, none for a literal of the literal's text: the node ID plus one
// then), its number of children and, without children, its value. The
// tree's graph nodes, shape and leaf values can be read back from it.
type keyWriter struct {
	b    []byte
	over bool // b is longer than repairCacheKeyMax: no key
}

// tree encodes t, or once the key is too long only checks it, and reports
// whether t is complete.
func (w *keyWriter) tree(t *grammar.Tree) bool {
	if t.Open {
		return false
	}
	if !w.over {
		n, b := len(t.Children), w.b
		if n == impliedChildren(t.Node) && (n > 0 || t.Value == t.Node.Lit) {
			b = binary.AppendUvarint(b, uint64(t.Node.ID)<<1)
		} else {
			b = binary.AppendUvarint(b, uint64(t.Node.ID)<<1|1)
			b = binary.AppendUvarint(b, uint64(n))
			if n == 0 {
				b = binary.AppendUvarint(b, uint64(len(t.Value)))
				b = append(b, t.Value...)
			}
		}
		w.b, w.over = b, len(b) > repairCacheKeyMax
	}
	for _, c := range t.Children {
		if !w.tree(c) {
			return false
		}
	}
	return true
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
// t itself if the tree held as it was. A nil key has none.
func (c *repairCache) get(key []byte, t *grammar.Tree) (*grammar.Tree, bool) {
	if key == nil {
		return nil, false
	}
	out, ok := c.byKey[string(key)]
	if ok && out == nil {
		out = t
	}
	return out, ok
}

// put remembers out as the repair of tree t under key (nil out if t held
// as it was), forgetting the oldest repair if the cache is full; nothing
// under a nil key.
func (c *repairCache) put(key []byte, t, out *grammar.Tree) {
	if key == nil {
		return
	}
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
