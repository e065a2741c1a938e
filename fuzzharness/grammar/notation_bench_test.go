package grammar

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// largeNotationGrammar returns the source of a grammar with n rules, each defined
// in terms of the next one, in an order that makes naive fixpoints slow.
func largeNotationGrammar(n int) string {
	var b strings.Builder
	b.WriteString("<start> ::= <r0> ;\n")
	for i := 0; i < n; i++ {
		next := fmt.Sprintf("<r%d>", i+1)
		if i == n-1 {
			next = `"end"`
		}
		fmt.Fprintf(&b, "<r%d> ::= \"(\" %s \")\" | [a-z]+ %s* | (\"x\" | \"y\"){2,5} %s ;\n", i, next, next, next)
	}
	return b.String()
}

func BenchmarkNotationParse(b *testing.B) {
	src := []byte(largeNotationGrammar(1000))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Parse("large.bnf", src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNotationParseJSON(b *testing.B) {
	src, err := os.ReadFile("testdata/xml.json")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := ParseJSON("xml.json", src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNotationProblems(b *testing.B) {
	g, err := Parse("large.bnf", []byte(largeNotationGrammar(1000)))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if ps := g.Problems(); len(ps) != 0 {
			b.Fatal(ps)
		}
	}
}

func BenchmarkNotationString(b *testing.B) {
	g, err := Parse("large.bnf", []byte(largeNotationGrammar(1000)))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_ = g.String()
	}
}
