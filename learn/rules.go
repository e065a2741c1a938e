package learn

import (
	"fmt"
	"slices"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// A Rule is the condition of one leaf of a function's decision tree: the
// conjunction of the tests on the way from the root, an input containing
// every Required path and no Forbidden path (CODEINE, section 5.3.1). The
// rules of a function are those of its covering leaves: leaves predicting
// coverage with a Gini impurity of at most Config.RuleGini, whose condition is
// feasible.
type Rule struct {
	// Func is the function the rule predicts coverage of.
	Func string
	// Required and Forbidden hold path IDs of the model's PathTable, in
	// increasing order; IDs from the table's Len on stand for the model's
	// root and count features (Model.Extra).
	Required, Forbidden []int
	// Pos and Neg count the training rows at the leaf that covered the
	// function, or did not.
	Pos, Neg int

	leaf  int       // index of the leaf in the function's tree
	extra []Feature // the model's Extra
}

// Extra returns the root or count feature clause id stands for, or nil for
// a k-path.
func (r *Rule) Extra(pt *grammar.PathTable, id int) *Feature {
	if i := id - pt.Len(); i >= 0 && i < len(r.extra) {
		return &r.extra[i]
	}
	return nil
}

// Prob returns the fraction of the training rows at the rule's leaf that
// covered the function.
func (r *Rule) Prob() float64 {
	if r.Pos+r.Neg == 0 {
		return 0
	}
	return float64(r.Pos) / float64(r.Pos+r.Neg)
}

// Gini returns the Gini impurity of the rule's leaf.
func (r *Rule) Gini() float64 { return gini(r.Pos, r.Neg) }

// Satisfied reports whether an input with the path set ps satisfies the
// rule: it contains every required path and no forbidden one.
func (r *Rule) Satisfied(ps grammar.PathSet) bool {
	return r.unsatisfied(ps) == 0
}

// unsatisfied counts the clauses of the rule ps violates: required paths
// missing and forbidden paths present.
func (r *Rule) unsatisfied(ps grammar.PathSet) int {
	n := 0
	for _, id := range r.Required {
		if !ps.Has(id) {
			n++
		}
	}
	for _, id := range r.Forbidden {
		if ps.Has(id) {
			n++
		}
	}
	return n
}

// Feasible reports whether the rule passes CODEINE's feasibility check: no
// forbidden path is contained, as a contiguous sub-path, in a required path
// (an input cannot contain a path without containing its sub-paths). It is
// not a complete test: a rule that passes may still be unsatisfiable.
func (r *Rule) Feasible(pt *grammar.PathTable) bool {
	for _, f := range r.Forbidden {
		if f >= pt.Len() {
			continue
		}
		fp := pt.Path(f)
		for _, q := range r.Required {
			if q >= pt.Len() {
				continue
			}
			if containsPath(pt.Path(q), fp) {
				return false
			}
		}
	}
	return true
}

// containsPath reports whether q occurs in p as a contiguous sub-path.
func containsPath(p, q grammar.KPath) bool {
	for i := 0; i+len(q) <= len(p); i++ {
		if slices.Equal(p[i:i+len(q)], q) {
			return true
		}
	}
	return false
}

// Format returns the rule as text: a line with the function and the
// training rows at the leaf, then one line per clause: "requires" or
// "forbids", the nonterminal and the pattern the path stands for (see
// Pattern), and the path itself in brackets.
func (r *Rule) Format(pt *grammar.PathTable) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d of %d training inputs covered (gini %.2f)", r.Func, r.Pos, r.Pos+r.Neg, r.Gini())
	if len(r.Required)+len(r.Forbidden) == 0 {
		b.WriteString("\n  any input")
	}
	clause := func(verb string, id int) {
		if f := r.Extra(pt, id); f != nil {
			fmt.Fprintf(&b, "\n  %s %s", verb, f.Format(pt.Graph))
			return
		}
		p := pt.Path(id)
		pat := "?"
		if x, err := NewPattern(pt.Graph, p); err == nil {
			pat = "<" + x.Rule + ">: " + x.String()
		}
		fmt.Fprintf(&b, "\n  %s %s  [%s]", verb, pat, PathLabel(pt.Graph, p))
	}
	for _, id := range r.Required {
		clause("requires", id)
	}
	for _, id := range r.Forbidden {
		clause("forbids ", id)
	}
	return b.String()
}

// leafRules returns the condition of every leaf of a function's tree, by
// leaf index, with features translated to path IDs.
func leafRules(name string, nodes []Node, features []int) map[int]*Rule {
	rules := make(map[int]*Rule)
	var req, forb []int
	// Iterative depth-first walk: trees from files may be deep.
	type frame struct {
		i     int
		state int // 0: enter, 1: after the yes branch, 2: after the no branch
	}
	stack := []frame{{0, 0}}
	for len(stack) > 0 {
		fr := &stack[len(stack)-1]
		n := &nodes[fr.i]
		if n.Leaf() {
			r := &Rule{Func: name, Pos: n.Pos, Neg: n.Neg, leaf: fr.i,
				Required: slices.Sorted(slices.Values(req)), Forbidden: slices.Sorted(slices.Values(forb))}
			rules[fr.i] = r
			stack = stack[:len(stack)-1]
			continue
		}
		id := features[n.Feature]
		switch fr.state {
		case 0:
			fr.state = 1
			req = append(req, id)
			stack = append(stack, frame{n.Yes, 0})
		case 1:
			fr.state = 2
			req = req[:len(req)-1]
			forb = append(forb, id)
			stack = append(stack, frame{n.No, 0})
		default:
			forb = forb[:len(forb)-1]
			stack = stack[:len(stack)-1]
		}
	}
	return rules
}

// coveringRules returns the feasible rules of the covering leaves among the
// leaf conditions, best first: by impurity, then by the number of covering
// training rows, then by the leaf's position.
func coveringRules(pt *grammar.PathTable, leaves map[int]*Rule, maxGini float64) []*Rule {
	var rules []*Rule
	for _, r := range leaves {
		if r.Pos > r.Neg && r.Gini() <= maxGini+1e-12 && r.Feasible(pt) {
			rules = append(rules, r)
		}
	}
	slices.SortFunc(rules, func(a, b *Rule) int {
		if ga, gb := a.Gini(), b.Gini(); ga != gb {
			if ga < gb {
				return -1
			}
			return 1
		}
		if a.Pos != b.Pos {
			return b.Pos - a.Pos
		}
		return a.leaf - b.leaf
	})
	return rules
}
