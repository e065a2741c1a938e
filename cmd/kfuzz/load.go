package main

import (
	"flag"
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

// identityValue is the flag.Value of a k-path node identity.
type identityValue grammar.Identity

func (v *identityValue) String() string {
	if v != nil && grammar.Identity(*v) == grammar.ByNonterminal {
		return "nonterminal"
	}
	return "occurrence"
}

func (v *identityValue) Set(s string) error {
	switch s {
	case "occurrence":
		*v = identityValue(grammar.ByOccurrence)
	case "nonterminal":
		*v = identityValue(grammar.ByNonterminal)
	default:
		return fmt.Errorf("must be occurrence or nonterminal, not %q", s)
	}
	return nil
}

// identityFlag defines the -identity flag: the node identity of k-paths,
// occurrence (TRIBBLE, the default) or nonterminal (ISLa).
func identityFlag(fs *flag.FlagSet) *grammar.Identity {
	v := new(identityValue)
	fs.Var(v, "identity", "node identity for k-paths: occurrence (TRIBBLE) or nonterminal (ISLa)")
	return (*grammar.Identity)(v)
}
