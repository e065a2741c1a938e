package algebra

import (
	"fmt"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// An Expr is a Boolean expression over named patterns: a pattern name (the
// input contains at least one instance of the pattern), not X, X and Y,
// X or Y, and parentheses. "and" binds tighter than "or", and "not" tighter
// than both. Build one with ParseExpr.
type Expr struct {
	op   exprOp
	name string // opName
	x, y *Expr  // opNot: x; opAnd, opOr: x and y
	col  int    // 1-based column of the name or operator in the source
}

type exprOp uint8

const (
	opName exprOp = iota
	opNot
	opAnd
	opOr
)

func isKeyword(s string) bool { return s == "and" || s == "or" || s == "not" }

// String returns the expression with the fewest parentheses that keep its
// structure; ParseExpr(e.String()) is e again.
func (e *Expr) String() string {
	var b strings.Builder
	e.write(&b, 0)
	return b.String()
}

// write writes e in a context of precedence prec: 0 or, 1 and, 2 not.
func (e *Expr) write(b *strings.Builder, prec int) {
	switch e.op {
	case opName:
		b.WriteString(e.name)
	case opNot:
		b.WriteString("not ")
		e.x.write(b, 2)
	case opAnd, opOr:
		p, word := 1, " and "
		if e.op == opOr {
			p, word = 0, " or "
		}
		if prec > p {
			b.WriteByte('(')
		}
		e.x.write(b, p)
		b.WriteString(word)
		// Operators associate to the left: a right operand of the same
		// operator keeps its parentheses.
		e.y.write(b, p+1)
		if prec > p {
			b.WriteByte(')')
		}
	}
}

// Names returns the pattern names the expression uses, in order of first
// use.
func (e *Expr) Names() []string {
	var out []string
	seen := map[string]bool{}
	var walk func(*Expr)
	walk = func(e *Expr) {
		switch e.op {
		case opName:
			if !seen[e.name] {
				seen[e.name] = true
				out = append(out, e.name)
			}
		case opNot:
			walk(e.x)
		default:
			walk(e.x)
			walk(e.y)
		}
	}
	walk(e)
	return out
}

type exprToken struct {
	text string // a name, a keyword, "(" or ")"; "" at the end
	col  int
}

// maxExprDepth bounds the nesting of parentheses and "not".
const maxExprDepth = 1000

// ParseExpr parses a Boolean expression over pattern names. Errors give the
// column (line 1, as "expr:1:COL"), and all bad characters are reported at
// once.
func ParseExpr(src string) (*Expr, error) {
	var errs grammar.ErrorList
	pos := func(col int) grammar.Pos { return grammar.Pos{File: "expr", Line: 1, Col: col, Offset: col - 1} }
	var toks []exprToken
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(' || c == ')':
			toks = append(toks, exprToken{string(c), i + 1})
			i++
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			j := i + 1
			for j < len(src) && (src[j] == '_' || 'a' <= src[j] && src[j] <= 'z' || 'A' <= src[j] && src[j] <= 'Z' || '0' <= src[j] && src[j] <= '9') {
				j++
			}
			toks = append(toks, exprToken{src[i:j], i + 1})
			i = j
		default:
			errs.Add(pos(i+1), fmt.Sprintf("unexpected %q: an expression holds pattern names, and, or, not and parentheses", string(rune(c))))
			i++
		}
	}
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	p := &exprParser{toks: toks, end: len(src) + 1}
	e := p.or(0)
	if p.err == nil && p.i < len(p.toks) {
		t := p.toks[p.i]
		p.fail(t.col, "unexpected %s after a complete expression", describe(t.text))
	}
	if p.err != nil {
		errs.Add(pos(p.err.col), p.err.msg)
		return nil, errs.Err()
	}
	return e, nil
}

type exprError struct {
	col int
	msg string
}

type exprParser struct {
	toks []exprToken
	i    int
	end  int // column just past the source
	err  *exprError
}

func (p *exprParser) fail(col int, format string, args ...any) {
	if p.err == nil {
		p.err = &exprError{col, fmt.Sprintf(format, args...)}
	}
}

func (p *exprParser) peek() exprToken {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return exprToken{"", p.end}
}

func describe(tok string) string {
	switch tok {
	case "":
		return "end of expression"
	case "(", ")":
		return "'" + tok + "'"
	}
	if isKeyword(tok) {
		return "'" + tok + "'"
	}
	return "name " + tok
}

func (p *exprParser) or(depth int) *Expr { return p.binary(depth, "or", opOr, p.and) }

func (p *exprParser) and(depth int) *Expr { return p.binary(depth, "and", opAnd, p.unary) }

// binary parses operands joined by the operator word, left-associative.
func (p *exprParser) binary(depth int, word string, op exprOp, operand func(int) *Expr) *Expr {
	x := operand(depth)
	for p.err == nil && p.peek().text == word {
		t := p.peek()
		p.i++
		y := operand(depth)
		x = &Expr{op: op, x: x, y: y, col: t.col}
	}
	return x
}

func (p *exprParser) unary(depth int) *Expr {
	t := p.peek()
	if depth > maxExprDepth {
		p.fail(t.col, "expression nested more than %d levels deep", maxExprDepth)
		return nil
	}
	switch {
	case p.err != nil:
		return nil
	case t.text == "not":
		p.i++
		x := p.unary(depth + 1)
		return &Expr{op: opNot, x: x, col: t.col}
	case t.text == "(":
		p.i++
		x := p.or(depth + 1)
		if p.err == nil {
			if c := p.peek(); c.text != ")" {
				p.fail(c.col, "expected ')' to close the '(' at column %d, found %s", t.col, describe(c.text))
			} else {
				p.i++
			}
		}
		return x
	case t.text == "" || t.text == ")" || isKeyword(t.text):
		p.fail(t.col, "expected a pattern name, 'not' or '(', found %s", describe(t.text))
		return nil
	}
	p.i++
	return &Expr{op: opName, name: t.text, col: t.col}
}
