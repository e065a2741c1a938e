package islearn_test

import (
	"context"
	"fmt"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/learn/islearn"
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
