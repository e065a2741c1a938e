package grammar

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

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
