package grammar

import (
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Limits of the notation. They keep every grammar that Parse accepts small
// enough to print, compare and compile without deep recursion.
const (
	// maxNestingDepth bounds how deeply groups and quantifiers may nest.
	maxNestingDepth = 1000
	// maxRepeatCount bounds the counts of a {n,m} quantifier.
	maxRepeatCount = 1 << 16
)

// Parse parses a grammar written in the notation described in the package
// documentation. The filename only labels positions; src is the source text.
// On failure, Parse returns a nil grammar and an ErrorList of the syntax
// errors found, sorted by position; after an error, Parse skips to the end of
// the rule and goes on, and it reports only the first error of a line.
//
// Parse checks syntax and duplicate definitions only; call Check for
// undefined, unreachable and unproductive nonterminals.
func Parse(filename string, src []byte) (*Grammar, error) {
	p := newBNFParser(filename, src)
	g := p.parseGrammar()
	p.errs.removeMultiples()
	if err := p.errs.Err(); err != nil {
		return nil, err
	}
	return g, nil
}

// ---------------------------------------------------------------------------
// Scanner

type bnfTokKind int

const (
	bnfEOF     bnfTokKind = iota
	bnfIllegal            // a character that starts no token
	bnfName               // <name>
	bnfDefine             // ::= or :=
	bnfOr                 // |
	bnfSemi               // ;
	bnfLParen             // (
	bnfRParen             // )
	bnfQuest              // ?
	bnfStar               // *
	bnfPlus               // +
	bnfLBrace             // {
	bnfRBrace             // }
	bnfComma              // ,
	bnfInt                // 123
	bnfString             // "..." or `...`
	bnfClass              // [...]
)

// A bnfToken is one lexical element of the notation.
type bnfToken struct {
	kind  bnfTokKind
	pos   Pos
	text  string // the source text
	val   string // the name of a bnfName, the value of a bnfString
	n     int    // the value of a bnfInt, or -1 if it is too large
	class *Class // the class of a bnfClass
}

type bnfScanner struct {
	file      string
	src       []byte
	off       int // offset of the next unread byte
	line      int // line of src[off]
	lineStart int // offset of the first byte of that line
	errs      *ErrorList
}

func (s *bnfScanner) init(file string, src []byte, errs *ErrorList) {
	*s = bnfScanner{file: file, src: src, line: 1, errs: errs}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		s.off = 3 // a UTF-8 byte order mark
		s.lineStart = 3
	}
}

// posAt returns the position of the byte at off, which must lie on the
// current line.
func (s *bnfScanner) posAt(off int) Pos {
	return Pos{File: s.file, Offset: off, Line: s.line, Col: off - s.lineStart + 1}
}

func (s *bnfScanner) error(off int, msg string) {
	s.errs.Add(s.posAt(off), msg)
}

func isBNFSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// skip skips white space and comments.
func (s *bnfScanner) skip() {
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case c == '\n':
			s.off++
			s.line++
			s.lineStart = s.off
		case isBNFSpace(c):
			s.off++
		case c == '#' || c == '/' && s.off+1 < len(s.src) && s.src[s.off+1] == '/':
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.off++
			}
		default:
			return
		}
	}
}

// next scans and returns the next token.
func (s *bnfScanner) next() bnfToken {
	s.skip()
	start := s.off
	tok := bnfToken{pos: s.posAt(start)}
	if s.off >= len(s.src) {
		tok.kind = bnfEOF
		return tok
	}
	c := s.src[s.off]
	s.off++
	switch c {
	case '<':
		tok.kind = bnfName
		tok.val = s.scanName(start)
	case ':':
		switch {
		case s.off+1 < len(s.src) && s.src[s.off] == ':' && s.src[s.off+1] == '=':
			s.off += 2
			tok.kind = bnfDefine
		case s.off < len(s.src) && s.src[s.off] == '=':
			s.off++
			tok.kind = bnfDefine
		default:
			tok.kind = bnfIllegal
		}
	case '|':
		tok.kind = bnfOr
	case ';':
		tok.kind = bnfSemi
	case '(':
		tok.kind = bnfLParen
	case ')':
		tok.kind = bnfRParen
	case '?':
		tok.kind = bnfQuest
	case '*':
		tok.kind = bnfStar
	case '+':
		tok.kind = bnfPlus
	case '{':
		tok.kind = bnfLBrace
	case '}':
		tok.kind = bnfRBrace
	case ',':
		tok.kind = bnfComma
	case '"':
		tok.kind = bnfString
		tok.val = s.scanString(start)
	case '`':
		tok.kind = bnfString
		tok.val = s.scanRaw(start)
	case '[':
		tok.kind = bnfClass
		tok.class = s.scanClass(start)
		tok.class.P = tok.pos
	default:
		if '0' <= c && c <= '9' {
			tok.kind = bnfInt
			tok.n = s.scanInt(start)
		} else {
			tok.kind = bnfIllegal
			if c >= utf8.RuneSelf {
				_, size := utf8.DecodeRune(s.src[start:])
				s.off = start + size
			}
		}
	}
	tok.text = string(s.src[start:s.off])
	return tok
}

