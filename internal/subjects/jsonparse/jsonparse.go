// Package jsonparse is a Go port of STALAGMITE's HARRYDC-JSON subject, a
// small recursive-descent JSON parser in C, keeping its structure and its
// leniency: json_parse_value dispatches on the first character; numbers take
// an optional sign, NaN and Infinity in any case; arrays and objects take
// their elements until the closing bracket; object keys may be any value;
// strings hold any bytes but '"' and NUL, without escapes; there is no white
// space between tokens.
package jsonparse

import (
	_ "embed"
	"errors"
	"strings"
)

var errSyntax = errors.New("jsonparse: syntax error")

type parser struct {
	s   string
	pos int
}

func (p *parser) peek() byte {
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (p *parser) parseDigits() error {
	if !isDigit(p.peek()) {
		return errSyntax
	}
	for isDigit(p.peek()) {
		p.pos++
	}
	return nil
}

// parseNumber reads what follows an optional sign: a number, nan or inf(inity).
func (p *parser) parseNumber() error {
	c := lower(p.peek())
	if c == 'n' {
		p.pos++
		if lower(p.peek()) != 'a' {
			return errSyntax
		}
		p.pos++
		if lower(p.peek()) != 'n' {
			return errSyntax
		}
		p.pos++
		return nil
	}
	if c == 'i' {
		for _, want := range []byte("nf") {
			p.pos++
			if lower(p.peek()) != want {
				return errSyntax
			}
		}
		p.pos++
		if lower(p.peek()) == 'i' {
			for _, want := range []byte("nity") {
				p.pos++
				if lower(p.peek()) != want {
					return errSyntax
				}
			}
			p.pos++
		}
		return nil
	}
	if p.peek() == '.' {
		p.pos++
		if err := p.parseDigits(); err != nil {
			return err
		}
	} else {
		if err := p.parseDigits(); err != nil {
			return err
		}
		if p.peek() == '.' {
			p.pos++
			if err := p.parseDigits(); err != nil {
				return err
			}
		}
	}
	if lower(p.peek()) == 'e' {
		p.pos++
		if p.peek() == '+' || p.peek() == '-' {
			p.pos++
		}
		return p.parseDigits()
	}
	return nil
}

func (p *parser) parseString() error {
	for p.peek() != '"' {
		if p.peek() == 0 {
			return errSyntax
		}
		p.pos++
	}
	p.pos++
	return nil
}

func (p *parser) parseArray() error {
	if p.peek() == ']' {
		p.pos++
		return nil
	}
	for {
		if err := p.parseValue(); err != nil {
			return err
		}
		switch p.peek() {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return nil
		default:
			return errSyntax
		}
	}
}

func (p *parser) parseObject() error {
	if p.peek() == '}' {
		p.pos++
		return nil
	}
	for {
		if err := p.parseValue(); err != nil {
			return err
		}
		if p.peek() != ':' {
			return errSyntax
		}
		p.pos++
		if err := p.parseValue(); err != nil {
			return err
		}
		switch p.peek() {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return nil
		default:
			return errSyntax
		}
	}
}

func (p *parser) parseValue() error {
	rest := p.s[p.pos:]
	switch c := p.peek(); {
	case c == '[':
		p.pos++
		return p.parseArray()
	case c == '{':
		p.pos++
		return p.parseObject()
	case c == '"':
		p.pos++
		return p.parseString()
	case strings.HasPrefix(rest, "null"), strings.HasPrefix(rest, "true"):
		p.pos += 4
		return nil
	case strings.HasPrefix(rest, "false"):
		p.pos += 5
		return nil
	case c == '+' || c == '-':
		p.pos++
		return p.parseNumber()
	default:
		return p.parseNumber()
	}
}

// Parse reports whether s is one JSON value in the parser's dialect.
func Parse(s string) error {
	p := &parser{s: s}
	if err := p.parseValue(); err != nil {
		return err
	}
	if p.pos != len(s) {
		return errSyntax
	}
	return nil
}

// Golden is the grammar of the language Parse accepts, written by hand, in
// kfuzz's notation.
//
//go:embed golden.bnf
var Golden string
