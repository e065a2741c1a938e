package mineeval

import (
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// testN is the number of samples per measure: fewer under -short.
func testN() int {
	if testing.Short() {
		return 200
	}
	return DefaultN
}

// subjectGrammar returns the subject called name and its reference grammar.
func subjectGrammar(t *testing.T, name string) (*Subject, *grammar.Grammar) {
	t.Helper()
	s, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.Grammar()
	if err != nil {
		t.Fatal(err)
	}
	return s, g
}

// referenceParser returns the subject's compiled reference grammar and an
// Earley parser for it.
func referenceParser(t *testing.T, s *Subject) (*grammar.Graph, *grammar.Parser) {
	t.Helper()
	gr, err := s.Graph()
	if err != nil {
		t.Fatal(err)
	}
	p, err := grammar.NewParser(gr)
	if err != nil {
		t.Fatal(err)
	}
	return gr, p
}

// mustParse parses a grammar written in a test.
func mustParse(t *testing.T, name, src string) *grammar.Grammar {
	t.Helper()
	g, err := grammar.Parse(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return g
}
