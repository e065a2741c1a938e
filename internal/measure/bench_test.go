package measure

import (
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/seed72891827/kfuzz/internal/gocmd"
	"github.com/seed72891827/kfuzz/internal/protocol"
)

// benchRunner builds examples/calc's FuzzCalc and returns its seeds.
func benchRunner(b *testing.B) (*Runner, []Input) {
	b.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		b.Skip("the go command is not available")
	}
	ctx := context.Background()
	r, err := Build(ctx, Config{Dir: "../../examples/calc", Target: "FuzzCalc"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.Close() })
	d, err := r.Describe(ctx)
	if err != nil {
		b.Fatal(err)
	}
	ins, err := SeedInputs(d)
	if err != nil {
		b.Fatal(err)
	}
	return r, ins
}

// BenchmarkRun measures Run over the seeds of FuzzCalc and over 1,000
// random byte strings for its harness: one start of the prebuilt test
// binary and the inputs in it.
func BenchmarkRun(b *testing.B) {
	r, seeds := benchRunner(b)
	rng := rand.New(rand.NewPCG(1, 1))
	random := make([]Input, 1000)
	for i := range random {
		data := make([]byte, 8+rng.IntN(32))
		for k := range data {
			data[k] = byte(rng.Uint32())
		}
		random[i] = Input{Data: data}
	}
	ctx := context.Background()
	for _, bc := range []struct {
		name string
		ins  []Input
	}{{"seeds", seeds}, {"random1000", random}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := r.Run(ctx, bc.ins); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(bc.ins)), "ns/input")
		})
	}
}

// BenchmarkGoTestRun measures the alternative that Build avoids: running
// go test -overlay for every run over the same inputs instead of a test
// binary built once (the build itself comes from the build cache).
func BenchmarkGoTestRun(b *testing.B) {
	r, ins := benchRunner(b)
	in := filepath.Join(r.tmp, "bench.inputs.jsonl")
	if err := protocol.WriteInputs(in, r.inputRecords(ins, seq(len(ins)))); err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(r.tmp, "bench.out.jsonl")
	goTest := gocmd.Runner{Dir: r.pkg.Dir, Env: append(os.Environ(), protocol.EnvInputs+"="+in, protocol.EnvOut+"="+out)}
	b.ResetTimer()
	for b.Loop() {
		if data, err := goTest.Go(context.Background(), "test", "-count=1", "-overlay="+filepath.Join(r.tmp, "overlay.json"), "-run=^FuzzCalc$", "."); err != nil {
			b.Fatalf("%v\n%s", err, data)
		}
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