// scanName scans the rest of a nonterminal <name>; start is the offset of
// the '<'. A malformed name is reported and returned as far as it goes.
func (s *bnfScanner) scanName(start int) string {
	i := s.off
	for i < len(s.src) {
		c := s.src[i]
		if c == '<' || c == '>' || isBNFSpace(c) {
			break
		}
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(s.src[i:])
		if r == utf8.RuneError && size == 1 {
			s.error(i, "invalid UTF-8 encoding in nonterminal name")
			s.off = i + 1
			return string(s.src[start+1 : i])
		}
		if unicode.IsSpace(r) {
			break
		}
		i += size
	}
	name := string(s.src[start+1 : i])
	switch {
	case i < len(s.src) && s.src[i] == '>' && i > start+1:
		s.off = i + 1
	case i < len(s.src) && s.src[i] == '>':
		s.error(start, "empty nonterminal name <>: expected a name between '<' and '>'")
		s.off = i + 1
	case i == start+1:
		s.error(i, fmt.Sprintf("expected nonterminal name after '<', found %s", s.describeAt(i)))
		s.off = i
	default:
		s.error(i, fmt.Sprintf("expected '>' to end nonterminal <%s, found %s", name, s.describeAt(i)))
		s.off = i
	}
	return name
}

// describeAt describes the character at offset i for an error message.
func (s *bnfScanner) describeAt(i int) string {
	if i >= len(s.src) {
		return "end of file"
	}
	switch c := s.src[i]; c {
	case ' ':
		return "space"
	case '\n':
		return "newline"
	}
	r, size := utf8.DecodeRune(s.src[i:])
	if r == utf8.RuneError && size == 1 {
		return fmt.Sprintf("byte 0x%02x", s.src[i])
	}
	return msgRune(r)
}

// msgRune formats a character in single quotes, escaped if need be.
func msgRune(r rune) string {
	if r == '\'' {
		return `'\''`
	}
	return strconv.QuoteRune(r)
}

// scanString scans the rest of a double-quoted literal and returns its value.
func (s *bnfScanner) scanString(start int) string {
	var buf []byte
	for {
		if s.off >= len(s.src) || s.src[s.off] == '\n' {
			s.error(start, `string literal not terminated: expected '"'`)
			return string(buf)
		}
		c := s.src[s.off]
		switch c {
		case '"':
			s.off++
			return string(buf)
		case '\\':
			r, isByte, ok := s.scanEscape(false)
			if !ok {
				continue
			}
			if isByte {
				buf = append(buf, byte(r))
			} else {
				buf = utf8.AppendRune(buf, r)
			}
		default:
			buf = append(buf, c)
			s.off++
		}
	}
}

// scanRaw scans the rest of a raw literal in backquotes. As in Go, carriage
// returns are discarded from its value.
func (s *bnfScanner) scanRaw(start int) string {
	startPos := s.posAt(start)
	var buf []byte
	for s.off < len(s.src) {
		c := s.src[s.off]
		s.off++
		switch c {
		case '`':
			return string(buf)
		case '\n':
			s.line++
			s.lineStart = s.off
		case '\r':
			continue
		}
		buf = append(buf, c)
	}
	s.errs.Add(startPos, "raw string literal not terminated: expected '`'")
	return string(buf)
}

