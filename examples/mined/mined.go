// Package mined fuzzes parsers with grammars that kfuzz mined from the
// parsers' own code (kfuzz mine symbolic), with no grammar written by hand:
// testdata/calc.bnf from internal/subjects/calc and testdata/cgidecode.bnf
// from internal/subjects/cgidecode.
//
//go:generate go run ../../cmd/kfuzz mine symbolic -entry Eval -o testdata/calc.bnf -f ../../internal/subjects/calc
//go:generate go run ../../cmd/kfuzz mine symbolic -entry Decode -o testdata/cgidecode.bnf -f ../../internal/subjects/cgidecode
package mined
