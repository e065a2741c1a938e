// Package calc is a Go port of STALAGMITE's CALC subject: a recursive-descent
// calculator for integer arithmetic with + - * / and parentheses that
// evaluates while it parses (parse_sum, parse_mult and parse_atom of the
// original, each returning an error code and passing the value by pointer).
package calc

import (
	_ "embed"
	"errors"
)

// The error codes of the original.
const (
	errNone = iota
	errTok
	errParen
	errDivZero
)

var codes = [...]error{
	errTok:     errors.New("calc: unexpected token"),
	errParen:   errors.New("calc: missing closing parenthesis"),
	errDivZero: errors.New("calc: division by zero"),
}

type parser struct {
	exp string
	pos int
}

// cur returns the current character, or 0 at the end of the input, as the
// original's **pexp does on a NUL-terminated string.
func (p *parser) cur() byte {
	if p.pos < len(p.exp) {
		return p.exp[p.pos]
	}
	return 0
}

func (p *parser) parseAtom(value *int) int {
	neg := false
	if p.cur() == '-' {
		neg = true
		p.pos++
	}
	if p.cur() == '(' {
		p.pos++
		ret := p.parseSum(')', value)
		if ret != errNone {
			return ret
		}
		if p.cur() != ')' {
			return errParen
		}
		p.pos++
	} else {
		if p.cur() < '0' || p.cur() > '9' {
			return errTok
		}
		n := 0
		for p.cur() >= '0' && p.cur() <= '9' {
			n = n*10 + int(p.cur()-'0')
			p.pos++
		}
		*value = n
	}
	if neg {
		*value = -*value
	}
	return errNone
}

func (p *parser) parseMult(expect byte, value *int) int {
	ret := p.parseAtom(value)
	for ret == errNone {
		op := p.cur()
		if op != '*' && op != '/' {
			break
		}
		p.pos++
		var rh int
		ret = p.parseAtom(&rh)
		if ret != errNone {
			break
		}
		switch op {
		case '*':
			*value *= rh
		case '/':
			if rh == 0 {
				return errDivZero
			}
			*value /= rh
		}
	}
	return ret
}

func (p *parser) parseSum(expect byte, value *int) int {
	ret := p.parseMult(expect, value)
	for ret == errNone && p.cur() != expect {
		op := p.cur()
		ret = errTok
		if op != '+' && op != '-' {
			break
		}
		p.pos++
		var rh int
		ret = p.parseMult(expect, &rh)
		if ret != errNone {
			break
		}
		switch op {
		case '+':
			*value += rh
		case '-':
			*value -= rh
		}
	}
	return ret
}

// Eval parses and evaluates the expression s, such as "2*(3+-4)/5".
func Eval(s string) (int, error) {
	p := &parser{exp: s}
	var v int
	if ret := p.parseSum(0, &v); ret != errNone {
		return 0, codes[ret]
	}
	if p.pos != len(s) {
		return 0, codes[errTok]
	}
	return v, nil
}

// Golden is the grammar of the language Eval accepts, written by hand, in
// kfuzz's notation. Division by zero, a semantic error, is not excluded.
//
//go:embed golden.bnf
var Golden string
