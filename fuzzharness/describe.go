package fuzzharness

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// A Description is what a harness writes when EnvGrammarOut is set: enough
// to rebuild its codec outside the test process, so that tools can decode
// and encode the fuzz test's corpus entries.
type Description struct {
	Target string `json:"target"` // the fuzz test, e.g. FuzzCalc
	// Grammar is the grammar in the notation (grammar.Grammar.String) and
	// Start the nonterminal the harness's graph starts from.
	Grammar  string   `json:"grammar"`
	Start    string   `json:"start"`
	Bounds   Bounds   `json:"bounds"`
	K        int      `json:"k"`                  // k of the k-path seeds, 0 for none
	Examples []string `json:"examples,omitempty"` // the example inputs
	Validity bool     `json:"validity"`           // whether a validity predicate is set
}

// Describe returns the harness's description.
func (h *Harness) Describe() Description {
	gr := h.codec.graph
	return Description{
		Target:   h.name,
		Grammar:  gr.Grammar.String(),
		Start:    gr.Root.Rule,
		Bounds:   h.codec.bounds,
		K:        h.cfg.k,
		Examples: h.cfg.examples,
		Validity: h.cfg.valid != nil,
	}
}

// describe appends the description as a JSON line to the file at path.
func (h *Harness) describe(path string) error {
	data, err := json.Marshal(h.Describe())
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("fuzzharness: %s: %w", EnvGrammarOut, err)
	}
	_, err = f.Write(append(data, '\n'))
	if err2 := f.Close(); err == nil {
		err = err2
	}
	if err != nil {
		return fmt.Errorf("fuzzharness: %s: %w", EnvGrammarOut, err)
	}
	return nil
}

// ReadDescriptions reads the descriptions that harnesses appended to a file
// named by EnvGrammarOut, one per JSON line.
func ReadDescriptions(r io.Reader) ([]Description, error) {
	var ds []Description
	err := readJSONLines(r, func(line int, data []byte) error {
		var d Description
		if err := json.Unmarshal(data, &d); err != nil {
			return err
		}
		ds = append(ds, d)
		return nil
	})
	return ds, err
}

// Graph parses and compiles the described grammar from its start symbol.
func (d *Description) Graph() (*grammar.Graph, error) {
	g, err := grammar.Parse(d.Target+".grammar", []byte(d.Grammar))
	if err != nil {
		return nil, err
	}
	return grammar.Compile(g, grammar.WithStart(d.Start))
}

// Codec returns a codec equal to the described harness's: it decodes the
// harness's corpus entries to the same trees.
func (d *Description) Codec() (*Codec, error) {
	gr, err := d.Graph()
	if err != nil {
		return nil, err
	}
	return NewCodec(gr, WithBounds(d.Bounds))
}

// Options returns options that configure a harness or Seeds as described,
// except for the validity predicate, which a description cannot hold.
func (d *Description) Options() []Option {
	return []Option{WithBounds(d.Bounds), WithKPathSeeds(d.K), WithExamples(d.Examples...)}
}
