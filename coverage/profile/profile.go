// Package profile maps Go cover profiles, the files that go test
// -coverprofile writes, onto the functions and blocks of a coverage table.
//
// It is apart from package coverage so that coverage, which test binaries
// link, needs nothing beyond the standard library and kfuzz: this package
// reads profiles with golang.org/x/tools/cover. [coverage.Counts.WriteProfile]
// writes them.
package profile

import (
	"fmt"
	"sort"

	"golang.org/x/tools/cover"

	"github.com/seed72891827/kfuzz/coverage"
)

// Import maps cover profiles (as parsed by golang.org/x/tools/cover, for
// instance from go test -coverprofile) onto the blocks of t, matching files
// by name and blocks by extent. A block of t gets the largest count of the
// profile blocks that overlap it, so that profiles whose blocks are split
// differently still map onto the right functions, as go tool cover -func
// maps blocks to functions by their extents. Profile blocks of files that t
// does not know are ignored; it is an error if no block matches at all.
func Import(t *coverage.Table, profiles []*cover.Profile) (*coverage.Counts, error) {
	c := coverage.NewCounts(t)
	byFile := make(map[string][]int)
	for i := range t.NumBlocks() {
		f := t.Func(t.Block(i).Func).File
		byFile[f] = append(byFile[f], i)
	}
	for _, bs := range byFile {
		sort.Slice(bs, func(a, b int) bool { return before(t.Block(bs[a]).Start, t.Block(bs[b]).Start) })
	}
	matched := 0
	for _, p := range profiles {
		ours := byFile[p.FileName]
		for _, pb := range p.Blocks {
			ps, pe := coverage.Pos{Line: pb.StartLine, Col: pb.StartCol}, coverage.Pos{Line: pb.EndLine, Col: pb.EndCol}
			// Visit our blocks overlapping [ps, pe). Blocks are disjoint, so their ends are sorted too.
			k := sort.Search(len(ours), func(k int) bool { return before(ps, t.Block(ours[k]).End) })
			for ; k < len(ours); k++ {
				b := t.Block(ours[k])
				if !before(b.Start, pe) {
					break
				}
				if !before(ps, b.End) {
					continue
				}
				matched++
				if n := uint64(max(pb.Count, 0)); n > c.Block(ours[k]) {
					c.SetBlock(ours[k], n)
				}
			}
		}
	}
	if matched == 0 && len(profiles) > 0 {
		pkgs := t.Packages()
		return nil, fmt.Errorf("coverage: no block of the profile lies in the %d instrumented packages %v", len(pkgs), pkgs)
	}
	return c, nil
}

// before reports whether p comes before q.
func before(p, q coverage.Pos) bool {
	return p.Line < q.Line || p.Line == q.Line && p.Col < q.Col
}
