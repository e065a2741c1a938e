package grammar_test

import (
	"fmt"
	"log"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

func ExampleParser() {
	g, err := grammar.Parse("sum.bnf", []byte(`
<sum>    ::= <sum> "+" <sum> | <number> ;
<number> ::= [0-9]+ ;
`))
	if err != nil {
		log.Fatal(err)
	}
	p, err := grammar.NewParser(grammar.MustCompile(g))
	if err != nil {
		log.Fatal(err)
	}

	f, err := p.Parse([]byte("1+20"))
	if err != nil {
		log.Fatal(err)
	}
	n, exact := f.Count()
	fmt.Println("parses:", n, "exact:", exact)
	fmt.Print(f.Tree().Outline())

	// "1+2+3" can be grouped in two ways.
	f, err = p.Parse([]byte("1+2+3"))
	if err != nil {
		log.Fatal(err)
	}
	n, _ = f.Count()
	fmt.Println("parses of 1+2+3:", n, "ambiguous:", f.Ambiguous())

	_, err = p.Parse([]byte("1+x"))
	fmt.Println(err)
	// Output:
	// parses: 1 exact: true
	// <sum>#2  "1"
	//   <number>#5  "1"
	//     "1"#7
	// "+"#3
	// <sum>#4  "20"
	//   <number>#5  "20"
	//     "2"#7
	//     "0"#7
	// parses of 1+2+3: 2 ambiguous: true
	// 1:3: unexpected 'x', expected [0-9]
}

func ExamplePathTable_ForestPaths() {
	// The expression grammar of TRIBBLE reads "--x" in two ways: as the
	// decrement operator "--" applied to x, or as "-" applied to "-x". The
	// k-paths of the input, CODEINE's features, are those of both readings.
	gr := grammar.MustCompile(grammar.MustBuiltin("expr"), grammar.WithIdentity(grammar.ByNonterminal))
	p, err := grammar.NewParser(gr)
	if err != nil {
		log.Fatal(err)
	}
	f, err := p.Parse([]byte("--x"))
	if err != nil {
		log.Fatal(err)
	}
	pt, err := gr.PathTable(2)
	if err != nil {
		log.Fatal(err)
	}
	n, _ := f.Count()
	fmt.Println("parses:", n)
	for _, id := range pt.ForestPathIDs(f) {
		if pt.Length(id) == 2 {
			fmt.Println(pt.Path(id).Format(gr))
		}
	}
	// Output:
	// parses: 2
	// <AddExpr> -> <MultExpr>
	// <MultExpr> -> <UnaryExpr>
	// <UnaryExpr> -> <UnaryExpr>
	// <UnaryExpr> -> <Identifier>
	// <UnaryExpr> -> "-"#15
	// <UnaryExpr> -> "--"#21
	// <Identifier> -> "x"#8
}

// ScanRegular(false) turns off the automata that scan regular
// sub-languages (here <number> and <space>; <list> is recursive, so it is
// parsed with Earley items); the forest then keeps items for every byte,
// and its trees are the same.
func ExampleScanRegular() {
	g, err := grammar.Parse("list.bnf", []byte(`
<list>   ::= "[" <item> ("," <space> <item>)* "]" ;
<item>   ::= <number> | <list> ;
<number> ::= [0-9]+ ;
<space>  ::= " "* ;
`))
	if err != nil {
		log.Fatal(err)
	}
	gr := grammar.MustCompile(g)
	input := []byte("[12345, [67890],   1234567890]")
	var trees []*grammar.Tree
	for _, on := range []bool{true, false} {
		p, err := grammar.NewParser(gr, grammar.ScanRegular(on))
		if err != nil {
			log.Fatal(err)
		}
		f, err := p.Parse(input)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("automata %v: %d forest nodes\n", on, f.Size())
		trees = append(trees, f.Tree())
	}
	fmt.Println("same tree:", trees[0].Equal(trees[1]))
	// Output:
	// automata true: 18 forest nodes
	// automata false: 79 forest nodes
	// same tree: true
}

// A loop that parses input after input, keeping only what it reads from
// each, builds each first tree in one TreeBuffer and gives each forest
// back to the parser: the next parse reuses their memory.
func ExampleParser_Recycle() {
	g, err := grammar.Parse("list.bnf", []byte(`
<list> ::= <item> | <item> "," <list> ;
<item> ::= [a-z]+ ;
`))
	if err != nil {
		log.Fatal(err)
	}
	p, err := grammar.NewParser(grammar.MustCompile(g))
	if err != nil {
		log.Fatal(err)
	}
	var buf grammar.TreeBuffer
	for _, in := range []string{"a,bc", "x,y,z", "word"} {
		f, err := p.Parse([]byte(in))
		if err != nil {
			log.Fatal(err)
		}
		t := f.TreeIn(&buf) // valid until the next TreeIn on buf
		items := 0
		t.Walk(func(n *grammar.Tree) bool {
			if n.Node.Label() == "<item>" {
				items++
			}
			return true
		})
		fmt.Println(in, "items:", items)
		p.Recycle(f) // f is not used any more
	}
	// Output:
	// a,bc items: 2
	// x,y,z items: 3
	// word items: 1
}
