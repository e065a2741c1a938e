package glade

import (
	"context"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/learn/oracle"
)

// subjects are small recursive languages, each with a reference grammar
// (whose Earley parser is the oracle) and seeds.
var subjects = []struct {
	name, ref string
	seeds     []string
}{
	{"sexpr", `<start> ::= <e> ; <e> ::= [a-z]+ | "(" <e> (" " <e>)* ")" ;`,
		[]string{"(a (b c))", "x", "(f (g x) (h (y) z))"}},
	{"json", `<start> ::= <v> ; <v> ::= [0-9]+ | "\"" [a-z]* "\"" | "[" (<v> ("," <v>)*)? "]" | "{" (<p> ("," <p>)*)? "}" ; <p> ::= "\"" [a-z]* "\"" ":" <v> ;`,
		[]string{`{"a":[1,2],"b":{"c":"d"}}`, `[1,[2,{"x":3}]]`}},
	{"arith", `<start> ::= <e> ; <e> ::= <t> (("+" | "-") <t>)* ; <t> ::= <f> (("*" | "/") <f>)* ; <f> ::= [0-9]+ | "(" <e> ")" | "-" <f> ;`,
		[]string{"1+(2*3)-4", "(1)", "-(5/(6+7))"}},
	{"xml", `<start> ::= <el> ; <el> ::= "<" <n> ">" (<el> | [a-z])* "</" <n> ">" ; <n> ::= "a" | "b" ;`,
		[]string{"<a>hi<b>x</b></a>", "<b><a></a></b>"}},
}

type score struct{ precision, recall float64 }

func measure(t *testing.T, ref, mined *grammar.Grammar, accept func([]byte) bool, n int) score {
	t.Helper()
	refG, _ := compileParser(t, ref)
	minedG, p := compileParser(t, mined)
	var sc score
	gen := grammar.NewGenerator(refG, 1)
	gen.MaxSize = 80
	for range n {
		tr, err := gen.Generate()
		if err != nil {
			t.Fatal(err)
		}
		if p.Recognize(tr.Bytes()) == nil {
			sc.recall++
		}
	}
	gen = grammar.NewGenerator(minedG, 1)
	gen.MaxSize = 80
	for range n {
		tr, err := gen.Generate()
		if err != nil {
			t.Fatal(err)
		}
		if accept(tr.Bytes()) {
			sc.precision++
		}
	}
	sc.recall /= float64(n)
	sc.precision /= float64(n)
	return sc
}

// TestRecursionRecall measures GLADE alone and with the recursion stage on
// recursive languages: the stage must not lose recall anywhere and must
// gain it where the seeds show nesting in brackets that GLADE's merges miss
// (xml: an element inside text).
func TestRecursionRecall(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 100
	}
	gained := 0
	for _, sub := range subjects {
		ref, err := grammar.Parse(sub.name, []byte(sub.ref))
		if err != nil {
			t.Fatal(err)
		}
		_, p := compileParser(t, ref)
		accept := func(b []byte) bool { return p.Recognize(b) == nil }
		var seeds [][]byte
		for _, s := range sub.seeds {
			seeds = append(seeds, []byte(s))
		}
		var sc [2]score
		var q [2]int64
		for i, rec := range []bool{false, true} {
			res, err := Synthesize(context.Background(), seeds, oracle.Func(accept), WithRecursion(rec))
			if err != nil {
				t.Fatal(err)
			}
			sc[i] = measure(t, ref, res.Grammar, accept, n)
			q[i] = res.Stats.Queries
			if testing.Verbose() {
				t.Logf("%s recursion=%v:\n%s", sub.name, rec, res.Grammar)
			}
		}
		t.Logf("%-6s GLADE: precision %.2f recall %.2f (%d queries); +recursion: precision %.2f recall %.2f (%d queries)",
			sub.name, sc[0].precision, sc[0].recall, q[0], sc[1].precision, sc[1].recall, q[1])
		if sc[1].recall < sc[0].recall {
			t.Errorf("%s: the recursion stage lost recall: %.2f < %.2f", sub.name, sc[1].recall, sc[0].recall)
		}
		if sc[1].recall > sc[0].recall {
			gained++
		}
	}
	if gained < 1 {
		t.Errorf("the recursion stage gained recall on %d of %d subjects", gained, len(subjects))
	}
}
