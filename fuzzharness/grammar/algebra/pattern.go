package algebra

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// A Pattern is an evocative pattern: a nonterminal of the base grammar and a
// text in that nonterminal's language in which <x> stands for any derivation
// of the nonterminal x (a hole). "<member> is \"\":<element>" is a JSON member
// with an empty key and any value. As a term of an expression, a pattern P
// holds on an input if its derivation tree has at least one subtree that
// matches P: a node of P's nonterminal whose derivation is P's tree, except
// that below a hole anything may be derived.
type Pattern struct {
	Name        string // the name expressions refer to it by
	Nonterminal string // the characteristic nonterminal, without angle brackets
	Text        string // the pattern text as written, holes included

	root *ptree // the derivation of Text from Nonterminal's right-hand side
}

// String returns the pattern's definition, NAME=<nonterminal> is TEXT.
func (p *Pattern) String() string {
	return p.Name + "=<" + p.Nonterminal + "> is " + p.Text
}

// Outline returns the pattern's derivation tree in brackets, its
// nonterminals with their derivations in braces and holes as <x>:
// <member>{<ws>{} <string>{"\"" "\""} <ws>{} ":" <element>}.
func (p *Pattern) Outline() string {
	var b strings.Builder
	b.WriteString("<" + p.Nonterminal + ">{")
	p.root.outline(&b)
	b.WriteString("}")
	return b.String()
}

// holeMarker is the text a hole <x> is replaced with for parsing: 0xF8 is
// never part of UTF-8, so only a byte class could derive it.
func holeMarker(name string) string { return "\xf8" + name + "\xf8" }

