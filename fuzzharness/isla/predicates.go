package isla

import (
	"fmt"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
	"strconv"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// A Predicate is a semantic predicate: an atomic formula name(args...)
// whose meaning is computed by Go code, for what SMT-LIB cannot say or says
// only at great cost, such as a checksum. count is built in; register others
// with WithPredicates.
//
// A Predicate must be safe for concurrent use and deterministic: the same
// arguments always give the same answer.
//
// Evaluation is all the validator needs. Solving goes through optional
// interfaces that a Predicate may also implement, so that a predicate
// written for validation keeps working when solving support is added:
// NumSolver computes numeric arguments, and producing subtrees for tree
// arguments (as ISLa's semantic predicates do when generating inputs) will
// follow the same pattern.
type Predicate interface {
	// Name is the name constraints call the predicate by. It must not be the
	// name of an SMT-LIB function or of a structural predicate.
	Name() string
	// Params gives the kind of each argument; the length is the arity.
	Params() []Param
	// Eval decides whether the predicate holds for the arguments, which
	// match Params. An error stops the predicate from holding; the
	// validator reports it.
	Eval(args []Arg) (bool, error)
}

// A NumSolver is a Predicate that can compute the values of a numeric
// argument that makes it hold, given all other arguments. The validator
// uses it to find the values of a numeric quantifier's variable, as in
// "exists int n: count(x, "<field>", n) and ..."; the solver uses it to
// produce such values.
type NumSolver interface {
	Predicate
	// SolveNum returns, in decimal, the natural numbers that argument i
	// (a NumParam, whose Arg.Num is "") may take for the predicate to hold.
	SolveNum(args []Arg, i int) ([]string, error)
}

// Param is the kind of a predicate argument.
type Param uint8

const (
	// TreeParam is a variable bound to a node of the derivation tree.
	TreeParam Param = iota
	// StringParam is a string literal, such as "<field>" or "GE".
	StringParam
	// NumParam is a natural number: a numeric literal, a numeric string
	// literal, a variable of a numeric quantifier, or a variable bound to a
	// node whose text is a number.
	NumParam
)

// String returns the kind's name.
func (p Param) String() string {
	switch p {
	case TreeParam:
		return "tree"
	case StringParam:
		return "string"
	case NumParam:
		return "number"
	}
	return "Param(" + strconv.Itoa(int(p)) + ")"
}

// An Arg is the value of one predicate argument.
type Arg struct {
	Node Node   // TreeParam: the node
	Str  string // StringParam: the literal's bytes
	Num  string // NumParam: the number in decimal ("" while it is being solved)
}

// A Node is a node of the derivation tree of an input, as constraints see
// it: a nonterminal or a terminal leaf, without the synthetic nodes of the
// grammar graph. The zero Node is invalid.
type Node struct {
	v *View
	i int32
}

// IsValid reports whether n is a node.
func (n Node) IsValid() bool { return n.v != nil }

// Nonterminal returns the node's nonterminal without angle brackets, or ""
// for a terminal leaf.
func (n Node) Nonterminal() string { return n.v.label(n.i) }

// Text returns the input bytes the node derives.
func (n Node) Text() string { return n.v.bytes(n.i) }

// Offset returns the byte offset of the node's text in the input.
func (n Node) Offset() int { return int(n.v.Nodes[n.i].Start) }

// End returns the byte offset just after the node's text.
func (n Node) End() int { return int(n.v.Nodes[n.i].Stop) }

// Tree returns the grammar tree node the node stands for: the reference for
// a nonterminal, the literal or class node for a terminal. The root of the
// view returns the root of the derivation tree.
func (n Node) Tree() *grammar.Tree { return n.v.treeAt(n.i) }

// Parent returns the parent node, or an invalid Node for the root.
func (n Node) Parent() Node {
	p := n.v.Nodes[n.i].Parent
	if p < 0 {
		return Node{}
	}
	return Node{n.v, p}
}

// Children returns the node's children in order.
func (n Node) Children() []Node {
	var out []Node
	for c := n.v.Nodes[n.i].FirstKid; c >= 0; c = n.v.Nodes[c].Next {
		out = append(out, Node{n.v, c})
	}
	return out
}

// Find returns the nodes labeled with the nonterminal name in n's subtree,
// n included, in pre-order.
func (n Node) Find(name string) []Node {
	var out []Node
	for i := n.i; i < n.v.Nodes[n.i].End; i++ {
		if n.v.label(i) == name {
			out = append(out, Node{n.v, i})
		}
	}
	return out
}

// String describes the node: <name> "text" or "text" for a terminal.
func (n Node) String() string {
	if !n.IsValid() {
		return "<invalid node>"
	}
	if nt := n.Nonterminal(); nt != "" {
		return "<" + nt + "> " + smtlib.QuoteBytes(n.Text())
	}
	return smtlib.QuoteBytes(n.Text())
}

// Count is the built-in semantic predicate count(tree, "<needle>", n): the
// subtree tree, its root included, holds exactly n nodes labeled with the
// nonterminal needle.
var Count Predicate = countPred{}

type countPred struct{}

// Name returns "count".
func (countPred) Name() string { return "count" }

// Params returns the kinds of count's arguments: a tree, the needle, a number.
func (countPred) Params() []Param { return []Param{TreeParam, StringParam, NumParam} }

func (countPred) count(args []Arg) (int, error) {
	return countNeedles(args[0].Node, args[1].Str)
}

// Eval counts the needles in the tree and compares.
func (p countPred) Eval(args []Arg) (bool, error) {
	n, err := p.count(args)
	if err != nil {
		return false, err
	}
	return countIs(n, args[2].Num), nil
}

// SolveNum returns the number of needles in the tree.
func (p countPred) SolveNum(args []Arg, i int) ([]string, error) {
	if i != 2 {
		return nil, fmt.Errorf("count: argument %d is not numeric", i+1)
	}
	n, err := p.count(args)
	if err != nil {
		return nil, err
	}
	return []string{strconv.Itoa(n)}, nil
}

// The structural predicates, built in. Their arguments are nodes of the
// derivation tree (with a numeric first argument for nth and nth_child, and
// two string arguments for level).
var structural = map[string][]Param{
	"before":             {TreeParam, TreeParam},
	"after":              {TreeParam, TreeParam},
	"consecutive":        {TreeParam, TreeParam},
	"inside":             {TreeParam, TreeParam},
	"direct_child":       {TreeParam, TreeParam},
	"same_position":      {TreeParam, TreeParam},
	"different_position": {TreeParam, TreeParam},
	"level":              {StringParam, StringParam, TreeParam, TreeParam},
	"nth":                {NumParam, TreeParam, TreeParam},
	nthChild:             {NumParam, TreeParam, TreeParam},
}

// structuralHolds evaluates a structural predicate. Nodes are view indices;
// n is the numeric argument (nth, nth_child), pred and label the string
// arguments of level.
func (v *View) structuralHolds(name string, a, b int32, n int64, pred string, label int32) bool {
	nd := v.Nodes
	switch name {
	case "before":
		return nd[a].End <= b
	case "after":
		// ISLa's after: not before, and a is not b nor an ancestor of
		// b; so a node inside b is after b.
		return nd[a].End > b && !v.IsAncestor(a, b)
	case "consecutive":
		if nd[a].End > b {
			return false
		}
		for i := nd[a].End; i < b; i++ {
			if nd[i].FirstKid < 0 {
				return false
			}
		}
		return true
	case "inside":
		return v.IsAncestor(b, a)
	case "direct_child":
		return nd[a].Parent == b
	case "same_position":
		return a == b
	case "different_position":
		return a != b
	case "nth":
		if !v.IsAncestor(b, a) || nd[a].Label < 0 {
			return false
		}
		k := int64(len(v.InRange(nd[a].Label, b, a))) + 1
		return k == n
	case nthChild:
		if nd[a].Parent != b || nd[a].Label < 0 {
			return false
		}
		k := int64(0)
		for c := nd[b].FirstKid; c >= 0; c = nd[c].Next {
			if nd[c].Label == nd[a].Label {
				k++
			}
			if c == a {
				return k == n
			}
		}
		return false
	case "level":
		return v.level(pred, label, a, b)
	}
	return false
}

// NthChildOf returns the k-th child of p labeled label, or -1.
func (v *View) NthChildOf(p int32, label int32, k int) int32 {
	for c := v.Nodes[p].FirstKid; c >= 0; c = v.Nodes[c].Next {
		if v.Nodes[c].Label == label {
			k--
			if k == 0 {
				return c
			}
		}
	}
	return -1
}

// ancestors appends the path from the root to x, both included, to out.
func (v *View) ancestors(out []int32, x int32) []int32 {
	out = out[:0]
	for ; x >= 0; x = v.Nodes[x].Parent {
		out = append(out, x)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// level implements ISLa's level(PRED, NONTERMINAL, a, b): there is a common
// ancestor P of a and b, labeled NONTERMINAL or the root, such that the
// nodes labeled NONTERMINAL strictly between P and a (occs1) and between P
// and b (occs2) are related as PRED says: EQ both empty, GE occs1 empty, LE
// occs2 empty, GT occs1 empty and occs2 not, LT occs2 empty and occs1 not.
func (v *View) level(pred string, label int32, a, b int32) bool {
	// The paths of the programs and documents constraints are written for
	// are short: room for them on the stack.
	var bufA, bufB [48]int32
	var bufP [16]int
	pa, pb := v.ancestors(bufA[:0], a), v.ancestors(bufB[:0], b)
	prefixes := append(bufP[:0], 0) // depths of the candidate common ancestors
	for d := 1; d < len(pa) && d < len(pb) && pa[d] == pb[d]; d++ {
		if v.Nodes[pa[d]].Label == label {
			prefixes = append(prefixes, d)
		}
	}
	count := func(path []int32, d int) int {
		n := 0
		for k := d + 1; k < len(path)-1; k++ {
			if v.Nodes[path[k]].Label == label {
				n++
			}
		}
		return n
	}
	for _, d := range prefixes {
		o1, o2 := count(pa, d), count(pb, d)
		switch pred {
		case "EQ":
			if o1 == 0 && o2 == 0 {
				return true
			}
		case "GE":
			if o1 == 0 {
				return true
			}
		case "LE":
			if o2 == 0 {
				return true
			}
		case "GT":
			if o1 == 0 && o2 > 0 {
				return true
			}
		case "LT":
			if o2 == 0 && o1 > 0 {
				return true
			}
		}
	}
	return false
}
