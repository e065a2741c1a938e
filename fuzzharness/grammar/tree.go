package grammar

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// A Tree is a derivation tree over grammar graph nodes: every tree node is an
// instance of a graph node, and every path in the tree is a path in the graph.
// A tree node may be open: an unfilled slot that names the graph node that
// will fill it but has no derivation yet. A tree without open nodes is
// complete and derives the input given by String and Bytes.
type Tree struct {
	Node *Node // the graph node this tree node instantiates
	// Children are the derived children: for a reference its rule's
	// right-hand side, for an alternation the chosen alternative, for a
	// concatenation one child per element, for a quantifier one child per
	// repetition; none for literals and classes.
	Children []*Tree
	// Value is the derived text of a literal (its bytes) or a character class
	// (the chosen character); empty for other nodes.
	Value string
	// Open marks an unfilled slot.
	Open bool
}

// NewOpen returns an open slot for graph node n.
func NewOpen(n *Node) *Tree { return &Tree{Node: n, Open: true} }

// String returns the input the tree derives; open slots derive nothing.
func (t *Tree) String() string { return string(t.AppendBytes(nil)) }

// Bytes returns the input the tree derives; open slots derive nothing.
func (t *Tree) Bytes() []byte { return t.AppendBytes(nil) }

// AppendBytes appends the input the tree derives to b.
func (t *Tree) AppendBytes(b []byte) []byte {
	if len(t.Children) == 0 {
		return append(b, t.Value...)
	}
	for _, c := range t.Children {
		b = c.AppendBytes(b)
	}
	return b
}

// Len returns the length in bytes of the input the tree derives.
func (t *Tree) Len() int {
	if len(t.Children) == 0 {
		return len(t.Value)
	}
	n := 0
	for _, c := range t.Children {
		n += c.Len()
	}
	return n
}

// Complete reports whether the tree has no open slots.
func (t *Tree) Complete() bool {
	complete := true
	t.Walk(func(u *Tree) bool {
		if u.Open {
			complete = false
		}
		return complete
	})
	return complete
}

// Walk calls f for every node of the tree in depth-first pre-order. If f
// returns false, Walk skips the node's children.
func (t *Tree) Walk(f func(*Tree) bool) {
	if !f(t) {
		return
	}
	for _, c := range t.Children {
		c.Walk(f)
	}
}

// Size returns the number of tree nodes, open slots included.
func (t *Tree) Size() int {
	n := 1
	for _, c := range t.Children {
		n += c.Size()
	}
	return n
}

// Depth returns the derivation depth of the tree: the most references (tree
// nodes of kind KindRef) on any path from the root to a leaf.
func (t *Tree) Depth() int {
	d := 0
	for _, c := range t.Children {
		d = max(d, c.Depth())
	}
	if t.Node.Kind == KindRef {
		d++
	}
	return d
}

// OpenSlots returns the open slots of the tree in pre-order.
func (t *Tree) OpenSlots() []*Tree {
	var open []*Tree
	t.Walk(func(u *Tree) bool {
		if u.Open {
			open = append(open, u)
		}
		return true
	})
	return open
}

// Clone returns a deep copy of the tree. Graph nodes are shared.
func (t *Tree) Clone() *Tree {
	c := &Tree{Node: t.Node, Value: t.Value, Open: t.Open}
	if t.Children != nil {
		c.Children = make([]*Tree, len(t.Children))
		for i, ch := range t.Children {
			c.Children[i] = ch.Clone()
		}
	}
	return c
}

// Equal reports whether two trees instantiate the same graph nodes (by ID)
// with the same structure, values and open slots.
func (t *Tree) Equal(u *Tree) bool {
	if t == u {
		return true
	}
	if t == nil || u == nil || t.Node.ID != u.Node.ID || t.Value != u.Value || t.Open != u.Open || len(t.Children) != len(u.Children) {
		return false
	}
	for i := range t.Children {
		if !t.Children[i].Equal(u.Children[i]) {
			return false
		}
	}
	return true
}

// Format writes the tree as an indented outline for humans, one node a line.
// With all false only symbolic nodes are shown (nonterminals as <name>#id,
// leaves with their quoted text); with all true synthetic nodes are shown too.
// Open slots are marked "(open)".
func (t *Tree) Format(w io.Writer, all bool) error {
	var buf bytes.Buffer
	t.format(&buf, 0, all)
	_, err := w.Write(buf.Bytes())
	return err
}

// Outline returns the symbolic outline written by Format(w, false).
func (t *Tree) Outline() string {
	var b strings.Builder
	t.Format(&b, false)
	return b.String()
}

func (t *Tree) format(b *bytes.Buffer, indent int, all bool) {
	show := all || t.Node.Symbolic() || t.Open
	if show {
		b.WriteString(strings.Repeat("  ", indent))
		switch {
		case t.Open:
			fmt.Fprintf(b, "%s (open)", t.Node)
		case t.Node.Kind == KindLit || t.Node.Kind == KindClass:
			fmt.Fprintf(b, "%s#%d", strconv.Quote(t.Value), t.Node.ID)
		case t.Node.Kind == KindRef:
			fmt.Fprintf(b, "%s  %s", t.Node, strconv.Quote(t.String()))
		default:
			b.WriteString(t.Node.String())
		}
		b.WriteByte('\n')
		indent++
	}
	for _, c := range t.Children {
		c.format(b, indent, all)
	}
}
