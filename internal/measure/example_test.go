package measure_test

import (
	"context"
	"fmt"
	"log"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/internal/measure"
	"github.com/seed72891827/kfuzz/internal/protocol"
)

// Measure runs examples/calc's fuzz test FuzzCalc over three inputs and
// tells which of them reach the distributive law of its simplifier.
func ExampleMeasure() {
	rep, err := measure.Measure(context.Background(),
		measure.Config{Dir: "../../examples/calc", Target: "FuzzCalc"},
		[]measure.Input{
			{ID: "a", Text: "x*(y+1)"},
			{ID: "b", Text: "x*y+1"},
			{ID: "c", Text: "x*("},
		})
	if err != nil {
		log.Fatal(err)
	}
	for _, res := range rep.Results {
		fmt.Printf("%s %q %s distribute=%v\n", res.ID, res.Input, res.Status,
			res.Funcs.HasName("github.com/seed72891827/kfuzz/examples/calc.(*simplifier).distribute"))
	}
	// Output:
	// a "x*(y+1)" pass distribute=true
	// b "x*y+1" pass distribute=false
	// c "x*(" error distribute=false
}

// SeedInputs turns a harness's description, as Runner.Describe returns
// it, into the seeds that the harness adds: here the examples only.
func ExampleSeedInputs() {
	d := &protocol.Description{
		Target:   "FuzzWords",
		Grammar:  `<words> ::= <word> (" " <word>)* ; <word> ::= [a-z]+ ;`,
		Start:    "words",
		Bounds:   protocol.Bounds{MaxDepth: 10, MaxSize: 100, MaxRepeat: 8},
		Examples: []string{"hello world", "go"},
	}
	ins, err := measure.SeedInputs(d)
	if err != nil {
		log.Fatal(err)
	}
	gr, err := d.Graph()
	if err != nil {
		log.Fatal(err)
	}
	codec, err := fuzzharness.NewCodec(gr, fuzzharness.WithBounds(fuzzharness.Bounds(d.Bounds)))
	if err != nil {
		log.Fatal(err)
	}
	for _, in := range ins {
		fmt.Printf("%s %q\n", in.ID, codec.Decode(in.Data))
	}
	// Output:
	// seed#1 "hello world"
	// seed#2 "go"
}
