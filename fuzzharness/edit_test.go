package fuzzharness

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

func TestApplyEdits(t *testing.T) {
	for _, tc := range []struct {
		text, tail string
		max        int
		want       string
		edited     bool
	}{
		{"abc", "", 2, "abc", false},
		{"abc", "\x03\x00\x00\x00X", 2, "abc", false},             // 3 mod 3 = 0 edits
		{"abc", "\x01\x00\x00\x00X", 0, "abc", false},             // edits not allowed
		{"abc", "\x01\x00\x00\x00X", 2, "Xabc", true},             // insert at the front
		{"abc", "\x01\x00\xff\xffX", 2, "abcX", true},             // insert at the end
		{"abc", "\x01\x01\x80\x00", 2, "ab", true},                // delete at 2*4>>8 = 2
		{"abc", "\x01\x01\xff\xff", 2, "ab", true},                // delete at the end
		{"abc", "\x01\x02\x00\x00Z", 2, "Zbc", true},              // replace
		{"abc", "\x01\x05\x40\x00Z", 2, "aZc", true},              // kind 5 mod 3 = replace, at 1
		{"abc", "\x02\x01\x00\x00\x00\x01\x00\x00", 2, "c", true}, // two deletions at the front
		{"", "\x01\x01\x00\x00", 2, "", true},                     // nothing to delete
		{"", "\x01\x00\x00\x00Q", 2, "Q", true},                   // the tail ends: zeros
		{"abc", "\x01", 2, "\x00abc", true},                       // the whole edit reads zeros
	} {
		got, edited := applyEdits([]byte(tc.text), []byte(tc.tail), tc.max)
		if string(got) != tc.want || edited != tc.edited {
			t.Errorf("applyEdits(%q, %q, %d) = %q, %v; want %q, %v", tc.text, tc.tail, tc.max, got, edited, tc.want, tc.edited)
		}
	}
}

// TestDecodeEdits checks that byte edits change the text, not the tree, and
// that encoded trees and zero tails are never edited.
func TestDecodeEdits(t *testing.T) {
	gr := grammar.MustCompile(grammar.MustBuiltin("json"))
	c, err := NewCodec(gr, WithMaxEdits(2))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := NewCodec(gr)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := plain.Parse(`{"a": [1, true]}`)
	if err != nil {
		t.Fatal(err)
	}
	data, err := c.Encode(tree)
	if err != nil {
		t.Fatal(err)
	}
	in := c.Decode(data)
	if in.String() != `{"a": [1, true]}` || in.Edited() || in.Original() != in.String() {
		t.Fatalf("encoded tree decodes to %q (edited %v)", in, in.Edited())
	}
	if in := c.Decode(append(data, 0, 0, 0, 0, 0)); in.Edited() || in.String() != `{"a": [1, true]}` {
		t.Errorf("a tail of zeros decodes to %q (edited %v)", in, in.Edited())
	}
	// One edit: delete the byte at the middle. Encode leaves out trailing
	// zeros, which the decisions read past the end of data: the tail starts
	// after them.
	edited := append([]byte(nil), data...)
	edited = append(edited, make([]byte, in.Used()-len(data))...)
	edited = append(edited, 1, 1, 0x80, 0)
	for _, in := range []Input{c.Decode(edited), c.decodeText(edited)} {
		if !in.Edited() || in.Original() != `{"a": [1, true]}` || in.String() != `{"a": [1 true]}` {
			t.Errorf("edited input %q (edited %v) of %q", in, in.Edited(), in.Original())
		}
		if !in.Tree().Equal(tree) {
			t.Errorf("the tree of an edited input is %s, want %s", in.Tree(), tree)
		}
		if d := in.Describe(); !strings.Contains(d, `byte edits of (16 bytes): "{\"a\": [1, true]}"`) {
			t.Errorf("Describe does not show the original:\n%s", d)
		}
	}
	// Without MaxEdits the tail means nothing.
	if in := plain.Decode(edited); in.Edited() || in.String() != `{"a": [1, true]}` {
		t.Errorf("without MaxEdits: %q (edited %v)", in, in.Edited())
	}
	if _, err := NewCodec(gr, WithMaxEdits(-1)); err == nil {
		t.Error("MaxEdits -1 accepted")
	}
}

// TestDecodeEditsRandom decodes random byte strings with edits allowed: no
// panic, Decode and the text-only decoding agree, and a share of the inputs
// is edited while most are not.
func TestDecodeEditsRandom(t *testing.T) {
	gr := grammar.MustCompile(grammar.MustBuiltin("expr"))
	c, err := NewCodec(gr, WithMaxEdits(2))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	edited := 0
	const n = 3000
	for range n {
		data := make([]byte, rng.IntN(60))
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		a, b := c.Decode(data), c.decodeText(data)
		if a.String() != b.String() || a.Edited() != b.Edited() || a.Original() != b.Original() {
			t.Fatalf("%x: Decode %q (%v), decodeText %q (%v)", data, a, a.Edited(), b, b.Edited())
		}
		if a.Edited() {
			edited++
			if d := len(a.String()) - len(a.Original()); d < -2 || d > 2 {
				t.Fatalf("%x: %q is %d bytes from %q", data, a, d, a.Original())
			}
		} else if a.String() != a.Tree().String() {
			t.Fatalf("%x: unedited %q, tree %q", data, a, a.Tree())
		}
	}
	if edited == 0 || edited > n/2 {
		t.Errorf("%d of %d random inputs edited", edited, n)
	}
	t.Logf("%d of %d random inputs edited", edited, n)
}
