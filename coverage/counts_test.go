package coverage

import (
	"bytes"
	"testing"

	"github.com/seed72891827/kfuzz/coverage/internal/meta"
)

func TestWriteProfile(t *testing.T) {
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
