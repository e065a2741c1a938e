package solver

import (
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// repairCacheSize bounds the repairs a Repairer remembers. A fuzzing worker
// repairs the same decoded tree with the same seed again and again (go
// test -fuzz re-runs inputs, and mutations of the bytes after those the
// decoder read change neither): in runs of examples/scriptc's FuzzInterp,
// about a quarter of a worker's repairs had been made before, nearly all
// of them among its last 256.
const repairCacheSize = 256

// repairCacheMaxNodes bounds the trees the cache remembers, and so the
// memory it keeps alive (at most about 20 MB; 6 MB with Scriptsize-C's
// programs of 300 nodes): Scriptsize-C, XML and CSV programs of the
// harness's codec are remembered, most TAR archives (3 KB) not.
const repairCacheMaxNodes = 1000

// A repairCache remembers the last repairs, by tree and seed. A repair is
// a function of the two (Repairer.Repair is deterministic, and a limit
// only stops it without a result), so a remembered result is the one the
// repair would give again. Repairs are looked up by a hash of the tree's
// graph nodes, shape and values and the seed, and a hit is checked
// against the tree it remembers (grammar.Tree.Equal).
//
// Remembered trees cost the garbage collector: where repairs come back
// rarely (a benchmark of distinct inputs, or a target whose fuzzer seldom
// repeats an input), the cache keeps only the keys. It counts the lookups
// that find their key, tree or not, per repairCacheWindow, and keeps
// trees during the next window only if at least one in 50 did.
type repairCache struct {
	byKey map[uint64]repairEntry
	ring  []uint64 // the keys, oldest first from next
	next  int
	// Lookups and hits in this window, and whether trees are dropped.
	lookups, hits int
	keysOnly      bool
}

// repairCacheWindow is the number of lookups after which the cache
// decides whether to keep trees.
const repairCacheWindow = 1024

// A repairEntry is a remembered repair: the tree, the seed and the result
// (nil: the tree held as it was); without the trees if the cache keeps
// keys only.
type repairEntry struct {
	in, out *grammar.Tree
	seed    uint64
}

// A repairKey is the key of a tree and a seed: the hash, and whether the
// tree is small enough to be remembered.
type repairKey struct {
	hash uint64
	ok   bool
}

// key returns the key of tree t and seed, and whether t is complete (no
// open node).
func (c *repairCache) key(t *grammar.Tree, seed uint64) (repairKey, bool) {
	h := keyHash{h: fnvOffset ^ seed}
	if !h.tree(t) {
		return repairKey{}, false
	}
	return repairKey{h.h, h.nodes <= repairCacheMaxNodes}, true
}

// FNV-1a's parameters.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// A keyHash hashes a tree: per node in pre-order its graph node ID and
// number of children, and the values of nodes without children.
type keyHash struct {
	h     uint64
	nodes int
}

// tree hashes t and reports whether it is complete.
func (k *keyHash) tree(t *grammar.Tree) bool {
	if t.Open {
		return false
	}
	k.nodes++
	h := (k.h ^ uint64(t.Node.ID)) * fnvPrime
	h = (h ^ uint64(len(t.Children))) * fnvPrime
	if len(t.Children) == 0 {
		for i := 0; i < len(t.Value); i++ {
			h = (h ^ uint64(t.Value[i])) * fnvPrime
		}
	}
	k.h = h
	for _, c := range t.Children {
		if !k.tree(c) {
			return false
		}
	}
	return true
}

// get returns the repair of tree t with seed remembered under key, and
// whether there is one: t itself if the tree held as it was.
func (c *repairCache) get(key repairKey, t *grammar.Tree, seed uint64) (*grammar.Tree, bool) {
	if !key.ok {
		return nil, false
	}
	e, ok := c.byKey[key.hash]
	ok = ok && e.seed == seed
	c.count(ok)
	if !ok || e.in == nil || !e.in.Equal(t) {
		return nil, false
	}
	if e.out == nil {
		return t, true
	}
	return e.out, true
}

// count counts a lookup, a hit or not, and at the end of a window decides
// whether to keep trees in the next, dropping those kept if not.
func (c *repairCache) count(hit bool) {
	c.lookups++
	if hit {
		c.hits++
	}
	if c.lookups < repairCacheWindow {
		return
	}
	keysOnly := c.hits*50 < c.lookups
	if keysOnly && !c.keysOnly {
		for k, e := range c.byKey {
			c.byKey[k] = repairEntry{seed: e.seed}
		}
	}
	c.keysOnly, c.lookups, c.hits = keysOnly, 0, 0
}

// put remembers out as the repair of tree t with seed under key,
// forgetting the oldest repair if the cache is full (and the one it
// remembers under the same hash).
func (c *repairCache) put(key repairKey, t *grammar.Tree, seed uint64, out *grammar.Tree) {
	if !key.ok {
		return
	}
	if out == t {
		out = nil // the caller's tree is returned
	}
	e := repairEntry{t, out, seed}
	if c.keysOnly {
		e = repairEntry{seed: seed}
	}
	if c.byKey == nil {
		c.byKey = make(map[uint64]repairEntry, repairCacheSize)
		c.ring = make([]uint64, repairCacheSize)
	}
	if _, ok := c.byKey[key.hash]; ok {
		c.byKey[key.hash] = e
		return // its key stays where it is in the ring
	}
	if len(c.byKey) >= repairCacheSize {
		delete(c.byKey, c.ring[c.next])
	}
	c.ring[c.next] = key.hash
	c.next = (c.next + 1) % len(c.ring)
	c.byKey[key.hash] = e
}