// validPatternName reports whether s can name a pattern: a letter or '_',
// then letters, digits and '_'.
func validPatternName(s string) bool {
	if s == "" || isKeyword(s) {
		return false
	}
	for i, c := range s {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// ParsePattern parses text as a derivation of the base grammar's
// nonterminal with the Earley parser. In text, <x> is a hole if x is a
// nonterminal of the grammar (and literal text otherwise); \< is a literal
// '<' and \\ a literal '\'. It fails with the position of the first byte
// the nonterminal cannot derive, or, if the text has more than one
// derivation, with two of them: patterns must be unambiguous.
func (a *Algebra) ParsePattern(name, nonterminal, text string) (*Pattern, error) {
	return a.parsePattern(name, nonterminal, text, 0)
}

// parsePattern is ParsePattern for a text that starts at byte offset off of
// the line that error columns count in.
func (a *Algebra) parsePattern(name, nonterminal, text string, off int) (*Pattern, error) {
	if !validPatternName(name) {
		return nil, fmt.Errorf("algebra: bad pattern name %q: want a letter or '_' followed by letters, digits and '_', and not and, or, not", name)
	}
	if a.b.rhs[nonterminal] == nil {
		return nil, fmt.Errorf("algebra: pattern %s: <%s> is not a nonterminal of the grammar", name, nonterminal)
	}
	// Replace holes with markers, remembering where each input byte came
	// from.
	var in []byte
	var from []int // from[i]: the offset in text of in[i]
	holes := map[string]int{}
	for i := 0; i < len(text); {
		c := text[i]
		if c == '\\' && i+1 < len(text) && (text[i+1] == '<' || text[i+1] == '\\') {
			in, from = append(in, text[i+1]), append(from, i)
			i += 2
			continue
		}
		if c == '<' {
			if j := strings.IndexByte(text[i+1:], '>'); j > 0 {
				x := text[i+1 : i+1+j]
				if a.b.rhs[x] != nil {
					holes[x] = 0
					for _, m := range []byte(holeMarker(x)) {
						in, from = append(in, m), append(from, i)
					}
					i += j + 2
					continue
				}
			}
		}
		in, from = append(in, c), append(from, i)
		i++
	}
	from = append(from, len(text))
	gr, err := grammar.Compile(a.augment(holes), grammar.WithStart(nonterminal))
	if err != nil {
		return nil, fmt.Errorf("algebra: pattern %s: %v", name, err)
	}
	parser, err := grammar.NewParser(gr, grammar.MaxItems(1<<22))
	if err != nil {
		return nil, fmt.Errorf("algebra: pattern %s: %v", name, err)
	}
	f, err := parser.Parse(in)
	if err != nil {
		var se *grammar.SyntaxError
		if errors.As(err, &se) {
			col := off + from[se.Offset] + 1
			var exp []string
			for _, e := range se.Expected {
				if u, err := strconv.Unquote(e); err == nil && strings.HasPrefix(u, "\xf8") {
					e = "<" + strings.Trim(u, "\xf8") + ">"
				}
				exp = append(exp, e)
			}
			msg := "unexpected " + se.Found
			if se.Offset < len(in) && in[se.Offset] == 0xf8 {
				msg = "unexpected hole " + text[from[se.Offset]:from[se.Offset]+strings.IndexByte(text[from[se.Offset]:], '>')+1]
			}
			if len(exp) > 0 {
				msg += ", expected " + strings.Join(exp, " or ")
			}
			return nil, fmt.Errorf("algebra: pattern %s: 1:%d: <%s> cannot derive the text: %s", name, col, nonterminal, msg)
		}
		return nil, fmt.Errorf("algebra: pattern %s: %v", name, err)
	}
	p := &Pattern{Name: name, Nonterminal: nonterminal, Text: text}
	if f.Ambiguous() {
		trees := f.Trees(2)
		var shown []string
		for _, t := range trees {
			r, err := a.b.fromRHS(t, nonterminal, a.b.rhs[nonterminal], holes)
			if err != nil {
				return nil, err
			}
			p.root = r
			shown = append(shown, p.Outline())
		}
		if len(shown) < 2 {
			shown = append(shown, "(infinitely many more)")
		}
		return nil, fmt.Errorf("algebra: pattern %s is ambiguous: <%s> derives %q in more than one way, for example\n\t%s\n\t%s",
			name, nonterminal, text, shown[0], shown[1])
	}
	root, err := a.b.fromRHS(f.Tree(), nonterminal, a.b.rhs[nonterminal], holes)
	if err != nil {
		return nil, err
	}
	p.root = root
	return p, nil
}

// augment returns the base grammar with one more alternative, the hole
// marker, for each nonterminal in holes, and sets holes[x] to the index of
// that alternative.
func (a *Algebra) augment(holes map[string]int) *grammar.Grammar {
	g := &grammar.Grammar{Start: a.b.g.Start}
	for _, r := range a.b.g.Rules {
		if _, ok := holes[r.Name]; !ok {
			g.Rules = append(g.Rules, r)
			continue
		}
		var alts []grammar.Expr
		if x, ok := r.Expr.(*grammar.Alt); ok && len(x.X) > 1 {
			alts = slices.Clone(x.X)
		} else {
			alts = []grammar.Expr{r.Expr}
		}
		holes[r.Name] = len(alts)
		alts = append(alts, &grammar.Lit{S: holeMarker(r.Name)})
		g.Rules = append(g.Rules, &grammar.Rule{Name: r.Name, Expr: &grammar.Alt{X: alts}, Pos: r.Pos})
	}
	return g
}

// ParsePatternDef parses a pattern definition NAME=<nonterminal> is TEXT,
// as the -p flag of kfuzz specialize takes it; TEXT is everything after
// "is " (see ParsePattern). Errors give the column in def.
func (a *Algebra) ParsePatternDef(def string) (*Pattern, error) {
	eq := strings.IndexByte(def, '=')
	if eq < 0 {
		return nil, fmt.Errorf("algebra: 1:1: pattern definition %q: want NAME=<nonterminal> is TEXT", def)
	}
	name := strings.TrimSpace(def[:eq])
	if !validPatternName(name) {
		return nil, fmt.Errorf("algebra: 1:1: bad pattern name %q: want a letter or '_' followed by letters, digits and '_', and not and, or, not", name)
	}
	rest := def[eq+1:]
	off := eq + 1 + len(rest) - len(strings.TrimLeft(rest, " \t"))
	rest = strings.TrimLeft(rest, " \t")
	if !strings.HasPrefix(rest, "<") {
		return nil, fmt.Errorf("algebra: 1:%d: pattern %s: expected <nonterminal> after '='", off+1, name)
	}
	end := strings.IndexByte(rest, '>')
	if end < 0 {
		return nil, fmt.Errorf("algebra: 1:%d: pattern %s: missing '>' after the nonterminal", off+1, name)
	}
	nt := rest[1:end]
	after := rest[end+1:]
	if !strings.HasPrefix(after, " is ") && after != " is" {
		return nil, fmt.Errorf("algebra: 1:%d: pattern %s: expected \" is \" after <%s>", off+end+2, name, nt)
	}
	text := strings.TrimPrefix(strings.TrimPrefix(after, " is"), " ")
	return a.parsePattern(name, nt, text, len(def)-len(text))
}
