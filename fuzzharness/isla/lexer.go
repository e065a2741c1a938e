package isla

import (
	"fmt"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// tokKind is the kind of a lexical token of the constraint language.
type tokKind uint8

const (
	tEOF     tokKind = iota
	tIdent           // forall, x, str.len, re.++, xml-tree
	tNonterm         // <name>; text is the name
	tString          // "..."; val holds the decoded units
	tInt             // 123
	tLParen          // (
	tRParen          // )
	tComma           // ,
	tColon           // :
	tSemi            // ;
	tLBrack          // [
	tRBrack          // ]
	tDot             // .
	tDotDot          // ..
	tOp              // = => >= <= > < + - *
	tIllegal         // a character that starts no token
)

// A token is one lexical token with its source span.
type token struct {
	kind tokKind
	text string // identifier, operator, nonterminal name, digits; the raw source for strings
	off  int    // byte offset of the token in the source
	end  int    // byte offset after the token
	str  *strUnits
}

// strUnits is a decoded string literal: raw bytes (from characters and \x
// escapes) and code points (from \u escapes), with the source offset of
// every unit, so that errors inside match expressions can be positioned.
type strUnits struct {
	units []strUnit
}

type strUnit struct {
	b    byte  // a raw byte, if cp < 0
	cp   int32 // a code point from a \u escape, or -1
	off  int   // source offset of the unit
	size int   // source length of the unit (1 for a plain byte)
}

// lexer splits a constraint source into tokens.
type lexer struct {
	file  string
	src   []byte
	lines []int // offsets of line starts
	errs  *grammar.ErrorList
	toks  []token
}

func newLexer(file string, src []byte, errs *grammar.ErrorList) *lexer {
	lx := &lexer{file: file, src: src, errs: errs, lines: []int{0}}
	for i, c := range src {
		if c == '\n' {
			lx.lines = append(lx.lines, i+1)
		}
	}
	return lx
}

// pos converts a byte offset into a position.
func (lx *lexer) pos(off int) Pos {
	lo, hi := 0, len(lx.lines)
	for hi-lo > 1 {
		m := (lo + hi) / 2
		if lx.lines[m] <= off {
			lo = m
		} else {
			hi = m
		}
	}
	return Pos{File: lx.file, Offset: off, Line: lo + 1, Col: off - lx.lines[lo] + 1}
}

func (lx *lexer) errorf(off int, format string, args ...any) {
	lx.errs.Add(lx.pos(off), fmt.Sprintf(format, args...))
}

// smtSymbolOps are the SMT-LIB function names with characters that cannot
// continue an identifier; they are recognized after "str" or "re".
var smtSymbolOps = []string{"str.++", "str.<=", "str.<", "re.++", "re.*", "re.+", "re.^"}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isIdentChar(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9' || c == '-' || c == '^'
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// isNameChar reports whether c may appear in a nonterminal name written in
// a constraint: anything but white space and the characters that delimit
// names, strings and argument lists.
func isNameChar(c byte) bool {
	return !isSpace(c) && c != '<' && c != '>' && c != '"' && c != '(' && c != ')' && c != ','
}

// tokenize splits the whole source into tokens, ending with tEOF.
func (lx *lexer) tokenize() []token {
	src := lx.src
	i := 0
	for {
		// skip white space and comments
		for i < len(src) {
			if isSpace(src[i]) {
				i++
			} else if src[i] == '#' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
			} else {
				break
			}
		}
		if i >= len(src) {
			lx.toks = append(lx.toks, token{kind: tEOF, off: len(src), end: len(src)})
			return lx.toks
		}
		start := i
		c := src[i]
		var t token
		switch {
		case isIdentStart(c):
			t = lx.ident(i)
		case c >= '0' && c <= '9':
			for i < len(src) && src[i] >= '0' && src[i] <= '9' {
				i++
			}
			t = token{kind: tInt, text: string(src[start:i]), off: start, end: i}
			if i < len(src) && (isIdentStart(src[i]) || src[i] == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9') {
				lx.errorf(i, "unexpected %s after number %s", describeByte(src, i), t.text)
			}
		case c == '"':
			t = lx.stringLit(i)
		case c == '<':
			if n := lx.nontermLen(i); n > 0 {
				t = token{kind: tNonterm, text: string(src[i+1 : i+n-1]), off: i, end: i + n}
			} else if i+1 < len(src) && src[i+1] == '=' {
				t = token{kind: tOp, text: "<=", off: i, end: i + 2}
			} else {
				t = token{kind: tOp, text: "<", off: i, end: i + 1}
			}
		case c == '>':
			if i+1 < len(src) && src[i+1] == '=' {
				t = token{kind: tOp, text: ">=", off: i, end: i + 2}
			} else {
				t = token{kind: tOp, text: ">", off: i, end: i + 1}
			}
		case c == '=':
			if i+1 < len(src) && src[i+1] == '>' {
				t = token{kind: tOp, text: "=>", off: i, end: i + 2}
			} else {
				t = token{kind: tOp, text: "=", off: i, end: i + 1}
			}
		case c == '+' || c == '-' || c == '*':
			t = token{kind: tOp, text: string(c), off: i, end: i + 1}
		case c == '.':
			if i+1 < len(src) && src[i+1] == '.' {
				t = token{kind: tDotDot, text: "..", off: i, end: i + 2}
			} else {
				t = token{kind: tDot, text: ".", off: i, end: i + 1}
			}
		default:
			kinds := map[byte]tokKind{'(': tLParen, ')': tRParen, ',': tComma, ':': tColon, ';': tSemi, '[': tLBrack, ']': tRBrack}
			if k, ok := kinds[c]; ok {
				t = token{kind: k, text: string(c), off: i, end: i + 1}
			} else {
				_, size := utf8.DecodeRune(src[i:])
				lx.errorf(i, "unexpected %s", describeByte(src, i))
				t = token{kind: tIllegal, text: string(src[i : i+size]), off: i, end: i + size}
			}
		}
		lx.toks = append(lx.toks, t)
		i = t.end
	}
}

// ident scans an identifier at i. Dots continue an identifier when an
// identifier character follows them (str.len, str.to.int), and the SMT-LIB
// operators str.++, re.* and the like are one token.
func (lx *lexer) ident(i int) token {
	src := lx.src
	start := i
	for i < len(src) {
		c := src[i]
		if isIdentChar(c) {
			i++
			continue
		}
		if c == '.' && i+1 < len(src) && isIdentChar(src[i+1]) {
			i++
			continue
		}
		break
	}
	word := string(src[start:i])
	if (word == "str" || word == "re") && i < len(src) && src[i] == '.' {
		rest := string(src[start:])
		best := ""
		for _, op := range smtSymbolOps {
			if strings.HasPrefix(rest, op) && len(op) > len(best) {
				best = op
			}
		}
		if best != "" {
			return token{kind: tIdent, text: best, off: start, end: start + len(best)}
		}
	}
	return token{kind: tIdent, text: word, off: start, end: i}
}

// nontermLen returns the length of the nonterminal <name> at i, or 0 if
// the '<' does not start one.
func (lx *lexer) nontermLen(i int) int {
	src := lx.src
	j := i + 1
	if j >= len(src) || src[j] == '=' || !isNameChar(src[j]) {
		return 0
	}
	for j < len(src) && isNameChar(src[j]) {
		j++
	}
	if j < len(src) && src[j] == '>' {
		return j + 1 - i
	}
	return 0
}

func describeByte(src []byte, i int) string {
	if i >= len(src) {
		return "end of input"
	}
	r, size := utf8.DecodeRune(src[i:])
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("byte %#02x", src[i])
	}
	return strconv.QuoteRune(r)
}

