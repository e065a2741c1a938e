package coverage

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/tools/cover"

	"github.com/seed72891827/kfuzz/coverage/internal/meta"
)

func TestProfileRoundTrip(t *testing.T) {
	p, ctrs := fakeProcess(t, syntheticMeta("example.com/b", 2, 3), syntheticMeta("example.com/a", 3, 2))
	for i := range ctrs[0] {
		ctrs[0][i] = uint32(i % 3)
	}
	ctrs[1][4] = 9
	c := p.Snapshot()
	var buf bytes.Buffer
	if err := c.WriteProfile(&buf); err != nil {
		t.Fatal(err)
	}
	want := `mode: count
example.com/a/f.go:1.10,2.1 1 0
example.com/a/f.go:2.10,3.1 2 0
example.com/a/f.go:5.10,6.1 1 0
example.com/a/f.go:6.10,7.1 2 0
example.com/a/f.go:9.10,10.1 1 9
example.com/a/f.go:10.10,11.1 2 0
example.com/b/f.go:1.10,2.1 1 0
example.com/b/f.go:2.10,3.1 2 1
example.com/b/f.go:3.10,4.1 3 2
example.com/b/f.go:6.10,7.1 1 0
example.com/b/f.go:7.10,8.1 2 1
example.com/b/f.go:8.10,9.1 3 2
`
	if buf.String() != want {
		t.Errorf("profile\n%s\nwant\n%s", buf.String(), want)
	}
	profiles, err := cover.ParseProfilesFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	back, err := p.Table().ImportProfiles(profiles)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Funcs().Equal(c.Funcs()) {
		t.Errorf("imported %v, want %v", back.Funcs(), c.Funcs())
	}
	for i := range c.n {
		if back.Block(i) != c.Block(i) {
			t.Errorf("block %d: imported %d, want %d", i, back.Block(i), c.Block(i))
		}
	}

	// Aggregation, and set mode written as 0 or 1.
	sum := c.Clone()
	sum.Add(c)
	if sum.Block(4) != 18 || c.Block(4) != 9 {
		t.Errorf("Add: %d, original %d", sum.Block(4), c.Block(4))
	}
	set := syntheticMeta("example.com/s", 1, 1)
	set.Mode = "set"
	sp, sctrs := fakeProcess(t, set)
	sctrs[0][0] = 1
	sc := sp.Snapshot()
	sc.Add(sp.Snapshot())
	buf.Reset()
	sc.WriteProfile(&buf)
	if buf.String() != "mode: set\nexample.com/s/f.go:1.10,2.1 1 1\n" {
		t.Errorf("set profile %q", buf.String())
	}
}

// TestImportSplitDifferently maps profile blocks that do not match ours
// one to one.
func TestImportSplitDifferently(t *testing.T) {
	p, _ := fakeProcess(t, syntheticMeta("example.com/a", 2, 3))
	// Our blocks: F0 lines 1-4 (three blocks), F1 lines 6-9.
	profiles, err := cover.ParseProfilesFromReader(strings.NewReader(`mode: set
example.com/a/f.go:1.10,2.5 1 1
example.com/a/f.go:2.5,4.1 4 0
example.com/a/f.go:7.1,8.20 2 1
example.com/other/x.go:1.1,2.1 1 1
`))
	if err != nil {
		t.Fatal(err)
	}
	c, err := p.Table().ImportProfiles(profiles)
	if err != nil {
		t.Fatal(err)
	}
	var got []uint64
	for i := range p.Table().NumBlocks() {
		got = append(got, c.Block(i))
	}
	// Only F0's first block overlaps 1.10-2.5; its others lie in
	// 2.5-4.1. F1's first block ends at 7.1, where 7.1-8.20 starts, so
	// only its second and third overlap it.
	want := []uint64{1, 0, 0, 0, 1, 1}
	if len(got) != len(want) {
		t.Fatalf("%d blocks", len(got))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("counts %v, want %v", got, want)
			break
		}
	}
	if c.Funcs().String() != "{example.com/a.F0}" {
		t.Errorf("functions %v", c.Funcs())
	}

	_, err = p.Table().ImportProfiles(profiles[1:])
	if err == nil || !strings.Contains(err.Error(), "no block of the profile") {
		t.Errorf("error %v for a profile of other packages", err)
	}
}

func TestTableFuncAt(t *testing.T) {
	// func F() {          line 3
	//	g := func() {  line 4, literal from column 7
	//		_ = 1
	//	}              line 6, literal to column 3
	//	g()
	// }                  line 8
	//
	// func G() {}        line 10
	m := &meta.Package{Mode: "count", Files: []string{"example.com/p/f0.go"}, Funcs: []meta.Func{
		{Name: "example.com/p.F", Start: meta.Pos{Line: 3, Col: 1}, End: meta.Pos{Line: 8, Col: 2}, Entry: -1},
		{Name: "example.com/p.F.func1", Start: meta.Pos{Line: 4, Col: 7}, End: meta.Pos{Line: 6, Col: 3}, Entry: -1, Closure: true},
		{Name: "example.com/p.G", Start: meta.Pos{Line: 10, Col: 1}, End: meta.Pos{Line: 10, Col: 12}, Entry: -1},
	}}
	table, err := NewTableFromMetadata([]Metadata{{Path: "example.com/p", Text: m.Encode()}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		pos  Pos
		want string
	}{
		{Pos{3, 1}, "example.com/p.F"}, {Pos{4, 6}, "example.com/p.F"}, {Pos{4, 7}, "example.com/p.F.func1"},
		{Pos{6, 2}, "example.com/p.F.func1"}, {Pos{6, 3}, "example.com/p.F"}, {Pos{8, 1}, "example.com/p.F"},
		{Pos{10, 5}, "example.com/p.G"}, {Pos{9, 1}, ""}, {Pos{1, 1}, ""},
	} {
		i, ok := table.FuncAt("example.com/p/f0.go", tt.pos)
		got := ""
		if ok {
			got = table.Func(i).Name
		}
		if got != tt.want {
			t.Errorf("FuncAt(%v) = %q, want %q", tt.pos, got, tt.want)
		}
	}
	if _, ok := table.FuncAt("example.com/p/other.go", Pos{3, 1}); ok {
		t.Error("FuncAt found a function in an unknown file")
	}
}
