package grammar

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// parseExprString parses a single expression, as a rule body would be.
func parseExprString(src string) (Expr, error) {
	p := newBNFParser("", []byte(src))
	e, _ := p.parseAlt("start")
	if e != nil && p.tok.kind != bnfEOF {
		p.errorExpected(p.tok.pos, "end of expression", p.tok)
	}
	p.errs.removeMultiples()
	if err := p.errs.Err(); err != nil {
		return nil, err
	}
	return e, nil
}

// Constructors for expected expressions; positions are ignored by EqualExpr.
func xLit(s string) *Lit              { return &Lit{S: s} }
func xRef(name string) *Ref           { return &Ref{Name: name} }
func xSeq(xs ...Expr) *Seq            { return &Seq{X: xs} }
func xAlt(xs ...Expr) *Alt            { return &Alt{X: xs} }
func xRep(x Expr, lo, hi int) *Repeat { return &Repeat{X: x, Min: lo, Max: hi} }
func xClass(rs ...rune) *Class        { return &Class{Ranges: xRanges(rs)} }
func xNClass(rs ...rune) *Class       { return &Class{Negated: true, Ranges: xRanges(rs)} }
func xBClass(neg bool, rs ...rune) *Class {
	return &Class{Negated: neg, Bytes: true, Ranges: xRanges(rs)}
}

// ranges pairs up lo, hi values.
func xRanges(rs []rune) []Range {
	var out []Range
	for i := 0; i+1 < len(rs); i += 2 {
		out = append(out, Range{rs[i], rs[i+1]})
	}
	return out
}

func TestNotationExpressions(t *testing.T) {
	tests := []struct {
		src  string
		want Expr
	}{
		{`<a>`, xRef("a")},
		{`<xml-open-tag>`, xRef("xml-open-tag")},
		{`<a.b_1:c"d|e>`, xRef(`a.b_1:c"d|e`)},
		{`<名前>`, xRef("名前")},
		{`"abc"`, xLit("abc")},
		{`""`, xLit("")},
		{"`raw \\n \"x\"`", xLit(`raw \n "x"`)},
		{"`two\r\nlines`", xLit("two\nlines")},
		{"``", xLit("")},
		{`<a> <b>`, xSeq(xRef("a"), xRef("b"))},
		{`<a><b>"c"`, xSeq(xRef("a"), xRef("b"), xLit("c"))},
		{`<a> | <b>`, xAlt(xRef("a"), xRef("b"))},
		{`<a> <b> | "c" | ""`, xAlt(xSeq(xRef("a"), xRef("b")), xLit("c"), xLit(""))},
		{`(<a>)`, xRef("a")},
		{`((("x")))`, xLit("x")},
		{`(<a> <b>) <c>`, xSeq(xSeq(xRef("a"), xRef("b")), xRef("c"))},
		{`<a> (<b> | <c>)`, xSeq(xRef("a"), xAlt(xRef("b"), xRef("c")))},
		{`<a> | (<b> | <c>)`, xAlt(xRef("a"), xAlt(xRef("b"), xRef("c")))},
		{`<a>?`, xRep(xRef("a"), 0, 1)},
		{`<a>*`, xRep(xRef("a"), 0, Unbounded)},
		{`<a>+`, xRep(xRef("a"), 1, Unbounded)},
		{`<a>{3}`, xRep(xRef("a"), 3, 3)},
		{`<a>{0}`, xRep(xRef("a"), 0, 0)},
		{`<a>{2,5}`, xRep(xRef("a"), 2, 5)},
		{`<a>{2,}`, xRep(xRef("a"), 2, Unbounded)},
		{`<a>{,5}`, xRep(xRef("a"), 0, 5)},
		{`<a>{ 2 , 5 }`, xRep(xRef("a"), 2, 5)},
		{`<a>{65536}`, xRep(xRef("a"), 65536, 65536)},
		{`<a>{3,2}`, xRep(xRef("a"), 3, 2)}, // Check reports it
		{`"x"*?`, xRep(xRep(xLit("x"), 0, Unbounded), 0, 1)},
		{`("x" "y")+`, xRep(xSeq(xLit("x"), xLit("y")), 1, Unbounded)},
		{`("x" | "y"){2}`, xRep(xAlt(xLit("x"), xLit("y")), 2, 2)},
		{`[a-z]+ "x"?`, xSeq(xRep(xClass('a', 'z'), 1, Unbounded), xRep(xLit("x"), 0, 1))},
		{`<a> # comment | <b>` + "\n| <c>", xAlt(xRef("a"), xRef("c"))},
		{`<a> // comment` + "\n<b>", xSeq(xRef("a"), xRef("b"))},
		{`"# no comment" "//"`, xSeq(xLit("# no comment"), xLit("//"))},
	}
	for _, tt := range tests {
		got, err := parseExprString(tt.src)
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if !EqualExpr(got, tt.want) {
			t.Errorf("%s: got %s, want %s", tt.src, ExprString(got), ExprString(tt.want))
		}
	}
}

