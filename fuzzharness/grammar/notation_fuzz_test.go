package grammar

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// addNotationSeeds adds the files matching pattern as seeds.
func addNotationSeeds(f *testing.F, pattern string) {
	files, err := filepath.Glob(pattern)
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// checkNotationErrorPositions checks that err is a non-empty ErrorList whose
// positions are valid and agree with their offsets in src.
func checkNotationErrorPositions(t *testing.T, src []byte, err error) {
	t.Helper()
	var list ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		t.Fatalf("error %v (%T) is not a non-empty ErrorList", err, err)
	}
	for _, e := range list {
		p := e.Pos
		if !p.IsValid() || p.Col < 1 || p.Offset < 0 || p.Offset > len(src) {
			t.Fatalf("invalid position %+v in %q", p, e)
		}
		line := 1 + bytes.Count(src[:p.Offset], []byte("\n"))
		lineStart := bytes.LastIndexByte(src[:p.Offset], '\n') + 1
		if line == 1 && bytes.HasPrefix(src, []byte("\uFEFF")) && p.Col != p.Offset+1 {
			lineStart = 3 // the notation's scanner counts columns after a BOM
		}
		if p.Line != line || p.Col != p.Offset-lineStart+1 {
			t.Fatalf("position %+v disagrees with offset %d (line %d, col %d): %s", p, p.Offset, line, p.Offset-lineStart+1, e)
		}
	}
}

func FuzzParse(f *testing.F) {
	addNotationSeeds(f, "testdata/*.bnf")
	addNotationSeeds(f, "builtin/*.bnf")
	for _, s := range []string{
		`<a> ::= "x"{2,3} [^\x00-\x1f\xff] ("y" | "z")* ;`,
		`<a> ::= <b> | "" <b> ::= [\u00e9-\U0001F600]+`,
		"<a> ::= `raw\r\nstring` \"\\x00\\377\\u00e9\" ;",
		`<a> ::= ((("x")?)*)+ {,3} ;`,
		`<a> ::= "\q" [z-a] <b c> ; <a> ::= ;`,
		"\uFEFF<a> := \"x\" # comment\n// comment",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		g, err := Parse("fuzz.bnf", src)
		if err != nil {
			if g != nil {
				t.Fatal("a grammar and an error")
			}
			checkNotationErrorPositions(t, src, err)
			return
		}
		problems := g.Problems()
		text := g.String()
		h, err := Parse("printed.bnf", []byte(text))
		if err != nil {
			t.Fatalf("printed grammar does not parse: %v\n%s", err, text)
		}
		if !Equal(g, h) {
			t.Fatalf("printed grammar parses differently:\n%s\nthen\n%s", text, h)
		}
		if again := h.String(); again != text {
			t.Fatalf("printing is not stable:\n%s\nthen\n%s", text, again)
		}
		data, err := g.JSON()
		if err != nil {
			return // the grammar has what JSON cannot hold
		}
		j, err := ParseJSON("exported.json", data)
		if err != nil {
			t.Fatalf("exported JSON does not parse: %v\n%s", err, data)
		}
		hasError := false
		for _, p := range problems {
			hasError = hasError || p.Kind.IsError()
		}
		if !hasError {
			if err := j.Check(); err != nil {
				t.Fatalf("exported JSON has errors: %v\n%s\n%s", err, text, data)
			}
		}
	})
}

func FuzzParseJSON(f *testing.F) {
	addNotationSeeds(f, "testdata/*.json")
	addNotationSeeds(f, "testdata/forms/*/*.json")
	for _, s := range []string{
		`{"<s>": [["<a>", "<b>"], [], ["<a>", {"w": 1}], ["x<a>"], ["a", {}, "b"], [{}, "a"], ["a", ["b"]]], "<a>": ["a"], "<b>": [["b", "", "c"]]}`,
		`{"<start>": ["<a> and <b>", ["<<a>>", {"prob": 0.5}]], "<a>": ["", "x"], "<b>": ["<>", "<a b>"]}`,
		`{"<a>": ["\u00e9\ud83d\ude00\u0000<a>\n"], "<b>": [1], "c": []}`,
		`{"<a>": [["x"], ["y", {}, 1]], "<a>": []}`,
		"\uFEFF {\"<a>\": [\"x\"]} x",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ParseJSON("fuzz.json", data)
		if err != nil {
			if g != nil {
				t.Fatal("a grammar and an error")
			}
			checkNotationErrorPositions(t, data, err)
			return
		}
		g.Problems()
		text := g.String()
		h, err := Parse("printed.bnf", []byte(text))
		if err != nil {
			t.Fatalf("printed grammar does not parse: %v\n%s", err, text)
		}
		if !Equal(g, h) {
			t.Fatalf("printed grammar parses differently:\n%s\nthen\n%s", text, h)
		}
		out, err := g.JSON()
		if err != nil {
			t.Fatalf("JSON: %v", err)
		}
		j, err := ParseJSON("exported.json", out)
		if err != nil {
			t.Fatalf("exported JSON does not parse: %v\n%s", err, out)
		}
		if !Equal(g, j) {
			t.Fatalf("exported JSON parses differently:\n%s\n%s", text, out)
		}
		// The same grammar as lists of symbols reads the same.
		lists := symbolListJSON(t, g)
		k, err := ParseJSON("lists.json", lists)
		if err != nil {
			t.Fatalf("the grammar as lists of symbols does not parse: %v\n%s", err, lists)
		}
		if !Equal(g, k) {
			t.Fatalf("the grammar as lists of symbols parses differently:\n%s\n%s", text, lists)
		}
	})
}

// symbolListJSON writes a grammar that ParseJSON returned in the JSON form
// with every alternative a list of symbols.
func symbolListJSON(t *testing.T, g *Grammar) []byte {
	var b bytes.Buffer
	b.WriteString("{")
	for i, r := range g.Rules {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(jsonString("<"+r.Name+">") + ": [")
		alts := []Expr{r.Expr}
		if a, ok := r.Expr.(*Alt); ok {
			alts = a.X
		}
		for j, x := range alts {
			parts := []Expr{x}
			if s, ok := x.(*Seq); ok {
				parts = s.X
			}
			var syms []string
			for _, p := range parts {
				switch p := p.(type) {
				case *Lit:
					if p.S != "" {
						syms = append(syms, jsonString(p.S))
					}
				case *Ref:
					syms = append(syms, jsonString("<"+p.Name+">"))
				default:
					t.Fatalf("ParseJSON returned %T", p)
				}
			}
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("[" + strings.Join(syms, ", ") + "]")
		}
		b.WriteString("]")
	}
	b.WriteString("}")
	return b.Bytes()
}
