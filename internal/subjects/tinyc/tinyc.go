// Package tinyc is a Go port of STALAGMITE's TINY-C subject, Marc Feeley's
// tinyc.c: a lexer next_sym that reads one character of lookahead (ch) and
// leaves the current token's identifier in sym, its value in intVal and its
// name in idName, and the recursive-descent functions program, statement,
// parenExpr, expr, test, sum and term that build an abstract syntax tree
// from the tokens. Identifiers are single lowercase letters; the keywords are
// do, else, if and while; the symbols { } ( ) + - < ; = ; white space is
// blank and newline. A syntax error panics, as the original exits; Parse
// turns it into an error.
package tinyc

import (
	_ "embed"
	"errors"
)

// token identifies a token, as the original's enum of symbols.
type token int

// The tokens of the original, in its order (the keywords first, as indices
// into words).
const (
	doSym token = iota
	elseSym
	ifSym
	whileSym
	lbra
	rbra
	lpar
	rpar
	plus
	minus
	less
	semi
	equal
	intTok
	id
	eoi
)

var words = [...]string{"do", "else", "if", "while"}

// eof is the original's EOF, the value of ch at the end of the input.
const eof = -1

// The node kinds of the original.
const (
	nodeVar = iota
	nodeCst
	nodeAdd
	nodeSub
	nodeLT
	nodeSet
	nodeIf1
	nodeIf2
	nodeWhile
	nodeDo
	nodeEmpty
	nodeSeq
	nodeExpr
	nodeProg
)

type node struct {
	kind       int
	o1, o2, o3 *node
	val        int
}

var errSyntax = errors.New("tinyc: syntax error")

// parser holds the original's globals: the input and the lexer's state.
type parser struct {
	in     string
	pos    int
	ch     int
	sym    token
	intVal int
	idName [100]byte
}

func syntaxError() { panic(errSyntax) }

func (p *parser) nextCh() {
	if p.pos < len(p.in) {
		p.ch = int(p.in[p.pos])
		p.pos++
		return
	}
	p.ch = eof
}

// strcmp reports whether the identifier read, idName[:n], is the word w.
func (p *parser) strcmp(w string, n int) bool {
	if len(w) != n {
		return false
	}
	for i := 0; i < n; i++ {
		if int(p.idName[i]) != int(w[i]) {
			return false
		}
	}
	return true
}

func (p *parser) nextSym() {
again:
	switch p.ch {
	case ' ', '\n':
		p.nextCh()
		goto again
	case eof:
		p.sym = eoi
	case '{':
		p.nextCh()
		p.sym = lbra
	case '}':
		p.nextCh()
		p.sym = rbra
	case '(':
		p.nextCh()
		p.sym = lpar
	case ')':
		p.nextCh()
		p.sym = rpar
	case '+':
		p.nextCh()
		p.sym = plus
	case '-':
		p.nextCh()
		p.sym = minus
	case '<':
		p.nextCh()
		p.sym = less
	case ';':
		p.nextCh()
		p.sym = semi
	case '=':
		p.nextCh()
		p.sym = equal
	default:
		if p.ch >= '0' && p.ch <= '9' {
			p.intVal = 0
			for p.ch >= '0' && p.ch <= '9' {
				p.intVal = p.intVal*10 + (p.ch - '0')
				p.nextCh()
			}
			p.sym = intTok
		} else if p.ch >= 'a' && p.ch <= 'z' {
			i := 0
			for (p.ch >= 'a' && p.ch <= 'z') || p.ch == '_' {
				if i == len(p.idName)-1 {
					syntaxError() // the original has no overflow check
				}
				p.idName[i] = byte(p.ch)
				i++
				p.nextCh()
			}
			p.idName[i] = 0
			p.sym = 0
			for int(p.sym) < len(words) && !p.strcmp(words[p.sym], i) {
				p.sym++
			}
			if int(p.sym) == len(words) {
				if i == 1 {
					p.sym = id
				} else {
					syntaxError()
				}
			}
		} else {
			syntaxError()
		}
	}
}

