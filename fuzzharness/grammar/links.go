package grammar

import "slices"

// linkStore holds the further links of a parse (xlinks, sorted by item) in
// chunks of a fixed size. Past the first chunk, growing it never copies
// links: a slice grown by append would hold the old and the new array at
// once, and on an ambiguous grammar, where links are most of the forest,
// that would double the peak memory of a parse. The first chunk starts
// small and doubles up to the fixed size, a copy of at most one chunk.
type linkStore struct {
	chunks [][]xlink
	n      int
}

const (
	linkChunkBits = 16
	linkChunk     = 1 << linkChunkBits
	// firstLinks is the first chunk's first size. The first chunk grows
	// by doubling up to linkChunk, so that a short parse, which has a few
	// dozen links, does not allocate a whole chunk (768 KiB).
	firstLinks = 64
)

// len returns the number of links.
func (ls *linkStore) len() int { return ls.n }

// at returns link k.
func (ls *linkStore) at(k int) *xlink { return &ls.chunks[k>>linkChunkBits][k&(linkChunk-1)] }

// append appends xs.
func (ls *linkStore) append(xs []xlink) {
	base := ls.n
	ls.extend(len(xs))
	for len(xs) > 0 {
		k := copy(ls.chunks[base>>linkChunkBits][base&(linkChunk-1):], xs)
		base += k
		xs = xs[k:]
	}
}

// extend adds n links, to be set with at.
func (ls *linkStore) extend(n int) {
	ls.n += n
	if len(ls.chunks) == 0 {
		ls.chunks = append(ls.chunks, nil)
	}
	if first := ls.chunks[0]; len(ls.chunks) == 1 && len(first) < min(ls.n, linkChunk) {
		size := max(len(first), firstLinks)
		for size < ls.n {
			size *= 2
		}
		grown := make([]xlink, min(size, linkChunk))
		copy(grown, first)
		ls.chunks[0] = grown
	}
	for len(ls.chunks)*linkChunk < ls.n {
		ls.chunks = append(ls.chunks, make([]xlink, linkChunk))
	}
}

// clone returns a copy of ls that shares no memory with it.
func (ls *linkStore) clone() linkStore {
	c := linkStore{n: ls.n, chunks: make([][]xlink, len(ls.chunks))}
	for i, ch := range ls.chunks {
		c.chunks[i] = slices.Clone(ch)
	}
	return c
}

// bytes returns the memory the store holds.
func (ls *linkStore) bytes() int {
	n := 0
	for _, c := range ls.chunks {
		n += len(c)
	}
	return n * 12
}

// find returns the range lo..hi of the links of item i.
func (ls *linkStore) find(i int32) (lo, hi int) {
	lo, hi = 0, ls.n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ls.at(m).item < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	hi = lo
	for hi < ls.n && ls.at(hi).item == i {
		hi++
	}
	return lo, hi
}
