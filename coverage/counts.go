package coverage

import (
	"bufio"
	"fmt"
	"io"
	"sort"

	"golang.org/x/tools/cover"
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

// ImportProfiles maps cover profiles (as parsed by
// golang.org/x/tools/cover, for instance from go test -coverprofile) onto
// the blocks of t, matching files by name and blocks by extent. A block of
// t gets the largest count of the profile blocks that overlap it, so that
// profiles whose blocks are split differently still map onto the right
// functions, as go tool cover -func maps blocks to functions by their
// extents. Profile blocks of files that t does not know are ignored; it is
// an error if no block matches at all.
func (t *Table) ImportProfiles(profiles []*cover.Profile) (*Counts, error) {
	c := NewCounts(t)
	byFile := make(map[string][]int)
	for i, b := range t.blocks {
		f := t.funcs[b.Func].File
		byFile[f] = append(byFile[f], i)
	}
	for _, bs := range byFile {
		sort.Slice(bs, func(a, b int) bool { return t.blocks[bs[a]].Start.before(t.blocks[bs[b]].Start) })
	}
	matched := 0
	for _, p := range profiles {
		ours := byFile[p.FileName]
		for _, pb := range p.Blocks {
			ps, pe := Pos{pb.StartLine, pb.StartCol}, Pos{pb.EndLine, pb.EndCol}
			// Visit our blocks overlapping [ps, pe). Blocks are disjoint, so their ends are sorted too.
			k := sort.Search(len(ours), func(k int) bool { return ps.before(t.blocks[ours[k]].End) })
			for ; k < len(ours); k++ {
				b := t.blocks[ours[k]]
				if !b.Start.before(pe) {
					break
				}
				if !ps.before(b.End) {
					continue
				}
				matched++
				if n := uint64(max(pb.Count, 0)); n > c.n[ours[k]] {
					c.n[ours[k]] = n
				}
			}
		}
	}
	if matched == 0 && len(profiles) > 0 {
		return nil, fmt.Errorf("coverage: no block of the profile lies in the %d instrumented packages %v", len(t.pkgs), t.Packages())
	}
	return c, nil
}
