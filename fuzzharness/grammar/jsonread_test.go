package grammar

import (
	"errors"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestJSONFuzzingBook(t *testing.T) {
	g, err := Load("testdata/arith.json")
	if err != nil {
		t.Fatal(err)
	}
	if g.Start != "start" || len(g.Rules) != 6 {
		t.Fatalf("start %q, %d rules", g.Start, len(g.Rules))
	}
	want := map[string]Expr{
		"start": xRef("expr"),
		"expr": xAlt(xSeq(xRef("term"), xLit(" + "), xRef("expr")),
			xSeq(xRef("term"), xLit(" - "), xRef("expr")), xRef("term")),
		"factor": xAlt(xSeq(xLit("+"), xRef("factor")), xSeq(xLit("-"), xRef("factor")),
			xSeq(xLit("("), xRef("expr"), xLit(")")), xSeq(xRef("integer"), xLit("."), xRef("integer")), xRef("integer")),
		"digit": xAlt(xLit("0"), xLit("1"), xLit("2"), xLit("3"), xLit("4"), xLit("5"), xLit("6"), xLit("7"), xLit("8"), xLit("9")),
	}
	for name, x := range want {
		if r := g.Rule(name); r == nil || !EqualExpr(r.Expr, x) {
			t.Errorf("<%s>: got %v, want %s", name, r, ExprString(x))
		}
	}
	if err := g.Check(); err != nil {
		t.Error(err)
	}
}

func TestJSONISLaXML(t *testing.T) {
	g, err := Load("testdata/xml.json")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Expr{
		// "<" and ">" around references are literal text.
		"xml-open-tag": xAlt(xSeq(xLit("<"), xRef("id"), xLit(" "), xRef("xml-attribute"), xLit(">")),
			xSeq(xLit("<"), xRef("id"), xLit(">"))),
		"xml-openclose-tag": xAlt(xSeq(xLit("<"), xRef("id"), xLit(" "), xRef("xml-attribute"), xLit("/>")),
			xSeq(xLit("<"), xRef("id"), xLit("/>"))),
		"xml-close-tag": xSeq(xLit("</"), xRef("id"), xLit(">")),
		// An [expansion, options] pair is its expansion.
		"xml-tree": xAlt(xSeq(xRef("xml-open-tag"), xRef("inner-xml-tree"), xRef("xml-close-tag")), xRef("xml-openclose-tag")),
		"xml-attribute": xAlt(xSeq(xRef("xml-attribute"), xLit(" "), xRef("xml-attribute")),
			xSeq(xRef("id"), xLit(`="`), xRef("text"), xLit(`"`))),
		"text-char": xAlt(xLit("a"), xLit("b"), xLit(" "), xLit("&lt;"), xLit("&gt;")),
	}
	for name, x := range want {
		if r := g.Rule(name); r == nil || !EqualExpr(r.Expr, x) {
			t.Errorf("<%s>: got %v, want %s", name, r, ExprString(x))
		}
	}
	if err := g.Check(); err != nil {
		t.Error(err)
	}
}

func TestJSONExpansions(t *testing.T) {
	tests := []struct {
		exp  string // a JSON string literal
		want Expr
	}{
		{`""`, xLit("")},
		{`"abc"`, xLit("abc")},
		{`"<a>"`, xRef("a")},
		{`"<a><b>"`, xSeq(xRef("a"), xRef("b"))},
		{`"x<a>y<b>z"`, xSeq(xLit("x"), xRef("a"), xLit("y"), xRef("b"), xLit("z"))},
		{`"<<a>>"`, xSeq(xLit("<"), xRef("a"), xLit(">"))},
		{`"<>"`, xLit("<>")},
		{`"<a b>"`, xLit("<a b>")},
		{`"<a\tb>"`, xLit("<a\tb>")},
		{`"<a\u00a0b>"`, xLit("<a\u00a0b>")},
		{`"a<b"`, xLit("a<b")},
		{`"a>b"`, xLit("a>b")},
		{`"<a<b>"`, xSeq(xLit("<a"), xRef("b"))},
		{`"<a>>"`, xSeq(xRef("a"), xLit(">"))},
		{`"<é-1.x>"`, xRef("é-1.x")},
		{`"\u003ca\u003e"`, xRef("a")},
		{`"\n<a>\u0000"`, xSeq(xLit("\n"), xRef("a"), xLit("\x00"))},
	}
	for _, tt := range tests {
		src := `{"<start>": [` + tt.exp + `]}`
		g, err := ParseJSON("", []byte(src))
		if err != nil {
			t.Errorf("%s: %v", tt.exp, err)
			continue
		}
		if !EqualExpr(g.Rules[0].Expr, tt.want) {
			t.Errorf("%s: got %s, want %s", tt.exp, ExprString(g.Rules[0].Expr), ExprString(tt.want))
		}
	}
}

func TestJSONPositions(t *testing.T) {
	src := "{\n  \"<start>\": [\"\\u00e9<a>\", [\"x <b>\", {\"weight\": 2}]],\n\t\"<a>\": [\"\"], \"<b>\": [\"b\"]\n}"
	g, err := ParseJSON("g.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, p Pos, want string) {
		t.Helper()
		if p.String() != want {
			t.Errorf("%s at %s, want %s", what, p, want)
		}
		if p.Offset < 0 || p.Offset >= len(src) {
			t.Errorf("%s: offset %d out of range", what, p.Offset)
		}
	}
	check("<start>", g.Rules[0].Pos, "g.json:2:4")
	check("<a>", g.Rules[1].Pos, "g.json:3:3")
	check("<b>", g.Rules[2].Pos, "g.json:3:16")
	alts := g.Rules[0].Expr.(*Alt).X
	first := alts[0].(*Seq)
	check("literal é", first.X[0].Position(), "g.json:2:16")
	check("reference <a> after an escape", first.X[1].Position(), "g.json:2:22")
	second := alts[1].(*Seq)
	check("literal x", second.X[0].Position(), "g.json:2:30")
	check("reference <b>", second.X[1].Position(), "g.json:2:32")
	check("empty expansion", g.Rules[1].Expr.Position(), "g.json:3:10")
}

func TestJSONStart(t *testing.T) {
	g, err := ParseJSON("", []byte(`{"<b>": ["<a>"], "<a>": ["x"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if g.Start != "b" {
		t.Errorf("start %q, want the first key", g.Start)
	}
	g, err = ParseJSON("", []byte(`{"<b>": ["<start>"], "<start>": ["x"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if g.Start != "start" {
		t.Errorf("start %q, want start", g.Start)
	}
}

func TestJSONErrors(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{``, []string{`f:1:1: invalid JSON: unexpected end of input`}},
		{`[]`, []string{`f:1:1: expected a JSON object such as {"<start>": ["..."]}, found '['`}},
		{`{}`, []string{`f:1:1: expected at least one rule in the JSON object`}},
		{`{"<a>": ["x"]`, []string{`f:1:14: invalid JSON: unexpected end of input`}},
		{`{"<a>": ["x"] "<b>": ["y"]}`, []string{`f:1:15: invalid JSON: invalid character '"' after object key:value pair`}},
		{`{"<a>": ["x"]} x`, []string{`f:1:16: expected end of input after the JSON object, found x`}},
		{`{"<a>": ["x"]} {}`, []string{`f:1:16: expected end of input after the JSON object, found {}`}},
		{"{\n\"a\": [\"x\"]}", []string{`f:2:1: expected a nonterminal key such as "<name>", found string "a"`}},
		{`{"<a b>": ["x"]}`, []string{`f:1:2: expected a nonterminal key such as "<name>", found string "<a b>"`}},
		{`{"<a>": "x"}`, []string{`f:1:9: expected an array of expansions for <a>, found string "x"`}},
		{`{"<a>": {"x": [1]}}`, []string{`f:1:9: expected an array of expansions for <a>, found '{'`}},
		{`{"<a>": []}`, []string{`f:1:9: expected at least one expansion for <a>`}},
		{`{"<a>": [1, null, true]}`, []string{
			`f:1:10: expected an expansion string or [expansion, options], found number 1`,
			`f:1:13: expected an expansion string or [expansion, options], found null`,
			`f:1:19: expected an expansion string or [expansion, options], found true`}},
		{`{"<a>": [[]]}`, []string{`f:1:10: expected [expansion, options], found an empty array`}},
		{`{"<a>": [[1, {}]]}`, []string{`f:1:10: expected [expansion, options] with an expansion string and at most one options value`}},
		{`{"<a>": [["x", {}, 3]]}`, []string{`f:1:10: expected [expansion, options] with an expansion string and at most one options value`}},
		{`{"<a>": ["x"], "<a>": ["y"]}`, []string{`f:1:17: duplicate definition of <a>: first defined at f:1:3`}},
		{"{\"<a>\": [\"x\"],\n \"<b>\": 1,\n \"c\": []}", []string{
			`f:2:9: expected an array of expansions for <b>, found number 1`,
			`f:3:2: expected a nonterminal key such as "<name>", found string "c"`}},
	}
	for _, tt := range tests {
		_, err := ParseJSON("f", []byte(tt.src))
		var got []string
		var list ErrorList
		if errors.As(err, &list) {
			for _, e := range list {
				got = append(got, e.Error())
			}
		} else {
			t.Errorf("%s: error %v of type %T", tt.src, err, err)
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s:\ngot  %s\nwant %s", tt.src, strings.Join(got, "\n     "), strings.Join(tt.want, "\n     "))
		}
	}
}

func TestParseAnyAndLoad(t *testing.T) {
	for _, src := range []string{`{"<a>": ["x"]}`, " \n\t{\"<a>\": [\"x\"]}", "\uFEFF{\"<a>\": [\"x\"]}", `<a> ::= "x" ;`, "\uFEFF<a> ::= \"x\""} {
		g, err := ParseAny("f", []byte(src))
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if !EqualExpr(g.Rules[0].Expr, xLit("x")) || g.Start != "a" {
			t.Errorf("%q: got %s", src, g)
		}
	}
	// The error says which form was tried.
	if _, err := ParseAny("f", []byte(` {"<a>": 1}`)); err == nil || !strings.Contains(err.Error(), "expected an array of expansions") {
		t.Errorf("JSON error: %v", err)
	}
	if _, err := ParseAny("f", []byte(`<a> = "x"`)); err == nil || !strings.Contains(err.Error(), "expected '::='") {
		t.Errorf("notation error: %v", err)
	}
	if _, err := Load("testdata/no-such-file.bnf"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load of a missing file: %v", err)
	}
}

func TestJSONExportRoundTrip(t *testing.T) {
	for _, file := range []string{"testdata/arith.json", "testdata/xml.json"} {
		g, err := Load(file)
		if err != nil {
			t.Fatal(err)
		}
		data, err := g.JSON()
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		h, err := ParseJSON(file, data)
		if err != nil {
			t.Fatalf("%s: %v\n%s", file, err, data)
		}
		if !Equal(g, h) {
			t.Errorf("%s: JSON does not read back equal:\n%s", file, data)
		}
	}
}

func TestJSONExportFormat(t *testing.T) {
	g, err := Parse("", []byte(`<start> ::= <digit> "<b>" | "<<digit>" | <x> ;
<digit> ::= [0-3] ;
<x> ::= "a very long alternative that takes up most of the line" | "and a second one" ;`))
	if err != nil {
		t.Fatal(err)
	}
	data, err := g.JSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "<start>": ["<digit><lt>b>", "<<lt>digit>", "<x>"],
  "<digit>": ["0", "1", "2", "3"],
  "<x>": [
    "a very long alternative that takes up most of the line",
    "and a second one"
  ],
  "<lt>": ["<"]
}
`
	if string(data) != want {
		t.Errorf("got\n%s\nwant\n%s", data, want)
	}
}

// boundedLanguage returns the strings of at most n bytes that g derives from
// its start symbol. It lists classes character by character, so it suits
// small test grammars only.
func boundedLanguage(t *testing.T, g *Grammar, n int) map[string]bool {
	t.Helper()
	lang := make(map[string]map[string]bool)
	concat := func(a, b map[string]bool) map[string]bool {
		byLen := make([][]string, n+1)
		for y := range b {
			byLen[len(y)] = append(byLen[len(y)], y)
		}
		out := make(map[string]bool)
		for x := range a {
			for l := 0; len(x)+l <= n; l++ {
				for _, y := range byLen[l] {
					out[x+y] = true
				}
			}
		}
		return out
	}
	var eval func(Expr) map[string]bool
	eval = func(e Expr) map[string]bool {
		out := make(map[string]bool)
		switch e := e.(type) {
		case *Lit:
			if len(e.S) <= n {
				out[e.S] = true
			}
		case *Ref:
			maps.Copy(out, lang[e.Name])
		case *Class:
			count := 0
			for _, r := range e.Set() {
				for c := r.Lo; c <= r.Hi; c++ {
					if count++; count > 4096 {
						t.Fatalf("class %s too large for boundedLanguage", ExprString(e))
					}
					if e.Bytes {
						out[string([]byte{byte(c)})] = true
					} else if len(string(c)) <= n {
						out[string(c)] = true
					}
				}
			}
		case *Alt:
			for _, x := range e.X {
				maps.Copy(out, eval(x))
			}
		case *Seq:
			out[""] = true
			for _, x := range e.X {
				out = concat(out, eval(x))
			}
		case *Repeat:
			x := eval(e.X)
			limit := e.Min + n
			if e.Max != Unbounded {
				limit = min(e.Max, limit)
			}
			cur := map[string]bool{"": true}
			for k := 0; k <= limit; k++ {
				if k > 0 {
					cur = concat(cur, x)
				}
				if k >= e.Min {
					maps.Copy(out, cur)
				}
			}
		}
		return out
	}
	for changed := true; changed; {
		changed = false
		for _, r := range g.Rules {
			l := eval(r.Expr)
			if len(l) != len(lang[r.Name]) {
				lang[r.Name] = l
				changed = true
			}
		}
	}
	return lang[g.Start]
}

func langKeys(m map[string]bool) []string {
	return slices.Sorted(maps.Keys(m))
}

// TestJSONExportEBNF checks that the helpers JSON introduces for EBNF
// constructs derive exactly what the constructs do.
func TestJSONExportEBNF(t *testing.T) {
	tests := []struct {
		src string
		n   int // compare strings of up to n bytes
	}{
		{`<start> ::= "a"* ;`, 6},
		{`<start> ::= "a"+ "b"? ;`, 6},
		{`<start> ::= ("a" | "bc"){2,} ;`, 7},
		{`<start> ::= ("a"{3} | "b"{0}) "c"? ;`, 5},
		{`<start> ::= "a"{1,3} "b"{,2} ;`, 7},
		{`<start> ::= "x" ("a" | "b"){0,10} "y" ;`, 12}, // chained optional helpers
		{`<start> ::= ("a"? "b"?)* ;`, 5},
		{`<start> ::= [a-c] ([^\x00-\x60\x64-\U0010ffff] | "d")? ;`, 3},
		{`<start> ::= <x> | "<" <x> ">" | "<x>" ; <x> ::= "x" ("," <x>)* ;`, 8},
		{`<start> ::= <a> <b> ; <a> ::= "" | "a" <a> ; <b> ::= [0-1]{2,3} ;`, 6},
	}
	for _, tt := range tests {
		g, err := Parse("", []byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		data, err := g.JSON()
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		h, err := ParseJSON("", data)
		if err != nil {
			t.Errorf("%s: %v\n%s", tt.src, err, data)
			continue
		}
		if err := h.Check(); err != nil {
			t.Errorf("%s: exported grammar: %v\n%s", tt.src, err, data)
		}
		want, got := boundedLanguage(t, g, tt.n), boundedLanguage(t, h, tt.n)
		if !maps.Equal(want, got) {
			t.Errorf("%s: languages differ:\nwant %q\ngot  %q\n%s", tt.src, langKeys(want), langKeys(got), data)
		}
		if len(want) < 2 {
			t.Errorf("%s: test language too small: %q", tt.src, langKeys(want))
		}
	}
}

func TestJSONExportFiles(t *testing.T) {
	for _, file := range []string{"testdata/assign.bnf", "testdata/arith.bnf"} {
		g, err := Load(file)
		if err != nil {
			t.Fatal(err)
		}
		data, err := g.JSON()
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		h, err := ParseJSON(file, data)
		if err != nil {
			t.Fatalf("%s: %v\n%s", file, err, data)
		}
		if want, got := boundedLanguage(t, g, 3), boundedLanguage(t, h, 3); !maps.Equal(want, got) {
			t.Errorf("%s: languages differ:\nwant %q\ngot  %q", file, langKeys(want), langKeys(got))
		}
	}
}

func TestJSONExportErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{`<a> ::= "\xff" ;`, `f:1:9: literal "\xff" is not valid UTF-8, which the JSON form cannot hold`},
		{`<a> ::= [\x80-\xff] ;`, `f:1:9: byte class [\x80-\xff] has bytes above 0x7F, which the JSON form cannot hold`},
		{`<a> ::= "x" [^a] ;`, `f:1:13: class [^a] has 1112063 characters: expected at most 1024 to list in the JSON form`},
		{`<a> ::= "x"{3,2} ;`, `f:1:9: invalid repetition {3,2}`},
		{`<a> ::= ("a" "b" "c" "d" "e" "f" "g" "h" "i" "j" "k" "l" "m" "n" "o" "p"){65536} ;`,
			`f:1:9: grammar too large for the JSON form: expected at most 1048576 rules and expansion parts in all`},
		{`<a> ::= "x"{0,65536}{0,65536}{0,65536}{0,65536}{0,65536}{0,65536}{0,65536}{0,65536}{0,65536}{0,65536}{0,65536}{0,65536}{0,65536}{0,65536}{0,65536}{0,65536} ;`,
			`f:1:9: grammar too large for the JSON form: expected at most 1048576 rules and expansion parts in all`},
		{`<a> ::= <start> ; <start> ::= "x" ; <a> ::= "y" ;`, `f:1:37: duplicate definition of <a>: first defined at f:1:1`},
	}
	for _, tt := range tests {
		g, err := Parse("f", []byte(tt.src))
		if err != nil {
			// The duplicate case: build it by hand.
			g = &Grammar{Start: "a", Rules: []*Rule{
				{Name: "a", Expr: xRef("start"), Pos: Pos{File: "f", Line: 1, Col: 1}},
				{Name: "start", Expr: xLit("x"), Pos: Pos{File: "f", Line: 1, Col: 19}},
				{Name: "a", Expr: xLit("y"), Pos: Pos{File: "f", Line: 1, Col: 37}},
			}}
		}
		if _, err := g.JSON(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %s", tt.src, err, tt.want)
		}
	}
	// A start symbol other than <start> while a rule <start> exists.
	g := &Grammar{Start: "a", Rules: []*Rule{{Name: "a", Expr: xRef("start")}, {Name: "start", Expr: xLit("x")}}}
	if _, err := g.JSON(); err == nil || !strings.Contains(err.Error(), "the start symbol is <a>, but a rule <start> exists") {
		t.Errorf("start conflict: %v", err)
	}
	// A start symbol that is not the first rule is moved to the front.
	g = &Grammar{Start: "b", Rules: []*Rule{{Name: "a", Expr: xLit("x")}, {Name: "b", Expr: xRef("a")}}}
	data, err := g.JSON()
	if err != nil {
		t.Fatal(err)
	}
	h, err := ParseJSON("", data)
	if err != nil || h.Start != "b" || h.Rules[0].Name != "b" {
		t.Errorf("start moved: %v\n%s", err, data)
	}
	// Invalid names cannot be written.
	g = &Grammar{Start: "a b", Rules: []*Rule{{Name: "a b", Expr: xLit("x")}}}
	if _, err := g.JSON(); err == nil || !strings.Contains(err.Error(), `invalid nonterminal name "a b"`) {
		t.Errorf("invalid name: %v", err)
	}
}
