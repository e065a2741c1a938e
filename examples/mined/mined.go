// Package mined fuzzes parsers with grammars that kfuzz mined from the
// parsers' own code (kfuzz mine symbolic), with no grammar written by hand:
// testdata/calc.bnf from internal/subjects/calc, testdata/cgidecode.bnf from
// internal/subjects/cgidecode, testdata/jsonparse.bnf from
// internal/subjects/jsonparse (explored compositionally, -compose
// -depth-cost 2: without it, jsonparse does not saturate) and
// testdata/tinyc.bnf from internal/subjects/tinyc (its lexer
// mined through its harness, then refined against the parser).
//
//go:generate go run ../../cmd/kfuzz mine symbolic -entry Eval -o testdata/calc.bnf -f ../../internal/subjects/calc
//go:generate go run ../../cmd/kfuzz mine symbolic -entry Decode -o testdata/cgidecode.bnf -f ../../internal/subjects/cgidecode
//go:generate go run ../../cmd/kfuzz mine symbolic -entry Parse -compose -depth-cost 2 -o testdata/jsonparse.bnf -f ../../internal/subjects/jsonparse
//go:generate go run ../../cmd/kfuzz mine symbolic -entry Parse -lexer nextSym -token sym -lexer-harness Token -merge-sites -max-paths 40000 -max-states 30000 -refine -o testdata/tinyc.bnf -f ../../internal/subjects/tinyc
package mined
