package learn

import (
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// InputPaths parses input with p and returns the paths of length 1..K in
// any of its derivations (the forest's paths, as CODEINE extracts features
// from ambiguous inputs). The parser must parse pt's graph from its start
// symbol. A syntax error is returned as the parser reports it.
func InputPaths(pt *grammar.PathTable, p *grammar.Parser, input []byte) (grammar.PathSet, error) {
	ps, _, err := ParseInput(pt, p, input)
	return ps, err
}

// PredictInput parses input with p, a parser of the model's graph, and
// returns the functions it is predicted to cover (see Predict).
func (m *Model) PredictInput(p *grammar.Parser, input []byte) ([]Prediction, error) {
	ps, err := m.InputFeatures(p, input)
	if err != nil {
		return nil, err
	}
	return m.Predict(ps)
}
