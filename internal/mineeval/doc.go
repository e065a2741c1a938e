// Package mineeval evaluates grammar miners (GLADE, its recursion stage and
// its tree stage after Arvada and TreeVada in learn/glade, symbolic mining in
// learn/symbolic) the way GLADE (Bastani et
// al., PLDI 2017, section 8) and Arvada (Kulkarni, Lemieux and Sen, ASE 2021,
// section V) do: a miner is given a few valid seed inputs of a subject and the
// subject's oracle (a code miner is given the subject's parser code instead,
// Subject.Code), and the grammar it returns is scored by
//
//   - precision: the share of inputs generated from the mined grammar that
//     the oracle accepts, and
//   - recall: the share of inputs generated from the subject's reference
//     grammar that the mined grammar's Earley parser accepts,
//
// with their harmonic mean F1, the oracle queries and the time the miner took.
//
// Every Subject has a reference grammar in kfuzz's notation (the built-in
// grammars where kfuzz has one) and an oracle written in Go independently of
// that grammar: a hand-written recognizer, or a real Go parser (net/url for
// URLs, encoding/json for JSON, and for calc, cgidecode and jsonparse the Go
// ports of STALAGMITE's subjects in internal/subjects, whose golden grammars
// are the reference). The tests check that every oracle accepts all inputs
// generated from its reference grammar and rejects hand-written invalid ones,
// so that the reference grammar and the oracle define the same language.
//
// Everything random takes a seed: the same seed gives the same seeds, the
// same samples and, for a deterministic miner, the same scores.
package mineeval
