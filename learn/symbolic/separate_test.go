package symbolic

import (
	"context"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/subjects/tinyc"
)

// tinycMined is the grammar mined from TinyC with -merge-sites, before
// refinement: every token may follow every other without white space, so
// "doa=1;while(a);" (a keyword run into an identifier) is in it.
const tinycMined = `<start> ::= <Parse> ;
<Parse> ::= <statement> <eoi> ;
<statement> ::= <lbra> <statement-loop1>
              | <expr>? <semi>
              | (<ifSym> | <whileSym>) <parenExpr> <statement>
              | <doSym> <statement> <whileSym> <parenExpr> <semi>
              | <ifSym> <parenExpr> <statement> <elseSym> <statement> ;
<statement-loop1> ::= <statement>* <rbra> ;
<term> ::= (<intTok> | <id>) | <parenExpr> ;
<sum> ::= <term> <sum-loop1>? ;
<sum-loop1> ::= ((<plus> | <minus>) <term>)* (<plus> | <minus>) <term> ;
<test> ::= <sum> | <sum> <less> <sum> ;
<expr> ::= <test> | <test> <equal> <expr> ;
<parenExpr> ::= <lpar> <expr> <rpar> ;
<doSym> ::= [\n ]* "do" ;
<elseSym> ::= [\n ]* "else" ;
<ifSym> ::= [\n ]* "if" ;
<whileSym> ::= [\n ]* "while" ;
<lbra> ::= [\n ]* "{" ;
<rbra> ::= [\n ]* "}" ;
<lpar> ::= [\n ]* "(" ;
<rpar> ::= [\n ]* ")" ;
<plus> ::= [\n ]* "+" ;
<minus> ::= [\n ]* "-" ;
<less> ::= [\n ]* "<" ;
<semi> ::= [\n ]* ";" ;
<equal> ::= [\n ]* "=" ;
<intTok> ::= <intTok-nextSym> ;
<intTok-nextSym> ::= [\n ]* [0-9]+ ;
<id> ::= [\n ]* [a-z] ;
<eoi> ::= [\n ]* ;`

var tinycTokens = []string{"doSym", "elseSym", "ifSym", "whileSym", "lbra", "rbra", "lpar", "rpar",
	"plus", "minus", "less", "semi", "equal", "intTok", "id", "eoi"}

func tinycAccept(b []byte) bool { return tinyc.Parse(string(b)) == nil }

func TestSeparateTokens(t *testing.T) {
	g, err := grammar.Parse("tinyc.bnf", []byte(tinycMined))
	if err != nil {
		t.Fatal(err)
	}
	var st RefineStats
	r := &refiner{ctx: context.Background(), accept: tinycAccept, st: &st,
		cfg: RefineConfig{Samples: 500, MaxSize: DefaultRefineMaxSize}}
	sep, pairs, err := r.separate(g, tinycTokens, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d pairs need white space, %d parser runs\n%s", pairs, st.Queries, sep)
	if pairs == 0 {
		t.Fatal("no token pair needs white space")
	}
	if !recognizesAll(sep, r.valid) {
		t.Error("the separated grammar lost a valid sample")
	}
	p, err := grammar.NewParser(grammar.MustCompile(sep))
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]bool{
		"do a=1; while(a);":             true,
		"doa=1;while(a);":               false,
		"do{a=1;}while(a);":             true,
		"do;while(a);":                  true,
		"if(a);else b;":                 true,
		"if(a);elseb;":                  false,
		"if(a);else if(b);":             true,
		"if(a);elseif(b);":              false,
		"do do;while(a);while(b);":      true,
		"dodo;while(a);while(b);":       false,
		"{ i=1; while (i<100) i=i+i; }": true,
	} {
		if got := p.Recognize([]byte(in)) == nil; got != want {
			t.Errorf("the separated grammar accepts %q: %v; want %v", in, got, want)
		}
		if got := tinycAccept([]byte(in)); got != want {
			t.Errorf("tinyc.Parse accepts %q: %v; the test wants %v", in, got, want)
		}
	}
	p0, r0 := accuracy(t, g, tinyc.Golden, tinycAccept, 500)
	p1, r1 := accuracy(t, sep, tinyc.Golden, tinycAccept, 500)
	t.Logf("precision %.3f -> %.3f, recall %.3f -> %.3f", p0, p1, r0, r1)
	if p1 <= p0 {
		t.Errorf("precision %.3f after separation, %.3f before; want higher", p1, p0)
	}
	if r1 != 1 {
		t.Errorf("recall %.3f after separation; want 1", r1)
	}
	// Without white space skipped by the tokens, there is nothing to do.
	plain, err := grammar.Parse("plain.bnf", []byte(`<start> ::= <a> <b> ; <a> ::= "x" ; <b> ::= "y" ;`))
	if err != nil {
		t.Fatal(err)
	}
	if same, n, err := r.separate(plain, []string{"a", "b"}, 1); err != nil || n != 0 || same != plain {
		t.Errorf("separate on tokens without white space: %d pairs, %v; want the grammar unchanged", n, err)
	}
}

// doWords accepts "do" words, then a one-letter identifier and ";", the
// words read as runs of letters, blanks between them skipped.
func doWords(b []byte) bool {
	words := strings.Fields(strings.ReplaceAll(string(b), ";", " ; "))
	for len(words) > 0 && words[0] == "do" {
		words = words[1:]
	}
	return len(words) == 2 && len(words[0]) == 1 && words[0] >= "a" && words[0] <= "z" && words[1] == ";"
}

// TestSeparateRepetition separates tokens repeated by a quantifier, whose
// iterations follow each other: the repetition becomes a recursive rule
// whose variants track the token before each iteration.
func TestSeparateRepetition(t *testing.T) {
	g, err := grammar.Parse("do.bnf", []byte(`<start> ::= <do>* <id> <semi> ;
<do> ::= [ ]* "do" ;
<id> ::= [ ]* [a-z] ;
<semi> ::= [ ]* ";" ;`))
	if err != nil {
		t.Fatal(err)
	}
	var st RefineStats
	r := &refiner{ctx: context.Background(), accept: doWords, st: &st,
		cfg: RefineConfig{Samples: 300, MaxSize: DefaultRefineMaxSize}}
	sep, pairs, err := r.separate(g, []string{"do", "id", "semi"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d pairs\n%s", pairs, sep)
	if pairs != 2 {
		t.Errorf("%d pairs need a blank; want 2 (do before do, do before an identifier)", pairs)
	}
	p, err := grammar.NewParser(grammar.MustCompile(sep))
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]bool{
		"a;": true, " a ;": true, "do a;": true, "do do  do b;": true,
		"doa;": false, "dodo a;": false, "do do doa;": false,
	} {
		if got := p.Recognize([]byte(in)) == nil; got != want {
			t.Errorf("the separated grammar accepts %q: %v; want %v", in, got, want)
		}
		if got := doWords([]byte(in)); got != want {
			t.Errorf("doWords(%q) = %v; the test wants %v", in, got, want)
		}
	}
	if !recognizesAll(sep, r.valid) {
		t.Error("the separated grammar lost a valid sample")
	}
}
