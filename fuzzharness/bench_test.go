package fuzzharness

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// BenchmarkDecode measures decoding random fuzzer bytes of 100 B and 1 KB
// into inputs of the json and expr (calc) grammars with the default bounds:
// with the tree (Decode), and only the text, as the harness decodes for
// targets without a validity predicate (the tree is built on demand).
func BenchmarkDecode(b *testing.B) {
	for _, name := range []string{"json", "expr"} {
		gr := grammar.MustCompile(grammar.MustBuiltin(name))
		c, err := NewCodec(gr)
		if err != nil {
			b.Fatal(err)
		}
		for _, size := range []int{100, 1000} {
			rng := rand.New(rand.NewPCG(uint64(size), 1))
			inputs := make([][]byte, 64)
			out := 0
			for i := range inputs {
				inputs[i] = make([]byte, size)
				for j := range inputs[i] {
					inputs[i][j] = byte(rng.Uint32())
				}
				out += c.Decode(inputs[i]).Len()
			}
			b.Run(fmt.Sprintf("%s/%dB", name, size), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(size))
				for i := 0; b.Loop(); i++ {
					c.Decode(inputs[i%len(inputs)])
				}
				b.ReportMetric(float64(out)/float64(len(inputs)), "text-bytes/op")
			})
			// What the harness does for targets that need no tree.
			b.Run(fmt.Sprintf("%s/%dB/text", name, size), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(size))
				for i := 0; b.Loop(); i++ {
					c.decodeText(inputs[i%len(inputs)])
				}
				b.ReportMetric(float64(out)/float64(len(inputs)), "text-bytes/op")
			})
		}
	}
}

// BenchmarkEncode measures encoding the trees that BenchmarkDecode decodes.
func BenchmarkEncode(b *testing.B) {
	for _, name := range []string{"json", "expr"} {
		gr := grammar.MustCompile(grammar.MustBuiltin(name))
		c, err := NewCodec(gr)
		if err != nil {
			b.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 1))
		data := make([]byte, 1000)
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		tree := c.Decode(data).Tree()
		b.Run(name+"/1000B", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Encode(tree); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