// stringLit scans a string literal at i. Escapes: \" \\ \b \t \n \r, \xHH
// (one byte), \uHHHH, \u{H...} (a code point, as in SMT-LIB).
func (lx *lexer) stringLit(i int) token {
	src := lx.src
	start := i
	i++
	su := &strUnits{}
	for {
		if i >= len(src) || src[i] == '\n' {
			lx.errorf(start, "string literal not terminated")
			return token{kind: tString, text: string(src[start:i]), off: start, end: i, str: su}
		}
		c := src[i]
		if c == '"' {
			i++
			break
		}
		if c != '\\' {
			su.units = append(su.units, strUnit{b: c, cp: -1, off: i, size: 1})
			i++
			continue
		}
		esc := i
		if i+1 >= len(src) {
			i++
			continue
		}
		i += 2
		switch e := src[esc+1]; e {
		case '"', '\\':
			su.units = append(su.units, strUnit{b: e, cp: -1, off: esc, size: 2})
		case 'b':
			su.units = append(su.units, strUnit{b: '\b', cp: -1, off: esc, size: 2})
		case 't':
			su.units = append(su.units, strUnit{b: '\t', cp: -1, off: esc, size: 2})
		case 'n':
			su.units = append(su.units, strUnit{b: '\n', cp: -1, off: esc, size: 2})
		case 'r':
			su.units = append(su.units, strUnit{b: '\r', cp: -1, off: esc, size: 2})
		case 'x':
			v, n := hexValue(src[i:], 2)
			if n != 2 {
				lx.errorf(esc, `\x must be followed by two hexadecimal digits`)
			} else {
				su.units = append(su.units, strUnit{b: byte(v), cp: -1, off: esc, size: 4})
			}
			i += n
		case 'u':
			var v, n int
			if i < len(src) && src[i] == '{' {
				v, n = hexValue(src[i+1:], 5)
				if n == 0 || i+1+n >= len(src) || src[i+1+n] != '}' {
					lx.errorf(esc, `\u{ must be followed by one to five hexadecimal digits and }`)
					i += 1 + n
					continue
				}
				i += n + 2
			} else {
				v, n = hexValue(src[i:], 4)
				if n != 4 {
					lx.errorf(esc, `\u must be followed by four hexadecimal digits or {digits}`)
					i += n
					continue
				}
				i += 4
			}
			if v > smtlib.MaxCodePoint {
				lx.errorf(esc, "character \\u{%x} is beyond the largest SMT-LIB character \\u{2ffff}", v)
				continue
			}
			su.units = append(su.units, strUnit{cp: int32(v), off: esc, size: i - esc})
		default:
			lx.errorf(esc, "unknown escape sequence %s in string literal", describeByte(src, esc+1))
		}
	}
	return token{kind: tString, text: string(src[start:i]), off: start, end: i, str: su}
}

// hexValue reads up to max hexadecimal digits and returns their value and
// count.
func hexValue(b []byte, max int) (int, int) {
	v, n := 0, 0
	for n < max && n < len(b) {
		d := digitVal(b[n])
		if d < 0 || d > 15 {
			break
		}
		v = v*16 + d
		n++
	}
	return v, n
}

func digitVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// text returns the string's characters in the internal encoding: runs of
// raw bytes are read as UTF-8 (bytes that are not valid UTF-8 become the
// characters U+DC80 to U+DCFF), \u escapes are code points.
func (su *strUnits) text() string {
	var b strings.Builder
	var run []byte
	flush := func() {
		b.WriteString(smtlib.FromBytes(string(run)))
		run = run[:0]
	}
	for _, u := range su.units {
		if u.cp < 0 {
			run = append(run, u.b)
			continue
		}
		flush()
		b.WriteString(smtlib.EncodeRune(rune(u.cp)))
	}
	flush()
	return b.String()
}
