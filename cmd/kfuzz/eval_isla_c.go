package main

import (
	"fmt"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// scriptsizeCOracle checks a Scriptsize-C program as a C compiler would,
// independently of the ISLa validator: it parses the program by recursive
// descent and reports a use or assignment of an undeclared variable and a
// variable declared twice in one block. A declared variable is in scope
// from its declarator on, as in C.
func scriptsizeCOracle(in []byte, _ *grammar.Tree) error {
	p := &cParser{toks: cTokens(string(in))}
	p.push()
	for p.peek() != "" && p.err == nil {
		p.blockStatement()
	}
	return p.err
}

// cTokens splits a program into tokens: keywords, one-letter identifiers,
// numbers and punctuation. Spaces separate tokens.
func cTokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\n' || c == '\t':
			i++
		case c >= 'a' && c <= 'z':
			j := i
			for j < len(s) && s[j] >= 'a' && s[j] <= 'z' {
				j++
			}
			out = append(out, s[i:j])
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			out = append(out, s[i:j])
			i = j
		default:
			out = append(out, s[i:i+1])
			i++
		}
	}
	return out
}

type cParser struct {
	toks   []string
	pos    int
	scopes []map[string]bool
	err    error
}

func (p *cParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *cParser) next() string {
	t := p.peek()
	p.pos++
	return t
}

func (p *cParser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf("token %d: %s", p.pos, fmt.Sprintf(format, args...))
	}
	p.pos = len(p.toks) + 1
}

func (p *cParser) expect(t string) {
	if got := p.next(); got != t {
		p.fail("want %q, got %q", t, got)
	}
}

func (p *cParser) push() { p.scopes = append(p.scopes, map[string]bool{}) }
func (p *cParser) pop()  { p.scopes = p.scopes[:len(p.scopes)-1] }

func isCIdent(t string) bool {
	switch t {
	case "int", "if", "else", "while", "do":
		return false
	}
	return len(t) == 1 && t[0] >= 'a' && t[0] <= 'z'
}

func (p *cParser) use(id string) {
	for _, s := range p.scopes {
		if s[id] {
			return
		}
	}
	p.fail("%q is not declared", id)
}

func (p *cParser) blockStatement() {
	if p.peek() != "int" {
		p.statement()
		return
	}
	p.next()
	id := p.next()
	if !isCIdent(id) {
		p.fail("want an identifier after int, got %q", id)
		return
	}
	top := p.scopes[len(p.scopes)-1]
	if top[id] {
		p.fail("redefinition of %q", id)
		return
	}
	top[id] = true
	if p.peek() == "=" {
		p.next()
		p.expr()
	}
	p.expect(";")
}

func (p *cParser) statement() {
	switch t := p.peek(); t {
	case "{":
		p.next()
		p.push()
		for p.peek() != "}" && p.err == nil {
			if p.peek() == "" {
				p.fail("unclosed block")
				return
			}
			p.blockStatement()
		}
		p.pop()
		p.expect("}")
	case "if":
		p.next()
		p.paren()
		p.statement()
		if p.peek() == "else" {
			p.next()
			p.statement()
		}
	case "while":
		p.next()
		p.paren()
		p.statement()
	case "do":
		p.next()
		p.statement()
		p.expect("while")
		p.paren()
		p.expect(";")
	case ";":
		p.next()
	default:
		p.expr()
		p.expect(";")
	}
}

func (p *cParser) paren() {
	p.expect("(")
	p.expr()
	p.expect(")")
}

func (p *cParser) expr() {
	if isCIdent(p.peek()) && p.pos+1 < len(p.toks) && p.toks[p.pos+1] == "=" {
		p.use(p.next())
		p.next()
		p.expr()
		return
	}
	p.sum()
	if p.peek() == "<" {
		p.next()
		p.sum()
	}
}

func (p *cParser) sum() {
	p.term()
	for p.peek() == "+" || p.peek() == "-" {
		p.next()
		p.term()
	}
}

func (p *cParser) term() {
	switch t := p.next(); {
	case t == "(":
		p.expr()
		p.expect(")")
	case isCIdent(t):
		p.use(t)
	case t != "" && strings.Trim(t, "0123456789") == "":
	default:
		p.fail("want a term, got %q", t)
	}
}