// scanInt scans the rest of a decimal number; it returns -1 if the number
// exceeds maxRepeatCount.
func (s *bnfScanner) scanInt(start int) int {
	for s.off < len(s.src) && '0' <= s.src[s.off] && s.src[s.off] <= '9' {
		s.off++
	}
	n := 0
	for _, c := range s.src[start:s.off] {
		n = n*10 + int(c-'0')
		if n > maxRepeatCount {
			return -1
		}
	}
	return n
}

// scanEscape scans the escape sequence at s.off, which is a backslash. It
// returns the character, whether it is a raw byte (\xHH or octal), and
// whether the sequence was valid; invalid sequences are reported. In a
// class, \] \[ \- and \^ are also escapes.
func (s *bnfScanner) scanEscape(inClass bool) (r rune, isByte, ok bool) {
	start := s.off
	s.off++ // the backslash
	if s.off >= len(s.src) || s.src[s.off] == '\n' {
		s.error(start, "escape sequence not terminated")
		return 0, false, false
	}
	c := s.src[s.off]
	s.off++
	switch c {
	case 'a':
		return '\a', false, true
	case 'b':
		return '\b', false, true
	case 'f':
		return '\f', false, true
	case 'n':
		return '\n', false, true
	case 'r':
		return '\r', false, true
	case 't':
		return '\t', false, true
	case 'v':
		return '\v', false, true
	case '\\', '"':
		return rune(c), false, true
	case ']', '[', '-', '^':
		if inClass {
			return rune(c), false, true
		}
	case 'x':
		v, ok := s.scanDigits(start, 2, 16, `\x`)
		return v, true, ok
	case 'u':
		v, ok := s.scanDigits(start, 4, 16, `\u`)
		return s.checkRune(start, v, ok)
	case 'U':
		v, ok := s.scanDigits(start, 8, 16, `\U`)
		return s.checkRune(start, v, ok)
	case '0', '1', '2', '3', '4', '5', '6', '7':
		s.off--
		v, ok := s.scanDigits(start, 3, 8, `\`)
		if ok && v > 255 {
			s.error(start, fmt.Sprintf("octal escape value %d is greater than 255", v))
			return 0, false, false
		}
		return v, true, ok
	}
	s.off = start + 1
	if c >= utf8.RuneSelf {
		_, size := utf8.DecodeRune(s.src[s.off:])
		s.off += size
	} else {
		s.off++
	}
	want := `\a \b \f \n \r \t \v \\ \" \xHH \uHHHH \UHHHHHHHH or \ooo`
	if inClass {
		want = `\] \[ \- \^ ` + want
	}
	s.error(start, fmt.Sprintf("unknown escape sequence %s: expected %s", s.src[start:s.off], want))
	return 0, false, false
}

// scanDigits scans n digits in the given base for the escape that starts at
// start and is named name.
func (s *bnfScanner) scanDigits(start, n, base int, name string) (rune, bool) {
	var v rune
	for i := 0; i < n; i++ {
		if s.off >= len(s.src) {
			s.error(start, fmt.Sprintf("escape sequence %s not terminated: expected %d %s digits", name, n, digitsName(base)))
			return 0, false
		}
		c := s.src[s.off]
		d := digitValue(c)
		if d >= base {
			s.error(s.off, fmt.Sprintf("invalid character %s in escape sequence %s: expected %d %s digits", s.describeAt(s.off), name, n, digitsName(base)))
			return 0, false
		}
		v = v*rune(base) + rune(d)
		s.off++
	}
	return v, true
}

func (s *bnfScanner) checkRune(start int, v rune, ok bool) (rune, bool, bool) {
	if !ok {
		return 0, false, false
	}
	if v > unicode.MaxRune || 0xD800 <= v && v < 0xE000 {
		s.error(start, fmt.Sprintf("escape sequence %s is not a valid Unicode code point", s.src[start:s.off]))
		return 0, false, false
	}
	return v, false, true
}

func digitsName(base int) string {
	if base == 8 {
		return "octal"
	}
	return "hex"
}

func digitValue(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return int(c - 'A' + 10)
	}
	return 16
}

// classEnd is one end point of a class range, as scanned.
type classEnd struct {
	r      rune
	isByte bool // written \xHH or octal
	off    int
}

// scanClass scans the rest of a character class [...].
func (s *bnfScanner) scanClass(start int) *Class {
	c := &Class{}
	if s.off < len(s.src) && s.src[s.off] == '^' {
		c.Negated = true
		s.off++
	}
	type member struct{ lo, hi classEnd }
	var members []member
	for {
		if s.off >= len(s.src) || s.src[s.off] == '\n' {
			s.error(start, "character class not terminated: expected ']'")
			break
		}
		if s.src[s.off] == ']' {
			s.off++
			break
		}
		lo, ok := s.scanClassChar()
		if !ok {
			continue
		}
		hi := lo
		if s.off+1 < len(s.src) && s.src[s.off] == '-' && s.src[s.off+1] != ']' && s.src[s.off+1] != '\n' {
			s.off++
			hi, ok = s.scanClassChar()
			if !ok {
				continue
			}
			if lo.r > hi.r {
				s.error(lo.off, fmt.Sprintf("invalid class range %s-%s: expected the start not to exceed the end", classEndString(lo), classEndString(hi)))
				continue
			}
		}
		members = append(members, member{lo, hi})
	}
	for _, m := range members {
		if m.lo.isByte && m.lo.r > 0x7F || m.hi.isByte && m.hi.r > 0x7F {
			c.Bytes = true
			break
		}
	}
	for _, m := range members {
		if c.Bytes {
			for _, e := range []classEnd{m.lo, m.hi} {
				if !e.isByte && e.r > 0x7F {
					s.error(e.off, fmt.Sprintf("non-ASCII character %s in a byte class (one with a \\xHH escape above \\x7f): expected bytes only; write its UTF-8 bytes as \\xHH", msgRune(e.r)))
				}
			}
		}
		c.Ranges = append(c.Ranges, Range{m.lo.r, m.hi.r})
	}
	return c
}

func classEndString(c classEnd) string {
	if c.isByte {
		return fmt.Sprintf(`\x%02x`, c.r)
	}
	return msgRune(c.r)
}

// scanClassChar scans one character of a class.
func (s *bnfScanner) scanClassChar() (classEnd, bool) {
	off := s.off
	c := s.src[s.off]
	if c == '\\' {
		r, isByte, ok := s.scanEscape(true)
		return classEnd{r, isByte, off}, ok
	}
	if c < utf8.RuneSelf {
		s.off++
		return classEnd{rune(c), false, off}, true
	}
	r, size := utf8.DecodeRune(s.src[s.off:])
	s.off += size
	if r == utf8.RuneError && size == 1 {
		s.error(off, "invalid UTF-8 encoding in character class: expected a character; write raw bytes as \\xHH")
		return classEnd{}, false
	}
	return classEnd{r, false, off}, true
}

// ---------------------------------------------------------------------------
// Parser

type bnfParser struct {
	s      bnfScanner
	tok    bnfToken   // the current token
	ahead  []bnfToken // at most one token of lookahead
	errs   ErrorList
	nested int // current nesting of groups and quantifiers
}

func newBNFParser(filename string, src []byte) *bnfParser {
	p := &bnfParser{}
	p.s.init(filename, src, &p.errs)
	p.next()
	return p
}

func (p *bnfParser) next() {
	if len(p.ahead) > 0 {
		p.tok = p.ahead[0]
		p.ahead = p.ahead[:0]
		return
	}
	p.tok = p.s.next()
}

func (p *bnfParser) peek() bnfToken {
	if len(p.ahead) == 0 {
		p.ahead = append(p.ahead, p.s.next())
	}
	return p.ahead[0]
}

// atRuleStart reports whether the current token starts a rule: a name
// followed by '::='.
func (p *bnfParser) atRuleStart() bool {
	return p.tok.kind == bnfName && p.peek().kind == bnfDefine
}

func (p *bnfParser) error(pos Pos, msg string) {
	p.errs.Add(pos, msg)
}

func (p *bnfParser) errorExpected(pos Pos, what string, found bnfToken) {
	p.error(pos, fmt.Sprintf("expected %s, found %s", what, describeToken(found)))
}

// describeToken describes a token for an error message.
func describeToken(t bnfToken) string {
	switch t.kind {
	case bnfEOF:
		return "end of file"
	case bnfName:
		return "<" + shortText(t.val) + ">"
	case bnfString:
		return "literal " + shortText(t.text)
	case bnfClass:
		return "class " + shortText(t.text)
	case bnfInt:
		return "number " + shortText(t.text)
	case bnfIllegal:
		r, size := utf8.DecodeRuneInString(t.text)
		if r == utf8.RuneError && size <= 1 {
			if t.text == "" {
				return "end of file"
			}
			return fmt.Sprintf("byte 0x%02x", t.text[0])
		}
		switch r {
		case '\'':
			return `'\'' (literals are written in double quotes)`
		case ':':
			return `':' (did you mean '::='?)`
		case '/':
			return `'/' (comments start with // or #)`
		}
		return msgRune(r)
	}
	return "'" + t.text + "'"
}

// shortText makes source text printable and short for an error message.
func shortText(s string) string {
	const max = 40
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			q := strconv.Quote(s)
			return q[1 : len(q)-1]
		}
	}
	return s
}