func TestNotationLiterals(t *testing.T) {
	// Every double-quoted literal means what it means in Go.
	srcs := []string{
		`"\n"`, `"\x00"`, `"\xff"`, `"\xFf"`, `"\u00e9"`, `"\U0001F600"`, `"\101"`, `"\377"`, `"\000"`,
		`"\a\b\f\n\r\t\v\\\""`, `"héllo"`, `"😀"`, `"a\x80b"`, `"\uffff"`, `"\U0010ffff"`,
		`"'single'"`, `"tab	inside"`,
	}
	for _, src := range srcs {
		want, err := strconv.Unquote(src)
		if err != nil {
			t.Fatalf("bad test %s: %v", src, err)
		}
		got, err := parseExprString(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if l, ok := got.(*Lit); !ok || l.S != want {
			t.Errorf("%s: got %s, want %q", src, ExprString(got), want)
		}
	}
	// Raw bytes in the source stay as they are.
	g, err := Parse("", []byte("<a> ::= \"\xff\x00\xfe\" ;"))
	if err != nil {
		t.Fatal(err)
	}
	if s := g.Rules[0].Expr.(*Lit).S; s != "\xff\x00\xfe" {
		t.Errorf("raw bytes: got %q", s)
	}
}

func TestNotationClasses(t *testing.T) {
	tests := []struct {
		src  string
		want *Class
	}{
		{`[a]`, xClass('a', 'a')},
		{`[a-z0-9_]`, xClass('a', 'z', '0', '9', '_', '_')},
		{`[^"\\]`, xNClass('"', '"', '\\', '\\')},
		{`[]`, xClass()},
		{`[^]`, xNClass()},
		{`[-a]`, xClass('-', '-', 'a', 'a')},
		{`[a-]`, xClass('a', 'a', '-', '-')},
		{`[^-]`, xNClass('-', '-')},
		{`[a^]`, xClass('a', 'a', '^', '^')},
		{`[\]\[\\\-\^]`, xClass(']', ']', '[', '[', '\\', '\\', '-', '-', '^', '^')},
		{`[\n\t\x00-\x1f]`, xClass('\n', '\n', '\t', '\t', 0, 0x1f)},
		{`[\101-\132]`, xClass('A', 'Z')},
		{`["']`, xClass('"', '"', '\'', '\'')},
		{`[α-ω]`, xClass('α', 'ω')},
		{`[\u00e9\U0001F600]`, xClass(0xe9, 0xe9, 0x1F600, 0x1F600)},
		{`[^\u0000-\u007f]`, xNClass(0, 0x7f)},
		{`[\x7f]`, xClass(0x7f, 0x7f)},
		{`[\x80-\xff]`, xBClass(false, 0x80, 0xff)},
		{`[^\x00-\x1f\xff]`, xBClass(true, 0, 0x1f, 0xff, 0xff)},
		{`[\x00-\377]`, xBClass(false, 0, 0xff)},
		{`[a-z\xc0]`, xBClass(false, 'a', 'z', 0xc0, 0xc0)},
		{`[\x41-\u00ff]`, xClass(0x41, 0xff)}, // no byte above \x7f: a rune class
	}
	for _, tt := range tests {
		got, err := parseExprString(tt.src)
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if !EqualExpr(got, tt.want) {
			t.Errorf("%s: got %#v, want %#v", tt.src, got, tt.want)
		}
	}
}

func TestNotationGrammar(t *testing.T) {
	src := "\uFEFF" + `# ISLa style: no semicolons, alternatives on following lines
<start> ::= <assgn>
<assgn> ::= <var> " := " <rhs>
<rhs> ::= <var>
        | <digit>
<var> ::= "a" | "b" | "c"
<digit> := "0" | "1"`
	g, err := Parse("isla.bnf", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := &Grammar{Start: "start", Rules: []*Rule{
		{Name: "start", Expr: xRef("assgn")},
		{Name: "assgn", Expr: xSeq(xRef("var"), xLit(" := "), xRef("rhs"))},
		{Name: "rhs", Expr: xAlt(xRef("var"), xRef("digit"))},
		{Name: "var", Expr: xAlt(xLit("a"), xLit("b"), xLit("c"))},
		{Name: "digit", Expr: xAlt(xLit("0"), xLit("1"))},
	}}
	if !Equal(g, want) {
		t.Errorf("got\n%s\nwant\n%s", g, want)
	}
	wantPos := []string{"isla.bnf:2:1", "isla.bnf:3:1", "isla.bnf:4:1", "isla.bnf:6:1", "isla.bnf:7:1"}
	for i, r := range g.Rules {
		if r.Pos.String() != wantPos[i] {
			t.Errorf("rule <%s> at %s, want %s", r.Name, r.Pos, wantPos[i])
		}
	}
	// Positions of expressions: offsets, lines and byte columns.
	assgn := g.Rules[1].Expr.(*Seq)
	if p := assgn.X[1].Position(); p.Line != 3 || p.Col != 19 || src[p.Offset] != '"' {
		t.Errorf("literal at %+v", p)
	}
	if p := g.Rules[2].Expr.(*Alt).X[1].Position(); p.Line != 5 || p.Col != 11 {
		t.Errorf("<digit> at %+v", p)
	}
}

func TestNotationStart(t *testing.T) {
	tests := []struct{ src, start string }{
		{`<a> ::= "x" ; <start> ::= <a> ;`, "start"},
		{`<b> ::= <a> ; <a> ::= "x" ;`, "b"},
		{`<Start> ::= "x" ; <start2> ::= "y" ;`, "Start"},
	}
	for _, tt := range tests {
		g, err := Parse("", []byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		if g.Start != tt.start {
			t.Errorf("%s: start %q, want %q", tt.src, g.Start, tt.start)
		}
	}
}

func TestNotationRuleEnds(t *testing.T) {
	// A rule ends at ';', at the next "<name> ::=" or at the end of the file.
	tests := []struct {
		src   string
		rules int
	}{
		{`<a> ::= "x" ; <b> ::= "y" ;`, 2},
		{`<a> ::= "x" <b> ::= "y"`, 2},
		{`<a> ::= <b> <c> <b> ::= "y" <c> ::= "z"`, 3},
		{`<a> ::= <b>` + "\n" + `<c>` + "\n" + `<b> ::= "y" ; <c> ::= "z" ;`, 3},
		{`<a> ::= "x" ;;`, 0}, // the second ';' starts no rule: an error
	}
	for _, tt := range tests {
		g, err := Parse("", []byte(tt.src))
		if tt.rules == 0 {
			if err == nil {
				t.Errorf("%s: no error", tt.src)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if len(g.Rules) != tt.rules {
			t.Errorf("%s: %d rules, want %d:\n%s", tt.src, len(g.Rules), tt.rules, g)
		}
	}
	g, _ := Parse("", []byte(`<a> ::= <b>`+"\n"+`<c>`+"\n"+`<b> ::= "y" ; <c> ::= "z" ;`))
	if want := xSeq(xRef("b"), xRef("c")); !EqualExpr(g.Rules[0].Expr, want) {
		t.Errorf("a rule continues on the next line: got %s", ExprString(g.Rules[0].Expr))
	}
}

func TestNotationErrors(t *testing.T) {
	tests := []struct {
		src  string
		want []string // every error, in order
	}{
		{``, []string{`f:1:1: expected a rule such as <start> ::= ..., found end of file`}},
		{"# only a comment\n", []string{`f:2:1: expected a rule such as <start> ::= ..., found end of file`}},
		{`<expr> | <a>`, []string{`f:1:8: expected '::=' after <expr>, found '|'`}},
		{`<a> ::= ;`, []string{`f:1:9: expected an expression after '::=', found ';'`}},
		{`<a> ::= "x" | ;`, []string{`f:1:15: expected an expression after '|', found ';'`}},
		{`<a> ::= "x" |`, []string{`f:1:14: expected an expression after '|', found end of file`}},
		{`<a> ::= "x" | <b> ::= "y"`, []string{`f:1:15: expected an expression after '|', found <b>`}},
		{`<a> ::= () ;`, []string{`f:1:10: expected an expression after '(', found ')'`}},
		{`<a> ::= ("x" ;`, []string{`f:1:14: expected ')' to close the '(' at f:1:9, found ';'`}},
		{`<a> ::= "x" ) ;`, []string{`f:1:13: expected an expression, '|', ';' or the next rule, found ')'`}},
		{`<a> ::= "x" * ;`, nil}, // a quantifier may follow white space
		{`<a> ::= * ;`, []string{`f:1:9: expected an expression after '::=', found '*'`}},
		{`"x" ;`, []string{`f:1:1: expected a rule (<name> ::= ...), found literal "x"`}},
		{`a ::= "x" ;`, []string{`f:1:1: expected a rule (<name> ::= ...), found 'a'`}},
		{`<a> ::= 'x' ;`, []string{`f:1:9: expected an expression after '::=', found '\'' (literals are written in double quotes)`}},
		{`<a> : "x" ;`, []string{`f:1:5: expected '::=' after <a>, found ':' (did you mean '::='?)`}},
		{`<a> ::= "x" / ;`, []string{`f:1:13: expected an expression, '|', ';' or the next rule, found '/' (comments start with // or #)`}},
		{"<a> ::= \"x\" \x00 ;", []string{`f:1:13: expected an expression, '|', ';' or the next rule, found '\x00'`}},
		{"<a> ::= \"x\" \xff ;", []string{`f:1:13: expected an expression, '|', ';' or the next rule, found byte 0xff`}},
		{`<a> ::= "x"{ ;`, []string{`f:1:14: expected a count or ',' after '{', found ';'`}},
		{`<a> ::= "x"{, } ;`, []string{`f:1:15: expected a maximum count after '{,', found '}'`}},
		{`<a> ::= "x"{1 ;`, []string{`f:1:15: expected '}' to close the repetition at f:1:12, found ';'`}},
		{`<a> ::= "x"{1,2,3} ;`, []string{`f:1:16: expected '}' to close the repetition at f:1:12, found ','`}},
		{`<a> ::= "x"{65537} ;`, []string{`f:1:13: repetition count 65537 too large: expected at most 65536`}},
		{`<a> ::= "x"{99999999999999999999} ;`, []string{`f:1:13: repetition count 99999999999999999999 too large: expected at most 65536`}},
		{`<a> ::= <> ;`, []string{`f:1:9: empty nonterminal name <>: expected a name between '<' and '>'`}},
		{`<a b> ::= "x" ;`, []string{`f:1:3: expected '>' to end nonterminal <a, found space`}},
		{`<a> ::= < b> ;`, []string{`f:1:10: expected nonterminal name after '<', found space`}},
		{`<a> ::= <b`, []string{`f:1:11: expected '>' to end nonterminal <b, found end of file`}},
		{`<a> ::= <b<c> ;`, []string{`f:1:11: expected '>' to end nonterminal <b, found '<'`}},
		{"<a\xff> ::= \"x\" ;", []string{`f:1:3: invalid UTF-8 encoding in nonterminal name`}},
		{`<a> ::= "abc ;` + "\n" + `<b> ::= "y" ;`, []string{`f:1:9: string literal not terminated: expected '"'`}},
		{"<a> ::= `abc ;\n<b> ::= \"y\" ;", []string{"f:1:9: raw string literal not terminated: expected '`'"}},
		{`<a> ::= "\q" ;`, []string{`f:1:10: unknown escape sequence \q: expected \a \b \f \n \r \t \v \\ \" \xHH \uHHHH \UHHHHHHHH or \ooo`}},
		{`<a> ::= "\'" ;`, []string{`f:1:10: unknown escape sequence \': expected \a \b \f \n \r \t \v \\ \" \xHH \uHHHH \UHHHHHHHH or \ooo`}},
		{`<a> ::= "\]" ;`, []string{`f:1:10: unknown escape sequence \]: expected \a \b \f \n \r \t \v \\ \" \xHH \uHHHH \UHHHHHHHH or \ooo`}},
		{`<a> ::= [\q] ;`, []string{`f:1:10: unknown escape sequence \q: expected \] \[ \- \^ \a \b \f \n \r \t \v \\ \" \xHH \uHHHH \UHHHHHHHH or \ooo`}},
		{`<a> ::= "\x4g" ;`, []string{`f:1:13: invalid character 'g' in escape sequence \x: expected 2 hex digits`}},
		{`<a> ::= "\x4" ;`, []string{`f:1:13: invalid character '"' in escape sequence \x: expected 2 hex digits`}},
		{`<a> ::= "\u12" ;`, []string{`f:1:14: invalid character '"' in escape sequence \u: expected 4 hex digits`}},
		{`<a> ::= "\U0011ffff" ;`, []string{`f:1:10: escape sequence \U0011ffff is not a valid Unicode code point`}},
		{`<a> ::= "\ud800" ;`, []string{`f:1:10: escape sequence \ud800 is not a valid Unicode code point`}},
		{`<a> ::= "\400" ;`, []string{`f:1:10: octal escape value 256 is greater than 255`}},
		{`<a> ::= "\18" ;`, []string{`f:1:12: invalid character '8' in escape sequence \: expected 3 octal digits`}},
		{`<a> ::= "\`, []string{`f:1:9: string literal not terminated: expected '"'`}}, // hides the escape's error
		{`<a> ::= ("\" ;`, []string{`f:1:10: string literal not terminated: expected '"'`}},
		{`<a> ::= [\`, []string{`f:1:9: character class not terminated: expected ']'`}},
		{`<a> ::= "x" ;` + "\n" + `<b> ::= [a\`, []string{`f:2:9: character class not terminated: expected ']'`}},
		{`<a> ::= [a-z ;` + "\n" + `<b> ::= "y" ;`, []string{`f:1:9: character class not terminated: expected ']'`}},
		{`<a> ::= [z-a] ;`, []string{`f:1:10: invalid class range 'z'-'a': expected the start not to exceed the end`}},
		{`<a> ::= [\xff-\x80] ;`, []string{`f:1:10: invalid class range \xff-\x80: expected the start not to exceed the end`}},
		{`<a> ::= [\x80-\xffé] ;`, []string{`f:1:19: non-ASCII character 'é' in a byte class (one with a \xHH escape above \x7f): expected bytes only; write its UTF-8 bytes as \xHH`}},
		{`<a> ::= [\u00e9\xff] ;`, []string{`f:1:10: non-ASCII character 'é' in a byte class (one with a \xHH escape above \x7f): expected bytes only; write its UTF-8 bytes as \xHH`}},
		{"<a> ::= [\xff] ;", []string{`f:1:10: invalid UTF-8 encoding in character class: expected a character; write raw bytes as \xHH`}},
		{`<a> ::= "x" ; <a> ::= "y" ;`, []string{`f:1:15: duplicate definition of <a>: first defined at f:1:1`}},
		// Several errors, one per line, recovering at the next rule.
		{"<a> ::= | ;\n<b> \"x\" ;\n<c> ::= \"ok\" ;\n<d> ::= [z-a] \"\\q\" ;\n<c> ::= \"dup\"\n<e> ::= ((\"x\") ;",
			[]string{
				`f:1:9: expected an expression after '::=', found '|'`,
				`f:2:5: expected '::=' after <b>, found literal "x"`,
				`f:4:10: invalid class range 'z'-'a': expected the start not to exceed the end`,
				`f:5:1: duplicate definition of <c>: first defined at f:3:1`,
				`f:6:16: expected ')' to close the '(' at f:6:9, found ';'`,
			}},
	}
	for _, tt := range tests {
		_, err := Parse("f", []byte(tt.src))
		var got []string
		var list ErrorList
		if errors.As(err, &list) {
			for _, e := range list {
				got = append(got, e.Error())
			}
		} else if err != nil {
			t.Errorf("%q: error of type %T", tt.src, err)
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%q:\ngot  %s\nwant %s", tt.src, strings.Join(got, "\n     "), strings.Join(tt.want, "\n     "))
		}
	}
}

func TestNotationErrorSummary(t *testing.T) {
	_, err := Parse("x.bnf", []byte("<a> ::= ;\n<b> ::= ;\n<c> ::= ;\n"))
	want := `x.bnf:1:9: expected an expression after '::=', found ';' (and 2 more errors)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestNotationNesting(t *testing.T) {
	deep := func(n int) string {
		return "<a> ::= " + strings.Repeat("(", n) + `"x" "y"` + strings.Repeat(")", n) + " ;"
	}
	// Within the limit, and a group of one element is that element.
	g, err := Parse("", []byte(deep(maxNestingDepth)))
	if err != nil {
		t.Fatalf("nesting %d: %v", maxNestingDepth, err)
	}
	if !EqualExpr(g.Rules[0].Expr, xSeq(xLit("x"), xLit("y"))) {
		t.Errorf("nested groups: got %s", ExprString(g.Rules[0].Expr))
	}
	for _, src := range []string{
		deep(maxNestingDepth + 1),
		deep(1 << 20),
		"<a> ::= " + strings.Repeat(`("x" `, 2000) + strings.Repeat(")", 2000),
		`<a> ::= "x"` + strings.Repeat("*", maxNestingDepth+1),
		`<a> ::= "x"` + strings.Repeat("{1}", 100000),
		"<a> ::= " + strings.Repeat("(", 600) + `"x"*` + strings.Repeat(")**", 600),
	} {
		_, err := Parse("", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "expression nested too deeply: expected at most 1000 levels") {
			t.Errorf("%.30s...%d: got %v", src, len(src), err)
		}
	}
	// Stacked quantifiers up to the limit are fine.
	if _, err := Parse("", []byte(`<a> ::= "x"`+strings.Repeat("?", maxNestingDepth-1))); err != nil {
		t.Error(err)
	}
}

func TestNotationPositions(t *testing.T) {
	src := "<a> ::= \"x\" (\"y\" \"z\")* |\n  [a-z]{2} ;"
	g, err := Parse("p", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	a := g.Rules[0].Expr.(*Alt)
	first := a.X[0].(*Seq)
	group := first.X[1].(*Repeat)
	inner := group.X.(*Seq)
	class := a.X[1].(*Repeat)
	for _, tt := range []struct {
		what string
		x    Expr
		want string
		at   byte // the source byte at the position
	}{
		{"alternation", a, "p:1:9", '"'},
		{"sequence", first, "p:1:9", '"'},
		{"quantified group", group, "p:1:13", '('},
		{"sequence in the group", inner, "p:1:14", '"'},
		{"quantified class", class, "p:2:3", '['},
		{"class", class.X, "p:2:3", '['},
	} {
		p := tt.x.Position()
		if p.String() != tt.want || src[p.Offset] != tt.at {
			t.Errorf("%s at %s (offset %d), want %s at %q", tt.what, p, p.Offset, tt.want, tt.at)
		}
	}
}
