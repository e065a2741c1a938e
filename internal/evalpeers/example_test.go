package evalpeers_test

import (
	"fmt"

	"github.com/seed72891827/kfuzz/internal/evalpeers"
)

func ExampleMutate() {
	src := []byte("package p\n\nfunc half(x int) int {\n\treturn x / 2\n}\n")
	out, err := evalpeers.Mutate("p.go", src, []evalpeers.Fault{
		{ID: 1, File: "p.go", Anchor: "return x / 2", Before: true, Cond: "x == 7"},
	})
	fmt.Print(string(out), err)
	// Output:
	// package p
	//
	// func half(x int) int {
	// 	if x == 7 { kfuzzFault(1) }
	// 	return x / 2
	// }
	// <nil>
}
