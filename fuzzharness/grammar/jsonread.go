package grammar

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// ParseJSON parses a grammar in the JSON form of the Fuzzing Book, ISLa and
// STALAGMITE: an object that maps each nonterminal "<name>" to an array of
// expansions, such as
//
//	{"<start>": ["<expr>"], "<expr>": ["<expr> + <term>", "<term>"], ...}
//
// An expansion is a string, or an array [string, options] whose options are
// ignored. In an expansion, every substring <name> (a '<', one or more
// characters other than '<', '>' and white space, and a '>') refers to a
// nonterminal, and all other text is literal: "<<id>>" is the literal "<",
// a reference to <id>, and the literal ">". Unlike the Fuzzing Book, "<>"
// is literal text, not a nonterminal with an empty name.
//
// The rules keep the order of the keys. The start symbol is "start" if that
// key exists, and otherwise the first key. An expansion with several parts
// becomes a Seq of Lit and Ref (adjacent literal text is one Lit), an empty
// expansion the empty Lit, and a rule with several expansions an Alt.
//
// On failure, ParseJSON returns a nil grammar and an ErrorList with
// line:col positions.
func ParseJSON(filename string, data []byte) (*Grammar, error) {
	p := &jsonParser{file: filename, data: data}
	if bytes.HasPrefix(data, []byte("\uFEFF")) {
		p.base = 3
	}
	p.dec = json.NewDecoder(bytes.NewReader(data[p.base:]))
	p.dec.UseNumber()
	g := p.parse()
	p.errs.Sort()
	if err := p.errs.Err(); err != nil {
		return nil, err
	}
	return g, nil
}

type jsonParser struct {
	file       string
	data       []byte
	base       int // bytes skipped before the decoder's input (a BOM)
	dec        *json.Decoder
	lineStarts []int
	errs       ErrorList
}

// pos converts an offset in data to a position.
func (p *jsonParser) pos(off int) Pos {
	if p.lineStarts == nil {
		p.lineStarts = []int{0}
		for i, c := range p.data {
			if c == '\n' {
				p.lineStarts = append(p.lineStarts, i+1)
			}
		}
	}
	lo, hi := 0, len(p.lineStarts)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if p.lineStarts[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return Pos{File: p.file, Offset: off, Line: lo + 1, Col: off - p.lineStarts[lo] + 1}
}

// errSyntax marks a JSON syntax error, after which parsing stops.
var errSyntax = errors.New("JSON syntax error")

// token returns the next token and the offset in data where it starts.
func (p *jsonParser) token() (json.Token, int, error) {
	off := p.base + int(p.dec.InputOffset())
	for off < len(p.data) && strings.IndexByte(" \t\r\n,:", p.data[off]) >= 0 {
		off++
	}
	t, err := p.dec.Token()
	if err != nil {
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			p.errs.Add(p.pos(min(p.base+int(se.Offset), len(p.data))), "invalid JSON: "+se.Error())
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			p.errs.Add(p.pos(len(p.data)), "invalid JSON: unexpected end of input")
		default:
			p.errs.Add(p.pos(off), "invalid JSON: "+err.Error())
		}
		return nil, off, errSyntax
	}
	return t, off, nil
}

// describeJSON describes a token for an error message.
func describeJSON(t json.Token) string {
	switch t := t.(type) {
	case json.Delim:
		return "'" + t.String() + "'"
	case string:
		return "string " + shortText(strconv.Quote(t))
	case json.Number:
		return "number " + shortText(t.String())
	case bool:
		return strconv.FormatBool(t)
	case nil:
		return "null"
	}
	return fmt.Sprint(t)
}

// skip skips the rest of a value whose first token was t.
func (p *jsonParser) skip(t json.Token) error {
	depth := 0
	for {
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
		var err error
		if t, _, err = p.token(); err != nil {
			return err
		}
	}
}

