package measure_test

import (
	"context"
	"os/exec"
	"strconv"
	"testing"

	"github.com/seed72891827/kfuzz/internal/measure"
	"github.com/seed72891827/kfuzz/learn/oracle"
)

// The oracle benchmarks compare queries per second of three oracles for the
// same language, the words of FuzzTrouble ([a-z]*): a Go function
// in-process (oracle.Func), FuzzTrouble's test processes serving
// (measure.Oracle), and a command per query (oracle.Command). Each reports
// queries/s, one query at a time ("one") and as batches of 1,000 through
// oracle.AcceptAll on all cores ("batch").

// words returns n distinct words of [a-z]*, and some that are not.
func words(n int) [][]byte {
	ins := make([][]byte, n)
	for i := range ins {
		ins[i] = []byte(strconv.FormatInt(int64(i)*7919, 26)) // digits are rejected
		for k, c := range ins[i] {
			if c >= 'a' && c <= 'p' {
				ins[i][k] = c + 10
			}
		}
	}
	return ins
}

func isWord(b []byte) bool {
	for _, c := range b {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

func benchOracle(b *testing.B, o oracle.Oracle) {
	ins := words(1000)
	ctx := context.Background()
	b.Run("one", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, err := o.Accept(ctx, ins[i%len(ins)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "queries/s")
	})
	b.Run("batch", func(b *testing.B) {
		for b.Loop() {
			if _, err := oracle.AcceptAll(ctx, o, ins); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N*len(ins))/b.Elapsed().Seconds(), "queries/s")
	})
}

func BenchmarkOracleFunc(b *testing.B) {
	benchOracle(b, oracle.Func(isWord))
}

func BenchmarkOracleFuzzTarget(b *testing.B) {
	o := troubleOracle(b, measure.OracleConfig{}, "FuzzTrouble")
	benchOracle(b, o)
}

func BenchmarkOracleCommand(b *testing.B) {
	if _, err := exec.LookPath("grep"); err != nil {
		b.Skip("no grep")
	}
	benchOracle(b, oracle.Command("grep", "-qx", "[a-z]*"))
}
