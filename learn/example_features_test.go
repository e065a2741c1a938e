package learn_test

import (
	"fmt"
	"log"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/learn"
)

// A function covered by inputs with at least three items is learned with
// count features, which k-paths cannot express.
func ExampleConfig_features() {
	g, err := grammar.Parse("list.bnf", []byte(`<list> ::= "[" <item>* "]" ; <item> ::= "a" | "b" ;`))
	if err != nil {
		log.Fatal(err)
	}
	gr := grammar.MustCompile(g)
	pt, err := gr.PathTable(learn.DefaultFeatureK)
	if err != nil {
		log.Fatal(err)
	}
	parser, err := grammar.NewParser(gr)
	if err != nil {
		log.Fatal(err)
	}
	var samples []learn.Sample
	for _, input := range []string{"[]", "[a]", "[ab]", "[ba]", "[aba]", "[bbb]", "[abab]", "[bb]"} {
		ps, tree, err := learn.ParseInput(pt, parser, []byte(input))
		if err != nil {
			log.Fatal(err)
		}
		var covered []string
		if len(input) >= 5 {
			covered = []string{"long"}
		}
		samples = append(samples, learn.Sample{Paths: ps, Covered: covered, Shape: learn.NewShape(tree)})
	}
	ds, err := learn.NewDataset(pt, samples, nil)
	if err != nil {
		log.Fatal(err)
	}
	kinds, err := learn.ParseFeatureKinds("kpath,count")
	if err != nil {
		log.Fatal(err)
	}
	m, err := learn.Learn(ds, learn.Config{Seed: 1, Features: kinds, NoBalance: true})
	if err != nil {
		log.Fatal(err)
	}
	rules, err := m.Rules("long")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rules[0].Format(m.Table))
	for _, input := range []string{"[ab]", "[bab]"} {
		ps, err := m.InputFeatures(parser, []byte(input))
		if err != nil {
			log.Fatal(err)
		}
		p, err := m.Classify("long", ps)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(input, p.Covered)
	}
	// Output:
	// long: 3 of 3 training inputs covered (gini 0.00)
	//   requires count(<item>) >= 3
	// [ab] false
	// [bab] true
}
