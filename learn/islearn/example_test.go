package islearn_test

import (
	"bytes"
	"context"
	"fmt"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/learn/islearn"
	"github.com/seed72891827/kfuzz/learn/oracle"
)

// Mine the balance of XML tags from three valid documents and an invalid
// one.
func ExampleLearn() {
	g := grammar.MustBuiltin("xml")
	pos := [][]byte{[]byte("<a><b>x</b></a>"), []byte(`<x y="1"><z/>t</x>`), []byte("<p>q<r>s</r></p>")}
	neg := [][]byte{[]byte("<a>x</b>")}
	cands, err := islearn.Learn(context.Background(), g, pos, neg, islearn.Generated(50))
	if err != nil {
		fmt.Println(err)
		return
	}
	best := cands[0]
	fmt.Printf("%s: recall %.2f, specificity %.2f\n%s\n", best.Pattern, best.Recall, best.Specificity, best.Formula)
	// Output:
	// balance: recall 1.00, specificity 1.00
	// forall <xml-tree> e: e.<xml-close-tag>.<id> = e.<xml-open-tag>.<id>
}

// A catalog of one's own: every <xml-tree> holds some <TEXT>.
func ExampleParseCatalog() {
	cat, err := islearn.ParseCatalog("my.isc", []byte(`
pattern has-text
where {text} in {elem}
forall <{elem}> e: exists <{text}> t in e: true
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cat[0].Name, cat[0].Placeholders)
	_, err = islearn.ParseCatalog("bad.isc", []byte("pattern p\nwhere {a} near {b}\ntrue\n"))
	fmt.Println(err)
	// Output:
	// has-text [text elem]
	// bad.isc:2:1: unknown relation "near" (want child, in, !=, <, sharestext, textof, textsof or notextof)
}

// Negative samples from the program: an oracle (here a Go function; any
// oracle.Oracle, such as a command) labels random grammar inputs, and its
// rejections tell which constraint holds.
func ExampleWithOracle() {
	g, err := grammar.Parse("edges.bnf", []byte(`
<start> ::= <edge> ( "; " <edge> )* ;
<edge> ::= <node> " " <op> " " <node> ;
<op> ::= "--" | "->" ;
<node> ::= [a-c] ;
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	undirected := oracle.Func(func(b []byte) bool { return !bytes.Contains(b, []byte("->")) })
	pos := [][]byte{[]byte("a -- b"), []byte("b -- c; a -- a")}
	cands, err := islearn.Learn(context.Background(), g, pos, nil,
		islearn.WithOracle(undirected, 50), islearn.Generated(0))
	if err != nil {
		fmt.Println(err)
		return
	}
	best := cands[0]
	fmt.Printf("%s: recall %.2f, specificity %.2f\n%s\n", best.Pattern, best.Recall, best.Specificity, best.Formula)
	// Output:
	// fixed-string: recall 1.00, specificity 1.00
	// forall <op> x: x = "--"
}

// A disjunction: each graph kind has its own edge operator, so neither
// "every edge is --" nor "every edge is ->" holds on all valid samples, but
// conjoined disjunctions with the graph kind reject every invalid one.
func ExampleMaxDisjunction() {
	g, err := grammar.Parse("graphs.bnf", []byte(`
<start> ::= <kind> " {" <edge>* " }" ;
<kind> ::= "graph" | "digraph" ;
<edge> ::= " " <node> " " <op> " " <node> ";" ;
<op> ::= "--" | "->" ;
<node> ::= [a-c] ;
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	pos := [][]byte{[]byte("graph { a -- b; }"), []byte("digraph { a -> b; }"),
		[]byte("graph { b -- c; c -- a; }"), []byte("digraph { c -> c; b -> a; }")}
	neg := [][]byte{[]byte("graph { a -> b; }"), []byte("digraph { a -- b; }")}
	cands, err := islearn.Learn(context.Background(), g, pos, neg,
		islearn.MaxDisjunction(2), islearn.Generated(0), islearn.WithCatalog(fixed))
	if err != nil {
		fmt.Println(err)
		return
	}
	best := cands[0]
	fmt.Printf("%s: recall %.2f, specificity %.2f\n%s\n", best.Pattern, best.Recall, best.Specificity, best.Formula)
	// Output:
	// fixed-string|fixed-string+fixed-string|fixed-string: recall 1.00, specificity 1.00
	// (((forall <op> x: x = "->") or
	// (forall <kind> x: x = "graph")))
	// and
	// (((forall <op> x: x = "--") or
	// (forall <kind> x: x = "digraph")))
}

// fixed is a catalog of one pattern: every node of a nonterminal has the
// same text.
var fixed = func() []*islearn.Pattern {
	ps, err := islearn.ParseCatalog("fixed.isc", []byte("pattern fixed-string\nwhere {string} textof {a}\nforall <{a}> x: x = \"{string}\"\n"))
	if err != nil {
		panic(err)
	}
	return ps
}()