// sync skips to the end of the current rule: past a ';', or to the start of
// the next rule or the end of the file.
func (p *bnfParser) sync() {
	for {
		switch {
		case p.tok.kind == bnfEOF || p.atRuleStart():
			return
		case p.tok.kind == bnfSemi:
			p.next()
			return
		}
		p.next()
	}
}

func (p *bnfParser) parseGrammar() *Grammar {
	g := &Grammar{}
	defined := make(map[string]Pos)
	for p.tok.kind != bnfEOF {
		r := p.parseRule()
		if r == nil {
			continue
		}
		if first, dup := defined[r.Name]; dup {
			p.error(r.Pos, fmt.Sprintf("duplicate definition of <%s>: first defined at %s", r.Name, first))
			continue
		}
		defined[r.Name] = r.Pos
		g.Rules = append(g.Rules, r)
	}
	if len(g.Rules) == 0 && len(p.errs) == 0 {
		p.errorExpected(p.tok.pos, "a rule such as <start> ::= ...", p.tok)
		return nil
	}
	g.Start = defaultStart(g)
	return g
}

// defaultStart returns "start" if g defines it, and otherwise the name of the
// first rule.
func defaultStart(g *Grammar) string {
	if g.Rule("start") != nil || len(g.Rules) == 0 {
		return "start"
	}
	return g.Rules[0].Name
}

