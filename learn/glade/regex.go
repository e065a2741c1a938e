package glade

import (
	"strconv"
	"strings"
)

// The regular expression of phase one is a tree of nodes. A node starts as
// a bracketed string [ex]rep or [ex]alt (a hole) and is resolved in place
// by one generalization step into one of the other kinds, so that pointers
// to it stay valid.
type nodeKind uint8

const (
	kindHole nodeKind = iota // [ex]rep or [ex]alt, not yet generalized
	kindSeq                  // pre (star)* rest: the result of a repetition step
	kindAlt                  // first + second: the result of an alternation step
)

type holeType uint8

const (
	holeRep holeType = iota
	holeAlt
)

func (t holeType) String() string {
	if t == holeRep {
		return "rep"
	}
	return "alt"
}

// A context (γ, δ) of a bracketed string: γ x δ is in the current language
// for every x in the language that eventually replaces the bracket. With
// extra contexts (WithExtraContexts), a bracket below a repetition or an
// alternation also has the context (xpre, xpost) in which the enclosing
// repetitions are taken zero times and an alternative stands alone, and
// every check is made in both.
type context2 struct {
	pre, post   string
	xpre, xpost string
	extra       bool // xpre, xpost are set
}

// wrap returns the checks for residual r: γ r δ, and the same in the extra
// context if it is set and differs.
func (c context2) wrap(r string) []string {
	out := []string{c.pre + r + c.post}
	if c.extra && (c.xpre != c.pre || c.xpost != c.post) {
		out = append(out, c.xpre+r+c.xpost)
	}
	return out
}

type node struct {
	kind nodeKind
	// the bracket this node was (all kinds keep it for checks)
	typ  holeType
	ex   string
	ctx  context2
	step int // the phase-one step that resolved this node (1-based)
	seed int

	// kindSeq: pre (star)* rest; pre is a constant, generalized to a
	// character class per byte by character generalization.
	pre  []charSet
	star *node // an alt bracket or what it became; nil if none
	rest *node // a rep bracket or what it became; nil if empty
	// restEx is the string of rest (α3), used by character generalization.
	restEx string

	// kindAlt
	first, second *node
}

// A charSet is the set of bytes a terminal position may hold.
type charSet [4]uint64

func single(b byte) charSet {
	var s charSet
	s.add(b)
	return s
}
func (s *charSet) add(b byte)     { s[b>>6] |= 1 << (b & 63) }
func (s charSet) has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }
func (s charSet) count() int {
	n := 0
	for _, w := range s {
		for ; w != 0; w &= w - 1 {
			n++
		}
	}
	return n
}

// only returns the byte of a one-element set.
func (s charSet) only() (byte, bool) {
	if s.count() != 1 {
		return 0, false
	}
	for b := 0; b < 256; b++ {
		if s.has(byte(b)) {
			return byte(b), true
		}
	}
	return 0, false
}

func constSets(s string) []charSet {
	out := make([]charSet, len(s))
	for i := 0; i < len(s); i++ {
		out[i] = single(s[i])
	}
	return out
}

// String prints the regular expression in the paper's notation: + for
// alternation, * for repetition, brackets for holes.
func (n *node) String() string {
	var b strings.Builder
	n.write(&b, false)
	return b.String()
}

func (n *node) write(b *strings.Builder, inAlt bool) {
	switch n.kind {
	case kindHole:
		b.WriteString("[" + n.ex + "]" + n.typ.String())
	case kindSeq:
		writeSets(b, n.pre)
		if n.star != nil {
			b.WriteByte('(')
			n.star.write(b, true)
			b.WriteString(")*")
		}
		if n.rest != nil {
			n.rest.write(b, false)
		}
	case kindAlt:
		if !inAlt {
			b.WriteByte('(')
		}
		n.first.write(b, false)
		b.WriteString("+")
		n.second.write(b, true)
		if !inAlt {
			b.WriteByte(')')
		}
	}
}

func writeSets(b *strings.Builder, sets []charSet) {
	for _, s := range sets {
		if c, ok := s.only(); ok {
			b.WriteString(printable(string([]byte{c})))
			continue
		}
		b.WriteByte('{')
		first := true
		for c := 0; c < 256; c++ {
			if s.has(byte(c)) {
				if !first {
					b.WriteByte(',')
				}
				first = false
				b.WriteString(printable(string([]byte{byte(c)})))
			}
		}
		b.WriteByte('}')
	}
}

// printable quotes s only if it holds bytes that are not printable ASCII.
func printable(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			q := strconv.Quote(s)
			return q[1 : len(q)-1]
		}
	}
	return s
}

// matches reports whether s is in the language of the regular expression n
// (holes stand for their strings).
func (n *node) matches(s string) bool {
	start := make([]bool, len(s)+1)
	start[0] = true
	return n.ends(s, start)[len(s)]
}

// ends returns the positions where a match of n in s can end, starting at
// any position marked in from.
func (n *node) ends(s string, from []bool) []bool {
	out := make([]bool, len(s)+1)
	switch n.kind {
	case kindHole:
		for i, ok := range from {
			if ok && strings.HasPrefix(s[i:], n.ex) {
				out[i+len(n.ex)] = true
			}
		}
	case kindAlt:
		a, c := n.first.ends(s, from), n.second.ends(s, from)
		for i := range out {
			out[i] = a[i] || c[i]
		}
	case kindSeq:
		for i, ok := range from {
			if ok && matchSets(s[i:], n.pre) {
				out[i+len(n.pre)] = true
			}
		}
		if n.star != nil {
			reach := out
			frontier := append([]bool(nil), out...)
			for anyTrue(frontier) {
				next := n.star.ends(s, frontier)
				frontier = make([]bool, len(s)+1)
				for i, ok := range next {
					if ok && !reach[i] {
						reach[i] = true
						frontier[i] = true
					}
				}
			}
			out = reach
		}
		if n.rest != nil {
			out = n.rest.ends(s, out)
		}
	}
	return out
}

func anyTrue(bs []bool) bool {
	for _, b := range bs {
		if b {
			return true
		}
	}
	return false
}

func matchSets(s string, sets []charSet) bool {
	if len(s) < len(sets) {
		return false
	}
	for i, set := range sets {
		if !set.has(s[i]) {
			return false
		}
	}
	return true
}
