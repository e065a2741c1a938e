package glade

import "github.com/seed72891827/kfuzz/fuzzharness/grammar"

type recGrammar struct{ g *grammar.Grammar }

func (r *recGrammar) grammar() *grammar.Grammar { return r.g }

// recursionStage is added by the next commit; until then WithRecursion has
// no effect.
func (s *synth) recursionStage(seeds [][]byte) error { return nil }
