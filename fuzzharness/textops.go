package fuzzharness

import (
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// The text-only decoder (Codec.decodeText) runs the grammar graph compiled
// into one step per node, textOp, with an explicit stack of items instead of
// recursion. Under go test -fuzz every package but a few of the standard
// library is compiled with coverage counters and comparison hooks, the
// decoder included, so each node it visits costs several calls and
// counter updates on top of its work; the compiled steps visit fewer nodes:
// references are skipped (a slot names the node below them and how many
// it skipped), and a subtree without decisions is one step that appends its
// text.

// Kinds of text steps. The leaves, which push nothing, come first.
const (
	opConst  uint8 = iota // a subtree without decisions: append text
	opPick                // a decision of one byte among texts
	opClass               // a class with a choice of member
	opSeq                 // push the children, the last first
	opAlt                 // decide an alternative and push it
	opRepeat              // decide a count and push the element that often
)

// maxConstText bounds the text of a subtree compiled into one opConst
// step; a larger decision-free subtree is decoded node by node, so that
// compiling a grammar with nested fixed repetitions stays small.
const maxConstText = 1 << 10

// A textOp is the text step of one graph node.
type textOp struct {
	kind uint8
	text string // opConst: the text of the subtree
	// texts are the texts of an opPick step, by decision value: the
	// members of a class, or the texts of the alternatives (by rank: the
	// shortest first) of an alternation whose choice is the same at every
	// depth and never exceeds the size bound.
	texts []string
	// kids are the child slots: for opSeq in reverse order, for opAlt the
	// alternatives, for opRepeat the element.
	kids []slot
}

// A slot is where decoding continues for a child node: the step op, the
// first node below the child that is not a reference, which is refs
// references deeper than the child.
type slot struct {
	op, refs int32
}

// An item is a pending step of the text decoder at a depth.
type item struct {
	op, depth int32
}

// compileText fills c.ops and c.root. It needs c.info.
func (c *Codec) compileText() {
	nodes := c.graph.Nodes
	c.ops = make([]textOp, len(nodes))
	const (
		unknown = iota
		visiting
		done
	)
	state := make([]uint8, len(nodes))
	isConst := make([]bool, len(nodes))
	// constant decides whether n's subtree makes no decision and, if so,
	// sets its text. A node on a cycle is not constant: with no decision
	// on the way it would have no finite tree.
	var constant func(n *grammar.Node) bool
	constant = func(n *grammar.Node) bool {
		switch state[n.ID] {
		case visiting:
			return false
		case done:
			return isConst[n.ID]
		}
		state[n.ID] = visiting
		var text strings.Builder
		ok := true
		add := func(s string) {
			if text.Len()+len(s) > maxConstText {
				ok = false
				return
			}
			text.WriteString(s)
		}
		in := &c.info[n.ID]
		switch n.Kind {
		case grammar.KindLit:
			add(n.Lit)
		case grammar.KindClass:
			ok = in.options == 1
			if ok {
				add(string(in.member(nil, 0)))
			}
		case grammar.KindRef, grammar.KindSeq:
			for _, ch := range n.Children {
				if ok = ok && constant(ch); ok {
					add(c.ops[ch.ID].text)
				}
			}
		case grammar.KindAlt:
			ok = len(n.Children) == 1 && constant(n.Children[0])
			if ok {
				add(c.ops[n.Children[0].ID].text)
			}
		case grammar.KindRepeat:
			// Without a choice of count the element repeats n.Min times.
			ok = in.width == 0 && (n.Min == 0 || constant(n.Children[0]))
			for i := 0; ok && i < n.Min; i++ {
				add(c.ops[n.Children[0].ID].text)
			}
		default:
			ok = false
		}
		state[n.ID] = done
		isConst[n.ID] = ok
		if ok {
			c.ops[n.ID] = textOp{kind: opConst, text: text.String()}
		}
		return ok
	}
	for _, n := range nodes {
		constant(n)
	}
	// resolve returns the slot of n: the first node at or below it that
	// is not a reference or is constant, and the references skipped. A
	// cycle of references (which has no finite tree) ends at a reference.
	resolve := func(n *grammar.Node) slot {
		refs := 0
		for n.Kind == grammar.KindRef && !isConst[n.ID] && refs < len(nodes) {
			n = n.Children[0]
			refs++
		}
		return slot{op: int32(n.ID), refs: int32(refs)}
	}
	for _, n := range nodes {
		if isConst[n.ID] {
			continue
		}
		op := &c.ops[n.ID]
		op.kids = make([]slot, len(n.Children))
		for i, ch := range n.Children {
			op.kids[i] = resolve(ch)
		}
		switch n.Kind {
		case grammar.KindClass:
			op.kind = opClass
			if in := &c.info[n.ID]; in.width == 1 {
				op.kind = opPick
				op.texts = make([]string, in.options)
				for i := range op.texts {
					op.texts[i] = string(in.member(nil, i))
				}
			}
		case grammar.KindSeq:
			op.kind = opSeq
			for i, j := 0, len(op.kids)-1; i < j; i, j = i+1, j-1 {
				op.kids[i], op.kids[j] = op.kids[j], op.kids[i]
			}
		case grammar.KindAlt:
			op.kind = opAlt
			if texts := c.pickTexts(n, isConst); texts != nil {
				op.kind, op.texts = opPick, texts
			}
		case grammar.KindRepeat:
			op.kind = opRepeat
		case grammar.KindRef:
			// Only on a cycle of references: a sequence of one child,
			// one reference deeper.
			op.kind = opSeq
			op.kids[0].refs++
		}
	}
	c.root = resolve(c.graph.Root)
}

// pickTexts returns the texts of the alternatives of n by rank if n is an
// alternation of one byte whose alternatives are constant and have the
// same least size at every depth budget, and whose shortest alternative is
// the same at every budget: its decision then depends neither on the depth
// nor on the size committed (an alternative adds nothing to it). Otherwise
// it returns nil.
func (c *Codec) pickTexts(n *grammar.Node, isConst []bool) []string {
	if c.info[n.ID].width != 1 {
		return nil
	}
	for _, ch := range n.Children {
		if !isConst[ch.ID] {
			return nil
		}
	}
	short := c.closeoff[n.ID*c.w]
	for b := 0; b < c.w; b++ {
		if c.closeoff[n.ID*c.w+b] != short {
			return nil
		}
		for _, ch := range n.Children {
			if c.sizes[ch.ID*c.w+b] != c.sizes[n.Children[0].ID*c.w+b] {
				return nil
			}
		}
	}
	texts := make([]string, len(n.Children))
	for rank := range texts {
		pick := int(short)
		if rank > 0 {
			if pick = rank - 1; pick >= int(short) {
				pick++
			}
		}
		texts[rank] = c.ops[n.Children[pick].ID].text
	}
	return texts
}
