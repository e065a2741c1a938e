package learn_test

import (
	"fmt"
	"log"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/learn"
)

func ExampleNewPattern() {
	gr := grammar.MustCompile(grammar.MustBuiltin("expr"))
	pt, err := gr.PathTable(3)
	if err != nil {
		log.Fatal(err)
	}
	// Find the path <UnaryExpr> -> <AddExpr> -> "-" where the <UnaryExpr>
	// is the right factor of a product.
	var found grammar.KPath
	lo, hi := pt.Range(3)
	for id := lo; id < hi; id++ {
		p := pt.Path(id)
		a, b, c := gr.Symbols[p[0]].Nodes[0], gr.Symbols[p[1]].Nodes[0], gr.Symbols[p[2]].Nodes[0]
		if a.Name == "UnaryExpr" && a.Rule == "MultExpr" && a.ID > 4 && b.Name == "AddExpr" && c.Lit == "-" && c.Rule == "AddExpr" {
			found = p
		}
	}
	pat, err := learn.NewPattern(gr, found)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(learn.PathLabel(gr, found))
	fmt.Printf("<%s>: %s\n", pat.Rule, pat)
	// Output:
	// <UnaryExpr>#47 -> <AddExpr>#25 -> "-"#52
	// <MultExpr>: <MultExpr> ("*" | "/" | "%") "(" <AddExpr> "-" <MultExpr> ")"
}
