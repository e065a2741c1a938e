package measure_test

import (
	"context"
	"fmt"
	"log"

	"github.com/seed72891827/kfuzz/internal/measure"
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
