package scriptc

import "fmt"

// MaxNesting bounds how deeply statements and expressions nest; deeper
// programs are a syntax error rather than a deep recursion.
const MaxNesting = 1000

// Parse parses a Scriptsize-C program: one or more statements and
// declarations. Spaces, tabs and newlines between tokens are ignored, so
// Parse accepts the texts of the scriptsizec grammar and more. Variables
// are lowercase words other than the keywords int, if, else, while and do;
// integer constants are decimal and wrap around beyond int64. An error is a
// *SyntaxError with the offset of the first token that does not fit.
func Parse(src string) (*Program, error) {
	p := &parser{src: src}
	p.next()
	var body []Stmt
	for p.tok != tokEOF {
		s, err := p.item()
		if err != nil {
			return nil, err
		}
		body = append(body, s)
	}
	if len(body) == 0 {
		return nil, &SyntaxError{Offset: p.off, Msg: "expected a statement or declaration, found the end of the program"}
	}
	return &Program{Body: body}, nil
}

type token int

const (
	tokEOF token = iota
	tokIdent
	tokInt
	tokKeyword
	tokPunct
	tokBad
)

type parser struct {
	src   string
	pos   int // offset after the current token
	tok   token
	off   int    // offset of the current token
	text  string // the current token
	depth int
}

func isSpace(c byte) bool  { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// next reads the next token.
func (p *parser) next() {
	for p.pos < len(p.src) && isSpace(p.src[p.pos]) {
		p.pos++
	}
	p.off = p.pos
	if p.pos == len(p.src) {
		p.tok, p.text = tokEOF, ""
		return
	}
	c := p.src[p.pos]
	switch {
	case isLetter(c):
		for p.pos < len(p.src) && isLetter(p.src[p.pos]) {
			p.pos++
		}
		p.tok = tokIdent
		switch p.src[p.off:p.pos] {
		case "int", "if", "else", "while", "do":
			p.tok = tokKeyword
		}
	case isDigit(c):
		for p.pos < len(p.src) && isDigit(p.src[p.pos]) {
			p.pos++
		}
		p.tok = tokInt
	case c == '{' || c == '}' || c == '(' || c == ')' || c == ';' || c == '=' || c == '+' || c == '-' || c == '<':
		p.pos++
		p.tok = tokPunct
	default:
		p.pos++
		p.tok = tokBad
	}
	p.text = p.src[p.off:p.pos]
}

func (p *parser) errorf(format string, args ...any) error {
	found := fmt.Sprintf("%q", p.text)
	if p.tok == tokEOF {
		found = "the end of the program"
	}
	return &SyntaxError{Offset: p.off, Msg: fmt.Sprintf(format, args...) + ", found " + found}
}

// is reports whether the current token is the punctuation or keyword s.
func (p *parser) is(s string) bool {
	return (p.tok == tokPunct || p.tok == tokKeyword) && p.text == s
}

func (p *parser) expect(s string) error {
	if !p.is(s) {
		return p.errorf("expected %q", s)
	}
	p.next()
	return nil
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > MaxNesting {
		return &SyntaxError{Offset: p.off, Msg: fmt.Sprintf("nesting deeper than %d", MaxNesting)}
	}
	return nil
}

// item parses a statement or a declaration.
func (p *parser) item() (Stmt, error) {
	if !p.is("int") {
		return p.stmt()
	}
	p.next()
	if p.tok != tokIdent {
		return nil, p.errorf("expected a variable name")
	}
	d := &Decl{Name: p.text, Offset: p.off}
	p.next()
	if p.is("=") {
		p.next()
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		d.Init = x
	}
	return d, p.expect(";")
}

func (p *parser) stmt() (Stmt, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	switch {
	case p.is("{"):
		p.next()
		b := &Block{}
		for !p.is("}") {
			if p.tok == tokEOF {
				return nil, p.errorf(`expected "}"`)
			}
			s, err := p.item()
			if err != nil {
				return nil, err
			}
			b.Body = append(b.Body, s)
		}
		p.next()
		return b, nil
	case p.is("if"):
		p.next()
		cond, err := p.paren()
		if err != nil {
			return nil, err
		}
		then, err := p.stmt()
		if err != nil {
			return nil, err
		}
		s := &If{Cond: cond, Then: then}
		if p.is("else") {
			p.next()
			if s.Else, err = p.stmt(); err != nil {
				return nil, err
			}
		}
		return s, nil
	case p.is("while"):
		p.next()
		cond, err := p.paren()
		if err != nil {
			return nil, err
		}
		body, err := p.stmt()
		if err != nil {
			return nil, err
		}
		return &While{Cond: cond, Body: body}, nil
	case p.is("do"):
		p.next()
		body, err := p.stmt()
		if err != nil {
			return nil, err
		}
		if err := p.expect("while"); err != nil {
			return nil, err
		}
		cond, err := p.paren()
		if err != nil {
			return nil, err
		}
		return &DoWhile{Body: body, Cond: cond}, p.expect(";")
	case p.is(";"):
		p.next()
		return &ExprStmt{}, nil
	}
	x, err := p.expr()
	if err != nil {
		return nil, err
	}
	return &ExprStmt{X: x}, p.expect(";")
}

func (p *parser) paren() (Expr, error) {
	if err := p.expect("("); err != nil {
		return nil, err
	}
	x, err := p.expr()
	if err != nil {
		return nil, err
	}
	return x, p.expect(")")
}

// expr parses id = expr or a comparison.
func (p *parser) expr() (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	if p.tok == tokIdent {
		// One token of lookahead: an identifier followed by "=".
		save := *p
		v := Var{Name: p.text, Offset: p.off}
		p.next()
		if p.is("=") {
			p.next()
			x, err := p.expr()
			if err != nil {
				return nil, err
			}
			return &Assign{Var: v, X: x}, nil
		}
		*p = save
	}
	x, err := p.sum()
	if err != nil {
		return nil, err
	}
	if p.is("<") {
		p.next()
		y, err := p.sum()
		if err != nil {
			return nil, err
		}
		return &Binary{Op: '<', X: x, Y: y}, nil
	}
	return x, nil
}

func (p *parser) sum() (Expr, error) {
	x, err := p.term()
	if err != nil {
		return nil, err
	}
	for p.is("+") || p.is("-") {
		op := p.text[0]
		p.next()
		y, err := p.term()
		if err != nil {
			return nil, err
		}
		x = &Binary{Op: op, X: x, Y: y}
	}
	return x, nil
}

func (p *parser) term() (Expr, error) {
	switch p.tok {
	case tokIdent:
		v := &Var{Name: p.text, Offset: p.off}
		p.next()
		return v, nil
	case tokInt:
		var n int64
		for i := 0; i < len(p.text); i++ {
			n = n*10 + int64(p.text[i]-'0') // wraps around
		}
		p.next()
		return &Int{Value: n}, nil
	}
	if p.is("(") {
		return p.paren()
	}
	return nil, p.errorf("expected a variable, a number or \"(\"")
}
