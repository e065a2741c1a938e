package fuzzharness

import (
	"errors"
	"fmt"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// maxParseTrees bounds how many derivations of an ambiguous input Parse
// tries before it gives up finding one within the bounds.
const maxParseTrees = 16

// Parse parses text with the codec's grammar (the Earley parser of package
// grammar) and returns a derivation tree within the codec's bounds, ready
// for Encode. Of an ambiguous input's derivations it returns the first one
// within the bounds. If text is not in the language, the error is a
// *grammar.SyntaxError with the position and what was expected there; if no
// derivation fits the bounds, it is the *EncodeError of the first one.
func (c *Codec) Parse(text string) (*grammar.Tree, error) {
	c.parserOnce.Do(func() { c.parser, c.parserErr = grammar.NewParser(c.graph) })
	if c.parserErr != nil {
		return nil, c.parserErr
	}
	forest, err := c.parser.Parse([]byte(text))
	if err != nil {
		return nil, err
	}
	t := forest.Tree()
	_, encErr := c.Encode(t)
	if encErr == nil {
		return t, nil
	}
	if forest.Ambiguous() {
		for _, u := range forest.Trees(maxParseTrees)[1:] {
			if _, err := c.Encode(u); err == nil {
				return u, nil
			}
		}
	}
	var ee *EncodeError
	if errors.As(encErr, &ee) && ee.Bounds {
		return nil, fmt.Errorf("%w (raise the bounds with WithMaxDepth, WithMaxSize or WithMaxRepeat)", encErr)
	}
	return nil, encErr
}
