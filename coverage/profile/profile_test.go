package profile_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/cover"

	"github.com/seed72891827/kfuzz/coverage"
	"github.com/seed72891827/kfuzz/coverage/internal/metatest"
	"github.com/seed72891827/kfuzz/coverage/profile"
)

// table returns the table of made-up packages of nfuncs functions of per
// blocks each (see metatest.Package).
func table(t *testing.T, nfuncs, per int, paths ...string) *coverage.Table {
	t.Helper()
	var md []coverage.Metadata
	for _, path := range paths {
		md = append(md, coverage.Metadata{Path: path, Text: metatest.Package(path, nfuncs, per).Encode()})
	}
	tab, err := coverage.NewTableFromMetadata(md)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestRoundTrip writes counts as a profile and imports them again.
func TestRoundTrip(t *testing.T) {
	tab := table(t, 2, 3, "example.com/b", "example.com/a")
	c := coverage.NewCounts(tab)
	for i := range tab.NumBlocks() {
		c.SetBlock(i, uint64(i%4))
	}
	var buf bytes.Buffer
	if err := c.WriteProfile(&buf); err != nil {
		t.Fatal(err)
	}
	profiles, err := cover.ParseProfilesFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	back, err := profile.Import(tab, profiles)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Funcs().Equal(c.Funcs()) {
		t.Errorf("imported %v, want %v", back.Funcs(), c.Funcs())
	}
	for i := range tab.NumBlocks() {
		if back.Block(i) != c.Block(i) {
			t.Errorf("block %d: imported %d, want %d", i, back.Block(i), c.Block(i))
		}
	}
}

// TestSplitDifferently maps profile blocks that do not match ours one to
// one.
func TestSplitDifferently(t *testing.T) {
	tab := table(t, 2, 3, "example.com/a")
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
	c, err := profile.Import(tab, profiles)
	if err != nil {
		t.Fatal(err)
	}
	var got []uint64
	for i := range tab.NumBlocks() {
		got = append(got, c.Block(i))
	}
	// Only F0's first block overlaps 1.10-2.5; its others lie in
	// 2.5-4.1. F1's first block ends at 7.1, where 7.1-8.20 starts, so
	// only its second and third overlap it.
	if want := []uint64{1, 0, 0, 0, 1, 1}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("counts %v, want %v", got, want)
	}
	if c.Funcs().String() != "{example.com/a.F0}" {
		t.Errorf("functions %v", c.Funcs())
	}

	_, err = profile.Import(tab, profiles[1:])
	if err == nil || !strings.Contains(err.Error(), "no block of the profile") {
		t.Errorf("error %v for a profile of other packages", err)
	}
}
