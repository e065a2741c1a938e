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
// grammar miners such as STALAGMITE: an object that maps each nonterminal
// "<name>" to an array of alternatives, such as
//
//	{"<start>": ["<expr>"], "<expr>": ["<expr> + <term>", "<term>"], ...}
//
// Each alternative is read by its JSON type, in one of three forms, which
// may be mixed in a grammar and even in a rule:
//
//   - A string is an expansion (the Fuzzing Book and ISLa): every substring
//     <name> (a '<', one or more characters other than '<', '>' and white
//     space, and a '>') refers to a nonterminal, and all other text is
//     literal. "<<id>>" is the literal "<", a reference to <id>, and the
//     literal ">". Unlike the Fuzzing Book, "<>" is literal text, not a
//     nonterminal with an empty name.
//   - An array whose second element is an object is [expansion, options]
//     (the Fuzzing Book's expansions with options, such as probabilities):
//     the first element is an expansion string, read as above, and the
//     options are ignored. It has exactly these two elements.
//   - Any other array is a list of symbols (the Fuzzing Book's canonical
//     form, as grammar miners write it): ["<term>", " + ", "<expr>"]. A
//     string that is exactly "<name>" is a reference, and any other string
//     is literal text taken whole; [] is the empty alternative. A symbol
//     that holds a reference among other text, such as "x<a>", is an error:
//     it is an expansion string where a list of symbols was meant, or the
//     other way round.
//
// So ["<a>", "<b>"] is always two symbols, never <a> with options "<b>";
// an element of an array that is neither a string nor the options object
// is an error naming the accepted forms.
//
// The rules keep the order of the keys. The start symbol is "start" if that
// key exists, and otherwise the first key. An alternative with several parts
// becomes a Seq of Lit and Ref (adjacent literal text, also from adjacent
// literal symbols, is one Lit), an empty one the empty Lit, and a rule with
// several alternatives an Alt. The same grammar in any of the forms reads
// as Equal grammars.
//
// On failure, ParseJSON returns a nil grammar and an ErrorList with
// line:col positions.
func ParseJSON(filename string, data []byte) (*Grammar, error) {
	p := &jsonParser{file: filename, data: data}
	if bytes.HasPrefix(data, []byte("\uFEFF")) {
		p.base = 3
	}
	if json.Valid(data[p.base:]) {
		p.dec = &validTokens{data: data[p.base:]}
	} else {
		dec := json.NewDecoder(bytes.NewReader(data[p.base:]))
		dec.UseNumber()
		p.dec = dec
	}
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
	base       int        // bytes skipped before the decoder's input (a BOM)
	dec        jsonTokens // a json.Decoder, or validTokens for valid JSON
	lineStarts []int
	errs       ErrorList
	alloc      exprAlloc
	alts       []Expr // scratch: the alternatives of a rule
	parts      []Expr // scratch: the parts of an alternative
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
	defined := make(map[string]int32) // rule name -> index in g.Rules
	for p.dec.More() {
		t, off, err := p.token()
		if err != nil {
			return nil
		}
		key, _ := t.(string) // object keys are always strings
		end := p.base + int(p.dec.InputOffset())
		at := p.stringOffsets(key, off, end)
		r := p.alloc.rule(p.pos(at.at(0)))
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
			p.errs.Add(r.Pos, fmt.Sprintf("duplicate definition of <%s>: first defined at %s", r.Name, g.Rules[first].Pos))
			continue
		}
		defined[r.Name] = int32(len(g.Rules))
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
	alts := p.alts[:0]
	defer func() { p.alts = alts[:0] }()
	bad := false
	for p.dec.More() {
		t, off, err := p.token()
		if err != nil {
			return nil, false
		}
		if t == json.Delim('[') {
			x, ok := p.arrayAlternative(off)
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
			p.errs.Add(p.pos(off), "expected an alternative, found "+describeJSON(t)+": "+jsonForms)
			if p.skip(t) != nil {
				return nil, false
			}
			bad = true
			continue
		}
		alts = append(alts, p.expansion(s, off, p.base+int(p.dec.InputOffset())))
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
	return p.alloc.alt(alts, alts[0].Position()), true
}

// jsonForms names the forms of an alternative, for error messages.
const jsonForms = `expected an expansion string such as "<a> + <b>", a list of symbols such as ["<a>", "+", "<b>"] ([] for the empty alternative), or [expansion, options] with an options object`

// A jsonSymbol is a string element of an array alternative.
type jsonSymbol struct {
	s        string
	off, end int // the JSON literal spans data[off:end]
}

// arrayAlternative parses the rest of an alternative written as an array
// that starts at off: [] or a list of symbols, or [expansion, options]
// whose options are an object. It returns ok == false after a syntax error,
// and a nil expression after other errors.
func (p *jsonParser) arrayAlternative(off int) (x Expr, ok bool) {
	var syms []jsonSymbol
	options := false // the second element is an object
	bad := false
	for i := 0; p.dec.More(); i++ {
		t, eoff, err := p.token()
		if err != nil {
			return nil, false
		}
		if s, isString := t.(string); isString {
			syms = append(syms, jsonSymbol{s, eoff, p.base + int(p.dec.InputOffset())})
			if options && !bad {
				p.errs.Add(p.pos(eoff), "expected ']' after [expansion, options], found "+describeJSON(t))
				bad = true
			}
			continue
		}
		switch {
		case bad:
		case t == json.Delim('{') && i == 1 && len(syms) == 1:
			options = true
		case options:
			p.errs.Add(p.pos(eoff), "expected ']' after [expansion, options], found "+describeJSON(t))
			bad = true
		case t == json.Delim('{') && i == 1:
			p.errs.Add(p.pos(eoff), "expected an expansion string before the options object of [expansion, options]")
			bad = true
		default:
			p.errs.Add(p.pos(eoff), fmt.Sprintf("expected a symbol string in the list of symbols, found %s: %s", describeJSON(t), jsonForms))
			bad = true
		}
		if p.skip(t) != nil {
			return nil, false
		}
	}
	if _, _, err := p.token(); err != nil { // the closing ']'
		return nil, false
	}
	switch {
	case bad:
		return nil, true
	case options:
		return p.expansion(syms[0].s, syms[0].off, syms[0].end), true
	}
	return p.symbols(syms, off), true
}

// symbols returns the list of symbols syms, an array that starts at off,
// as an expression: a symbol that is exactly "<name>" is a reference, any
// other symbol literal text. Adjacent literal symbols become one Lit, and
// empty ones are dropped; an empty list is the empty Lit. A symbol that
// holds a reference among other text is ambiguous (an expansion string
// where a list of symbols was meant, or the other way round) and an error.
func (p *jsonParser) symbols(syms []jsonSymbol, off int) Expr {
	parts := p.parts[:0]
	var text []string // pending literal symbols
	textOff := 0
	flush := func() {
		if len(text) > 0 {
			parts = append(parts, p.alloc.lit(strings.Join(text, ""), p.pos(textOff+1)))
			text = text[:0]
		}
	}
	bad := false
	for _, sym := range syms {
		if name, ok := refName(sym.s); ok {
			flush()
			parts = append(parts, p.alloc.ref(name, p.pos(sym.off+1)))
			continue
		}
		if i := refIndex(sym.s); i >= 0 {
			at := p.stringOffsets(sym.s, sym.off, sym.end)
			n := refLen(sym.s[i:])
			p.errs.Add(p.pos(at.at(i)), fmt.Sprintf("symbol %s holds the reference %s among other text: in a list of symbols, write each reference as a symbol of its own, or write the whole alternative as the expansion string %s",
				shortText(strconv.Quote(sym.s)), sym.s[i:i+n], shortText(strconv.Quote(sym.s))))
			bad = true
			continue
		}
		if sym.s != "" {
			if len(text) == 0 {
				textOff = sym.off
			}
			text = append(text, sym.s)
		}
	}
	flush()
	p.parts = parts
	switch {
	case bad:
		return nil
	case len(parts) == 0:
		return p.alloc.lit("", p.pos(off))
	case len(parts) == 1:
		return parts[0]
	}
	return p.alloc.seq(parts, parts[0].Position())
}

// refIndex returns the index of the first reference <name> in s, or -1.
func refIndex(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '<' && refLen(s[i:]) > 0 {
			return i
		}
	}
	return -1
}

