package glade

import "github.com/seed72891827/kfuzz/fuzzharness/grammar"

// buildGrammar returns the grammar of the last stage that ran.
func (s *synth) buildGrammar() *grammar.Grammar {
	if s.tree != nil {
		return s.tree.grammar()
	}
	if s.rec != nil {
		return s.rec.grammar()
	}
	return s.regexGrammar()
}
