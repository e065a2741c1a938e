package grammar

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// compareGeneral parses in with p (automata on) and general (off) and
// reports the first difference: errors, counts, the trees (as sets when
// there are at most limit) and the forest k-paths.
func compareGeneral(p, general *Parser, pt *PathTable, in []byte) error {
	f, err := p.Parse(in)
	gf, gerr := general.Parse(in)
	rerr, grerr := p.Recognize(in), general.Recognize(in)
	if errors.Is(err, ErrItemLimit) || errors.Is(gerr, ErrItemLimit) || errors.Is(rerr, ErrItemLimit) || errors.Is(grerr, ErrItemLimit) {
		return nil // the parses count different items
	}
	if !reflect.DeepEqual(err, gerr) {
		return fmt.Errorf("Parse: %v, without automata %v", err, gerr)
	}
	if !reflect.DeepEqual(rerr, grerr) {
		return fmt.Errorf("Recognize: %v, without automata %v", rerr, grerr)
	}
	if err != nil {
		return nil
	}
	n, exact := f.Count()
	gn, gexact := gf.Count()
	if n != gn || exact != gexact || f.Infinite() != gf.Infinite() {
		return fmt.Errorf("Count() = %d, %v (infinite %v), without automata %d, %v (infinite %v)", n, exact, f.Infinite(), gn, gexact, gf.Infinite())
	}
	if n == 1 && !f.Tree().Equal(gf.Tree()) {
		return fmt.Errorf("Tree() differs:\n%s\nwithout automata:\n%s", f.Tree().Outline(), gf.Tree().Outline())
	}
	const limit = 20
	trees, gtrees := f.Trees(limit), gf.Trees(limit)
	if f.Infinite() {
		// Trees returns the trees in which no forest node derives
		// itself, which depend on how the grammar was compiled (the
		// parsers inline differently): check only that they are trees
		// of the input.
		if len(trees) == 0 {
			return fmt.Errorf("no tree of an infinite forest")
		}
		for _, t := range trees {
			if t.String() != string(in) {
				return fmt.Errorf("a tree derives %q", t.String())
			}
			if err := checkTree(t); err != nil {
				return err
			}
		}
	} else if len(trees) != len(gtrees) {
		return fmt.Errorf("Trees(%d) returned %d trees, without automata %d", limit, len(trees), len(gtrees))
	}
	if exact && n <= limit {
		for _, t := range trees {
			if !containsTree(gtrees, t) {
				return fmt.Errorf("a tree is not among those without automata:\n%s", t.Outline())
			}
		}
	}
	if !pt.ForestPaths(f).equal(pt.ForestPaths(gf)) {
		return fmt.Errorf("ForestPaths differ")
	}
	return nil
}

func containsTree(ts []*Tree, t *Tree) bool {
	for _, u := range ts {
		if u.Equal(t) {
			return true
		}
	}
	return false
}

