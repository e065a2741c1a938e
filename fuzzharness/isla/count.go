package isla

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
)

// countNeedles returns how many nodes of tree's subtree, tree included,
// are labeled with needle, a nonterminal such as "<field>": the built-in
// count's number, taken from the view's lists of nodes by label without
// walking the subtree.
func countNeedles(tree Node, needle string) (int, error) {
	name, ok := strings.CutPrefix(needle, "<")
	name, ok2 := strings.CutSuffix(name, ">")
	if !ok || !ok2 {
		return 0, fmt.Errorf("count: needle %q is not a nonterminal such as \"<field>\"", needle)
	}
	v := tree.v
	for l, nm := range v.names {
		if nm == name {
			return len(v.InRange(int32(l), tree.i, v.Nodes[tree.i].End)), nil
		}
	}
	return 0, nil
}

// countIs reports whether count n is the number num, a decimal that may
// have leading zeros.
func countIs(n int, num string) bool {
	s := strings.TrimLeft(num, "0")
	if s == "" && num != "" {
		s = "0"
	}
	return strconv.Itoa(n) == s
}

// builtinCount reports whether n applies the built-in count, which the
// evaluator decides and solves without making the arguments of a
// Predicate.
func builtinCount(n *CompiledPred) bool {
	_, ok := n.Impl.(countPred)
	return ok && len(n.Args) == 3
}

// evalCount is Pred for the built-in count.
func (e *Evaluator) evalCount(n *CompiledPred) (bool, error) {
	s := e.ArgNum(n.Args[2])
	if !smtlib.IsDigits(s) {
		return false, fmt.Errorf("argument 3 of %s is not a number: %s", n.Src.Name, smtlib.QuoteBytes(s))
	}
	c, err := countNeedles(Node{e.View, e.Slots[n.Args[0].Slot].Node}, n.Args[1].Lit)
	if err != nil {
		return false, PredicateError(n.Src.Name, err)
	}
	return countIs(c, s), nil
}

// collectCount is collect for the built-in count: the number it computes
// for its numeric argument, if that is the variable of slot.
func (e *Evaluator) collectCount(n *CompiledPred, slot int, add func(string)) {
	if ca := n.Args[2]; ca.Kind != NumParam || !ca.IsInt || ca.Slot != slot {
		return
	}
	if c, err := countNeedles(Node{e.View, e.Slots[n.Args[0].Slot].Node}, n.Args[1].Lit); err == nil {
		add(strconv.Itoa(c))
	}
}
