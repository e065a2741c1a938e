package grammar

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// notationWidth is the line width up to which an alternation is printed on one
// line.
const notationWidth = 80

// String returns the grammar in the notation, one rule per block, each
// terminated by ';'. An alternation that does not fit on one line is printed
// with one alternative per line, the '|' under the '=' of "::=" so that the
// alternatives line up.
//
// For every grammar that Parse or ParseJSON returns, Parse(g.String())
// returns a grammar Equal to g. Hand-built grammars round-trip as long as
// Check finds no errors in them, their start symbol is "start" or the first
// rule, their Alt and Seq nodes have at least two members, and their byte
// classes contain a byte above 0x7F.
func (g *Grammar) String() string {
	var b strings.Builder
	for i, r := range g.Rules {
		if i > 0 {
			b.WriteByte('\n')
		}
		writeRule(&b, r)
	}
	return b.String()
}

// WriteTo writes g.String() to w; it implements io.WriterTo.
func (g *Grammar) WriteTo(w io.Writer) (int64, error) {
	n, err := io.WriteString(w, g.String())
	return int64(n), err
}

func writeRule(b *strings.Builder, r *Rule) {
	head := "<" + r.Name + "> ::= "
	alt, ok := r.Expr.(*Alt)
	if !ok || len(alt.X) < 2 {
		b.WriteString(head)
		writeExpr(b, r.Expr, precTop)
		b.WriteString(" ;\n")
		return
	}
	alts := make([]string, len(alt.X))
	width := len(head) + 2
	for i, x := range alt.X {
		alts[i] = exprString(x, precAlt)
		width += len(alts[i]) + 3
	}
	if width <= notationWidth {
		b.WriteString(head)
		b.WriteString(strings.Join(alts, " | "))
		b.WriteString(" ;\n")
		return
	}
	pad := strings.Repeat(" ", utf8.RuneCountInString(r.Name)+5)
	b.WriteString(head)
	for i, a := range alts {
		if i > 0 {
			b.WriteString(pad)
			b.WriteString("| ")
		}
		b.WriteString(a)
		b.WriteByte('\n')
	}
	b.WriteString(pad)
	b.WriteString(";\n")
}

// ExprString returns the expression in the notation, on one line.
func ExprString(e Expr) string {
	return exprString(e, precTop)
}

// Precedence contexts for printing: an expression is parenthesized when its
// own form binds less tightly than its context requires.
const (
	precTop  = iota // a rule body or group: anything goes
	precAlt         // an alternative: anything but an alternation
	precSeq         // an element of a sequence: no alternation or sequence
	precAtom        // the operand of a quantifier: same as in a sequence
)

func exprString(e Expr, prec int) string {
	var b strings.Builder
	writeExpr(&b, e, prec)
	return b.String()
}

func writeExpr(b *strings.Builder, e Expr, prec int) {
	switch e := e.(type) {
	case *Alt:
		switch len(e.X) {
		case 0:
			b.WriteString("[]") // derives nothing, like an empty class
			return
		case 1:
			writeExpr(b, e.X[0], prec)
			return
		}
		if prec > precTop {
			b.WriteByte('(')
		}
		for i, x := range e.X {
			if i > 0 {
				b.WriteString(" | ")
			}
			writeExpr(b, x, precAlt)
		}
		if prec > precTop {
			b.WriteByte(')')
		}
	case *Seq:
		switch len(e.X) {
		case 0:
			b.WriteString(`""`)
			return
		case 1:
			writeExpr(b, e.X[0], prec)
			return
		}
		if prec > precAlt {
			b.WriteByte('(')
		}
		for i, x := range e.X {
			if i > 0 {
				b.WriteByte(' ')
			}
			writeExpr(b, x, precSeq)
		}
		if prec > precAlt {
			b.WriteByte(')')
		}
	case *Repeat:
		writeExpr(b, e.X, precAtom)
		b.WriteString(quantifierString(e.Min, e.Max))
	case *Lit:
		b.WriteString(strconv.Quote(e.S))
	case *Ref:
		b.WriteString("<" + e.Name + ">")
	case *Class:
		writeClass(b, e)
	default:
		b.WriteString("[]") // a missing expression derives nothing
	}
}

// quantifierString returns the shortest quantifier for the counts.
func quantifierString(lo, hi int) string {
	switch {
	case lo == 0 && hi == 1:
		return "?"
	case lo == 0 && hi == Unbounded:
		return "*"
	case lo == 1 && hi == Unbounded:
		return "+"
	case hi == Unbounded:
		return fmt.Sprintf("{%d,}", lo)
	case lo == hi:
		return fmt.Sprintf("{%d}", lo)
	}
	return fmt.Sprintf("{%d,%d}", lo, hi)
}

func writeClass(b *strings.Builder, c *Class) {
	b.WriteByte('[')
	if c.Negated {
		b.WriteByte('^')
	}
	for _, r := range c.Ranges {
		writeClassChar(b, r.Lo, c.Bytes)
		if r.Hi != r.Lo {
			b.WriteByte('-')
			writeClassChar(b, r.Hi, c.Bytes)
		}
	}
	b.WriteByte(']')
}

// writeClassChar writes one class member so that it reads back as the same
// value: bytes above 0x7F of a byte class as \xHH, other non-printable
// characters as escapes that do not make a byte class.
func writeClassChar(b *strings.Builder, r rune, bytes bool) {
	switch r {
	case ']', '[', '\\', '-', '^':
		b.WriteByte('\\')
		b.WriteRune(r)
		return
	case '\a':
		b.WriteString(`\a`)
		return
	case '\b':
		b.WriteString(`\b`)
		return
	case '\f':
		b.WriteString(`\f`)
		return
	case '\n':
		b.WriteString(`\n`)
		return
	case '\r':
		b.WriteString(`\r`)
		return
	case '\t':
		b.WriteString(`\t`)
		return
	case '\v':
		b.WriteString(`\v`)
		return
	}
	switch {
	case r < 0:
		fmt.Fprintf(b, `\x%02x`, 0) // invalid; Check reports it
	case r < utf8.RuneSelf && unicode.IsPrint(r):
		b.WriteRune(r)
	case r < utf8.RuneSelf || bytes && r <= 0xFF:
		fmt.Fprintf(b, `\x%02x`, r)
	case unicode.IsPrint(r) && r != utf8.RuneError:
		b.WriteRune(r)
	case r <= 0xFFFF:
		fmt.Fprintf(b, `\u%04x`, r)
	default:
		fmt.Fprintf(b, `\U%08x`, r)
	}
}
