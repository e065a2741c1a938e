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
	if err := m.checkSelect(targets, corpus); err != nil {
		return nil, err
	}
	var out []Selection
	for i, in := range corpus {
		sel := Selection{Index: i, Name: in.Name}
		for _, name := range targets {
			p, err := m.classifyName(name, in.Paths)
			if err != nil {
				return nil, err
			}
			if p.Covered {
				sel.Predictions = append(sel.Predictions, p)
			}
		}
		if len(sel.Predictions) > 0 {
			out = append(out, sel)
		}
	}
	rankSelections(out, corpus)
	return out, nil
}

// checkSelect reports the targets the model does not know, all of them, and
// the first input whose path set does not belong to the model's table.
func (m *Model) checkSelect(targets []string, corpus []Input) error {
	var unknown []error
	for _, name := range targets {
		if !m.Knows(name) {
			unknown = append(unknown, m.unknown(name))
		}
	}
	if len(unknown) > 0 {
		return errors.Join(unknown...)
	}
	for i, in := range corpus {
		if err := m.checkPaths(in.Paths); err != nil {
			return fmt.Errorf("learn: input %d (%s): %w", i, in.Name, err)
		}
	}
	return nil
}

// rankSelections sets each selection's mean probability and sorts them best
// first, as Select documents.
func rankSelections(out []Selection, corpus []Input) {
	for i := range out {
		sum := 0.0
		for _, p := range out[i].Predictions {
			sum += p.Prob
		}
		out[i].Prob = sum / float64(len(out[i].Predictions))
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
}

// CoverProb returns the estimated probability that an input with path set ps
// covers the named function, as SelectRecall uses it: 1 or 0 for a function
// always or never covered in training; for a learned one the share of
// covering training inputs at the input's leaf with Laplace's rule of
// succession ((pos+1)/(pos+neg+2)), its odds rescaled from the tree's
// balanced training rows to all training inputs (Func.Pos and Func.Neg).
func (m *Model) CoverProb(name string, ps grammar.PathSet) (float64, error) {
	if err := m.checkPaths(ps); err != nil {
		return 0, err
	}
	if !m.Knows(name) {
		return 0, m.unknown(name)
	}
	return m.coverProb(name, ps), nil
}

func (m *Model) coverProb(name string, ps grammar.PathSet) float64 {
	fn := m.byName[name]
	if fn == nil {
		if _, always := slices.BinarySearch(m.Always, name); always {
			return 1
		}
		return 0
	}
	n := &fn.Tree[fn.leaf(m.Features, ps)]
	p := float64(n.Pos+1) / float64(n.Pos+n.Neg+2)
	root := &fn.Tree[0]
	if root.Pos > 0 && root.Neg > 0 && fn.Pos > 0 && fn.Neg > 0 {
		wPos := float64(fn.Pos) / float64(root.Pos)
		wNeg := float64(fn.Neg) / float64(root.Neg)
		p = p * wPos / (p*wPos + (1-p)*wNeg)
	}
	return p
}

// A TargetRecall is what SelectRecall chose for one target function.
type TargetRecall struct {
	// Func is the target function.
	Func string
	// Selected is the number of inputs taken for it.
	Selected int
	// Expected is the expected recall of those inputs: the sum of their
	// CoverProb over the sum for the whole corpus; 0 if no input has a
	// positive probability.
	Expected float64
	// Mass is the sum of CoverProb over the whole corpus: the expected
	// number of inputs that cover the function.
	Mass float64
}

// SelectRecall selects inputs so that, for every target function, the
// expected recall of the selection reaches recall (in (0, 1]). CoverProb
// estimates from the tree's leaf the chance that an input covers the
// function; the expected recall of a set of inputs is the sum of their
// probabilities over the sum for the whole corpus. For each target, inputs
// are taken by decreasing probability (then the smaller, then by corpus
// order) until that ratio reaches recall; inputs of probability 0 are never
// taken. The union over the targets is returned ranked as Select ranks it;
// a selection's Predictions hold the prediction of every target it was
// taken for, covered or not. The second result has one TargetRecall per
// target, in order.
//
// CoverProb, not the leaf's share of covering training inputs, is used
// because that share is a poor estimate for recall: a leaf where 0 of 2
// training inputs covered the function would exclude every input reaching
// it, and under CODEINE's class balancing the shares describe the balanced
// subsample, not the inputs.
//
// With a recall target an input predicted not to cover a function (a leaf
// where fewer than half of the training inputs covered it) is still taken
// when its probability is needed to reach the target: missing an input that
// covers a change costs more than running an extra one.
func (m *Model) SelectRecall(targets []string, corpus []Input, recall float64) ([]Selection, []TargetRecall, error) {
	if !(recall > 0 && recall <= 1) {
		return nil, nil, fmt.Errorf("learn: recall target %g is outside (0, 1]", recall)
	}
	if err := m.checkSelect(targets, corpus); err != nil {
		return nil, nil, err
	}
	byInput := map[int]*Selection{}
	var order []int
	probs := make([]Prediction, len(corpus))
	cover := make([]float64, len(corpus))
	idx := make([]int, len(corpus))
	stats := make([]TargetRecall, len(targets))
	for t, name := range targets {
		total := 0.0
		for i, in := range corpus {
			p, err := m.classifyName(name, in.Paths)
			if err != nil {
				return nil, nil, err
			}
			probs[i] = p
			cover[i] = m.coverProb(name, in.Paths)
			idx[i] = i
			total += cover[i]
		}
		stats[t] = TargetRecall{Func: name, Mass: total}
		if total == 0 {
			continue
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			switch {
			case cover[a] > cover[b]:
				return -1
			case cover[a] < cover[b]:
				return 1
			}
			return corpus[a].Size - corpus[b].Size
		})
		sum := 0.0
		for _, i := range idx {
			if sum >= recall*total*(1-1e-12) || cover[i] == 0 {
				break
			}
			sum += cover[i]
			stats[t].Selected++
			s := byInput[i]
			if s == nil {
				s = &Selection{Index: i, Name: corpus[i].Name}
				byInput[i] = s
				order = append(order, i)
			}
			s.Predictions = append(s.Predictions, probs[i])
		}
		stats[t].Expected = sum / total
	}
	slices.Sort(order)
	out := make([]Selection, len(order))
	for k, i := range order {
		out[k] = *byInput[i]
	}
	rankSelections(out, corpus)
	return out, stats, nil
}
