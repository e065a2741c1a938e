package isla_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// xmlDocument returns a random XML document of about size bytes that
// satisfies the balance, namespace and no-redef constraints: nested
// elements, some with namespace prefixes declared at the root, attributes
// and text.
func xmlDocument(rng *rand.Rand, size int) string {
	names := []string{"a", "item", "b", "list", "p:x", "q:entry", "title", "p:y"}
	attrs := []string{"id", "class", "q:ref", "p:lang", "n"}
	var b strings.Builder
	b.WriteString(`<root xmlns:p="urn:p" xmlns:q="urn:q">`)
	var elem func(depth int)
	elem = func(depth int) {
		name := names[rng.IntN(len(names))]
		b.WriteString("<" + name)
		perm := rng.Perm(len(attrs))
		for _, i := range perm[:rng.IntN(3)] {
			fmt.Fprintf(&b, ` %s="v%d"`, attrs[i], rng.IntN(100))
		}
		if depth > 3 || rng.IntN(3) == 0 {
			b.WriteString("/>")
			return
		}
		b.WriteString(">")
		for k := 1 + rng.IntN(3); k > 0; k-- {
			if rng.IntN(2) == 0 {
				fmt.Fprintf(&b, "text %d &amp; more", rng.IntN(1000))
			} else {
				elem(depth + 1)
			}
		}
		b.WriteString("</" + name + ">")
	}
	for b.Len() < size-40 {
		elem(0)
	}
	b.WriteString("</root>")
	return b.String()
}

// xmlDocuments returns n documents of 1000 to 1100 bytes.
func xmlDocuments(n int) [][]byte {
	rng := rand.New(rand.NewPCG(42, 1))
	var out [][]byte
	for len(out) < n {
		d := xmlDocument(rng, 1024)
		if len(d) >= 1000 && len(d) <= 1100 {
			out = append(out, []byte(d))
		}
	}
	return out
}

func TestXMLDocumentsAreValid(t *testing.T) {
	n := 20
	if testing.Short() {
		n = 5
	}
	docs := xmlDocuments(n)
	for _, c := range []string{"xml-balance.isla", "xml-balance-simplified.isla", "xml-namespace.isla", "xml-no-redef.isla"} {
		s := compile(t, "xml", c)
		for _, d := range docs {
			r, err := s.Check(d)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Valid {
				t.Fatalf("%s: %s\n%s", c, d, r)
			}
		}
	}
}

func benchCheck(b *testing.B, s *isla.Spec, docs [][]byte) {
	b.ReportAllocs()
	bytes := 0
	cpu := processCPU()
	for i := 0; b.Loop(); i++ {
		d := docs[i%len(docs)]
		bytes += len(d)
		if _, err := s.Check(d); err != nil {
			b.Fatal(err)
		}
	}
	reportRates(b, cpu)
	b.SetBytes(int64(bytes / b.N))
}

// xmlAll compiles the conjunction of the three XML constraints.
func xmlAll(b *testing.B) *isla.Spec {
	var parts []string
	for _, c := range []string{"xml-balance.isla", "xml-namespace.isla", "xml-no-redef.isla"} {
		parts = append(parts, "("+loadConstraint(b, c).String()+")")
	}
	s, err := isla.Compile(isla.MustParse(strings.Join(parts, " and ")), loadGraph(b, "xml"))
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkCheckXML validates 1 KB XML documents (parse and evaluation)
// against the XML constraints of the paper.
func BenchmarkCheckXML(b *testing.B) {
	docs := xmlDocuments(32)
	for _, c := range []string{"xml-balance.isla", "xml-balance-simplified.isla", "xml-namespace.isla", "xml-no-redef.isla"} {
		b.Run(strings.TrimSuffix(c, ".isla"), func(b *testing.B) {
			benchCheck(b, compile(b, "xml", c), docs)
		})
	}
	b.Run("all", func(b *testing.B) {
		benchCheck(b, xmlAll(b), docs)
	})
	// Short documents, about the size of the solver's outputs (50 to 160 bytes),
	// where the parse's fixed costs count most.
	b.Run("all-short", func(b *testing.B) {
		s := xmlAll(b)
		rng := rand.New(rand.NewPCG(42, 2))
		var short [][]byte
		for len(short) < 32 {
			if d := xmlDocument(rng, 100); len(d) >= 50 && len(d) <= 160 {
				short = append(short, []byte(d))
			}
		}
		benchCheck(b, s, short)
	})
	// Invalid inputs: every document with one closing tag changed, so that
	// all derivations of the (ambiguous) input are evaluated.
	b.Run("balance-invalid", func(b *testing.B) {
		var bad [][]byte
		for _, d := range docs {
			bad = append(bad, []byte(strings.Replace(string(d), "</root>", "</toor>", 1)))
		}
		benchCheck(b, compile(b, "xml", "xml-balance.isla"), bad)
	})
}

// BenchmarkParseXML is the Earley parse alone, for comparison.
func BenchmarkParseXML(b *testing.B) {
	docs := xmlDocuments(32)
	p, err := grammar.NewParser(loadGraph(b, "xml"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu := processCPU()
	for i := 0; b.Loop(); i++ {
		if _, err := p.Parse(docs[i%len(docs)]); err != nil {
			b.Fatal(err)
		}
	}
	reportRates(b, cpu)
}

// BenchmarkEvalTreeXML is the evaluation alone, on parsed trees.
func BenchmarkEvalTreeXML(b *testing.B) {
	docs := xmlDocuments(32)
	p, err := grammar.NewParser(loadGraph(b, "xml"))
	if err != nil {
		b.Fatal(err)
	}
	var trees []*grammar.Tree
	for _, d := range docs {
		f, err := p.Parse(d)
		if err != nil {
			b.Fatal(err)
		}
		trees = append(trees, f.Tree())
	}
	for _, c := range []string{"xml-balance.isla", "xml-namespace.isla"} {
		b.Run(strings.TrimSuffix(c, ".isla"), func(b *testing.B) {
			s := compile(b, "xml", c)
			b.ReportAllocs()
			cpu := processCPU()
			for i := 0; b.Loop(); i++ {
				if r := s.EvalTree(trees[i%len(trees)]); !r.Valid {
					b.Fatal(r)
				}
			}
			reportRates(b, cpu)
		})
	}
}
