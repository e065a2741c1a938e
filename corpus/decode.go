package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"go/scanner"
	"go/token"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A SyntaxError reports a corpus file that cannot be read: where the problem
// is and what was expected there.
type SyntaxError struct {
	File string // name of the file; empty when the data did not come from a file
	Line int    // line number, starting at 1
	Col  int    // byte column, starting at 1; 0 when the whole line is meant
	Msg  string // what is wrong, and what was expected
}

// Error returns the error as "file:line:col: msg", leaving out the column
// when it is 0 and naming the line explicitly when there is no file name.
func (e *SyntaxError) Error() string {
	var b strings.Builder
	if e.File != "" {
		fmt.Fprintf(&b, "%s:%d", e.File, e.Line)
	} else {
		fmt.Fprintf(&b, "corpus: line %d", e.Line)
	}
	if e.Col > 0 {
		fmt.Fprintf(&b, ":%d", e.Col)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// Unmarshal decodes the content of a corpus file into the values it holds,
// one per value line, each with the type its line names (a line for uint8 or
// byte gives a byte, one for int32 or rune a rune). If data is not a valid
// corpus file, Unmarshal returns a *SyntaxError for the first problem found.
func Unmarshal(data []byte) ([]any, error) {
	return unmarshal("", data)
}

// unmarshal is Unmarshal with the file name to put into errors.
func unmarshal(file string, data []byte) ([]any, error) {
	fail := func(line, col int, format string, args ...any) error {
		return &SyntaxError{File: file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
	}
	if len(data) == 0 {
		return nil, fail(1, 0, "empty file; expected the header %q", header)
	}
	first, rest, found := bytes.Cut(data, []byte("\n"))
	if h := bytes.TrimSuffix(first, []byte("\r")); string(h) != header {
		return nil, fail(1, 1, "expected the header %q, found %s", header, quotePrefix(h, maxQuoted))
	}
	if !found {
		return nil, fail(1, len(first)+1, "expected a newline and a value line after the header")
	}
	var (
		values []any
		p      lineParser
		lineNo = 1
	)
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		lineNo++
		// Like bytes.TrimSpace, remembering the indentation.
		text := bytes.TrimLeftFunc(line, unicode.IsSpace)
		p.indent = len(line) - len(text)
		text = bytes.TrimRightFunc(text, unicode.IsSpace)
		if len(text) == 0 {
			continue
		}
		v, err := p.parse(text)
		if err != nil {
			err.File, err.Line = file, lineNo
			return nil, err
		}
		values = append(values, v)
	}
	if len(values) == 0 {
		return nil, fail(lineNo, 0, "expected a value line after the header, found none")
	}
	return values, nil
}

// lineParser parses one value line such as int(-5) or []byte("x"). The line
// is tokenized by go/scanner, as go test does by parsing it as a Go
// expression; the grammar accepted is the subset of Go expressions that go
// test accepts:
//
//	line  = type "(" value [ "..." ] [ "," ] ")" .
//	type  = "[" "]" "byte" | identifier | "math" "." identifier .
//	value = literal | identifier | ( "-" | "+" ) ( literal | identifier ) .
type lineParser struct {
	sc     scanner.Scanner
	fset   *token.FileSet
	indent int // bytes of white space before the line's text

	base   int // base of the current line's token.File
	pos    token.Pos
	tok    token.Token
	lit    string
	errPos token.Position // first error reported by the scanner
	errMsg string
}

// kinds of value that a value line names (besides the Go types themselves)
const (
	float32Bits = "math.Float32frombits"
	float64Bits = "math.Float64frombits"
)

// next advances to the next token, turning a scanner error into a
// *SyntaxError.
func (p *lineParser) next() *SyntaxError {
	p.pos, p.tok, p.lit = p.sc.Scan()
	if p.errMsg != "" {
		return &SyntaxError{Col: p.errPos.Column + p.indent, Msg: p.errMsg}
	}
	return nil
}

// errorf returns a *SyntaxError at pos of the current line.
func (p *lineParser) errorf(pos token.Pos, format string, args ...any) *SyntaxError {
	return &SyntaxError{Col: int(pos) - p.base + 1 + p.indent, Msg: fmt.Sprintf(format, args...)}
}

// found describes the current token for an error message.
func (p *lineParser) found() string {
	switch {
	case p.tok == token.EOF || p.tok == token.SEMICOLON && p.lit == "\n":
		return "end of line"
	case p.tok.IsLiteral():
		return describe(token.ILLEGAL, p.tok, p.lit)
	default:
		return strconv.Quote(p.tok.String())
	}
}

// expect consumes a token of kind tok; what describes its role.
func (p *lineParser) expect(tok token.Token, what string) *SyntaxError {
	if p.tok != tok {
		return p.errorf(p.pos, "expected %q %s, found %s", tok.String(), what, p.found())
	}
	return p.next()
}

// parse parses the value line text, which has no surrounding white space.
// The returned error has only its column and message set.
func (p *lineParser) parse(text []byte) (any, *SyntaxError) {
	if p.fset == nil {
		p.fset = token.NewFileSet()
	}
	f := p.fset.AddFile("", -1, len(text))
	p.base = f.Base()
	p.errMsg = ""
	p.sc.Init(f, text, func(pos token.Position, msg string) {
		if p.errMsg == "" {
			p.errPos, p.errMsg = pos, msg
		}
	}, 0)
	if err := p.next(); err != nil {
		return nil, err
	}

	// The type.
	typePos := p.pos
	var typ string
	switch p.tok {
	case token.LBRACK:
		if err := p.next(); err != nil {
			return nil, err
		}
		if err := p.expect(token.RBRACK, "of []byte (only []byte slices are supported)"); err != nil {
			return nil, err
		}
		if p.tok != token.IDENT || p.lit != "byte" {
			return nil, p.errorf(p.pos, "expected \"byte\" after \"[]\" (only []byte slices are supported), found %s", p.found())
		}
		typ = "[]byte"
		if err := p.next(); err != nil {
			return nil, err
		}
	case token.IDENT:
		typ = p.lit
		if err := p.next(); err != nil {
			return nil, err
		}
		if p.tok == token.PERIOD {
			if typ != "math" {
				return nil, p.errorf(typePos, "expected math.Float32frombits or math.Float64frombits, found %s followed by \".\"", shorten(typ))
			}
			if err := p.next(); err != nil {
				return nil, err
			}
			if p.tok != token.IDENT || p.lit != "Float32frombits" && p.lit != "Float64frombits" {
				return nil, p.errorf(p.pos, "expected Float32frombits or Float64frombits after \"math.\", found %s", p.found())
			}
			typ = "math." + p.lit
			if err := p.next(); err != nil {
				return nil, err
			}
		} else if !knownType(typ) {
			return nil, p.errorf(typePos, "expected one of %s, or math.Float32frombits or math.Float64frombits, found %s", typeList, shorten(typ))
		}
	default:
		return nil, p.errorf(p.pos, "expected a conversion such as int(1) or []byte(\"x\"), found %s", p.found())
	}
	if err := p.expect(token.LPAREN, "after "+typ); err != nil {
		return nil, err
	}

	// The value.
	valPos := p.pos
	var sign token.Token
	if p.tok == token.SUB || p.tok == token.ADD {
		sign = p.tok
		if err := p.next(); err != nil {
			return nil, err
		}
	}
	kind, lit := p.tok, p.lit
	switch kind {
	case token.INT, token.FLOAT, token.IMAG, token.CHAR, token.STRING, token.IDENT:
	default:
		return nil, p.errorf(p.pos, "expected a literal value for %s, found %s", typ, p.found())
	}
	if err := p.next(); err != nil {
		return nil, err
	}

	// The end of the conversion and of the line. go test parses the line
	// as a Go expression, which allows a "..." and a trailing comma.
	if p.tok == token.ELLIPSIS {
		if err := p.next(); err != nil {
			return nil, err
		}
	}
	if p.tok == token.COMMA {
		if err := p.next(); err != nil {
			return nil, err
		}
	}
	if err := p.expect(token.RPAREN, "after the value"); err != nil {
		return nil, err
	}
	if p.tok == token.SEMICOLON && p.lit == "\n" { // inserted at the end of the line
		if err := p.next(); err != nil {
			return nil, err
		}
	}
	if p.tok != token.EOF {
		return nil, p.errorf(p.pos, "expected end of line after %s(...), found %s", typ, p.found())
	}

	v, msg := convert(typ, sign, kind, lit)
	if msg != "" {
		return nil, p.errorf(valPos, "%s", msg)
	}
	return v, nil
}

// knownType reports whether name is the name of a type a line may convert to.
func knownType(name string) bool {
	switch name {
	case "string", "bool", "byte", "rune", "float32", "float64",
		"int", "int8", "int16", "int32", "int64",
		"uint", "uint8", "uint16", "uint32", "uint64":
		return true
	}
	return false
}

// convert returns the value of type typ written as the literal or identifier
// lit of the given kind, preceded by sign (token.ILLEGAL if none). On
// failure it returns a message saying what was expected.
func convert(typ string, sign, kind token.Token, lit string) (any, string) {
	if typ == "bool" {
		if sign == token.ILLEGAL && kind == token.IDENT {
			switch lit {
			case "true":
				return true, ""
			case "false":
				return false, ""
			}
		}
		return nil, "expected true or false for bool, found " + describe(sign, kind, lit)
	}

	// Reduce the value to a kind and the text of a literal, as Go writes
	// it: a signed number, +Inf, -Inf or NaN.
	text := lit
	switch {
	case kind == token.IDENT && sign == token.ILLEGAL:
		if lit != "NaN" {
			return nil, fmt.Sprintf("expected a literal value for %s, found identifier %s", typ, shorten(lit))
		}
		kind = token.FLOAT
	case kind == token.IDENT:
		if lit != "Inf" {
			return nil, fmt.Sprintf("expected a literal value for %s, found %s", typ, describe(sign, kind, lit))
		}
		kind, text = token.FLOAT, sign.String()+lit
	case sign == token.ADD:
		return nil, fmt.Sprintf("expected a literal value for %s, found %s (a literal may have a \"-\" sign only)", typ, describe(sign, kind, lit))
	case sign == token.SUB:
		if kind != token.INT && kind != token.FLOAT {
			return nil, fmt.Sprintf("expected a literal value for %s, found %s (only numbers may have a sign)", typ, describe(sign, kind, lit))
		}
		text = "-" + lit
	}

	want := func(what string) (any, string) {
		return nil, fmt.Sprintf("expected %s for %s, found %s", what, typ, describe(sign, kind, text))
	}
	switch typ {
	case "[]byte", "string":
		if kind != token.STRING {
			return want("a string literal")
		}
		s, err := strconv.Unquote(text)
		if err != nil {
			return want("a valid string literal")
		}
		if typ == "string" {
			return s, ""
		}
		return []byte(s), ""
	case "byte", "rune":
		if kind == token.CHAR {
			code, _, tail, err := strconv.UnquoteChar(text[1:len(text)-1], '\'')
			if err != nil || tail != "" {
				return want("a valid character literal")
			}
			if typ == "rune" {
				return code, ""
			}
			if code > math.MaxUint8 {
				return want("a character literal below '\\u0100'")
			}
			return byte(code), ""
		}
		if kind != token.INT {
			return want("a character or integer literal")
		}
		if typ == "rune" {
			return parseInt(text, "int32")
		}
		return parseUint(text, "uint8")
	case "int", "int8", "int16", "int32", "int64":
		if kind != token.INT {
			return want("an integer literal")
		}
		return parseInt(text, typ)
	case "uint", "uint8", "uint16", "uint32", "uint64":
		if kind != token.INT {
			return want("an integer literal")
		}
		return parseUint(text, typ)
	case "float32", "float64":
		if kind != token.FLOAT && kind != token.INT {
			return want("a floating-point or integer literal")
		}
		size := 64
		if typ == "float32" {
			size = 32
		}
		f, err := strconv.ParseFloat(text, size)
		if err != nil {
			return nil, numError(err, text, typ)
		}
		if size == 32 {
			return float32(f), ""
		}
		return f, ""
	case float32Bits, float64Bits:
		if kind != token.INT || sign != token.ILLEGAL {
			return want("an unsigned integer literal")
		}
		if typ == float32Bits {
			u, err := strconv.ParseUint(text, 0, 32)
			if err != nil {
				return nil, numError(err, text, "uint32")
			}
			return math.Float32frombits(uint32(u)), ""
		}
		u, err := strconv.ParseUint(text, 0, 64)
		if err != nil {
			return nil, numError(err, text, "uint64")
		}
		return math.Float64frombits(u), ""
	}
	return nil, "unknown type " + typ // not reached: the parser checks types
}

// parseInt parses the integer literal text as a value of the signed type typ.
func parseInt(text, typ string) (any, string) {
	size := 64
	switch typ {
	case "int8":
		size = 8
	case "int16":
		size = 16
	case "int32":
		size = 32
	}
	i, err := strconv.ParseInt(text, 0, size)
	if err != nil {
		return nil, numError(err, text, typ)
	}
	switch typ {
	case "int":
		// On 32-bit platforms the value wraps, as in go test: entries
		// written on 64-bit platforms stay readable.
		return int(i), ""
	case "int8":
		return int8(i), ""
	case "int16":
		return int16(i), ""
	case "int32":
		return int32(i), ""
	}
	return i, ""
}

// parseUint parses the integer literal text as a value of the unsigned type
// typ.
func parseUint(text, typ string) (any, string) {
	size := 64
	switch typ {
	case "uint8":
		size = 8
	case "uint16":
		size = 16
	case "uint32":
		size = 32
	}
	u, err := strconv.ParseUint(text, 0, size)
	if err != nil {
		return nil, numError(err, text, typ)
	}
	switch typ {
	case "uint":
		return uint(u), ""
	case "uint8":
		return uint8(u), ""
	case "uint16":
		return uint16(u), ""
	case "uint32":
		return uint32(u), ""
	}
	return u, ""
}

// numError describes a strconv error for the literal text of type typ.
func numError(err error, text, typ string) string {
	if errors.Is(err, strconv.ErrRange) {
		return fmt.Sprintf("expected a value in the range of %s, found %s", typ, shorten(text))
	}
	return fmt.Sprintf("expected a valid %s literal, found %s", typ, shorten(text))
}

// shorten cuts text to at most maxShown bytes and "...".
func shorten(text string) string {
	if len(text) <= maxShown {
		return text
	}
	n := maxShown
	for n > 0 && !utf8.RuneStart(text[n]) {
		n--
	}
	return text[:n] + "..."
}

// maxShown is the number of bytes of a literal that error messages show.
const maxShown = 40

// describe describes a value for an error message.
func describe(sign, kind token.Token, text string) string {
	if sign != token.ILLEGAL && !strings.HasPrefix(text, sign.String()) {
		text = sign.String() + text
	}
	text = shorten(text)
	switch kind {
	case token.IDENT:
		return "identifier " + text
	case token.INT:
		return "integer literal " + text
	case token.FLOAT:
		return "floating-point literal " + text
	case token.IMAG:
		return "imaginary literal " + text
	case token.CHAR:
		return "character literal " + text
	case token.STRING:
		return "string literal " + text
	}
	return text
}

// maxQuoted is how many bytes of a wrong header line an error quotes.
const maxQuoted = 32

// quotePrefix quotes b, or only its first n bytes (ending at a whole UTF-8
// character where one ends near n) followed by the length of b, so that an
// error about a binary file stays one short line.
func quotePrefix(b []byte, n int) string {
	if len(b) <= n {
		return strconv.Quote(string(b))
	}
	cut := n
	for cut > n-utf8.UTFMax && cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	if !utf8.RuneStart(b[cut]) {
		cut = n
	}
	return fmt.Sprintf("%s... (a line of %d bytes)", strconv.Quote(string(b[:cut])), len(b))
}
