package solver_test

import (
	"bufio"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// corpusTrees decodes the recorded fuzzer inputs of Scriptsize-C
// (testdata/scriptsizec-fuzzer-inputs.txt: the bytes FuzzInterp's decoder
// read, of inputs that violated the constraint) with the harness's codec.
func corpusTrees(t testing.TB, gr *grammar.Graph) []*grammar.Tree {
	t.Helper()
	f, err := os.Open("testdata/scriptsizec-fuzzer-inputs.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := fuzzharness.NewCodec(gr)
	if err != nil {
		t.Fatal(err)
	}
	var out []*grammar.Tree
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		data, err := hex.DecodeString(line)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c.Decode(data).Tree())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// BenchmarkRepairFuzzerCorpus is BenchmarkRepairFuzzer on the programs
// FuzzInterp's fuzzer repaired during a run (mutants of its corpus, larger
// than random decodings and with more declarations), the inputs whose
// repair time the harness reports.
func BenchmarkRepairFuzzerCorpus(b *testing.B) {
	spec, r := fastRepairer(b, fastSubjects()[0])
	trees := corpusTrees(b, spec.Graph())
	var invalid []*grammar.Tree
	for _, tr := range trees {
		if !r.Valid(tr) {
			invalid = append(invalid, tr)
		}
	}
	if len(invalid) < len(trees)*9/10 {
		b.Fatalf("%d of the %d recorded inputs violate the constraint, want nearly all", len(invalid), len(trees))
	}
	benchRepair(b, r, invalid)
}
