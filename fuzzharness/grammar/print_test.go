package grammar

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPrintGrammar(t *testing.T) {
	src := `<start> ::= <expr> ;
<expr> ::= <term> "+" <expr> | <term> "-" <expr> | <term> "*" <expr> | <term> "/" <expr> | <term> ;
<term> ::= "(" <expr> ")" | [0-9]+ ;`
	g, err := Parse("", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := `<start> ::= <expr> ;

<expr> ::= <term> "+" <expr>
         | <term> "-" <expr>
         | <term> "*" <expr>
         | <term> "/" <expr>
         | <term>
         ;

<term> ::= "(" <expr> ")" | [0-9]+ ;
`
	if got := g.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	var buf bytes.Buffer
	n, err := g.WriteTo(&buf)
	if err != nil || n != int64(len(want)) || buf.String() != want {
		t.Errorf("WriteTo: %d, %v, %q", n, err, buf.String())
	}
}

func TestPrintAlignsUnicodeNames(t *testing.T) {
	g := &Grammar{Start: "été", Rules: []*Rule{{Name: "été", Expr: xAlt(
		xLit(strings.Repeat("a", 40)), xLit(strings.Repeat("b", 40)))}}}
	want := "<été> ::= \"" + strings.Repeat("a", 40) + "\"\n" +
		"        | \"" + strings.Repeat("b", 40) + "\"\n" +
		"        ;\n"
	if got := g.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestExprString(t *testing.T) {
	tests := []struct {
		x    Expr
		want string
	}{
		{xRef("a"), `<a>`},
		{xLit(""), `""`},
		{xLit("a\"b\\c"), `"a\"b\\c"`},
		{xLit("\x00\xff\n\té"), `"\x00\xff\n\té"`},
		{xSeq(xRef("a"), xLit("b")), `<a> "b"`},
		{xAlt(xRef("a"), xSeq(xRef("b"), xRef("c"))), `<a> | <b> <c>`},
		{xSeq(xRef("a"), xAlt(xRef("b"), xRef("c"))), `<a> (<b> | <c>)`},
		{xAlt(xRef("a"), xAlt(xRef("b"), xRef("c"))), `<a> | (<b> | <c>)`},
		{xSeq(xSeq(xRef("a"), xRef("b")), xRef("c")), `(<a> <b>) <c>`},
		{xRep(xSeq(xRef("a"), xRef("b")), 0, Unbounded), `(<a> <b>)*`},
		{xRep(xAlt(xRef("a"), xRef("b")), 1, Unbounded), `(<a> | <b>)+`},
		{xRep(xRep(xRef("a"), 0, 1), 2, 3), `<a>?{2,3}`},
		{xRep(xRef("a"), 0, 1), `<a>?`},
		{xRep(xRef("a"), 3, 3), `<a>{3}`},
		{xRep(xRef("a"), 3, Unbounded), `<a>{3,}`},
		{xRep(xRef("a"), 0, 4), `<a>{0,4}`},
		{xRep(xRef("a"), 1, 1), `<a>{1}`},
		{xClass('a', 'z', '_', '_'), `[a-z_]`},
		{xNClass('"', '"', '\\', '\\'), `[^"\\]`},
		{xClass(']', ']', '[', '[', '-', '-', '^', '^'), `[\]\[\-\^]`},
		{xClass(0, 0x1f, '\n', '\n', 0x7f, 0x7f), `[\x00-\x1f\n\x7f]`},
		{xClass(0x80, 0xff), `[\u0080-ÿ]`},
		{xClass(0xe9, 0xe9, 0x1F600, 0x1F600, 0xfffd, 0xfffd, 0x10ffff, 0x10ffff), `[é😀\ufffd\U0010ffff]`},
		{xBClass(false, 0x80, 0xff), `[\x80-\xff]`},
		{xBClass(true, 'a', 'a', 0xc0, 0xc0), `[^a\xc0]`},
		{xClass(), `[]`},
		{xAlt(), `[]`},
		{xSeq(), `""`},
		{xSeq(xRef("a")), `<a>`},
	}
	for _, tt := range tests {
		if got := ExprString(tt.x); got != tt.want {
			t.Errorf("got %s, want %s", got, tt.want)
		}
	}
}

// TestPrintRoundTrip checks that printed expressions parse back to the same
// structure, whatever their nesting.
func TestPrintRoundTrip(t *testing.T) {
	a, b, c := xRef("a"), xLit("b"), xClass('c', 'c')
	exprs := []Expr{
		xAlt(a, xAlt(b, c)), xAlt(xAlt(a, b), c), xSeq(a, xSeq(b, c)), xSeq(xSeq(a, b), c),
		xSeq(xAlt(a, b), xAlt(b, c)), xAlt(xSeq(a, b), xSeq(b, c)), xRep(xRep(xRep(a, 0, 1), 0, Unbounded), 2, 5),
		xRep(xSeq(a, xRep(xAlt(b, c), 1, Unbounded)), 0, 3), xAlt(xRep(xAlt(a, b), 0, 1), xSeq(xRep(xSeq(a, b), 1, Unbounded), c)),
		xLit("\x00\x01\x7f\x80\xfe\xff\"\\`'\u2028\ufeff"), xBClass(true, 0, 0x7f, 0x80, 0x80), xNClass(0x7f, 0xa0, 0xfffe, 0xffff),
	}
	for _, x := range exprs {
		s := ExprString(x)
		y, err := parseExprString(s)
		if err != nil {
			t.Errorf("%s: %v", s, err)
			continue
		}
		if !EqualExpr(x, y) {
			t.Errorf("%s parses back as %s", s, ExprString(y))
		}
	}
}

// notationTestFiles lists the grammars of testdata and of builtin.
func notationTestFiles(t *testing.T) []string {
	var files []string
	for _, pat := range []string{"testdata/*.bnf", "testdata/*.json", "builtin/*.bnf"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 5 {
		t.Fatalf("only %d grammar files", len(files))
	}
	return files
}

func TestPrintRoundTripFiles(t *testing.T) {
	for _, file := range notationTestFiles(t) {
		g, err := Load(file)
		if err != nil {
			t.Error(err)
			continue
		}
		text := g.String()
		h, err := Parse(file+".printed", []byte(text))
		if err != nil {
			t.Errorf("%s: printed form does not parse: %v\n%s", file, err, text)
			continue
		}
		if !Equal(g, h) {
			t.Errorf("%s: printed form parses differently:\n%s", file, text)
		}
		if again := h.String(); again != text {
			t.Errorf("%s: printing is not stable:\n%s\nthen\n%s", file, text, again)
		}
	}
}

func TestPrintConstructsFile(t *testing.T) {
	g, err := Load("testdata/constructs.bnf")
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Check(); err != nil {
		t.Error(err)
	}
	want, err := os.ReadFile("testdata/constructs.printed")
	if err != nil {
		t.Fatal(err)
	}
	if got := g.String(); got != string(want) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
