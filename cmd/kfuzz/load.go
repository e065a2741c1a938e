package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// loadGrammar reads a grammar named by spec: the name of a built-in grammar
// (see "kfuzz grammar check -list") or a file in the notation or the JSON
// form. A file of the same name as a built-in grammar wins.
func loadGrammar(spec string) (*grammar.Grammar, error) {
	if spec == "" {
		return nil, fmt.Errorf("no grammar given: use -grammar with a file or one of %s", strings.Join(grammar.BuiltinNames(), ", "))
	}
	if _, err := os.Stat(spec); err != nil && !strings.ContainsAny(spec, `/\.`) {
		return grammar.Builtin(spec)
	}
	return grammar.Load(spec)
}

// loadGraph loads a grammar as loadGrammar does and compiles its graph.
func loadGraph(spec string, opts ...grammar.CompileOption) (*grammar.Graph, error) {
	g, err := loadGrammar(spec)
	if err != nil {
		return nil, err
	}
	return grammar.Compile(g, opts...)
}
