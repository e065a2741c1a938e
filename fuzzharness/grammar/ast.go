package grammar

import (
	"fmt"
	"unicode/utf8"
)

// A Grammar is a context-free grammar as written: an ordered list of rules,
// each defining one nonterminal by an expression. Build one with Parse,
// ParseJSON or Builtin, or assemble the rules by hand; call Check before use,
// and Compile to obtain the grammar graph that generation, parsing and k-paths
// work on.
type Grammar struct {
	// Start is the start nonterminal, without angle brackets. Parse sets it to
	// "start" when a rule of that name exists, and otherwise to the first rule.
	Start string
	// Rules are the productions in the order they were written. Names are
	// unique.
	Rules []*Rule
}

// A Rule defines the nonterminal Name (written <Name>) as Expr.
type Rule struct {
	Name string
	Expr Expr
	Pos  Pos // position of the rule's name
}

// Rule returns the rule defining the nonterminal name, or nil. It scans
// the rules in order, taking time linear in their number; code that looks up
// many names builds a map once.
func (g *Grammar) Rule(name string) *Rule {
	for _, r := range g.Rules {
		if r != nil && r.Name == name {
			return r
		}
	}
	return nil
}

// Pos is a position in a grammar source. Line and Col are 1-based; Col counts
// bytes. The zero Pos means "unknown".
type Pos struct {
	File   string
	Offset int
	Line   int
	Col    int
}

