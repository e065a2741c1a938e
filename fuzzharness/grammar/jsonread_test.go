package grammar

import (
	"errors"
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
			`f:1:10: expected an alternative, found number 1: ` + jsonForms,
			`f:1:13: expected an alternative, found null: ` + jsonForms,
			`f:1:19: expected an alternative, found true: ` + jsonForms}},
		{`{"<a>": [[1, {}]]}`, []string{`f:1:11: expected a symbol string in the list of symbols, found number 1: ` + jsonForms}},
		{`{"<a>": [["x", {}, 3]]}`, []string{`f:1:20: expected ']' after [expansion, options], found number 3`}},
		{`{"<a>": [["x", {}, "y"]]}`, []string{`f:1:20: expected ']' after [expansion, options], found string "y"`}},
		{`{"<a>": [[{}, "x"]]}`, []string{`f:1:11: expected a symbol string in the list of symbols, found '{': ` + jsonForms}},
		{`{"<a>": [["x", "y", {}]]}`, []string{`f:1:21: expected a symbol string in the list of symbols, found '{': ` + jsonForms}},
		{`{"<a>": [["x", 3]]}`, []string{`f:1:16: expected a symbol string in the list of symbols, found number 3: ` + jsonForms}},
		{`{"<a>": [["x", ["y"]]]}`, []string{`f:1:16: expected a symbol string in the list of symbols, found '[': ` + jsonForms}},
		{`{"<a>": [["x<b>"]], "<b>": ["b"]}`, []string{`f:1:13: symbol "x<b>" holds the reference <b> among other text: in a list of symbols, write each reference as a symbol of its own, or write the whole alternative as the expansion string "x<b>"`}},
		{`{"<a>": [["<b>", "\\<b> "]], "<b>": ["b"]}`, []string{`f:1:21: symbol "\\<b> " holds the reference <b> among other text: in a list of symbols, write each reference as a symbol of its own, or write the whole alternative as the expansion string "\\<b> "`}},
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
