package learn_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/learn"
)

// greeting is a tiny input language: a word, then optionally "!" or "?".
const greeting = `
<s>    ::= <word> <mark>? ;
<word> ::= "hi" | "bye" ;
<mark> ::= "!" | "?" ;
`

// greetingModel learns from six inputs of the greeting language and the
// functions each covered (measured, say, by the coverage package).
func greetingModel() (*learn.Model, *grammar.Parser) {
	g, err := grammar.Parse("greeting.bnf", []byte(greeting))
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
	runs := []struct {
		input   string
		covered []string
	}{
		{"hi", []string{"main", "greet"}},
		{"hi!", []string{"main", "greet", "shout"}},
		{"hi?", []string{"main", "greet", "ask"}},
		{"bye", []string{"main"}},
		{"bye!", []string{"main", "shout"}},
		{"bye?", []string{"main", "ask"}},
	}
	var samples []learn.Sample
	for _, r := range runs {
		ps, err := learn.InputPaths(pt, parser, []byte(r.input))
		if err != nil {
			log.Fatal(err)
		}
		samples = append(samples, learn.Sample{Paths: ps, Covered: r.covered})
	}
	ds, err := learn.NewDataset(pt, samples, []string{"main", "unused"})
	if err != nil {
		log.Fatal(err)
	}
	m, err := learn.Learn(ds, learn.Config{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	return m, parser
}

func ExampleLearn() {
	m, _ := greetingModel()
	fmt.Println("functions:", m.Names())
	fmt.Println("always:", m.Always, "never:", m.Never)
	rules, err := m.Rules("shout")
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range rules {
		fmt.Println(r.Format(m.Table))
	}
	// Output:
	// functions: [ask greet main shout unused]
	// always: [main] never: [unused]
	// shout: 2 of 2 training inputs covered (gini 0.00)
	//   requires <mark>: "!"  ["!"#8]
}

func ExampleModel_PredictInput() {
	m, parser := greetingModel()
	for _, input := range []string{"hi?", "bye!"} {
		preds, err := m.PredictInput(parser, []byte(input))
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s:", input)
		for _, p := range preds {
			fmt.Printf(" %s (%.0f%%)", p.Func, 100*p.Prob)
		}
		fmt.Println()
	}
	// Output:
	// hi?: ask (100%) greet (100%) main (100%)
	// bye!: main (100%) shout (100%)
}

func ExampleModel_Generate() {
	m, _ := greetingModel()
	trees, err := m.Generate("greet", 3, &learn.GenerateOptions{Seed: 1, MaxStates: 100})
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range trees {
		fmt.Printf("%q\n", t)
	}
	// Output:
	// "hi"
	// "hi?"
	// "hi!"
}

func ExampleModel_Save() {
	m, _ := greetingModel()
	var file bytes.Buffer
	if err := m.Save(&file); err != nil {
		log.Fatal(err)
	}
	loaded, err := learn.Load(&file, m.Table.Graph)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(loaded.Names())

	// A model is refused for another grammar.
	other := grammar.MustCompile(grammar.MustBuiltin("expr"))
	m.Save(&file)
	_, err = learn.Load(&file, other)
	fmt.Println(err != nil)
	// Output:
	// [ask greet main shout unused]
	// true
}

func ExampleModel_SelectRecall() {
	m, parser := greetingModel()
	var corpus []learn.Input
	for _, input := range []string{"bye", "hi!", "bye!", "hi"} {
		ps, err := m.InputFeatures(parser, []byte(input))
		if err != nil {
			log.Fatal(err)
		}
		corpus = append(corpus, learn.Input{Name: input, Paths: ps, Size: len(input)})
	}
	// Six training inputs are little evidence: CoverProb gives the inputs
	// without "!" a chance of 1/7 (those with "!" 0.6), so a recall of 0.99 would take all
	// four; 0.7 takes two.
	sel, stats, err := m.SelectRecall([]string{"shout"}, corpus, 0.7)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range sel {
		fmt.Printf("%s (%.0f%%)\n", s.Name, 100*s.Prob)
	}
	fmt.Printf("%d inputs, expected recall %.2f\n", stats[0].Selected, stats[0].Expected)
	// Output:
	// hi! (100%)
	// bye! (100%)
	// 2 inputs, expected recall 0.81
}
