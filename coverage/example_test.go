package coverage_test

import (
	"errors"
	"fmt"

	"github.com/seed72891827/kfuzz/coverage"
)

func ExampleFuncSet() {
	t := coverage.NewTable()
	parse := t.Add(coverage.Func{Name: "example.com/calc.Parse"})
	eval := t.Add(coverage.Func{Name: "example.com/calc.Eval"})
	errMethod := t.Add(coverage.Func{Name: "example.com/calc.(*Error).Error"})

	valid := coverage.NewFuncSet(t) // covered by a valid input
	valid.Add(parse)
	valid.Add(eval)
	invalid := coverage.NewFuncSet(t) // covered by an invalid one
	invalid.Add(parse)
	invalid.Add(errMethod)

	fmt.Println(valid.Union(invalid))
	fmt.Println(valid.Intersect(invalid))
	fmt.Println(invalid.Difference(valid).Names())
	// Output:
	// {example.com/calc.(*Error).Error, example.com/calc.Eval, example.com/calc.Parse}
	// {example.com/calc.Parse}
	// [example.com/calc.(*Error).Error]
}

func ExampleMeasure() {
	// This example's binary is not instrumented.
	_, err := coverage.Measure(func() { fmt.Println("not run") })
	if errors.Is(err, coverage.ErrNotInstrumented) {
		fmt.Println("not instrumented")
	}
	// Output: not instrumented
}