func (p *jsonParser) parse() *Grammar {
	t, off, err := p.token()
	if err != nil {
		return nil
	}
	if t != json.Delim('{') {
		p.errs.Add(p.pos(off), fmt.Sprintf(`expected a JSON object such as {"<start>": ["..."]}, found %s`, describeJSON(t)))
		return nil
	}
	g := &Grammar{}
	defined := make(map[string]Pos)
	for p.dec.More() {
		t, off, err := p.token()
		if err != nil {
			return nil
		}
		key, _ := t.(string) // object keys are always strings
		end := p.base + int(p.dec.InputOffset())
		at := p.stringOffsets(key, off, end)
		r := &Rule{Pos: p.pos(at(0))}
		name, ok := refName(key)
		if !ok {
			p.errs.Add(p.pos(off), fmt.Sprintf(`expected a nonterminal key such as "<name>", found %s`, describeJSON(key)))
			if t, _, err := p.token(); err != nil || p.skip(t) != nil {
				return nil
			}
			continue
		}
		r.Name = name
		x, ok := p.expansions(r.Name)
		if !ok {
			return nil
		}
		if x == nil {
			continue
		}
		r.Expr = x
		if first, dup := defined[r.Name]; dup {
			p.errs.Add(r.Pos, fmt.Sprintf("duplicate definition of <%s>: first defined at %s", r.Name, first))
			continue
		}
		defined[r.Name] = r.Pos
		g.Rules = append(g.Rules, r)
	}
	if _, _, err := p.token(); err != nil { // the closing '}'
		return nil
	}
	rest := p.base + int(p.dec.InputOffset())
	for rest < len(p.data) && isBNFSpace(p.data[rest]) {
		rest++
	}
	if rest < len(p.data) {
		p.errs.Add(p.pos(rest), fmt.Sprintf("expected end of input after the JSON object, found %s", shortText(string(p.data[rest:min(rest+10, len(p.data))]))))
		return nil
	}
	if len(g.Rules) == 0 && len(p.errs) == 0 {
		p.errs.Add(p.pos(off), "expected at least one rule in the JSON object")
	}
	g.Start = defaultStart(g)
	return g
}

// expansions parses the array of expansions of the rule name. It returns
// ok == false after a syntax error, and a nil expression after other errors.
func (p *jsonParser) expansions(name string) (x Expr, ok bool) {
	t, off, err := p.token()
	if err != nil {
		return nil, false
	}
	if t != json.Delim('[') {
		p.errs.Add(p.pos(off), fmt.Sprintf("expected an array of expansions for <%s>, found %s", name, describeJSON(t)))
		return nil, p.skip(t) == nil
	}
	var alts []Expr
	bad := false
	for p.dec.More() {
		t, off, err := p.token()
		if err != nil {
			return nil, false
		}
		if t == json.Delim('[') { // [expansion, options]
			x, ok := p.expansionWithOptions(off)
			if !ok {
				return nil, false
			}
			if x == nil {
				bad = true
			}
			alts = append(alts, x)
			continue
		}
		s, isString := t.(string)
		if !isString {
			p.errs.Add(p.pos(off), fmt.Sprintf("expected an expansion string or [expansion, options], found %s", describeJSON(t)))
			if p.skip(t) != nil {
				return nil, false
			}
			bad = true
			continue
		}
		alts = append(alts, p.expansion(s, off))
	}
	if _, _, err := p.token(); err != nil { // the closing ']'
		return nil, false
	}
	switch {
	case bad:
		return nil, true
	case len(alts) == 0:
		p.errs.Add(p.pos(off), fmt.Sprintf("expected at least one expansion for <%s>", name))
		return nil, true
	case len(alts) == 1:
		return alts[0], true
	}
	return &Alt{X: alts, P: alts[0].Position()}, true
}

// expansionWithOptions parses the rest of an [expansion, options] array
// that starts at off.
func (p *jsonParser) expansionWithOptions(off int) (Expr, bool) {
	t, soff, err := p.token()
	if err != nil {
		return nil, false
	}
	s, isString := t.(string)
	var x Expr
	if isString {
		x = p.expansion(s, soff)
	} else if t == json.Delim(']') {
		p.errs.Add(p.pos(off), "expected [expansion, options], found an empty array")
		return nil, true
	} else if p.skip(t) != nil {
		return nil, false
	}
	n := 1
	for p.dec.More() {
		t, _, err := p.token()
		if err != nil || p.skip(t) != nil {
			return nil, false
		}
		n++
	}
	if _, _, err := p.token(); err != nil {
		return nil, false
	}
	if !isString || n > 2 {
		p.errs.Add(p.pos(off), "expected [expansion, options] with an expansion string and at most one options value")
		return nil, true
	}
	return x, true
}

