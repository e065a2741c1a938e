package grammar

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// chainGrammarJSON returns a grammar of n rules in the JSON form, each
// referring to the next: <r0> ::= <r1> "a" | "b" <r1> | "c"; ...
// <rn-1> ::= "z" | "". What the last rule can start with and derive
// propagates through all the others, which is what makes naive fixpoint
// iterations quadratic.
func chainGrammarJSON(n int) []byte {
	var b strings.Builder
	b.WriteString("{\n")
	for i := range n {
		if i < n-1 {
			fmt.Fprintf(&b, "  \"<r%d>\": [\"<r%d>a\", \"b<r%d>\", \"c\"],\n", i, i+1, i+1)
		} else {
			fmt.Fprintf(&b, "  \"<r%d>\": [\"z\", \"\"]\n", i)
		}
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// wideGrammarJSON returns a branchy grammar of n rules in the JSON form:
// rule i refers to rules 2i+1 and 2i+2 (a binary tree of rules), and back to
// an earlier rule, so that the rules form one large recursive component, as
// in grammars mined from parsers. Its first rule has n/16 alternatives (at
// least one), each a reference to a rule.
func wideGrammarJSON(n int) []byte {
	var b strings.Builder
	b.WriteString("{\n  \"<start>\": [")
	for j := 0; j < max(1, n/16); j++ {
		if j > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "\"<r%d>\"", (j*7919)%n)
	}
	b.WriteString("]")
	for i := range n {
		fmt.Fprintf(&b, ",\n  \"<r%d>\": [", i)
		var alts []string
		if l, r := 2*i+1, 2*i+2; r < n {
			alts = append(alts, fmt.Sprintf(`"<r%d>,<r%d>"`, l, r), fmt.Sprintf(`"<r%d>"`, l))
		}
		if i > 0 {
			alts = append(alts, fmt.Sprintf(`"(<r%d>)"`, (i*31)%i))
		}
		alts = append(alts, fmt.Sprintf(`"t%d"`, i%10), `""`)
		b.WriteString(strings.Join(alts, ", "))
		b.WriteString("]")
	}
	b.WriteString("\n}\n")
	return []byte(b.String())
}

var scaleShapes = []struct {
	name string
	gen  func(int) []byte
}{
	{"chain", chainGrammarJSON},
	{"wide", wideGrammarJSON},
}

// loadCheckCompile is what loading a grammar file costs: parse the JSON
// form, and compile its graph, which checks it first.
func loadCheckCompile(tb testing.TB, src []byte) *Graph {
	g, err := ParseJSON("bench.json", src)
	if err != nil {
		tb.Fatal(err)
	}
	gr, err := Compile(g)
	if err != nil {
		tb.Fatal(err)
	}
	return gr
}

// BenchmarkLoadLarge measures ParseJSON, Check and Compile on large grammars
// (1k, 10k and 100k rules, chain and wide shapes), reporting CPU time per
// load and per rule.
func BenchmarkLoadLarge(b *testing.B) {
	for _, shape := range scaleShapes {
		for _, n := range []int{1000, 10000, 100000} {
			src := shape.gen(n)
			b.Run(fmt.Sprintf("%s/%dk", shape.name, n/1000), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				cpu := processCPU()
				for b.Loop() {
					loadCheckCompile(b, src)
				}
				reportCPUPerOp(b, cpu, n)
			})
		}
	}
}

// BenchmarkNewParserLarge measures compiling the Earley parser of large
// grammars (the graph is compiled before the timer starts).
func BenchmarkNewParserLarge(b *testing.B) {
	for _, shape := range scaleShapes {
		for _, n := range []int{1000, 10000, 100000} {
			gr := loadCheckCompile(b, shape.gen(n))
			b.Run(fmt.Sprintf("%s/%dk", shape.name, n/1000), func(b *testing.B) {
				cpu := processCPU()
				for b.Loop() {
					if _, err := NewParser(gr); err != nil {
						b.Fatal(err)
					}
				}
				reportCPUPerOp(b, cpu, n)
			})
		}
	}
}

// reportCPUPerOp reports the CPU time per operation since cpu0 and per rule
// of an n-rule grammar.
func reportCPUPerOp(b *testing.B, cpu0 time.Duration, n int) {
	cpu := processCPU() - cpu0
	if cpu <= 0 {
		return
	}
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/rule")
}

// TestLoadLargeLinear checks that loading, checking and compiling stays
// near-linear: ten times the rules may cost at most forty times the CPU time.
func TestLoadLargeLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	for _, shape := range scaleShapes {
		small, large := shape.gen(2000), shape.gen(20000)
		// CPU time where the platform reports it (wall time on a loaded
		// machine made this test fail at random), else wall time.
		measure := func(src []byte) time.Duration {
			best := time.Duration(1 << 62)
			for range 3 {
				start, cpu := time.Now(), processCPU()
				gr := loadCheckCompile(t, src)
				if _, err := NewParser(gr); err != nil {
					t.Fatal(err)
				}
				d := time.Since(start)
				if c := processCPU() - cpu; c > 0 {
					d = c
				}
				best = min(best, d)
			}
			return best
		}
		ts, tl := measure(small), measure(large)
		if tl > 40*ts {
			t.Errorf("%s: 2000 rules take %v, 20000 rules %v: more than 40 times", shape.name, ts, tl)
		}
	}
}
