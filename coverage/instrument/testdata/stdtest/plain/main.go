// Command plain uses the instrumented standard packages without linking
// the coverage runtime.
package main

import (
	"fmt"

	"example.com/stdtest"
)

func main() {
	for _, in := range stdtest.Inputs {
		stdtest.Exercise(in)
	}
	fmt.Println("ran", len(stdtest.Inputs), "inputs")
}
