package pipeline

import (
	"fmt"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/protocol"
	"github.com/seed72891827/kfuzz/learn"
)

// A Harness is a fuzz test's harness rebuilt from its description: the grammar
// graph, the codec that turns corpus entries into inputs and back, and an
// Earley parser of the grammar. Its fields share one graph, so trees, path
// tables, models and encodings made with any of them fit the others.
type Harness struct {
	// Desc is the description the harness wrote of itself.
	Desc *protocol.Description
	// Graph is the compiled grammar, from Desc.Start.
	Graph *grammar.Graph
	// Codec encodes and decodes the harness's corpus entries.
	Codec *fuzzharness.Codec
	// Parser parses input text from Graph's root.
	Parser *grammar.Parser
}

// NewHarness rebuilds a harness from its description.
func NewHarness(d *protocol.Description) (*Harness, error) {
	gr, err := d.Graph()
	if err != nil {
		return nil, fmt.Errorf("the grammar of %s: %w", d.Target, err)
	}
	codec, err := fuzzharness.NewCodec(gr, fuzzharness.WithBounds(fuzzharness.Bounds(d.Bounds)))
	if err != nil {
		return nil, fmt.Errorf("the codec of %s: %w", d.Target, err)
	}
	p, err := grammar.NewParser(gr)
	if err != nil {
		return nil, fmt.Errorf("the parser of %s: %w", d.Target, err)
	}
	return &Harness{Desc: d, Graph: gr, Codec: codec, Parser: p}, nil
}

// Paths returns the l-paths (l <= pt.K) of every derivation of the input
// text: the features package learn predicts from. pt must be a table of the
// harness's graph. A text outside the grammar's language is a
// *grammar.SyntaxError.
func (h *Harness) Paths(pt *grammar.PathTable, text string) (grammar.PathSet, error) {
	return learn.InputPaths(pt, h.Parser, []byte(text))
}
