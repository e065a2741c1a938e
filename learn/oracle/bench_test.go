package oracle

import (
	"context"
	"os/exec"
	"strconv"
	"testing"
)

func atoi(b []byte) bool {
	_, err := strconv.Atoi(string(b))
	return err == nil
}

// The benchmarks measure oracle queries per second: an in-process Func
// (with the default timeout, which runs each call on its own goroutine, and
// without), the same batch through AcceptAll on all cores, and a Command
// (one process per query). Each reports queries/s.

func benchQueries(b *testing.B, o Oracle) {
	ctx := context.Background()
	in := []byte("12345")
	for b.Loop() {
		if _, err := o.Accept(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "queries/s")
}

func BenchmarkFuncNoTimeout(b *testing.B) { benchQueries(b, Func(atoi, Timeout(0))) }
func BenchmarkFuncTimeout(b *testing.B)   { benchQueries(b, Func(atoi)) }

func BenchmarkFuncAcceptAll(b *testing.B) {
	o := Func(atoi)
	ins := make([][]byte, 1000)
	for i := range ins {
		ins[i] = []byte(strconv.Itoa(i))
	}
	ctx := context.Background()
	for b.Loop() {
		if _, err := AcceptAll(ctx, o, ins); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(ins))/b.Elapsed().Seconds(), "queries/s")
}

func BenchmarkCommand(b *testing.B) {
	if _, err := exec.LookPath("true"); err != nil {
		b.Skip("no true command")
	}
	benchQueries(b, Command("true"))
}

func BenchmarkCommandShell(b *testing.B) {
	if _, err := exec.LookPath("sh"); err != nil {
		b.Skip("no sh")
	}
	benchQueries(b, Command("sh", "-c", "grep -q '^[0-9]*$'"))
}