// expansion splits the expansion s, whose JSON string spans data[off:end],
// into literal text and references.
func (p *jsonParser) expansion(s string, off, end int) Expr {
	at := p.stringOffsets(s, off, end)
	parts := p.parts[:0]
	lit := -1 // start of the pending literal text, or -1
	for i := 0; i < len(s); {
		if s[i] == '<' {
			if n := refLen(s[i:]); n > 0 {
				if lit >= 0 {
					parts = append(parts, p.alloc.lit(s[lit:i], p.pos(at.at(lit))))
					lit = -1
				}
				parts = append(parts, p.alloc.ref(s[i+1:i+n-1], p.pos(at.at(i))))
				i += n
				continue
			}
		}
		if lit < 0 {
			lit = i
		}
		i++
	}
	if lit >= 0 {
		parts = append(parts, p.alloc.lit(s[lit:], p.pos(at.at(lit))))
	}
	p.parts = parts
	switch len(parts) {
	case 0:
		return p.alloc.lit("", p.pos(off))
	case 1:
		return parts[0]
	}
	return p.alloc.seq(parts, parts[0].Position())
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

// strOffsets maps a byte index in a decoded JSON string to the offset in
// the source of the character it comes from.
type strOffsets struct {
	start, end int   // the JSON literal spans data[start:end]
	offs       []int // per decoded byte, if the literal has escapes
	direct     bool  // no escapes: index i is at start+1+i
}

// at returns the source offset of byte i of the decoded string.
func (o *strOffsets) at(i int) int {
	switch {
	case o.direct:
		return o.start + 1 + min(i, o.end-o.start-2)
	case o.offs == nil:
		return o.start
	case i < len(o.offs):
		return o.offs[i]
	}
	return o.end - 1
}

// stringOffsets returns the map from byte indices in the decoded string s
// to offsets in data, where its JSON literal spans data[start:end]. If the
// literal cannot be matched up with s, every index maps to start.
func (p *jsonParser) stringOffsets(s string, start, end int) strOffsets {
	fallback := strOffsets{start: start, end: end}
	if start < 0 || end > len(p.data) || start+2 > end || p.data[start] != '"' {
		return fallback
	}
	raw := p.data[start+1 : end-1]
	if len(raw) == len(s) && bytes.IndexByte(raw, '\\') < 0 && string(raw) == s {
		// No escapes: the common case, without a table.
		return strOffsets{start: start, end: end, direct: true}
	}
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
	if string(dec) != s || len(offs) == 0 {
		return fallback
	}
	return strOffsets{start: start, end: end, offs: offs}
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
