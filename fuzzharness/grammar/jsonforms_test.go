package grammar

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONForms checks how each form of an alternative is read.
func TestJSONForms(t *testing.T) {
	tests := []struct {
		alt  string // a JSON alternative
		want Expr
	}{
		// The string form: references inside text.
		{`"<a> + <b>"`, xSeq(xRef("a"), xLit(" + "), xRef("b"))},
		{`""`, xLit("")},
		// [expansion, options]: an expansion string and an options object.
		{`["<a> + <b>", {"prob": 0.5}]`, xSeq(xRef("a"), xLit(" + "), xRef("b"))},
		{`["x<a>", {}]`, xSeq(xLit("x"), xRef("a"))},
		{`["", {"prob": 0}]`, xLit("")},
		// A list of symbols: each "<name>" a reference, anything else text.
		{`["<a>", " + ", "<b>"]`, xSeq(xRef("a"), xLit(" + "), xRef("b"))},
		{`[]`, xLit("")},
		{`["<a>"]`, xRef("a")},
		{`["x"]`, xLit("x")},
		// Two symbols are two symbols, not [expansion, options].
		{`["<a>", "<b>"]`, xSeq(xRef("a"), xRef("b"))},
		{`["+", "<a>"]`, xSeq(xLit("+"), xRef("a"))},
		// Adjacent literal symbols are one literal; empty ones vanish.
		{`["a", "b", "", "<a>", "c"]`, xSeq(xLit("ab"), xRef("a"), xLit("c"))},
		{`["", ""]`, xLit("")},
		// Text that is not a reference stays literal in both forms.
		{`["<", "<>", "< a>"]`, xLit("<<>< a>")},
		{`["<a b>"]`, xLit("<a b>")},
	}
	for _, tt := range tests {
		src := `{"<s>": [` + tt.alt + `], "<a>": ["a"], "<b>": ["b"]}`
		g, err := ParseJSON("f", []byte(src))
		if err != nil {
			t.Errorf("%s: %v", tt.alt, err)
			continue
		}
		if got := g.Rules[0].Expr; !EqualExpr(got, tt.want) {
			t.Errorf("%s: got %s, want %s", tt.alt, ExprString(got), ExprString(tt.want))
		}
	}
}

// TestJSONFormFiles loads every grammar under testdata/forms, checks and
// compiles it, generates inputs and parses them back.
func TestJSONFormFiles(t *testing.T) {
	var files []string
	err := filepath.WalkDir("testdata/forms", func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".json") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 8 {
		t.Fatalf("found %d grammars under testdata/forms", len(files))
	}
	n := 100
	if testing.Short() {
		n = 20
	}
	for _, file := range files {
		g, err := Load(file)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		for _, p := range g.Problems() {
			t.Errorf("%s: %s", file, p)
		}
		gr, err := Compile(g)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		p, err := NewParser(gr)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		gen := NewGenerator(gr, 1)
		distinct := map[string]bool{}
		for range n {
			tr, err := gen.Generate()
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			in := tr.Bytes()
			distinct[string(in)] = true
			if err := p.Recognize(in); err != nil {
				t.Errorf("%s: generated %q does not parse back: %v", file, in, err)
			}
		}
		if len(distinct) < 3 {
			t.Errorf("%s: %d distinct inputs in %d", file, len(distinct), n)
		}
	}
}

// TestJSONFormsAgree checks that the same grammar written in each form
// reads as the same grammar.
func TestJSONFormsAgree(t *testing.T) {
	want, err := Load("testdata/forms/string/expr.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"testdata/forms/symbols/expr.json", "testdata/forms/options/expr.json", "testdata/arith.json"} {
		g, err := Load(file)
		if err != nil {
			t.Fatal(err)
		}
		if !Equal(g, want) {
			t.Errorf("%s reads as\n%s\nwant\n%s", file, g, want)
		}
	}
	g, err := Load("testdata/forms/symbols/pairs.json")
	if err != nil {
		t.Fatal(err)
	}
	for name, x := range map[string]Expr{
		"start": xSeq(xRef("term"), xRef("expr")),
		"expr":  xAlt(xSeq(xLit("+"), xRef("term")), xSeq(xRef("term"), xRef("term")), xLit("")),
	} {
		if got := g.Rule(name).Expr; !EqualExpr(got, x) {
			t.Errorf("pairs.json <%s>: got %s, want %s", name, ExprString(got), ExprString(x))
		}
	}
	g, err = Load("testdata/forms/string/html.json")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := g.Rule("char").Expr, xAlt(xLit("a"), xLit("b"), xLit(" "), xLit("&lt;"), xLit("&gt;"), xLit("<>"), xLit("< b>")); !EqualExpr(got, want) {
		t.Errorf("html.json <char>: got %s, want %s", ExprString(got), ExprString(want))
	}
}
