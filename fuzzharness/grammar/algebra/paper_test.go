package algebra

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// paperAlgebra returns the algebra over the JSON grammar of Fig. 1 of the
// paper and its two patterns, (5) and (6):
//
//	<item_E> is "":<elt>
//	<item_N> is <string>:null
func paperAlgebra(t testing.TB) (*Algebra, []*Pattern) {
	t.Helper()
	src, err := os.ReadFile("testdata/paper-json.bnf")
	if err != nil {
		t.Fatal(err)
	}
	g, err := grammar.Parse("paper-json.bnf", src)
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(g)
	if err != nil {
		t.Fatal(err)
	}
	e, err := a.ParsePattern("E", "item", `"":<elt>`)
	if err != nil {
		t.Fatal(err)
	}
	n, err := a.ParsePattern("N", "item", `<string>:null`)
	if err != nil {
		t.Fatal(err)
	}
	return a, []*Pattern{e, n}
}

// specializedRules returns the specialized rules of g (those whose name
// holds ':') as name -> sorted alternatives.
func specializedRules(g *grammar.Grammar) map[string][]string {
	out := map[string][]string{}
	for _, r := range g.Rules {
		if !strings.Contains(r.Name, ":") {
			continue
		}
		var alts []string
		if x, ok := r.Expr.(*grammar.Alt); ok {
			for _, a := range x.X {
				alts = append(alts, grammar.ExprString(a))
			}
		} else {
			alts = []string{grammar.ExprString(r.Expr)}
		}
		slices.Sort(alts)
		out[r.Name] = alts
	}
	return out
}

