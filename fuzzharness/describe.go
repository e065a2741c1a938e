package fuzzharness

import (
	"fmt"

	"github.com/seed72891827/kfuzz/internal/protocol"
)

// description returns what the harness writes of itself when
// protocol.EnvGrammarOut is set.
func (h *Harness) description() *protocol.Description {
	gr := h.codec.graph
	return &protocol.Description{
		Target:   h.name,
		Grammar:  gr.Grammar.String(),
		Start:    gr.Root.Rule,
		Bounds:   protocol.Bounds(h.codec.bounds),
		K:        h.cfg.k,
		Examples: h.cfg.examples,
		Validity: h.cfg.valid != nil,
	}
}

// describe appends the description as a JSON line to the file at path.
func (h *Harness) describe(path string) error {
	if err := protocol.AppendDescription(path, h.description()); err != nil {
		return fmt.Errorf("fuzzharness: %s: %w", protocol.EnvGrammarOut, err)
	}
	return nil
}
