package grammar

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Load reads a grammar file, in the notation or in the JSON form (see
// ParseAny).
func Load(path string) (*Grammar, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseAny(path, data)
}

// ParseAny parses src with ParseJSON if its first character other than
// white space is '{', and with Parse otherwise.
func ParseAny(filename string, src []byte) (*Grammar, error) {
	s := bytes.TrimPrefix(src, []byte("\uFEFF"))
	s = bytes.TrimLeft(s, " \t\r\n\f\v")
	if len(s) > 0 && s[0] == '{' {
		return ParseJSON(filename, src)
	}
	return Parse(filename, src)
}

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

// maxJSONClass is the largest class JSON lists as single characters.
const maxJSONClass = 1024

// JSON returns g in the JSON form that ParseJSON reads (and the Fuzzing
// Book and ISLa use): one key per rule, in order, each mapped to its
// expansions.
//
// Constructs the JSON form lacks are expanded into fresh helper
// nonterminals, named after their rule with a numeric suffix (<expr-1>,
// <expr-2>, ...) and listed right after it. Alternatives of alternatives
// are flattened into one list, and an alternation inside a concatenation
// becomes a helper with one expansion per alternative. A character class
// becomes a helper (or, as a whole rule body, the rule itself) with one
// expansion per character. X* becomes <h> with the expansions "" and "X<h>";
// X+ and X{n,} become <h> with "X" (n times) and "X<h>"; X?, X{n} and X{n,m}
// become a helper that lists the allowed counts, or for more than 8 of them
// chains optional helpers. Literal text that ParseJSON would read as a
// reference, such as the "<b>" of an HTML grammar, has its '<' replaced by
// a reference to a helper <lt> that expands to "<". (Readers that follow
// the Fuzzing Book's pattern <[^<> ]*> also take "<>" and "<a\tb>" for
// references; ParseJSON does not.)
//
// The start rule is moved to the front unless it is named "start". JSON
// fails for what the form cannot hold: literals that are not valid UTF-8,
// byte classes with bytes above 0x7F, classes of more than 1024 characters,
// malformed quantifiers and nonterminal names, a grammar with a rule
// <start> that is not its start symbol, and expansions that would exceed
// about a million rules and parts in all. For a grammar returned by
// ParseJSON, ParseJSON(g.JSON()) is Equal to g.
func (g *Grammar) JSON() ([]byte, error) {
	x := &jsonExporter{names: make(map[string]bool), next: make(map[string]int)}
	defined := make(map[string]Pos)
	for _, r := range g.Rules {
		if r == nil || !validRuleName(r.Name) {
			var pos Pos
			name := ""
			if r != nil {
				pos, name = r.Pos, r.Name
			}
			x.errs.Add(pos, fmt.Sprintf("invalid nonterminal name %q: expected a non-empty name without '<', '>' or white space", name))
			return nil, x.errs
		}
		if first, dup := defined[r.Name]; dup {
			x.errs.Add(r.Pos, fmt.Sprintf("duplicate definition of <%s>: first defined at %s", r.Name, first))
			return nil, x.errs
		}
		defined[r.Name] = r.Pos
		x.names[r.Name] = true
	}
	rules := g.Rules
	if g.Start != "start" {
		if x.names["start"] {
			return nil, fmt.Errorf("grammar: cannot write JSON: the start symbol is <%s>, but a rule <start> exists, which the JSON form would take as the start", g.Start)
		}
		if i := startRuleIndex(rules, g.Start); i > 0 {
			rules = append([]*Rule{rules[i]}, append(append([]*Rule(nil), rules[:i]...), rules[i+1:]...)...)
		}
	}
	for _, r := range rules {
		x.rule(r.Name, r.Name, r.Expr)
	}
	if x.lt != "" {
		x.out = append(x.out, jsonRule{name: x.lt, exps: []string{"<"}})
	}
	if err := x.errs.Err(); err != nil {
		x.errs.Sort()
		return nil, x.errs
	}
	return x.format(), nil
}

func startRuleIndex(rules []*Rule, name string) int {
	for i, r := range rules {
		if r.Name == name {
			return i
		}
	}
	return -1
}

type jsonRule struct {
	name string
	exps []string
}

// A jsonPart is a piece of an expansion: literal text, or a reference if
// ref is set.
type jsonPart struct {
	text string
	ref  bool
}

type jsonExporter struct {
	names map[string]bool // all nonterminal names in use
	next  map[string]int  // the next helper number per rule name
	out   []jsonRule
	lt    string // the helper for a literal '<', once needed
	errs  ErrorList

	size   int  // rules and expansion parts produced so far
	tooBig bool // size exceeded maxJSONSize
}

// maxJSONSize bounds the rules and expansion parts JSON produces, which
// nested repetitions could otherwise multiply beyond any memory.
const maxJSONSize = 1 << 20

// grow accounts for n more rules or parts produced at pos and reports
// whether they fit.
func (x *jsonExporter) grow(n int, pos Pos) bool {
	if x.tooBig {
		return false
	}
	x.size += n
	if n < 0 || n > maxJSONSize || x.size > maxJSONSize {
		x.tooBig = true
		x.errs.Add(pos, fmt.Sprintf("grammar too large for the JSON form: expected at most %d rules and expansion parts in all", maxJSONSize))
		return false
	}
	return true
}

// fresh returns a new helper name derived from base.
func (x *jsonExporter) fresh(base string) string {
	for {
		x.next[base]++
		name := base + "-" + strconv.Itoa(x.next[base])
		if !x.names[name] {
			x.names[name] = true
			return name
		}
	}
}

// rule adds the rule name with the expansions of e, followed by the helpers
// it needs, which are named after base.
func (x *jsonExporter) rule(name, base string, e Expr) {
	var pos Pos
	if e != nil {
		pos = e.Position()
	}
	if !x.grow(1, pos) {
		return
	}
	i := len(x.out)
	x.out = append(x.out, jsonRule{name: name})
	var exps []string
	if r, ok := e.(*Repeat); ok {
		exps = x.repeat(name, base, r)
	} else {
		exps = x.alternatives(base, e)
	}
	x.out[i].exps = exps
}

// alternatives returns the expansions of e as the body of a rule.
func (x *jsonExporter) alternatives(base string, e Expr) []string {
	switch e := e.(type) {
	case *Alt:
		if len(e.X) == 0 {
			x.errs.Add(e.P, "empty alternation: expected at least one alternative")
		}
		var exps []string
		for _, a := range e.X {
			exps = append(exps, x.alternatives(base, a)...)
		}
		return exps
	case *Class:
		var exps []string
		for _, c := range x.classChars(e) {
			exps = append(exps, x.render([]jsonPart{{text: c}}))
		}
		return exps
	}
	return []string{x.render(x.parts(base, e))}
}

// parts returns the parts of e as one expansion, creating helpers for the
// constructs an expansion cannot hold.
func (x *jsonExporter) parts(base string, e Expr) []jsonPart {
	switch e := e.(type) {
	case *Seq:
		var ps []jsonPart
		for _, s := range e.X {
			ps = append(ps, x.parts(base, s)...)
		}
		return ps
	case *Lit:
		if !utf8.ValidString(e.S) {
			x.errs.Add(e.P, fmt.Sprintf("literal %s is not valid UTF-8, which the JSON form cannot hold", shortText(strconv.Quote(e.S))))
		}
		return []jsonPart{{text: e.S}}
	case *Ref:
		return []jsonPart{{text: e.Name, ref: true}}
	case *Alt, *Class, *Repeat:
		h := x.fresh(base)
		x.rule(h, base, e)
		return []jsonPart{{text: h, ref: true}}
	case nil:
		x.errs.Add(Pos{}, "missing expression (nil)")
		return nil
	}
	x.errs.Add(e.Position(), fmt.Sprintf("unknown expression type %T", e))
	return nil
}

// repeat returns the expansions of the rule self whose body is the
// repetition e.
func (x *jsonExporter) repeat(self, base string, e *Repeat) []string {
	switch {
	case e.Min < 0 || e.Max < Unbounded || e.Min > maxRepeatCount || e.Max > maxRepeatCount ||
		e.Max != Unbounded && e.Min > e.Max:
		x.errs.Add(e.P, fmt.Sprintf("invalid repetition %s", quantifierString(e.Min, e.Max)))
		return nil
	}
	px := x.parts(base, e.X)
	times := func(n int, tail ...jsonPart) []jsonPart {
		if !x.grow(n*len(px)+len(tail), e.P) {
			return nil
		}
		ps := make([]jsonPart, 0, n*len(px)+len(tail))
		for range n {
			ps = append(ps, px...)
		}
		return append(ps, tail...)
	}
	if e.Max == Unbounded {
		// H ::= X{min} | X H
		return []string{x.render(times(e.Min)), x.render(times(1, jsonPart{text: self, ref: true}))}
	}
	const maxListed = 8
	if e.Max-e.Min < maxListed {
		var exps []string
		for n := e.Min; n <= e.Max; n++ {
			exps = append(exps, x.render(times(n)))
		}
		return exps
	}
	// H ::= X{min} O1; Ok ::= "" | X Ok+1; the last O ::= "" | X.
	opt := x.fresh(base)
	exps := []string{x.render(times(e.Min, jsonPart{text: opt, ref: true}))}
	for k := e.Min + 1; k <= e.Max && x.grow(1, e.P); k++ {
		tail := []jsonPart(nil)
		var nextOpt string
		if k < e.Max {
			nextOpt = x.fresh(base)
			tail = []jsonPart{{text: nextOpt, ref: true}}
		}
		x.out = append(x.out, jsonRule{name: opt, exps: []string{"", x.render(times(1, tail...))}})
		opt = nextOpt
	}
	return exps
}

// classChars lists the characters of a class as literal texts.
func (x *jsonExporter) classChars(c *Class) []string {
	set := c.Set()
	n := 0
	for _, r := range set {
		n += int(r.Hi-r.Lo) + 1
		if c.Bytes && r.Hi > 0x7F {
			x.errs.Add(c.P, fmt.Sprintf("byte class %s has bytes above 0x7F, which the JSON form cannot hold", ExprString(c)))
			return nil
		}
	}
	if n > maxJSONClass {
		x.errs.Add(c.P, fmt.Sprintf("class %s has %d characters: expected at most %d to list in the JSON form", ExprString(c), n, maxJSONClass))
		return nil
	}
	if n == 0 {
		x.errs.Add(c.P, fmt.Sprintf("class %s matches no character", ExprString(c)))
		return nil
	}
	chars := make([]string, 0, n)
	for _, r := range set {
		for ch := r.Lo; ch <= r.Hi; ch++ {
			chars = append(chars, string(ch))
		}
	}
	return chars
}

// render joins parts into an expansion string. In literal text, a '<' that
// ParseJSON would read as the start of a reference is replaced by a
// reference to the <lt> helper.
func (x *jsonExporter) render(parts []jsonPart) string {
	var b strings.Builder
	for i := 0; i < len(parts); {
		if parts[i].ref {
			b.WriteString("<" + parts[i].text + ">")
			i++
			continue
		}
		var text strings.Builder
		for ; i < len(parts) && !parts[i].ref; i++ {
			text.WriteString(parts[i].text)
		}
		s := text.String()
		for j := 0; j < len(s); j++ {
			if s[j] == '<' && refLen(s[j:]) > 0 {
				if x.lt == "" {
					x.lt = "lt"
					if x.names["lt"] {
						x.lt = x.fresh("lt")
					}
					x.names[x.lt] = true
				}
				b.WriteString("<" + x.lt + ">")
				continue
			}
			b.WriteByte(s[j])
		}
	}
	return b.String()
}

// format writes the rules as a JSON object, one key per line; expansions
// go on one line when they fit, else one per line.
func (x *jsonExporter) format() []byte {
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, r := range x.out {
		key := jsonString("<" + r.name + ">")
		exps := make([]string, len(r.exps))
		width := len(key) + 6
		for j, e := range r.exps {
			exps[j] = jsonString(e)
			width += len(exps[j]) + 2
		}
		b.WriteString("  " + key + ": [")
		if width <= notationWidth {
			b.WriteString(strings.Join(exps, ", "))
		} else {
			b.WriteString("\n    ")
			b.WriteString(strings.Join(exps, ",\n    "))
			b.WriteString("\n  ")
		}
		b.WriteByte(']')
		if i < len(x.out)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// jsonString quotes s as a JSON string, leaving '<', '>' and '&' readable.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return `""` // unreachable: every Go string encodes
	}
	return strings.TrimSuffix(b.String(), "\n")
}
