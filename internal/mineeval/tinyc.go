package mineeval

import (
	"github.com/seed72891827/kfuzz/internal/subjects/tinyc"
	"github.com/seed72891827/kfuzz/learn/symbolic"
)

// AcceptTinyC reports whether tinyc.Parse accepts input.
func AcceptTinyC(input []byte) bool { return tinyc.Parse(string(input)) == nil }

// TinyCMaxStates bounds the paths waiting to be explored when mining tinyc.
const TinyCMaxStates = 30000

// codeOptions sets what ConfigSymbolic needs beyond a subject's package and
// entry: for tinyc, whose parser reads tokens, the lexing stage
// (STALAGMITE's harness and proxy) and one nonterminal per function, as its
// statements and expressions parse the same language from every call site.
func codeOptions(code Code, cfg *symbolic.Config) {
	if code.Package == "./internal/subjects/jsonparse" {
		// Without it, jsonparse does not saturate (docs/symbolic.md).
		cfg.Compose, cfg.DepthCost = true, 2
	}
	if code.Package == "./internal/subjects/tinyc" {
		cfg.Lexer = &symbolic.Lexer{Func: "nextSym", Token: "sym", Harness: "Token"}
		cfg.MergeCallSites = true
		// Every token forks the path as many ways as the parser tells
		// tokens apart: bound the waiting paths (about 1.3 GB).
		if cfg.MaxStates <= 0 || cfg.MaxStates > TinyCMaxStates {
			cfg.MaxStates = TinyCMaxStates
		}
	}
}