// IsValid reports whether the position is known.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats the position as file:line:col, omitting unknown parts.
func (p Pos) String() string {
	s := p.File
	if p.IsValid() {
		if s != "" {
			s += ":"
		}
		s += fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	if s == "" {
		s = "-"
	}
	return s
}

// An Expr is the right-hand side of a rule, or a part of it: one of *Alt,
// *Seq, *Repeat, *Lit, *Ref or *Class.
type Expr interface {
	// Position returns where the expression starts in the source.
	Position() Pos
	expr()
}

// Alt is an alternation: exactly one of X is derived. It has at least two
// alternatives when produced by Parse.
type Alt struct {
	X []Expr
	P Pos
}

// Seq is a concatenation: all of X, in order. It has at least two elements
// when produced by Parse.
type Seq struct {
	X []Expr
	P Pos
}

// Repeat is a quantified expression: X repeated between Min and Max times.
// Max is Unbounded for no upper limit. "?" is {0,1}, "*" is {0,}, "+" is {1,}.
type Repeat struct {
	X        Expr
	Min, Max int
	P        Pos
}

// Unbounded is the Max of a Repeat without an upper limit.
const Unbounded = -1

// Lit is a literal: the bytes of S, exactly. S may be empty (the empty word)
// and may hold any bytes, including NUL and invalid UTF-8.
type Lit struct {
	S string
	P Pos
}

// Ref is a reference to the nonterminal Name (written <Name>).
type Ref struct {
	Name string
	P    Pos
}

// Class is a character class such as [a-z0-9_] or [^"\\]: it derives exactly
// one character of its set.
//
// A class is either a rune class or a byte class. A rune class matches one
// UTF-8 encoded character; its negation is taken over all Unicode scalar
// values. A class that contains a raw byte above 0x7F (written \x80 to \xff)
// is a byte class: it matches exactly one byte, all its members must be
// bytes, and its negation is taken over the 256 byte values.
type Class struct {
	Negated bool
	Ranges  []Range // as written, before negation
	Bytes   bool    // a byte class
	P       Pos
}

// Range is the inclusive range of characters Lo..Hi of a Class. In a byte
// class, Lo and Hi are byte values.
type Range struct {
	Lo, Hi rune
}

func (x *Alt) Position() Pos    { return x.P }
func (x *Seq) Position() Pos    { return x.P }
func (x *Repeat) Position() Pos { return x.P }
func (x *Lit) Position() Pos    { return x.P }
func (x *Ref) Position() Pos    { return x.P }
func (x *Class) Position() Pos  { return x.P }

func (*Alt) expr()    {}
func (*Seq) expr()    {}
func (*Repeat) expr() {}
func (*Lit) expr()    {}
func (*Ref) expr()    {}
func (*Class) expr()  {}

// Set returns the class's members after negation as sorted, disjoint,
// non-adjacent inclusive ranges. Members of a rune class exclude the
// surrogate halves U+D800..U+DFFF, which UTF-8 cannot encode.
func (c *Class) Set() []Range {
	limit := rune(utf8.MaxRune)
	if c.Bytes {
		limit = 0xFF
	}
	rs := normalizeRanges(c.Ranges, limit)
	if c.Negated {
		rs = complementRanges(rs, limit)
	}
	if !c.Bytes {
		rs = subtractRange(rs, Range{0xD800, 0xDFFF})
	}
	return rs
}

// normalizeRanges sorts and merges rs, clipping to [0, limit].
func normalizeRanges(rs []Range, limit rune) []Range {
	out := make([]Range, 0, len(rs))
	for _, r := range rs {
		if r.Lo > r.Hi || r.Lo > limit || r.Hi < 0 {
			continue
		}
		out = append(out, Range{max(r.Lo, 0), min(r.Hi, limit)})
	}
	// insertion sort: classes are small
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Lo < out[j-1].Lo; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	merged := out[:0]
	for _, r := range out {
		if n := len(merged); n > 0 && r.Lo <= merged[n-1].Hi+1 {
			merged[n-1].Hi = max(merged[n-1].Hi, r.Hi)
			continue
		}
		merged = append(merged, r)
	}
	return merged
}

func complementRanges(rs []Range, limit rune) []Range {
	var out []Range
	next := rune(0)
	for _, r := range rs {
		if r.Lo > next {
			out = append(out, Range{next, r.Lo - 1})
		}
		next = r.Hi + 1
	}
	if next <= limit {
		out = append(out, Range{next, limit})
	}
	return out
}

func subtractRange(rs []Range, x Range) []Range {
	var out []Range
	for _, r := range rs {
		if r.Hi < x.Lo || r.Lo > x.Hi {
			out = append(out, r)
			continue
		}
		if r.Lo < x.Lo {
			out = append(out, Range{r.Lo, x.Lo - 1})
		}
		if r.Hi > x.Hi {
			out = append(out, Range{x.Hi + 1, r.Hi})
		}
	}
	return out
}

// Equal reports whether two grammars have the same start symbol and the same
// rules in the same order, ignoring source positions.
func Equal(a, b *Grammar) bool {
	if a.Start != b.Start || len(a.Rules) != len(b.Rules) {
		return false
	}
	for i, r := range a.Rules {
		s := b.Rules[i]
		if r.Name != s.Name || !EqualExpr(r.Expr, s.Expr) {
			return false
		}
	}
	return true
}

// EqualExpr reports whether two expressions are structurally equal, ignoring
// source positions.
func EqualExpr(a, b Expr) bool {
	switch a := a.(type) {
	case *Alt:
		b, ok := b.(*Alt)
		return ok && equalExprs(a.X, b.X)
	case *Seq:
		b, ok := b.(*Seq)
		return ok && equalExprs(a.X, b.X)
	case *Repeat:
		b, ok := b.(*Repeat)
		return ok && a.Min == b.Min && a.Max == b.Max && EqualExpr(a.X, b.X)
	case *Lit:
		b, ok := b.(*Lit)
		return ok && a.S == b.S
	case *Ref:
		b, ok := b.(*Ref)
		return ok && a.Name == b.Name
	case *Class:
		b, ok := b.(*Class)
		if !ok || a.Negated != b.Negated || a.Bytes != b.Bytes || len(a.Ranges) != len(b.Ranges) {
			return false
		}
		for i := range a.Ranges {
			if a.Ranges[i] != b.Ranges[i] {
				return false
			}
		}
		return true
	}
	return false
}

func equalExprs(a, b []Expr) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !EqualExpr(a[i], b[i]) {
			return false
		}
	}
	return true
}
