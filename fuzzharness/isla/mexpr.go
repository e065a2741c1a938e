package isla

import (
	"fmt"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
	"strings"
	"unicode/utf8"
)

// Match expressions are written as string literals. After the escapes of the
// string are processed, the text is read as follows:
//
//	{<type> name}   a binder: a subtree labeled type, bound to name
//	<type>          a subtree labeled type
//	[ ... ]         optional text and nonterminals (no binders, not nested)
//	\{ \} \[ \] \< \> \\   the character itself
//
// and every other character stands for itself. A '<' that does not start a
// nonterminal <name> is literal too.

// isMatchNameChar reports whether c may appear in a nonterminal name inside
// a match expression.
func isMatchNameChar(c byte) bool {
	return isNameChar(c) && c != '{' && c != '}' && c != '[' && c != ']' && c != '\\'
}

// mbyte is a byte of a match expression with its source offset.
type mbyte struct {
	b   byte
	off int
}

// parseMatchExpr parses the match expression in the string token t,
// reporting errors to the lexer's error list.
func parseMatchExpr(lx *lexer, t token) *MatchExpr {
	var bs []mbyte
	for _, u := range t.str.units {
		if u.cp < 0 {
			bs = append(bs, mbyte{u.b, u.off})
			continue
		}
		r := rune(u.cp)
		switch {
		case r >= smtlib.EscapedLo && r <= smtlib.EscapedHi:
			bs = append(bs, mbyte{byte(r - smtlib.EscapedLo + 0x80), u.off})
		case r >= smtlib.SurrogateLo && r <= smtlib.SurrogateHi || !utf8.ValidRune(r):
			lx.errorf(u.off, "character \\u{%x} cannot occur in a match expression, which matches bytes", r)
		default:
			for _, b := range []byte(string(r)) {
				bs = append(bs, mbyte{b, u.off})
			}
		}
	}
	m := &MatchExpr{P: lx.pos(t.off)}
	mp := &mexprParser{lx: lx, bs: bs, end: t.end - 1}
	m.Elems = mp.elems(false)
	if len(m.Elems) == 0 && len(bs) == 0 {
		lx.errorf(t.off, "empty match expression")
	}
	return m
}

type mexprParser struct {
	lx  *lexer
	bs  []mbyte
	i   int
	end int // source offset of the closing quote
}

func (mp *mexprParser) off() int {
	if mp.i < len(mp.bs) {
		return mp.bs[mp.i].off
	}
	return mp.end
}

func (mp *mexprParser) at(i int) byte {
	if i < len(mp.bs) {
		return mp.bs[i].b
	}
	return 0
}

// holeLen returns the length of a nonterminal <name> at i, or 0.
func (mp *mexprParser) holeLen(i int) int {
	if mp.at(i) != '<' || i+1 >= len(mp.bs) || !isMatchNameChar(mp.bs[i+1].b) {
		return 0
	}
	j := i + 1
	for j < len(mp.bs) && isMatchNameChar(mp.bs[j].b) {
		j++
	}
	if j < len(mp.bs) && mp.bs[j].b == '>' {
		return j + 1 - i
	}
	return 0
}

func (mp *mexprParser) text(i, j int) string {
	b := make([]byte, 0, j-i)
	for _, x := range mp.bs[i:j] {
		b = append(b, x.b)
	}
	return string(b)
}

