package grammar

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

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
