package learn

import (
	"fmt"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"math"
	"strings"
)

// A Confusion counts the outcomes of predictions against the truth.
type Confusion struct {
	TP int // predicted covered, covered
	FP int // predicted covered, not covered
	TN int // predicted not covered, not covered
	FN int // predicted not covered, covered
}

// Total returns the number of predictions.
func (c Confusion) Total() int { return c.TP + c.FP + c.TN + c.FN }

// Accuracy returns (TP+TN)/total, or NaN if there were no predictions.
func (c Confusion) Accuracy() float64 { return ratio(c.TP+c.TN, c.Total()) }

// Precision returns TP/(TP+FP): how many inputs predicted to cover the
// function did. It is NaN if no input was predicted to cover it.
func (c Confusion) Precision() float64 { return ratio(c.TP, c.TP+c.FP) }

// Recall returns TP/(TP+FN): how many of the inputs that covered the
// function were predicted to. It is NaN if no input covered it.
func (c Confusion) Recall() float64 { return ratio(c.TP, c.TP+c.FN) }

func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

func (c *Confusion) add(predicted, actual bool) {
	switch {
	case predicted && actual:
		c.TP++
	case predicted:
		c.FP++
	case actual:
		c.FN++
	default:
		c.TN++
	}
}

// A FuncReport is the evaluation of one function's tree.
type FuncReport struct {
	Func string
	Confusion
}

// A Report is the evaluation of a model on a test set, as in CODEINE's
// Table 10: accuracy, precision and recall of every learned function, and
// overall.
type Report struct {
	// Funcs holds one entry per learned function (Model.Funcs), in the same
	// order. Functions always or never covered in training are not
	// evaluated.
	Funcs []FuncReport
	// Micro sums the outcomes over all (input, function) pairs: its
	// Accuracy, Precision and Recall are the micro-averages.
	Micro Confusion
	// MeanAccuracy, MeanPrecision and MeanRecall are the means of the
	// per-function values over the functions where they are defined (not
	// NaN); they are NaN if no function has one.
	MeanAccuracy, MeanPrecision, MeanRecall float64
}

// Evaluate predicts every learned function for every test sample and
// compares the predictions with the functions the samples really covered.
// The test samples should be independent of the training ones (CODEINE uses
// a second generated set with another seed).
func (m *Model) Evaluate(test []Sample) (*Report, error) {
	sets := make([]grammar.PathSet, len(test))
	for i, s := range test {
		ps, err := m.Extend(s.Paths, s.Shape)
		if err == nil {
			err = m.checkPaths(ps)
		}
		if err != nil {
			return nil, fmt.Errorf("learn: test sample %d: %w", i, err)
		}
		sets[i] = ps
	}
	rep := &Report{Funcs: make([]FuncReport, len(m.Funcs))}
	for f, fn := range m.Funcs {
		rep.Funcs[f].Func = fn.Name
	}
	index := make(map[string]int, len(m.Funcs))
	for f, fn := range m.Funcs {
		index[fn.Name] = f
	}
	actual := make([]bool, len(m.Funcs))
	for i, s := range test {
		clear(actual)
		for _, name := range s.Covered {
			if f, ok := index[name]; ok {
				actual[f] = true
			}
		}
		for f, fn := range m.Funcs {
			rep.Funcs[f].add(m.classify(fn, sets[i]).Covered, actual[f])
		}
	}
	rep.total()
	return rep, nil
}

// Subset returns the report of the functions for which keep returns true,
// with the micro-averages and means over those alone.
func (r *Report) Subset(keep func(name string) bool) *Report {
	out := &Report{}
	for _, fr := range r.Funcs {
		if keep(fr.Func) {
			out.Funcs = append(out.Funcs, fr)
		}
	}
	out.total()
	return out
}

// total sets the micro-averages and means from Funcs.
func (r *Report) total() {
	r.Micro = Confusion{}
	var acc, prec, rec mean
	for _, fr := range r.Funcs {
		r.Micro.TP += fr.TP
		r.Micro.FP += fr.FP
		r.Micro.TN += fr.TN
		r.Micro.FN += fr.FN
		acc.add(fr.Accuracy())
		prec.add(fr.Precision())
		rec.add(fr.Recall())
	}
	r.MeanAccuracy, r.MeanPrecision, r.MeanRecall = acc.value(), prec.value(), rec.value()
}

// mean averages the values that are not NaN.
type mean struct {
	sum float64
	n   int
}

func (m *mean) add(x float64) {
	if !math.IsNaN(x) {
		m.sum += x
		m.n++
	}
}

func (m *mean) value() float64 {
	if m.n == 0 {
		return math.NaN()
	}
	return m.sum / float64(m.n)
}

// String formats the report as a table: one line per function, then the
// micro-averages over all (input, function) pairs and the means of the
// per-function values. Undefined values print as "-".
func (r *Report) String() string {
	var b strings.Builder
	w := len("micro-average")
	for _, fr := range r.Funcs {
		w = max(w, len(fr.Func))
	}
	fmt.Fprintf(&b, "%-*s %8s %9s %6s %6s %6s %6s %6s\n", w, "function", "accuracy", "precision", "recall", "TP", "FP", "TN", "FN")
	line := func(name string, acc, prec, rec float64) {
		fmt.Fprintf(&b, "%-*s %8s %9s %6s", w, name, num(acc), num(prec), num(rec))
	}
	for _, fr := range r.Funcs {
		line(fr.Func, fr.Accuracy(), fr.Precision(), fr.Recall())
		fmt.Fprintf(&b, " %6d %6d %6d %6d\n", fr.TP, fr.FP, fr.TN, fr.FN)
	}
	line("micro-average", r.Micro.Accuracy(), r.Micro.Precision(), r.Micro.Recall())
	fmt.Fprintf(&b, " %6d %6d %6d %6d\n", r.Micro.TP, r.Micro.FP, r.Micro.TN, r.Micro.FN)
	line("mean", r.MeanAccuracy, r.MeanPrecision, r.MeanRecall)
	b.WriteByte('\n')
	return b.String()
}

func num(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%.3f", x)
}