func (p *bnfParser) parseRule() *Rule {
	if p.tok.kind != bnfName {
		p.errorExpected(p.tok.pos, "a rule (<name> ::= ...)", p.tok)
		p.next()
		p.sync()
		return nil
	}
	r := &Rule{Name: p.tok.val, Pos: p.tok.pos}
	p.next()
	if p.tok.kind != bnfDefine {
		p.errorExpected(p.tok.pos, fmt.Sprintf("'::=' after <%s>", shortText(r.Name)), p.tok)
		p.sync()
		return nil
	}
	p.next()
	r.Expr, _ = p.parseAlt("'::='")
	if r.Expr == nil {
		p.sync()
		return nil
	}
	switch {
	case p.tok.kind == bnfSemi:
		p.next()
	case p.tok.kind == bnfEOF || p.atRuleStart():
	default:
		p.errorExpected(p.tok.pos, "an expression, '|', ';' or the next rule", p.tok)
		p.sync()
		return nil
	}
	return r
}

// parseAlt parses an alternation; after names the token before it, for
// error messages. It returns the expression and its depth, or nil after
// reporting an error.
func (p *bnfParser) parseAlt(after string) (Expr, int) {
	x, depth := p.parseSeq(after)
	if x == nil || p.tok.kind != bnfOr {
		return x, depth
	}
	alt := &Alt{X: []Expr{x}, P: x.Position()}
	for p.tok.kind == bnfOr {
		p.next()
		x, d := p.parseSeq("'|'")
		if x == nil {
			return nil, 0
		}
		alt.X = append(alt.X, x)
		depth = max(depth, d)
	}
	return p.checkDepth(alt, depth+1)
}

// checkDepth reports an expression nested more than maxNestingDepth levels deep.
func (p *bnfParser) checkDepth(x Expr, depth int) (Expr, int) {
	if depth > maxNestingDepth {
		p.error(x.Position(), fmt.Sprintf("expression nested too deeply: expected at most %d levels of groups and quantifiers", maxNestingDepth))
		return nil, 0
	}
	return x, depth
}

