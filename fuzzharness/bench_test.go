package fuzzharness

import (
	"fmt"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// benchInputs returns the encodings of generated json or expr inputs whose
// text is within 20% of size bytes, and a codec with room for them.
func benchInputs(b *testing.B, name string, size int) (*Codec, [][]byte) {
	b.Helper()
	gr := grammar.MustCompile(grammar.MustBuiltin(name))
	bounds := Bounds{MaxDepth: DefaultMaxDepth, MaxSize: 20000, MaxRepeat: DefaultMaxRepeat}
	c, err := NewCodec(gr, WithBounds(bounds))
	if err != nil {
		b.Fatal(err)
	}
	gen := grammar.NewGenerator(gr, uint64(size))
	gen.MaxDepth, gen.MaxSize, gen.MaxRepeat = bounds.MaxDepth, bounds.MaxSize, bounds.MaxRepeat
	var inputs [][]byte
	for tries := 0; len(inputs) < 32; tries++ {
		if tries > 200000 {
			b.Fatalf("%s: found only %d inputs of about %d bytes", name, len(inputs), size)
		}
		t, err := gen.Generate()
		if err != nil {
			b.Fatal(err)
		}
		if n := t.Len(); n < size*8/10 || n > size*12/10 {
			continue
		}
		data, err := c.Encode(t)
		if err != nil {
			b.Fatal(err)
		}
		inputs = append(inputs, data)
	}
	return c, inputs
}

// BenchmarkDecode measures decoding json and expr (calc) inputs of about
// 100 B and 1 KB of text from their fuzzer bytes: with the tree (Decode),
// and the text only, as the harness decodes for targets without a validity
// predicate (the tree is then built on demand).
func BenchmarkDecode(b *testing.B) {
	for _, name := range []string{"json", "expr"} {
		for _, size := range []int{100, 1000} {
			c, inputs := benchInputs(b, name, size)
			data, text := 0, 0
			for _, in := range inputs {
				data += len(in)
				text += c.Decode(in).Len()
			}
			for _, mode := range []string{"tree", "text"} {
				b.Run(fmt.Sprintf("%s/%dB/%s", name, size, mode), func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(text / len(inputs)))
					for i := 0; b.Loop(); i++ {
						if mode == "tree" {
							c.Decode(inputs[i%len(inputs)])
						} else {
							c.decodeText(inputs[i%len(inputs)])
						}
					}
					b.ReportMetric(float64(data)/float64(len(inputs)), "data-bytes/op")
				})
			}
		}
	}
}

// BenchmarkEncode measures encoding the trees of the same inputs.
func BenchmarkEncode(b *testing.B) {
	for _, name := range []string{"json", "expr"} {
		for _, size := range []int{100, 1000} {
			c, inputs := benchInputs(b, name, size)
			trees := make([]*grammar.Tree, len(inputs))
			for i, in := range inputs {
				trees[i] = c.Decode(in).Tree()
			}
			b.Run(fmt.Sprintf("%s/%dB", name, size), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					if _, err := c.Encode(trees[i%len(trees)]); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