func newNode(k int) *node { return &node{kind: k} }

func (p *parser) term() *node {
	var x *node
	if p.sym == id {
		x = newNode(nodeVar)
		x.val = int(p.idName[0]) - 'a'
		p.nextSym()
	} else if p.sym == intTok {
		x = newNode(nodeCst)
		x.val = p.intVal
		p.nextSym()
	} else {
		x = p.parenExpr()
	}
	return x
}

func (p *parser) sum() *node {
	x := p.term()
	for p.sym == plus || p.sym == minus {
		t := x
		if p.sym == plus {
			x = newNode(nodeAdd)
		} else {
			x = newNode(nodeSub)
		}
		p.nextSym()
		x.o1 = t
		x.o2 = p.term()
	}
	return x
}

func (p *parser) test() *node {
	x := p.sum()
	if p.sym == less {
		t := x
		x = newNode(nodeLT)
		p.nextSym()
		x.o1 = t
		x.o2 = p.sum()
	}
	return x
}

func (p *parser) expr() *node {
	if p.sym != id {
		return p.test()
	}
	x := p.test()
	if x.kind == nodeVar && p.sym == equal {
		t := x
		x = newNode(nodeSet)
		p.nextSym()
		x.o1 = t
		x.o2 = p.expr()
	}
	return x
}

func (p *parser) parenExpr() *node {
	if p.sym == lpar {
		p.nextSym()
	} else {
		syntaxError()
	}
	x := p.expr()
	if p.sym == rpar {
		p.nextSym()
	} else {
		syntaxError()
	}
	return x
}

func (p *parser) statement() *node {
	var x *node
	if p.sym == ifSym {
		x = newNode(nodeIf1)
		p.nextSym()
		x.o1 = p.parenExpr()
		x.o2 = p.statement()
		if p.sym == elseSym {
			x.kind = nodeIf2
			p.nextSym()
			x.o3 = p.statement()
		}
	} else if p.sym == whileSym {
		x = newNode(nodeWhile)
		p.nextSym()
		x.o1 = p.parenExpr()
		x.o2 = p.statement()
	} else if p.sym == doSym {
		x = newNode(nodeDo)
		p.nextSym()
		x.o1 = p.statement()
		if p.sym == whileSym {
			p.nextSym()
		} else {
			syntaxError()
		}
		x.o2 = p.parenExpr()
		if p.sym == semi {
			p.nextSym()
		} else {
			syntaxError()
		}
	} else if p.sym == semi {
		x = newNode(nodeEmpty)
		p.nextSym()
	} else if p.sym == lbra {
		x = newNode(nodeEmpty)
		p.nextSym()
		for p.sym != rbra {
			t := x
			x = newNode(nodeSeq)
			x.o1 = t
			x.o2 = p.statement()
		}
		p.nextSym()
	} else {
		x = newNode(nodeExpr)
		x.o1 = p.expr()
		if p.sym == semi {
			p.nextSym()
		} else {
			syntaxError()
		}
	}
	return x
}

func (p *parser) program() *node {
	x := newNode(nodeProg)
	p.nextSym()
	x.o1 = p.statement()
	if p.sym != eoi {
		syntaxError()
	}
	return x
}

// Parse parses the TinyC program src, such as "{ i=1; while (i<100) i=i+i; }".
func Parse(src string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if r != errSyntax {
				panic(r)
			}
			err = errSyntax
		}
	}()
	p := &parser{in: src, ch: ' '}
	p.program()
	return nil
}

// Token is STALAGMITE's harness for the lexer in isolation: it runs nextSym
// once on src and returns the token read; ok is false when nextSym fails or
// does not consume all of src.
func Token(src string) (tok int, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if r != errSyntax {
				panic(r)
			}
			tok, ok = 0, false
		}
	}()
	p := &parser{in: src, ch: ' '}
	p.nextSym()
	return int(p.sym), p.ch == eof
}

// Golden is the grammar of the language Parse accepts, written by hand, in
// kfuzz's notation.
//
//go:embed golden.bnf
var Golden string