// parserPair returns parsers for gr with automata (the default) and
// without.
func parserPair(t testing.TB, gr *Graph, opts ...ParserOption) (p, general *Parser) {
	t.Helper()
	p, err := NewParser(gr, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return p, generalParser(t, gr, opts...)
}

// generalParser returns a parser for gr without automata.
func generalParser(t testing.TB, gr *Graph, opts ...ParserOption) *Parser {
	t.Helper()
	p, err := NewParser(gr, append(opts[:len(opts):len(opts)], ScanRegular(false))...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// tokenCount returns the number of nonterminals p scans with automata.
func tokenCount(p *Parser) int {
	n := 0
	for _, d := range p.g.tok {
		if d != nil {
			n++
		}
	}
	return n
}

// TestScanRegularBuiltins compares parses with and without automata on
// inputs generated from every built-in grammar and on mutations of them.
func TestScanRegularBuiltins(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	inputs := 20
	if testing.Short() {
		inputs = 6
	}
	for _, name := range BuiltinNames() {
		gr := MustCompile(MustBuiltin(name))
		p, general := parserPair(t, gr)
		if tokenCount(general) != 0 {
			t.Fatalf("%s: ScanRegular(false) left %d tokens", name, tokenCount(general))
		}
		if tokenCount(p) == 0 {
			t.Errorf("%s: no nonterminal is scanned with an automaton", name)
		}
		pt, err := gr.PathTable(3)
		if err != nil {
			t.Fatal(err)
		}
		gen := NewGenerator(gr, 5)
		for k := range inputs {
			tr, err := gen.Generate()
			if err != nil {
				t.Fatal(err)
			}
			in := tr.Bytes()
			if k%2 == 1 && len(in) > 0 { // a byte changed: mostly rejected
				in[rng.IntN(len(in))] = "\"\\ax0{[,:<> \n"[rng.IntN(13)]
			}
			if err := compareGeneral(p, general, pt, in); err != nil {
				t.Errorf("%s, input %q: %v", name, in, err)
			}
		}
	}
}

// TestScanRegularRandomGrammars compares parses with and without automata
// on random grammars (see randomGrammar), which have empty words, cycles,
// ambiguity and regular nonterminals of every shape.
func TestScanRegularRandomGrammars(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	grammars := 400
	if testing.Short() {
		grammars = 120
	}
	tested, withTokens := 0, 0
	for gi := 0; tested < grammars && gi < 4*grammars; gi++ {
		g := randomGrammar(rng)
		gr, err := Compile(g)
		if err != nil {
			continue
		}
		tested++
		p, general := parserPair(t, gr, MaxItems(1<<18))
		if tokenCount(p) > 0 {
			withTokens++
		}
		pt, err := gr.PathTable(3)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range randomInputs(rng, gr, uint64(gi), 60, 4, 0, 8) {
			if err := compareGeneral(p, general, pt, []byte(in)); err != nil {
				t.Fatalf("grammar %d:\n%sinput %q: %v", gi, g, in, err)
			}
		}
	}
	if withTokens < tested/3 {
		t.Errorf("only %d of %d random grammars have tokens", withTokens, tested)
	}
}

// TestScanRegularJSON checks that the JSON parser scans strings, numbers
// and white space with automata: the forest of a document has less than a
// fifth of the items of the general parse, and the same trees.
func TestScanRegularJSON(t *testing.T) {
	gr := MustCompile(MustBuiltin("json"))
	p, general := parserPair(t, gr)
	in := benchJSON(20<<10, 2)
	f, err := p.Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	gf, err := general.Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	// 0.29 items and spans per byte against 2.07 when the runs of
	// <member>, <object> and <array>, and "," <ws> scalar <ws> in arrays,
	// are tokens too.
	if 6*f.Size() > gf.Size() {
		t.Errorf("forest size %d with automata, %d without: more than a sixth", f.Size(), gf.Size())
	}
	// The spans are not items: the items waiting for them link to them.
	if len(f.toks) == 0 {
		t.Fatal("no scanned spans")
	}
	for i, it := range f.items {
		if p.g.dots[it.rule].flags&dotComplete != 0 && p.g.tok[p.g.dots[it.rule].lhs] != nil {
			t.Fatalf("item %d is the complete item of a token before the forest is expanded", i)
		}
	}
	if !f.Tree().Equal(gf.Tree()) {
		t.Error("the trees differ")
	}
	pt, err := gr.PathTable(4)
	if err != nil {
		t.Fatal(err)
	}
	if err := compareGeneral(p, general, pt, in); err != nil {
		t.Error(err)
	}
}

// TestSplitRegular checks that a recursive nonterminal's regular
// productions are split off where a run can take them: in JSON, an array's
// "," <ws> scalar <ws> is one token, and a member's name is not scanned by
// two automata (no token takes "," and the name).
func TestSplitRegular(t *testing.T) {
	p, err := NewParser(MustCompile(MustBuiltin("json")))
	if err != nil {
		t.Fatal(err)
	}
	accepts := func(d *tokenDFA, w string) bool {
		row, acc := int32(0), false
		for i := 0; i < len(w); i++ {
			x := d.trans[row+int32(d.class[w[i]])]
			if x < 0 {
				return false
			}
			row, acc = x>>1, x&1 != 0
		}
		return acc
	}
	var comma, commaName bool
	for _, d := range p.g.tok {
		if d == nil {
			continue
		}
		comma = comma || (accepts(d, ", 12 ") && accepts(d, ",\n  \"x\""))
		commaName = commaName || accepts(d, `, "k": 12`)
	}
	if !comma {
		t.Error(`no token scans "," <ws> scalar <ws>`)
	}
	if commaName {
		t.Error(`a token scans "," and a member's name`)
	}
}

// TestSkipLookahead checks that JSON's "," . <element> in an array looks
// past white space for "[" or "{" (a scalar element is the split-off
// token's), and that the syntax errors stay those of the general parser.
func TestSkipLookahead(t *testing.T) {
	gr := MustCompile(MustBuiltin("json"))
	p, general := parserPair(t, gr)
	var ws, open byteSet
	for _, b := range []byte(" \t\n\r") {
		ws.add(b)
	}
	open.add('[')
	open.add('{')
	found := false
	for _, sk := range p.g.skips {
		found = found || (sk.star == ws && sk.after == open)
	}
	if !found {
		t.Errorf("no dotted rule looks past white space for [ or {: %v", p.g.skips)
	}
	for _, in := range []string{"[1,  2]", "[1, [2], {}]", "[1,  x]", "[1,  ", "[[1], \n\t]"} {
		_, err := p.Parse([]byte(in))
		_, gerr := general.Parse([]byte(in))
		if !reflect.DeepEqual(err, gerr) {
			t.Errorf("Parse(%q): %v, without automata %v", in, err, gerr)
		}
	}
}

// TestScanRegularShapes checks the regular shapes the compiler recognizes
// (left- and right-linear lists, nested classes, alternatives of
// literals) and the grammars it must parse generally, by the tokens found
// and by comparing parses.
func TestScanRegularShapes(t *testing.T) {
	for _, tc := range []struct {
		src    string
		tokens bool
		inputs []string
	}{
		{`<s> ::= "(" <s> ")" | <id> ; <id> ::= [a-z]+ ;`, true, []string{"abc", "((ab))", "(a", "((a)))"}},
		{`<s> ::= "(" <s> ")" | <r> ; <r> ::= "a" <r> | "b" ;`, true, []string{"aab", "(ab)", "(aa)"}},
		{`<s> ::= "(" <s> ")" | <l> ; <l> ::= <l> "a" | "b" | <l> <l2> ; <l2> ::= "c" | "cc" ;`, true, []string{"bacc", "(bccca)", "(b"}},
		{`<s> ::= "[" <s> "]" | <amb> ; <amb> ::= ("a" | "aa")* ;`, true, []string{"aaaa", "[aaa]", "[]", "[[a]]"}},
		// Two productions of a token derive the same span: the span's
		// item gets a link for each.
		{`<s> ::= "(" <s> ")" | <t> ; <t> ::= "a" "b" | "a" [b-c] | "a" "c" ;`, true, []string{"ab", "(ac)", "((ab))"}},
		// Tokens at the bottom of a long right-recursive chain (Leo).
		{`<s> ::= <w> "," <s> | <w> "." ; <w> ::= [a-z]+ ;`, true, []string{strings.Repeat("ab,", 40) + "c.", "a,b,"}},
		{`<s> ::= <s> <s> | "a" ;`, false, []string{"aaaa"}},
		{`<s> ::= "a" <s> "b" | "" ;`, false, []string{"aabb", "aab"}},
	} {
		g, err := Parse("test.bnf", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		gr, err := Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		p, general := parserPair(t, gr)
		if got := tokenCount(p) > 0; got != tc.tokens {
			t.Errorf("%s: tokens %v, want %v", tc.src, got, tc.tokens)
		}
		pt, err := gr.PathTable(3)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range tc.inputs {
			if err := compareGeneral(p, general, pt, []byte(in)); err != nil {
				t.Errorf("%s, input %q: %v", tc.src, in, err)
			}
		}
	}
}

// FuzzScanRegular compares parses with and without automata on arbitrary
// grammars and inputs.
func FuzzScanRegular(f *testing.F) {
	for _, name := range BuiltinNames() {
		src, err := BuiltinSource(name)
		if err != nil {
			f.Fatal(err)
		}
		tr, err := NewGenerator(MustCompile(MustBuiltin(name)), 2).Generate()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src), tr.Bytes())
	}
	f.Add(`<s> ::= "{" <s>* "}" | <w> ; <w> ::= [a-z]+ ("-" [0-9]{1,3})? ;`, []byte("{ab-12{x}}"))
	f.Add(`<s> ::= <s> "," <s> | <n> ; <n> ::= ("a" | "aa")+ ;`, []byte("aaa,aa"))
	f.Add(`<s> ::= "\"" [^"]* "\"" | "(" <s> ")" ;`, []byte(`("é")`))
	f.Fuzz(func(t *testing.T, grammar string, input []byte) {
		if len(grammar) > 2000 || len(input) > 200 {
			return
		}
		gr := fuzzGraph(grammar)
		if gr == nil {
			return
		}
		p, err := NewParser(gr, MaxItems(1<<16))
		if err != nil {
			return
		}
		general := generalParser(t, gr, MaxItems(1<<16))
		pt, err := gr.PathTable(2)
		if err != nil {
			return
		}
		if err := compareGeneral(p, general, pt, input); err != nil {
			t.Fatalf("%q: %v", input, err)
		}
	})
}
