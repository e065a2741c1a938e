package learn

import (
	"errors"
	"fmt"
	"slices"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// A Model associates input features with code: for every function of a
// Dataset, a decision tree over the presence of l-paths that predicts whether
// an input covers the function, and the rules read off its covering leaves
// (CODEINE, section 5). A Model is immutable and safe for concurrent use.
type Model struct {
	// Table interns the paths; its K is the model's k.
	Table *grammar.PathTable
	// Features holds the path ID of each feature, as in the Dataset: IDs
	// from Table.Len() on stand for Extra[id-Table.Len()].
	Features []int
	// Extra holds the root and count features, as in the Dataset. A model
	// with extra features predicts from path sets extended by them (see
	// Extend and InputFeatures).
	Extra []Feature
	// Funcs holds one learned function per Dataset.Funcs entry, sorted by
	// name.
	Funcs []*Func
	// Always and Never hold the functions every training input covered and
	// those none covered; the model predicts them as constants.
	Always, Never []string
	// Config is the configuration the trees were grown with, defaults
	// filled in.
	Config Config

	byName map[string]*Func
}

// A Func is the learned model of one function.
type Func struct {
	// Name is the function's name.
	Name string
	// Tree is the decision tree; Tree[0] is the root.
	Tree []Node
	// Rules are the conditions of the covering leaves that pass the
	// feasibility check, best first (see Rule).
	Rules []*Rule
	// Pos and Neg count the training inputs that covered the function, or
	// did not, before balancing.
	Pos, Neg int

	leafRules map[int]*Rule // the condition of every leaf, built lazily
}

// ErrUnknownFunc is returned (wrapped) for a function the model knows
// nothing of.
var ErrUnknownFunc = errors.New("learn: unknown function")

// Learn trains a model on ds: one CART decision tree per function, grown by
// Gini impurity over the binary path features, with the settings of cfg.
// Trees are trained in parallel; the model depends only on ds and cfg.
func Learn(ds *Dataset, cfg Config) (*Model, error) {
	if ds == nil {
		return nil, fmt.Errorf("learn: no dataset")
	}
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	trees := trainAll(ds, cfg)
	m := &Model{
		Table:    ds.Table,
		Features: slices.Clone(ds.Features),
		Extra:    slices.Clone(ds.Extra),
		Always:   slices.Clone(ds.Always),
		Never:    slices.Clone(ds.Never),
		Config:   cfg,
	}
	for f, name := range ds.Funcs {
		pos := ds.Positives(f)
		m.Funcs = append(m.Funcs, &Func{Name: name, Tree: trees[f], Pos: pos, Neg: ds.Len() - pos})
	}
	m.finish()
	return m, nil
}

// finish derives the rules and the index of a model whose trees are set.
func (m *Model) finish() {
	m.byName = make(map[string]*Func, len(m.Funcs))
	for _, fn := range m.Funcs {
		m.byName[fn.Name] = fn
		fn.leafRules = leafRules(fn.Name, fn.Tree, m.Features)
		for _, r := range fn.leafRules {
			r.extra = m.Extra
		}
		fn.Rules = coveringRules(m.Table, fn.leafRules, m.Config.RuleGini)
	}
}

// K returns the length of the longest paths the model uses as features.
func (m *Model) K() int { return m.Table.K }

// Func returns the learned model of the named function, or nil if the
// function was not learned (it may still be in Always or Never).
func (m *Model) Func(name string) *Func { return m.byName[name] }

// Knows reports whether the model can predict the named function: it was
// learned, or always or never covered in training.
func (m *Model) Knows(name string) bool {
	if m.byName[name] != nil {
		return true
	}
	_, a := slices.BinarySearch(m.Always, name)
	_, n := slices.BinarySearch(m.Never, name)
	return a || n
}

// Names returns every function the model knows, sorted.
func (m *Model) Names() []string {
	names := make([]string, 0, len(m.Funcs)+len(m.Always)+len(m.Never))
	for _, fn := range m.Funcs {
		names = append(names, fn.Name)
	}
	names = append(names, m.Always...)
	names = append(names, m.Never...)
	slices.Sort(names)
	return names
}

// Rules returns the rules of the named function, best first, or an error
// wrapping ErrUnknownFunc if it was not learned.
func (m *Model) Rules(name string) ([]*Rule, error) {
	fn := m.byName[name]
	if fn == nil {
		return nil, m.unknown(name)
	}
	return fn.Rules, nil
}

func (m *Model) unknown(name string) error {
	if _, ok := slices.BinarySearch(m.Always, name); ok {
		return fmt.Errorf("%w %s: every training input covered it, so it has no tree", ErrUnknownFunc, name)
	}
	if _, ok := slices.BinarySearch(m.Never, name); ok {
		return fmt.Errorf("%w %s: no training input covered it, so it has no tree", ErrUnknownFunc, name)
	}
	return fmt.Errorf("%w %s", ErrUnknownFunc, name)
}

// leaf returns the index of the leaf an input with path set ps reaches.
func (fn *Func) leaf(features []int, ps grammar.PathSet) int {
	i := 0
	for !fn.Tree[i].Leaf() {
		n := &fn.Tree[i]
		if ps.Has(features[n.Feature]) {
			i = n.Yes
		} else {
			i = n.No
		}
	}
	return i
}

// PathLabel formats a path with the node IDs of its symbols, such as
// <UnaryExpr>#15 -> <AddExpr>#36 -> "-"#11. A symbol that stands for several
// occurrences (grammar.ByNonterminal) is written without an ID.
func PathLabel(gr *grammar.Graph, p grammar.KPath) string {
	var b []byte
	for i, s := range p {
		if i > 0 {
			b = append(b, " -> "...)
		}
		if s < 0 || int(s) >= len(gr.Symbols) {
			b = fmt.Appendf(b, "?%d", s)
			continue
		}
		sym := gr.Symbols[s]
		if len(sym.Nodes) == 1 {
			b = append(b, sym.Nodes[0].String()...)
		} else {
			b = append(b, sym.Label()...)
		}
	}
	return string(b)
}
