package grammar

import (
	"fmt"
	"testing"
)

// BenchmarkGenerate measures bounded random generation in tree nodes per
// second (reported as nodes/s), with the default limits.
func BenchmarkGenerate(b *testing.B) {
	for _, name := range []string{"expr", "json", "csv", "url", "xml"} {
		b.Run(name, func(b *testing.B) {
			gr := MustCompile(MustBuiltin(name))
			gen := NewGenerator(gr, 1)
			nodes := 0
			b.ReportAllocs()
			for b.Loop() {
				t, err := gen.Generate()
				if err != nil {
					b.Fatal(err)
				}
				nodes += t.Size()
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}

// BenchmarkKPathTrees measures Algorithm 1 with the terse close-off from
// scratch (compiling the graph and its path table included), and reports the
// number of inputs (trees).
func BenchmarkKPathTrees(b *testing.B) {
	for _, name := range []string{"json", "csv", "url"} {
		for _, k := range []int{1, 2, 3, 5} {
			b.Run(fmt.Sprintf("%s/k=%d", name, k), func(b *testing.B) {
				g := MustBuiltin(name)
				n := 0
				for b.Loop() {
					f, err := MustCompile(g).KPathTrees(k, nil)
					if err != nil {
						b.Fatal(err)
					}
					n = len(f)
				}
				b.ReportMetric(float64(n), "inputs")
			})
		}
	}
}
