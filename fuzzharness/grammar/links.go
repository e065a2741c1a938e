package grammar

// linkStore holds the further links of a parse (xlinks, sorted by item) in
// chunks of a fixed size. Growing it never copies links: a slice grown by
// append would hold the old and the new array at once, and on an ambiguous
// grammar, where links are most of the forest, that would double the peak
// memory of a parse.
type linkStore struct {
	chunks [][]xlink
	n      int
}

const (
	linkChunkBits = 16
	linkChunk     = 1 << linkChunkBits
)

// len returns the number of links.
func (ls *linkStore) len() int { return ls.n }

// at returns link k.
func (ls *linkStore) at(k int) *xlink { return &ls.chunks[k>>linkChunkBits][k&(linkChunk-1)] }

// append appends xs.
func (ls *linkStore) append(xs []xlink) {
	for len(xs) > 0 {
		if ls.n == len(ls.chunks)*linkChunk {
			ls.chunks = append(ls.chunks, make([]xlink, linkChunk))
		}
		c := ls.chunks[ls.n>>linkChunkBits][ls.n&(linkChunk-1):]
		k := copy(c, xs)
		ls.n += k
		xs = xs[k:]
	}
}

// extend adds n links, to be set with at.
func (ls *linkStore) extend(n int) {
	ls.n += n
	for len(ls.chunks)*linkChunk < ls.n {
		ls.chunks = append(ls.chunks, make([]xlink, linkChunk))
	}
}

// bytes returns the memory the store holds.
func (ls *linkStore) bytes() int { return len(ls.chunks) * linkChunk * 12 }

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