// startsAtom reports whether the current token starts an atom.
func (p *bnfParser) startsAtom() bool {
	switch p.tok.kind {
	case bnfString, bnfClass, bnfLParen:
		return true
	case bnfName:
		return !p.atRuleStart()
	}
	return false
}

func (p *bnfParser) parseSeq(after string) (Expr, int) {
	var xs []Expr
	depth := 0
	for p.startsAtom() {
		x, d := p.parsePostfix()
		if x == nil {
			return nil, 0
		}
		xs = append(xs, x)
		depth = max(depth, d)
	}
	switch len(xs) {
	case 0:
		p.errorExpected(p.tok.pos, "an expression after "+after, p.tok)
		return nil, 0
	case 1:
		return xs[0], depth
	}
	return p.checkDepth(&Seq{X: xs, P: xs[0].Position()}, depth+1)
}

func (p *bnfParser) parsePostfix() (Expr, int) {
	start := p.tok.pos // a quantified group starts at its '('
	x, depth := p.parseAtom()
	if x == nil {
		return nil, 0
	}
	for {
		r := &Repeat{X: x, P: start}
		switch p.tok.kind {
		case bnfQuest:
			r.Min, r.Max = 0, 1
			p.next()
		case bnfStar:
			r.Min, r.Max = 0, Unbounded
			p.next()
		case bnfPlus:
			r.Min, r.Max = 1, Unbounded
			p.next()
		case bnfLBrace:
			if !p.parseCounts(r) {
				return nil, 0
			}
		default:
			return x, depth
		}
		if x, depth = p.checkDepth(r, depth+1); x == nil {
			return nil, 0
		}
	}
}

// parseCounts parses a {n}, {n,}, {,m} or {n,m} quantifier into r.
func (p *bnfParser) parseCounts(r *Repeat) bool {
	lbrace := p.tok.pos
	p.next()
	count := func() (int, bool) {
		t := p.tok
		if t.kind != bnfInt {
			return 0, false
		}
		p.next()
		if t.n < 0 {
			p.error(t.pos, fmt.Sprintf("repetition count %s too large: expected at most %d", shortText(t.text), maxRepeatCount))
			return 0, false
		}
		return t.n, true
	}
	switch p.tok.kind {
	case bnfInt:
		n, ok := count()
		if !ok {
			return false
		}
		r.Min, r.Max = n, n
		if p.tok.kind == bnfComma {
			p.next()
			r.Max = Unbounded
			if p.tok.kind == bnfInt {
				if r.Max, ok = count(); !ok {
					return false
				}
			}
		}
	case bnfComma:
		p.next()
		if p.tok.kind != bnfInt {
			p.errorExpected(p.tok.pos, "a maximum count after '{,'", p.tok)
			return false
		}
		m, ok := count()
		if !ok {
			return false
		}
		r.Min, r.Max = 0, m
	default:
		p.errorExpected(p.tok.pos, "a count or ',' after '{'", p.tok)
		return false
	}
	if p.tok.kind != bnfRBrace {
		p.errorExpected(p.tok.pos, fmt.Sprintf("'}' to close the repetition at %s", lbrace), p.tok)
		return false
	}
	p.next()
	return true
}

func (p *bnfParser) parseAtom() (Expr, int) {
	t := p.tok
	switch t.kind {
	case bnfName:
		p.next()
		return &Ref{Name: t.val, P: t.pos}, 1
	case bnfString:
		p.next()
		return &Lit{S: t.val, P: t.pos}, 1
	case bnfClass:
		p.next()
		return t.class, 1
	case bnfLParen:
		if p.nested >= maxNestingDepth {
			p.error(t.pos, fmt.Sprintf("expression nested too deeply: expected at most %d levels of groups and quantifiers", maxNestingDepth))
			return nil, 0
		}
		p.nested++
		defer func() { p.nested-- }()
		p.next()
		x, depth := p.parseAlt("'('")
		if x == nil {
			return nil, 0
		}
		if p.tok.kind != bnfRParen {
			p.errorExpected(p.tok.pos, fmt.Sprintf("')' to close the '(' at %s", t.pos), p.tok)
			return nil, 0
		}
		p.next()
		return x, depth
	}
	p.errorExpected(t.pos, "an expression", t)
	return nil, 0
}
