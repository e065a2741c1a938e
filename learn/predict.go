package learn

import (
	"fmt"
	"slices"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// A Prediction says whether an input is predicted to cover a function, and
// why.
type Prediction struct {
	// Func is the function.
	Func string
	// Covered reports whether the input is predicted to cover it.
	Covered bool
	// Prob is the fraction of the training inputs at the leaf the input
	// reached that covered the function: 1 or 0 for functions always or
	// never covered in training.
	Prob float64
	// Rule is the condition of that leaf, which the input satisfies; nil for
	// functions always or never covered in training. For a covered
	// prediction it is one of the function's rules unless the leaf is too
	// impure (see Config.RuleGini) or its condition infeasible.
	Rule *Rule
}

// checkPaths reports an error if ps does not belong to the model's table,
// extended by the model's extra features if it has some.
func (m *Model) checkPaths(ps grammar.PathSet) error {
	want := (m.Table.Len() + len(m.Extra) + 63) / 64
	switch {
	case len(ps) == want:
		return nil
	case len(m.Extra) > 0 && len(ps) == (m.Table.Len()+63)/64:
		return fmt.Errorf("learn: the model has %d root and count features; extend the path set by them (Model.Extend)", len(m.Extra))
	}
	return fmt.Errorf("learn: a path set of %d words does not belong to the model's table of %d-paths (%d words)", len(ps), m.Table.K, want)
}

// Predict returns the functions an input with the path set ps is predicted
// to cover, sorted by name: those always covered in training and those
// whose tree predicts coverage. ps must come from the model's table, for
// example from Table.Paths of a derivation tree or from the paths of a whole
// parse forest.
func (m *Model) Predict(ps grammar.PathSet) ([]Prediction, error) {
	if err := m.checkPaths(ps); err != nil {
		return nil, err
	}
	var out []Prediction
	a, f := 0, 0
	for a < len(m.Always) || f < len(m.Funcs) {
		if f == len(m.Funcs) || (a < len(m.Always) && m.Always[a] < m.Funcs[f].Name) {
			out = append(out, Prediction{Func: m.Always[a], Covered: true, Prob: 1})
			a++
			continue
		}
		if p := m.classify(m.Funcs[f], ps); p.Covered {
			out = append(out, p)
		}
		f++
	}
	return out, nil
}

// PredictTree returns the functions the input derived by t is predicted to
// cover; see Predict.
func (m *Model) PredictTree(t *grammar.Tree) ([]Prediction, error) {
	ps, err := m.TreeFeatures(t)
	if err != nil {
		return nil, err
	}
	return m.Predict(ps)
}

// TreeFeatures returns the paths of a derivation tree, extended by the
// model's root and count features.
func (m *Model) TreeFeatures(t *grammar.Tree) (grammar.PathSet, error) {
	var s *Shape
	if len(m.Extra) > 0 {
		s = NewShape(t)
	}
	return m.Extend(m.Table.Paths(t), s)
}

// Classify returns the prediction for one function, covered or not. It fails
// with an error wrapping ErrUnknownFunc if the model does not know the
// function.
func (m *Model) Classify(name string, ps grammar.PathSet) (Prediction, error) {
	if err := m.checkPaths(ps); err != nil {
		return Prediction{}, err
	}
	return m.classifyName(name, ps)
}

func (m *Model) classifyName(name string, ps grammar.PathSet) (Prediction, error) {
	if fn := m.byName[name]; fn != nil {
		return m.classify(fn, ps), nil
	}
	if !m.Knows(name) {
		return Prediction{}, m.unknown(name)
	}
	if _, always := slices.BinarySearch(m.Always, name); always {
		return Prediction{Func: name, Covered: true, Prob: 1}, nil
	}
	return Prediction{Func: name}, nil
}

func (m *Model) classify(fn *Func, ps grammar.PathSet) Prediction {
	i := fn.leaf(m.Features, ps)
	n := &fn.Tree[i]
	return Prediction{Func: fn.Name, Covered: n.Covered(), Prob: n.Prob(), Rule: fn.leafRules[i]}
}
