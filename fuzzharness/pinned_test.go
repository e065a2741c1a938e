package fuzzharness

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"testing"
)

// pinnedDigests are the SHA-256 digests of the decodings of
// pinnedInputs with each built-in grammar, as the harness decodes them
// (default bounds, two byte edits): a change to the decoder that changes
// any decision, text, edit or Used count changes a digest. The corpora
// users keep in testdata/fuzz depend on the decodings staying the same.
var pinnedDigests = map[string]string{
	"csv":         "c1a9e08bcc8e55064ac1ba920960992e59eadb53d37d1eba45dbba0d83ad8a11",
	"expr":        "ab1f71603d35debd301825d9f9dccb18aedae0daf83cdcd1e497a327bfccc2bb",
	"json":        "7c9c3155d7935ae55dc87c5857ad6be58a62e1308a7cefe5dacce9ffc535995c",
	"rest":        "730a1238a37e357ebcc5fa87d59a107fe3e8f6b8a4d23da50167bf0a50d95e8f",
	"scriptsizec": "2afec5351909bcb1da8b077178a0ae76f5d78061d88eeeaa77d8a6477547d5fc",
	"tar":         "72e36ac46d2bac1d5bf9f0d441d73b8c30fc81f5a1d219f037b2902526bc1cee",
	"tinyc":       "d948a4dd7284211f0220f05ba632ed0f4653d327391235e1a37f1440fff8d873",
	"url":         "b683c3222b35cd7fe018cc06b36d817678eef1e3ee7b2d7faa982e850f092d0b",
	"xml":         "72e7deb362d84d2ad8dd628985faa76c40ad1dee2343720a40e29c46e2bb6107",
}

// pinnedInputs returns n byte strings of 0 to 599 random bytes, the same
// on every call.
func pinnedInputs(n int) [][]byte {
	rng := rand.New(rand.NewPCG(21, 6))
	out := make([][]byte, n)
	for i := range out {
		data := make([]byte, rng.IntN(600))
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		out[i] = data
	}
	return out
}

// TestDecodePinned checks the decodings of fixed random bytes against
// their pinned digests, for the text-only decoding the harness uses and
// for the decoding with the tree.
func TestDecodePinned(t *testing.T) {
	inputs := pinnedInputs(300)
	for name, gr := range builtinGraphs(t) {
		cfg := newConfig([]Option{WithMaxEdits(2)})
		c, err := newCodec(gr, cfg.boundsFor(gr))
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		for _, data := range inputs {
			text, full := c.decodeText(data), c.Decode(data)
			fmt.Fprintf(h, "%q %q %d %t\n", text.String(), text.Original(), text.Used(), text.Edited())
			fmt.Fprintf(h, "%q %q %d %t\n", full.String(), full.Tree().String(), full.Used(), full.Edited())
		}
		got := hex.EncodeToString(h.Sum(nil))
		if want, ok := pinnedDigests[name]; !ok {
			t.Errorf("%s: no pinned digest; the decodings hash to %s", name, got)
		} else if got != want {
			t.Errorf("%s: the decodings hash to %s, pinned %s: the decoder's output changed", name, got, want)
		}
	}
}

// TestDecodePinnedExamples pins a few decodings of json and expr bytes in
// full, to show what changed when TestDecodePinned fails.
func TestDecodePinnedExamples(t *testing.T) {
	graphs := builtinGraphs(t)
	for _, tc := range []struct {
		grammar string
		data    string
		want    string
		used    int
	}{
		{"json", "", "null", 3},
		{"json", "\x00\x03\x01\x00\x01\x00\x00\x00?\x00\x00\x04\x01\x00\x05\x00\x01\x00\x00\x00\x00\x00\x01\x00\x02", "{\"a\":[1,true]}", 29},
		// Bytes past the encoding are decisions: white space here.
		{"json", "\x00\x03\x01\x00\x01\x00\x00\x00?\x00\x00\x04\x01\x00\x05\x00\x01\x00\x00\x00\x00\x00\x01\x00\x02\x01\x00\x80\x00A", "{\"a\":[1,true\t]\t\n\t\t\t\t\t\t\t}", 39},
		{"json", "\x00\x04\x01\x00\x05\x01\x00\x01\x00\x05\x01\x00\x00\x00\x03\x00\x01\x01\x03\x06\x02\x00\x00\x00V\x01\x05", "[-0.5e3, \"x\\n\"]", 29},
		{"expr", "\x00\x01\x01\x00\x05\x01\x00\x00\x00\x00\x01\x00\x06\x00\x01\x01\x00\x01\x02\x06\x00\x03", "(x-1)/y%3", 22},
		// The bytes after Used are byte edits: one insertion, then a
		// deletion and a replacement.
		{"expr", "\x00\x01\x01\x00\x05\x01\x00\x00\x00\x00\x01\x00\x06\x00\x01\x01\x00\x01\x02\x06\x00\x03\x01\x00\x80\x00A", "(x-1)A/y%3", 22},
		{"expr", "\x00\x01\x01\x00\x05\x01\x00\x00\x00\x00\x01\x00\x06\x00\x01\x01\x00\x01\x02\x06\x00\x03\x02\x01\x00\x10\x00\x02\xff\xff*", "x-1)/y%*", 22},
		{"expr", "\x01\x00\x00\x04\x00\x02\x00\x00\x02", "--z+-x", 11},
		{"expr", "hello, world", "++29148000000*x", 20},
	} {
		cfg := newConfig([]Option{WithMaxEdits(2)})
		c, err := newCodec(graphs[tc.grammar], cfg.boundsFor(graphs[tc.grammar]))
		if err != nil {
			t.Fatal(err)
		}
		in := c.decodeText([]byte(tc.data))
		if in.String() != tc.want || in.Used() != tc.used {
			t.Errorf("%s: %q decodes to %q (used %d), want %q (used %d)", tc.grammar, tc.data, in.String(), in.Used(), tc.want, tc.used)
		}
	}
}