// expansion splits the expansion s, whose JSON string starts at off, into
// literal text and references.
func (p *jsonParser) expansion(s string, off int) Expr {
	at := p.stringOffsets(s, off, p.base+int(p.dec.InputOffset()))
	var parts []Expr
	lit := -1 // start of the pending literal text, or -1
	flush := func(end int) {
		if lit >= 0 {
			parts = append(parts, &Lit{S: s[lit:end], P: p.pos(at(lit))})
			lit = -1
		}
	}
	for i := 0; i < len(s); {
		if s[i] == '<' {
			if n := refLen(s[i:]); n > 0 {
				flush(i)
				parts = append(parts, &Ref{Name: s[i+1 : i+n-1], P: p.pos(at(i))})
				i += n
				continue
			}
		}
		if lit < 0 {
			lit = i
		}
		i++
	}
	flush(len(s))
	switch len(parts) {
	case 0:
		return &Lit{S: "", P: p.pos(off)}
	case 1:
		return parts[0]
	}
	return &Seq{X: parts, P: parts[0].Position()}
}

// refLen returns the length of the nonterminal reference <name> at the start
// of s, or 0 if s does not start with one.
func refLen(s string) int {
	if s == "" || s[0] != '<' {
		return 0
	}
	for i, r := range s {
		if i == 0 {
			continue
		}
		if r == '>' {
			if i == 1 {
				return 0
			}
			return i + 1
		}
		if r == '<' || unicode.IsSpace(r) {
			return 0
		}
	}
	return 0
}

// refName returns the name of s if s is exactly one reference <name>.
func refName(s string) (string, bool) {
	if n := refLen(s); n > 0 && n == len(s) {
		return s[1 : n-1], true
	}
	return "", false
}

// stringOffsets returns a function mapping a byte index in the decoded
// string s to its offset in data, where its JSON literal spans
// data[start:end]. If the literal cannot be matched up with s, every index
// maps to start.
func (p *jsonParser) stringOffsets(s string, start, end int) func(int) int {
	fallback := func(int) int { return start }
	if start < 0 || end > len(p.data) || start+2 > end || p.data[start] != '"' {
		return fallback
	}
	raw := p.data[start+1 : end-1]
	offs := make([]int, 0, len(s))
	var dec []byte
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				dec = utf8.AppendRune(dec, utf8.RuneError)
			} else {
				dec = append(dec, raw[i:i+size]...)
			}
			for len(offs) < len(dec) {
				offs = append(offs, start+1+i)
			}
			i += size
			continue
		}
		if i+1 >= len(raw) {
			return fallback
		}
		n := 2
		var r rune
		switch raw[i+1] {
		case 'b':
			r = '\b'
		case 'f':
			r = '\f'
		case 'n':
			r = '\n'
		case 'r':
			r = '\r'
		case 't':
			r = '\t'
		case 'u':
			v, ok := jsonHex4(raw[i+2:])
			if !ok {
				return fallback
			}
			r, n = rune(v), 6
			if utf16.IsSurrogate(r) {
				if i+12 <= len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
					w, _ := jsonHex4(raw[i+8:])
					if d := utf16.DecodeRune(r, rune(w)); d != utf8.RuneError {
						r, n = d, 12
						break
					}
				}
				r = utf8.RuneError
			}
		default:
			r = rune(raw[i+1])
		}
		dec = utf8.AppendRune(dec, r)
		for len(offs) < len(dec) {
			offs = append(offs, start+1+i)
		}
		i += n
	}
	if string(dec) != s {
		return fallback
	}
	return func(i int) int {
		if i < len(offs) {
			return offs[i]
		}
		return end - 1
	}
}

func jsonHex4(b []byte) (int, bool) {
	if len(b) < 4 {
		return 0, false
	}
	v := 0
	for _, c := range b[:4] {
		d := digitValue(c)
		if d >= 16 {
			return 0, false
		}
		v = v*16 + d
	}
	return v, true
}
