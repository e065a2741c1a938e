package grammar

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// benchJSON returns a JSON document of about size bytes with a realistic
// mix of objects, arrays, strings (with escapes and non-ASCII text),
// numbers and literals, made from seed.
func benchJSON(size int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	words := []string{"alpha", "beta", "gamma", "delta", "\\u00e9t\\u00e9", "naïve", "line\\nbreak", "quote\\\"d", "tab\\t", "Zürich", "日本語"}
	var value func(depth int)
	str := func() {
		b.WriteByte('"')
		for n := 1 + rng.IntN(3); n > 0; n-- {
			b.WriteString(words[rng.IntN(len(words))])
			if n > 1 {
				b.WriteByte(' ')
			}
		}
		b.WriteByte('"')
	}
	value = func(depth int) {
		switch k := rng.IntN(10); {
		case k < 2 && depth < 6:
			b.WriteString("{\n")
			for i, n := 0, 1+rng.IntN(6); i < n; i++ {
				if i > 0 {
					b.WriteString(",\n")
				}
				b.WriteString(strings.Repeat("  ", depth+1))
				str()
				b.WriteString(": ")
				value(depth + 1)
			}
			b.WriteString("\n" + strings.Repeat("  ", depth) + "}")
		case k < 4 && depth < 6:
			b.WriteByte('[')
			for i, n := 0, rng.IntN(6); i < n; i++ {
				if i > 0 {
					b.WriteString(", ")
				}
				value(depth + 1)
			}
			b.WriteByte(']')
		case k < 6:
			str()
		case k < 8:
			b.WriteString(strconv.FormatFloat(rng.NormFloat64()*1e3, 'g', -1, 64))
		case k < 9:
			b.WriteString(strconv.Itoa(rng.IntN(100000)))
		default:
			b.WriteString([]string{"true", "false", "null"}[rng.IntN(3)])
		}
	}
	b.WriteString("[\n")
	for first := true; b.Len() < size; first = false {
		if !first {
			b.WriteString(",\n")
		}
		value(1)
	}
	b.WriteString("\n]\n")
	return []byte(b.String())
}

var benchSizes = []int{1 << 10, 10 << 10, 100 << 10, 1 << 20}

func sizeName(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%dMB", n>>20)
	}
	return fmt.Sprintf("%dKB", n>>10)
}

func earleyJSONParser(b *testing.B, opts ...ParserOption) *Parser {
	p, err := NewParser(MustCompile(MustBuiltin("json")), opts...)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkParseJSON parses JSON documents of 1 KB to 1 MB into a forest.
// alloc/B is the memory allocated per input byte, items/B the forest size
// (items + links) per input byte, peak/B the forest and the scratch space
// of the parse per input byte.
func BenchmarkParseJSON(b *testing.B) { benchParseJSON(b) }

// BenchmarkParseJSONGeneral is BenchmarkParseJSON without automata
// (ScanRegular(false)).
func BenchmarkParseJSONGeneral(b *testing.B) { benchParseJSON(b, ScanRegular(false)) }

// BenchmarkParseJSONExpand parses and then expands the forest (as Tree,
// Count and ForestPaths do first): the whole cost of a forest with the
// derivations inside tokens. items/B is the expanded forest's size.
func BenchmarkParseJSONExpand(b *testing.B) {
	benchParseThen(b, func(b *testing.B, f *Forest, in []byte) {
		x := f.expanded()
		b.ReportMetric(float64(len(x.items)+x.links.len())/float64(len(in)), "items/B")
	})
}

// BenchmarkParseTreeJSON parses and takes one tree, what the harness does
// with every input.
func BenchmarkParseTreeJSON(b *testing.B) {
	benchParseThen(b, func(b *testing.B, f *Forest, in []byte) { f.Tree() })
}

// BenchmarkParseTreeJSONGeneral is BenchmarkParseTreeJSON without automata.
func BenchmarkParseTreeJSONGeneral(b *testing.B) {
	benchParseThen(b, func(b *testing.B, f *Forest, in []byte) { f.Tree() }, ScanRegular(false))
}

// benchParseThen parses JSON documents of 1 KB to 1 MB and calls then
// with every forest.
func benchParseThen(b *testing.B, then func(b *testing.B, f *Forest, in []byte), opts ...ParserOption) {
	p := earleyJSONParser(b, opts...)
	for _, size := range benchSizes {
		in := benchJSON(size, 1)
		b.Run(sizeName(size), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				f, err := p.Parse(in)
				if err != nil {
					b.Fatal(err)
				}
				then(b, f, in)
			}
			reportCPU(b, cpu, len(in))
		})
	}
}

func benchParseJSON(b *testing.B, opts ...ParserOption) {
	for _, size := range benchSizes {
		in := benchJSON(size, 1)
		if !json.Valid(in) {
			b.Fatal("invalid benchmark input")
		}
		b.Run(sizeName(size), func(b *testing.B) {
			p := earleyJSONParser(b, opts...) // scratch buffers sized for this input
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			cpu := processCPU()
			f := parseLoop(b, p, in)
			reportCPU(b, cpu, len(in))
			runtime.ReadMemStats(&ms1)
			b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(b.N)/float64(len(in)), "alloc/B")
			b.ReportMetric(float64(f.Size())/float64(len(in)), "items/B")
			b.ReportMetric(float64(peakBytes(p, f))/float64(len(in)), "peak/B")
		})
	}
}

