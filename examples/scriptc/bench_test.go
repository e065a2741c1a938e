package scriptc_test

import (
	"math/rand/v2"
	"testing"

	"github.com/seed72891827/kfuzz/examples/scriptc"
	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
)

// mutants returns n byte strings made as the fuzzer makes them: the
// encoding of a seed (a program the solver made) with one to four random
// bytes replaced, inserted or deleted.
func mutants(b *testing.B, gr *grammar.Graph, rep *solver.Repairer, n int) (*fuzzharness.Codec, [][]byte) {
	c, err := fuzzharness.NewCodec(gr)
	if err != nil {
		b.Fatal(err)
	}
	var seeds [][]byte
	for _, t := range rep.Seeds(16) {
		if data, err := c.Encode(t); err == nil {
			seeds = append(seeds, data)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	out := make([][]byte, n)
	for i := range out {
		data := append([]byte(nil), seeds[rng.IntN(len(seeds))]...)
		for range 1 + rng.IntN(4) {
			p := rng.IntN(len(data) + 1)
			switch rng.IntN(3) {
			case 0:
				if p < len(data) {
					data[p] = byte(rng.Uint32())
				}
			case 1:
				data = append(data[:p], append([]byte{byte(rng.Uint32())}, data[p:]...)...)
			default:
				if p < len(data) {
					data = append(data[:p], data[p+1:]...)
				}
			}
		}
		out[i] = data
	}
	return c, out
}

// BenchmarkExec measures the work of one execution of the fuzz targets on
// mutated seeds: decode, check the constraint, and (Repair) repair an
// invalid program or (Skip) skip it, then run the valid ones. The metric
// valid/op is the share of executions that ran the interpreter; kept/repair
// is the mean share of a repaired program's text that survives the repair
// (the longest common subsequence of the texts before and after, over the
// length before).
func BenchmarkExec(b *testing.B) {
	for _, repair := range []bool{true, false} {
		name := "Skip"
		if repair {
			name = "Repair"
		}
		b.Run(name, func(b *testing.B) {
			gr, rep := newRepairer(b)
			c, inputs := mutants(b, gr, rep, 500)
			valid, repaired, kept := 0, 0, 0.0
			i := 0
			b.ResetTimer()
			for b.Loop() {
				data := inputs[i%len(inputs)]
				i++
				tree := c.Decode(data).Tree()
				if !rep.Valid(tree) {
					if !repair {
						continue
					}
					t, ok := rep.Repair(tree, uint64(i))
					if !ok {
						continue
					}
					b.StopTimer()
					before := tree.String()
					if len(before) > 0 {
						kept += float64(lcs(before, t.String())) / float64(len(before))
						repaired++
					}
					b.StartTimer()
					tree = t
				}
				valid++
				p, err := scriptc.Parse(tree.String())
				if err != nil {
					b.Fatal(err)
				}
				p.Run(maxSteps)
			}
			b.ReportMetric(float64(valid)/float64(i), "valid/op")
			if repaired > 0 {
				b.ReportMetric(kept/float64(repaired), "kept/repair")
			}
		})
	}
}

// lcs returns the length of the longest common subsequence of a and b.
func lcs(a, b string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			switch {
			case a[i-1] == b[j-1]:
				cur[j] = prev[j-1] + 1
			case prev[j] >= cur[j-1]:
				cur[j] = prev[j]
			default:
				cur[j] = cur[j-1]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