// parseRules reads expected rules written as "<name> ::= a | b ;" lines.
func parseRules(t *testing.T, src string) map[string][]string {
	t.Helper()
	g, err := grammar.Parse("want", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return specializedRules(g)
}

func checkRules(t *testing.T, got *grammar.Grammar, want map[string][]string) {
	t.Helper()
	have := specializedRules(got)
	for name, alts := range want {
		if !slices.Equal(have[name], alts) {
			t.Errorf("<%s>:\n got %q\nwant %q", name, have[name], alts)
		}
	}
	for name := range have {
		if _, ok := want[name]; !ok {
			t.Errorf("unexpected rule <%s> ::= %q", name, have[name])
		}
	}
	if t.Failed() {
		t.Logf("grammar:\n%s", got)
	}
}

func specialize(t testing.TB, a *Algebra, pats []*Pattern, src string, opts *Options) *Result {
	t.Helper()
	e, err := ParseExpr(src)
	if err != nil {
		t.Fatal(err)
	}
	r, err := a.Specialize(pats, e, opts)
	if err != nil {
		t.Fatalf("Specialize(%s): %v", src, err)
	}
	return r
}

// The pattern grammar of Section IV.A:
//
//	<item_E0>   ::= <string_E1> ':' <elt>
//	<string_E1> ::= '"' <chars_E2> '"'
//	<chars_E2>  ::= ε
func TestPaperPatternGrammar(t *testing.T) {
	a, pats := paperAlgebra(t)
	g := a.PatternGrammar(pats[0])
	checkRules(t, g, parseRules(t, `
		<item:E0>   ::= <string:E1> ":" <elt> ;
		<string:E1> ::= "\"" <chars:E2> "\"" ;
		<chars:E2>  ::= "" ;`))
	if g.Start != "item:E0" {
		t.Errorf("start <%s>, want <item:E0>", g.Start)
	}
}

// <json_E>: the reaching grammar of Section IV.B connected with the pattern
// grammar as Section IV.C says:
//
//	<json_E>   ::= <elt_E>
//	<elt_E>    ::= <object_E> | <array_E>
//	<object_E> ::= '{' <items_E> '}'
//	<items_E>  ::= <item_E> ',' <items> | <item> ',' <items_E> | <item_E>
//	<item_E>   ::= <string> ':' <elt_E> | <string_E1> ':' <elt>
//	<array_E>  ::= '[' <elts_E> ']'
//	<elts_E>   ::= <elt_E> ',' <elts> | <elt> ',' <elts_E> | <elt_E>
//	<string_E1> ::= '"' <chars_E2> '"'
//	<chars_E2>  ::= ε
func TestPaperContainsE(t *testing.T) {
	a, pats := paperAlgebra(t)
	r := specialize(t, a, pats, "E", nil)
	checkRules(t, r.Grammar, parseRules(t, `
		<json:+E>   ::= <elt:+E> ;
		<elt:+E>    ::= <object:+E> | <array:+E> ;
		<object:+E> ::= "{" <items:+E> "}" ;
		<items:+E>  ::= <item:+E> "," <items> | <item> "," <items:+E> | <item:+E> ;
		<item:+E>   ::= <string> ":" <elt:+E> | <string:E1> ":" <elt> ;
		<array:+E>  ::= "[" <elts:+E> "]" ;
		<elts:+E>   ::= <elt:+E> "," <elts> | <elt> "," <elts:+E> | <elt:+E> ;
		<string:E1> ::= "\"" <chars:E2> "\"" ;
		<chars:E2>  ::= "" ;`))
}

// avoidsN are the rules of <json_N̄> but its start symbol, as the test of
// Section V.M below writes them.
const avoidsN = `
		<elt:-N>    ::= "false" | "null" | "true" | <number> | <string> | <array:-N> | <object:-N> ;
		<array:-N>  ::= "[" "]" | "[" <elts:-N> "]" ;
		<object:-N> ::= "{" "}" | "{" <items:-N> "}" ;
		<elts:-N>   ::= <elt:-N> | <elt:-N> "," <elts:-N> ;
		<items:-N>  ::= <item:-N> | <item:-N> "," <items:-N> ;
		<item:-N>   ::= <string> ":" <elt:-N&!N1> ;
		<elt:-N&!N1> ::= "false" | "true" | <number> | <string> | <array:-N> | <object:-N> ;`

// <json_N̄> of Section V.M, where the paper's
//
//	<json_N̄>   ::= <elt_N̄>
//	<elt_N̄>    ::= 'false' | 'null' | 'true' | <number> | <string> | <array_N̄> | <object_N̄>
//	<array_N̄>  ::= '[' | '[' <elts_N̄> ']'
//	<object_N̄> ::= '{' | '{' <items_N̄> '}'
//	<elts_N̄>   ::= <elt_N̄> | <elt_N̄> ',' <elts_N̄>
//	<items_N̄>  ::= <item_N̄> | <item_N̄> ',' <items_N̄>
//	<item_N̄>   ::= <string> ':' <elt_{N̄∧N̄1}>
//	<elt_{N̄∧N̄1}> ::= 'false' | 'true' | <number> | <string> | <array_N̄> | <object_N̄>
//
// writes '[' and '{' for the empty array and object, '[' ']' and '{' '}'.
func TestPaperAvoidsN(t *testing.T) {
	a, pats := paperAlgebra(t)
	r := specialize(t, a, pats, "not N", nil)
	checkRules(t, r.Grammar, parseRules(t, `<json:-N> ::= <elt:-N> ;`+avoidsN))
}

// <json_{E∧N̄}> of Section V.N (Equation 4), whose new rules the paper
// gives as
//
//	<json_{E∧N̄}>   ::= <elt_{E∧N̄}>
//	<elt_{E∧N̄}>    ::= <array_{E∧N̄}> | <object_{E∧N̄}>
//	<array_{E∧N̄}>  ::= '[' <elts_{E∧N̄}> ']'
//	<object_{E∧N̄}> ::= '{' <items_{E∧N̄}> '}'
//	<elts_{E∧N̄}>   ::= <elt_{E∧N̄}> | <elt_{E∧N̄}> ',' <elts_{E∧N̄}> | <elt_N̄> ',' <elts_{E∧N̄}>
//	<elt_{N̄∧N̄1}>   ::= 'false' | 'true' | <number> | <string> | <object_N̄> | <array_N̄>
//	<items_{E∧N̄}>  ::= <item_{E∧N̄}> | <item_{E∧N̄}> ',' <items_{E∧N̄}> | <item_N̄> ',' <items_{E∧N̄}>
//	<item_{E∧N̄}>   ::= <string_{E1}> ':' <elt_{N̄∧N̄1}> | <string> ':' <elt_{E∧N̄∧N̄1}>
//	<elt_{E∧N̄∧N̄1}> ::= <array_{E∧N̄}> | <object_{E∧N̄}>
//
// plus the rules of <json_N̄> and the pattern grammar. One difference: in
// the second alternatives of <elts_{E∧N̄}> and <items_{E∧N̄}> the paper
// writes <elts_{E∧N̄}> (<items_{E∧N̄}>) after the comma where the
// conjunction of <elt_E> ',' <elts> with <elt_N̄> ',' <elts_N̄> gives
// <elts_N̄>: as printed, the paper's grammar would reject [{"":1},2], whose
// empty key is in the first element only. The test below checks that input.
func TestPaperContainsEAvoidsN(t *testing.T) {
	a, pats := paperAlgebra(t)
	r := specialize(t, a, pats, "E and not N", &Options{NoSharing: true})
	checkRules(t, r.Grammar, parseRules(t, `
		<json:+E&-N>   ::= <elt:+E&-N> ;
		<elt:+E&-N>    ::= <array:+E&-N> | <object:+E&-N> ;
		<array:+E&-N>  ::= "[" <elts:+E&-N> "]" ;
		<object:+E&-N> ::= "{" <items:+E&-N> "}" ;
		<elts:+E&-N>   ::= <elt:+E&-N> | <elt:+E&-N> "," <elts:-N> | <elt:-N> "," <elts:+E&-N> ;
		<items:+E&-N>  ::= <item:+E&-N> | <item:+E&-N> "," <items:-N> | <item:-N> "," <items:+E&-N> ;
		<item:+E&-N>   ::= <string:E1> ":" <elt:-N&!N1> | <string> ":" <elt:+E&-N&!N1> ;
		<elt:+E&-N&!N1> ::= <array:+E&-N> | <object:+E&-N> ;
		<string:E1> ::= "\"" <chars:E2> "\"" ;
		<chars:E2>  ::= "" ;`+avoidsN))

	// With sharing, <elt_{E∧N̄∧N̄1}> is <elt_{E∧N̄}>: both derive an array
	// or an object only.
	shared := specialize(t, a, pats, "E and not N", nil)
	if shared.Merged != 1 || shared.Rules != r.Rules-1 {
		t.Errorf("sharing merged %d rules (%d rules, %d without sharing), want 1", shared.Merged, shared.Rules, r.Rules)
	}
	if alts := specializedRules(shared.Grammar)["item:+E&-N"]; !slices.Contains(alts, `<string> ":" <elt:+E&-N>`) {
		t.Errorf("shared <item:+E&-N> ::= %q, want <elt:+E&-N> in the second alternative", alts)
	}

	p := mustParser(t, r.Grammar)
	for in, want := range map[string]bool{
		`[{"":1},2]`: true, `{"":1,"a":2}`: true, `{"a":[{"":true}]}`: true, `{"":[null]}`: true,
		`[{"a":1},2]`: false, `{"":null}`: false, `{"":1,"a":null}`: false, `{"a":{"":null}}`: false,
	} {
		if got := p.Recognize([]byte(in)) == nil; got != want {
			t.Errorf("%s: accepted %v, want %v", in, got, want)
		}
	}
}

func mustParser(t testing.TB, g *grammar.Grammar) *grammar.Parser {
	t.Helper()
	gr, err := grammar.Compile(g)
	if err != nil {
		t.Fatalf("%v\n%s", err, g)
	}
	p, err := grammar.NewParser(gr)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCorrectedNegation checks the negation of a rule with two specialized
// elements. For Q = <item> is "":null, the item rule <string> ':' <elt>
// has two: <string_Q1> and <elt_Q3> (Q2 is the <chars> of the key). The
// paper negates it as <string_Q̄1> ':' <elt_Q3> | <string_Q1> ':' <elt_Q̄3>,
// which loses the items in which both differ ("a":1); the corrected
// negation is <string_Q̄1> ':' <elt> | <string_Q1> ':' <elt_Q̄3>.
func TestCorrectedNegation(t *testing.T) {
	a, _ := paperAlgebra(t)
	q, err := a.ParsePattern("Q", "item", `"":null`)
	if err != nil {
		t.Fatal(err)
	}
	r := specialize(t, a, []*Pattern{q}, "not Q", nil)
	alts := specializedRules(r.Grammar)["item:-Q"]
	want := []string{`<string:!Q1> ":" <elt:-Q>`, `<string:Q1> ":" <elt:-Q&!Q3>`}
	if !slices.Equal(alts, want) {
		t.Errorf("<item:-Q> ::= %q, want %q\n%s", alts, want, r.Grammar)
	}
	p := mustParser(t, r.Grammar)
	for in, want := range map[string]bool{
		`{"a":1}`: true, `{"":1}`: true, `{"a":null}`: true, `{"":null}`: false, `[{"b":[{"":null}]}]`: false,
	} {
		if got := p.Recognize([]byte(in)) == nil; got != want {
			t.Errorf("not Q: %s accepted %v, want %v", in, got, want)
		}
	}
}
