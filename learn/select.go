package learn

import (
	"errors"
	"fmt"
	"slices"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// An Input is a corpus entry to select from.
type Input struct {
	// Name identifies the input to the caller, such as a file name.
	Name string
	// Paths holds the paths of every length 1..K the input contains, in the
	// model's table.
	Paths grammar.PathSet
	// Size is the input's length in bytes; smaller inputs rank first among
	// equals.
	Size int
}

// A Selection is an input predicted to cover some of the target functions.
type Selection struct {
	// Index is the input's position in the corpus given to Select.
	Index int
	// Name is the input's name.
	Name string
	// Predictions holds one covered prediction per target function the
	// input is predicted to cover, in the order of the targets.
	Predictions []Prediction
	// Prob is the mean Prob of the predictions.
	Prob float64
}

// Select returns the inputs of a corpus predicted to cover at least one of
// the target functions, best first: those predicted to cover more targets,
// then those with the higher mean leaf probability (purer leaves), then the
// smaller, then by corpus order. Targets the model does not know make it
// fail with an error wrapping ErrUnknownFunc that names them all; targets
// never covered in training select nothing.
func (m *Model) Select(targets []string, corpus []Input) ([]Selection, error) {
	var unknown []error
	for _, name := range targets {
		if !m.Knows(name) {
			unknown = append(unknown, m.unknown(name))
		}
	}
	if len(unknown) > 0 {
		return nil, errors.Join(unknown...)
	}
	for i, in := range corpus {
		if err := m.checkPaths(in.Paths); err != nil {
			return nil, fmt.Errorf("learn: input %d (%s): %w", i, in.Name, err)
		}
	}
	var out []Selection
	for i, in := range corpus {
		sel := Selection{Index: i, Name: in.Name}
		sum := 0.0
		for _, name := range targets {
			p, err := m.classifyName(name, in.Paths)
			if err != nil {
				return nil, err
			}
			if p.Covered {
				sel.Predictions = append(sel.Predictions, p)
				sum += p.Prob
			}
		}
		if len(sel.Predictions) > 0 {
			sel.Prob = sum / float64(len(sel.Predictions))
			out = append(out, sel)
		}
	}
	slices.SortStableFunc(out, func(a, b Selection) int {
		switch {
		case len(a.Predictions) != len(b.Predictions):
			return len(b.Predictions) - len(a.Predictions)
		case a.Prob > b.Prob:
			return -1
		case a.Prob < b.Prob:
			return 1
		}
		return corpus[a.Index].Size - corpus[b.Index].Size
	})
	return out, nil
}