// elems parses elements up to the end, or up to ']' inside an optional.
func (mp *mexprParser) elems(inOpt bool) []MatchElem {
	var out []MatchElem
	var text []byte
	textOff := 0
	flush := func() {
		if len(text) > 0 {
			out = append(out, MatchElem{Kind: MatchText, Text: string(text), P: mp.lx.pos(textOff)})
			text = nil
		}
	}
	addText := func(b byte, off int) {
		if len(text) == 0 {
			textOff = off
		}
		text = append(text, b)
	}
	for mp.i < len(mp.bs) {
		c, off := mp.bs[mp.i].b, mp.bs[mp.i].off
		switch {
		case c == '\\' && strings.IndexByte(`{}[]<>\`, mp.at(mp.i+1)) >= 0 && mp.i+1 < len(mp.bs):
			addText(mp.at(mp.i+1), off)
			mp.i += 2
		case c == ']' && inOpt:
			flush()
			return out
		case c == '{' || c == '[':
			if inOpt {
				mp.lx.errorf(off, "%q cannot occur inside an optional [...] of a match expression (write \\%c for the character)", c, c)
				mp.i++
				continue
			}
			flush()
			if c == '{' {
				if e, ok := mp.binder(); ok {
					out = append(out, e)
				}
				continue
			}
			mp.i++
			opt := mp.elems(true)
			if mp.i >= len(mp.bs) {
				mp.lx.errorf(off, "optional [...] of a match expression not closed")
				return out
			}
			mp.i++ // ']'
			if len(opt) == 0 {
				mp.lx.errorf(off, "empty optional [] in a match expression")
				continue
			}
			out = append(out, MatchElem{Kind: MatchOptional, Opt: opt, P: mp.lx.pos(off)})
		case c == '<' && mp.holeLen(mp.i) > 0:
			n := mp.holeLen(mp.i)
			flush()
			out = append(out, MatchElem{Kind: MatchHole, Type: mp.text(mp.i+1, mp.i+n-1), P: mp.lx.pos(off)})
			mp.i += n
		default:
			addText(c, off)
			mp.i++
		}
	}
	flush()
	return out
}

// binder parses {<type> name} at the current position.
func (mp *mexprParser) binder() (MatchElem, bool) {
	start := mp.bs[mp.i].off
	mp.i++
	skip := func() {
		for mp.i < len(mp.bs) && isSpace(mp.bs[mp.i].b) {
			mp.i++
		}
	}
	bad := func(what string) (MatchElem, bool) {
		found := "end of the match expression"
		if mp.i < len(mp.bs) {
			found = fmt.Sprintf("%q", rune(mp.bs[mp.i].b))
		}
		mp.lx.errorf(mp.off(), "expected %s in binder {<type> name}, found %s", what, found)
		// skip to the closing brace
		for mp.i < len(mp.bs) && mp.bs[mp.i].b != '}' {
			mp.i++
		}
		if mp.i < len(mp.bs) {
			mp.i++
		}
		return MatchElem{}, false
	}
	skip()
	n := mp.holeLen(mp.i)
	if n == 0 {
		return bad("a nonterminal <type>")
	}
	typ := mp.text(mp.i+1, mp.i+n-1)
	mp.i += n
	skip()
	j := mp.i
	if j >= len(mp.bs) || !isIdentStart(mp.bs[j].b) {
		return bad("a variable name")
	}
	for j < len(mp.bs) && (isIdentChar(mp.bs[j].b) || mp.bs[j].b == '.' && j+1 < len(mp.bs) && isIdentChar(mp.bs[j+1].b)) {
		j++
	}
	name := mp.text(mp.i, j)
	if keywords[name] || smtFuncs[name] {
		mp.lx.errorf(mp.off(), "%s cannot be a variable name", name)
	}
	mp.i = j
	skip()
	if mp.at(mp.i) != '}' || mp.i >= len(mp.bs) {
		return bad("'}'")
	}
	mp.i++
	return MatchElem{Kind: MatchBind, Type: typ, Var: name, P: mp.lx.pos(start)}, true
}

// formatMatch returns the text of a match expression before string quoting.
func formatMatch(elems []MatchElem, inOpt bool) string {
	var b strings.Builder
	for _, e := range elems {
		switch e.Kind {
		case MatchText:
			writeMatchText(&b, e.Text, inOpt)
		case MatchHole:
			b.WriteString("<" + e.Type + ">")
		case MatchBind:
			b.WriteString("{<" + e.Type + "> " + e.Var + "}")
		case MatchOptional:
			b.WriteString("[" + formatMatch(e.Opt, true) + "]")
		}
	}
	return b.String()
}

func writeMatchText(b *strings.Builder, s string, inOpt bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '{' || c == '[' || c == '\\' || c == ']' && inOpt:
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '<':
			// escape '<' where it would start a nonterminal
			j := i + 1
			for j < len(s) && isMatchNameChar(s[j]) {
				j++
			}
			if j > i+1 && j < len(s) && s[j] == '>' {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
}

// quoteMatchBytes quotes the bytes s as an ISLa string literal that parses
// back to the same bytes: quoteBytes, with the bytes of characters that are
// not printable escaped one by one.
func quoteMatchBytes(s string) string { return smtlib.Quote(s, true) }
