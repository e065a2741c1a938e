package coverage

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
)

// Counts holds one count per block of a [Table]: how often each block ran.
type Counts struct {
	table *Table
	n     []uint64
}

// NewCounts returns zero counts for the blocks of t.
func NewCounts(t *Table) *Counts {
	return &Counts{table: t, n: make([]uint64, len(t.blocks))}
}

// Table returns the table the counts belong to.
func (c *Counts) Table() *Table { return c.table }

// Block returns the count of block i.
func (c *Counts) Block(i int) uint64 { return c.n[i] }

// SetBlock sets the count of block i to n.
func (c *Counts) SetBlock(i int, n uint64) { c.n[i] = n }

// Hits returns how often function fn was entered: the count of the block
// that begins its body. It is 0 for a function without blocks.
func (c *Counts) Hits(fn int) uint64 {
	if e := c.table.entry[fn]; e >= 0 && e < len(c.n) {
		return c.n[e]
	}
	return 0
}

// Funcs returns the set of functions entered at least once.
func (c *Counts) Funcs() *FuncSet {
	s := NewFuncSet(c.table)
	c.addFuncs(s)
	return s
}

func (c *Counts) addFuncs(s *FuncSet) {
	s.grow(len(c.table.entry))
	for fn, e := range c.table.entry {
		if e >= 0 && e < len(c.n) && c.n[e] != 0 {
			s.words[fn/64] |= 1 << (fn % 64)
		}
	}
}

// Statements returns how many statements function fn has and how many of
// them ran, counting only the blocks of fn itself (not those of function
// literals inside it).
func (c *Counts) Statements(fn int) (covered, total int) {
	for i, b := range c.table.blocks {
		if b.Func == fn {
			total += b.NumStmt
			if c.n[i] != 0 {
				covered += b.NumStmt
			}
		}
	}
	return covered, total
}

// Add adds the counts of d to c. Both must belong to the same table.
func (c *Counts) Add(d *Counts) {
	if c.table != d.table {
		panic("coverage: Counts of different Tables")
	}
	for i, v := range d.n {
		c.n[i] += v
	}
}

// Clone returns a copy of c.
func (c *Counts) Clone() *Counts {
	return &Counts{table: c.table, n: append([]uint64(nil), c.n...)}
}

// WriteProfile writes the counts as a Go cover profile, the format of
// go test -coverprofile, which go tool cover -func and -html read. Files
// are named by import path ("import/path/file.go"). In set mode the counts
// are written as 0 or 1; hits mode is written as count mode.
func (c *Counts) WriteProfile(w io.Writer) error {
	t := c.table
	mode := t.Mode()
	bw := bufio.NewWriter(w)
	if mode == ModeHits {
		fmt.Fprintf(bw, "mode: %s\n", ModeCount)
	} else {
		fmt.Fprintf(bw, "mode: %s\n", mode)
	}
	order := make([]int, len(t.blocks))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		fa, fb := t.funcs[t.blocks[order[a]].Func].File, t.funcs[t.blocks[order[b]].Func].File
		if fa != fb {
			return fa < fb
		}
		return t.blocks[order[a]].Start.before(t.blocks[order[b]].Start)
	})
	for _, i := range order {
		b := t.blocks[i]
		n := c.n[i]
		if mode == ModeSet && n > 1 {
			n = 1
		}
		fmt.Fprintf(bw, "%s:%d.%d,%d.%d %d %d\n", t.funcs[b.Func].File,
			b.Start.Line, b.Start.Col, b.End.Line, b.End.Col, b.NumStmt, n)
	}
	return bw.Flush()
}

// MarshalJSON encodes the non-zero counts as a JSON object that maps the
// import path of each package of the table with a non-zero count to pairs of
// the index of a block within the package (the index of its counter) and
// the block's count, in block order:
//
//	{"example.com/calc": [0, 3, 4, 1], ...}
//
// This is how a test binary reports the counts of one input (see
// Process.Take); block indices within a package agree between all tables of
// the same instrumented code.
func (c *Counts) MarshalJSON() ([]byte, error) {
	m := make(map[string][]uint64)
	for _, p := range c.table.pkgs {
		var pairs []uint64
		for i, n := range c.n[p.blockBase : p.blockBase+p.nblocks] {
			if n != 0 {
				pairs = append(pairs, uint64(i), n)
			}
		}
		if pairs != nil {
			m[p.path] = pairs
		}
	}
	return json.Marshal(m)
}
