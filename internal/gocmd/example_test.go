package gocmd_test

import (
	"context"
	"fmt"
	"log"

	"github.com/seed72891827/kfuzz/internal/gocmd"
)

// List decodes go list -json into a struct of the fields wanted; the
// fields are asked for by name.
func ExampleList() {
	type pkg struct {
		ImportPath string
		Name       string
		Standard   bool
	}
	pkgs, err := gocmd.List[pkg](context.Background(), gocmd.Runner{}, "--", ".", "strings")
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range pkgs {
		fmt.Println(p.ImportPath, p.Name, p.Standard)
	}
	// Output:
	// github.com/seed72891827/kfuzz/internal/gocmd gocmd false
	// strings strings true
}
