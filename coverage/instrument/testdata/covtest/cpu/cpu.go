// Package cpu is CPU-bound code for measuring the slowdown of
// instrumentation: a tokenizer, a recursive-descent parser and an
// evaluator of arithmetic expressions, and a hash.
package cpu

import "errors"

var errSyntax = errors.New("syntax error")

type kind int

const (
	num kind = iota
	op
	lparen
	rparen
	end
)

type token struct {
	kind kind
	val  int
	op   byte
}

type parser struct {
	src []byte
	pos int
	tok token
}

func (p *parser) next() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
	if p.pos >= len(p.src) {
		p.tok = token{kind: end}
		return
	}
	c := p.src[p.pos]
	switch {
	case c >= '0' && c <= '9':
		v := 0
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			v = v*10 + int(p.src[p.pos]-'0')
			p.pos++
		}
		p.tok = token{kind: num, val: v}
	case c == '(':
		p.pos++
		p.tok = token{kind: lparen}
	case c == ')':
		p.pos++
		p.tok = token{kind: rparen}
	default:
		p.pos++
		p.tok = token{kind: op, op: c}
	}
}

func (p *parser) expr() (int, error) {
	v, err := p.term()
	if err != nil {
		return 0, err
	}
	for p.tok.kind == op && (p.tok.op == '+' || p.tok.op == '-') {
		o := p.tok.op
		p.next()
		w, err := p.term()
		if err != nil {
			return 0, err
		}
		if o == '+' {
			v += w
		} else {
			v -= w
		}
	}
	return v, nil
}

func (p *parser) term() (int, error) {
	v, err := p.factor()
	if err != nil {
		return 0, err
	}
	for p.tok.kind == op && (p.tok.op == '*' || p.tok.op == '/' || p.tok.op == '%') {
		o := p.tok.op
		p.next()
		w, err := p.factor()
		if err != nil {
			return 0, err
		}
		switch o {
		case '*':
			v *= w
		case '/', '%':
			if w == 0 {
				return 0, errors.New("division by zero")
			}
			if o == '/' {
				v /= w
			} else {
				v %= w
			}
		}
	}
	return v, nil
}

func (p *parser) factor() (int, error) {
	switch p.tok.kind {
	case num:
		v := p.tok.val
		p.next()
		return v, nil
	case lparen:
		p.next()
		v, err := p.expr()
		if err != nil {
			return 0, err
		}
		if p.tok.kind != rparen {
			return 0, errSyntax
		}
		p.next()
		return v, nil
	case op:
		if p.tok.op == '-' {
			p.next()
			v, err := p.factor()
			return -v, err
		}
	}
	return 0, errSyntax
}

// Eval evaluates an arithmetic expression of integers, + - * / %,
// unary minus and parentheses.
func Eval(s string) (int, error) {
	p := &parser{src: []byte(s)}
	p.next()
	v, err := p.expr()
	if err != nil {
		return 0, err
	}
	if p.tok.kind != end {
		return 0, errSyntax
	}
	return v, nil
}

// Hash is FNV-1a with a final mix.
func Hash(data []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, b := range data {
		h ^= uint64(b)
		h *= 1099511628211
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}