// parseLoop parses in for the benchmark's iterations and returns the last
// forest.
func parseLoop(b *testing.B, p *Parser, in []byte) *Forest {
	var f *Forest
	for b.Loop() {
		var err error
		if f, err = p.Parse(in); err != nil {
			b.Fatal(err)
		}
	}
	return f
}

// BenchmarkRecognizeJSON only recognizes (no forest).
func BenchmarkRecognizeJSON(b *testing.B) { benchRecognizeJSON(b) }

// BenchmarkRecognizeJSONGeneral is BenchmarkRecognizeJSON without automata
// (ScanRegular(false)).
func BenchmarkRecognizeJSONGeneral(b *testing.B) { benchRecognizeJSON(b, ScanRegular(false)) }

func benchRecognizeJSON(b *testing.B, opts ...ParserOption) {
	p := earleyJSONParser(b, opts...)
	for _, size := range benchSizes {
		in := benchJSON(size, 1)
		b.Run(sizeName(size), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				if err := p.Recognize(in); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu, len(in))
		})
	}
}

// BenchmarkJSONValid is the practical ceiling: encoding/json.Valid on the
// same inputs.
func BenchmarkJSONValid(b *testing.B) {
	for _, size := range benchSizes {
		in := benchJSON(size, 1)
		b.Run(sizeName(size), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			cpu := processCPU()
			for b.Loop() {
				if !json.Valid(in) {
					b.Fatal("invalid")
				}
			}
			reportCPU(b, cpu, len(in))
		})
	}
}

// reportCPU reports the throughput per CPU second since cpu0 (all threads
// of the process, so garbage collection counts), which unlike MB/s does not
// depend on how many other processes share the machine.
func reportCPU(b *testing.B, cpu0 time.Duration, size int) {
	cpu := processCPU() - cpu0
	if cpu <= 0 {
		return
	}
	b.ReportMetric(float64(size)*float64(b.N)/cpu.Seconds()/1e6, "cpuMB/s")
}

// peakBytes estimates the memory a parse held at its peak: the forest
// (items, links and input, at their capacities) plus the parser's scratch
// buffers (of a state from the pool: the one the parse used, as benchmarks
// run on one goroutine).
func peakBytes(p *Parser, f *Forest) int {
	n := cap(f.items)*int(unsafe.Sizeof(item{})) + f.links.bytes() + cap(f.input) + 8*cap(f.multi) + cap(f.toks)*int(unsafe.Sizeof(tokSpan{}))
	s := p.getState()
	defer p.putState(s)
	n += 4*(cap(s.groupStart)+cap(s.waiters)) + cap(s.groups)*int(unsafe.Sizeof(group{}))
	n += (cap(s.scanIn) + cap(s.scanOut)) * int(unsafe.Sizeof(scanEntry{}))
	n += cap(s.xlinks) * int(unsafe.Sizeof(xlink{}))
	return n
}

// BenchmarkParseRightRecursive parses a right-recursive list whose end one
// byte of lookahead cannot see; Leo's optimization keeps it linear.
func BenchmarkParseRightRecursive(b *testing.B) {
	p := earleyParser(b, `<s> ::= <l> "ac" ; <l> ::= "ab" <l> | "" ;`)
	for _, size := range benchSizes {
		in := []byte(strings.Repeat("ab", size/2) + "ac")
		b.Run(sizeName(size), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			cpu := processCPU()
			f := parseLoop(b, p, in)
			reportCPU(b, cpu, len(in))
			b.ReportMetric(float64(f.Size())/float64(len(in)), "items/B")
		})
	}
}

// BenchmarkForestJSON measures what is done with a forest of a 100 KB JSON
// document: one tree, the count, and the 4-paths.
func BenchmarkForestJSON(b *testing.B) {
	gr := MustCompile(MustBuiltin("json"))
	p, err := NewParser(gr)
	if err != nil {
		b.Fatal(err)
	}
	pt, err := gr.PathTable(4)
	if err != nil {
		b.Fatal(err)
	}
	in := benchJSON(100<<10, 1)
	f, err := p.Parse(in)
	if err != nil {
		b.Fatal(err)
	}
	f.expanded() // Tree and ForestPaths below use the expanded forest
	b.Run("Tree", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		cpu := processCPU()
		for b.Loop() {
			f.Tree()
		}
		reportCPU(b, cpu, len(in))
	})
	b.Run("Count", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		cpu := processCPU()
		for b.Loop() {
			// A fresh forest value: Count caches its result. (JSON's
			// tokens are unambiguous, so Count needs no expansion.)
			(&Forest{g: f.g, input: f.input, items: f.items, links: f.links, multi: f.multi, root: f.root, toks: f.toks}).Count()
		}
		reportCPU(b, cpu, len(in))
	})
	b.Run("ForestPaths4", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		cpu := processCPU()
		for b.Loop() {
			pt.ForestPaths(f)
		}
		reportCPU(b, cpu, len(in))
	})
}

// BenchmarkParseAmbiguous parses a^n with <s> ::= <s> <s> | "a", which has
// quadratically many items and cubically many links: the worst case the
// item limit guards against.
func BenchmarkParseAmbiguous(b *testing.B) {
	p := earleyParser(b, `<s> ::= <s> <s> | "a" ;`)
	for _, n := range []int{100, 200, 400} {
		in := []byte(strings.Repeat("a", n))
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			cpu := processCPU()
			f := parseLoop(b, p, in)
			reportCPUPerOp(b, cpu, 1)
			b.ReportMetric(float64(f.Size()), "items+links")
		})
	}
}
