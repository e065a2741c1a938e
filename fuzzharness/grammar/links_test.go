package grammar

import "testing"

// TestLinkStoreGrowth checks that links keep their values while the first
// chunk doubles and later chunks are added, and that a short parse's
// store holds little memory.
func TestLinkStoreGrowth(t *testing.T) {
	var ls linkStore
	want := 0
	add := func(n int, viaExtend bool) {
		if viaExtend {
			base := ls.len()
			ls.extend(n)
			for k := range n {
				ls.at(base + k).item = int32(want + k)
			}
		} else {
			xs := make([]xlink, n)
			for k := range xs {
				xs[k].item = int32(want + k)
			}
			ls.append(xs)
		}
		want += n
	}
	add(3, false)
	if got := ls.bytes(); got != firstLinks*12 {
		t.Errorf("3 links hold %d bytes, want %d", got, firstLinks*12)
	}
	for i, n := range []int{1, 60, 5, 200, 1000, 30000, 40000, linkChunk, 17} {
		add(n, i%2 == 1)
	}
	if ls.len() != want {
		t.Fatalf("len %d, want %d", ls.len(), want)
	}
	for k := range want {
		if got := ls.at(k).item; got != int32(k) {
			t.Fatalf("link %d holds %d", k, got)
		}
	}
	if chunks := (want + linkChunk - 1) / linkChunk; ls.bytes() != chunks*linkChunk*12 {
		t.Errorf("%d links hold %d bytes, want %d full chunks", want, ls.bytes(), chunks)
	}
}
