package coverage

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDependencies checks that coverage and the packages it imports import
// nothing but the standard library and each other: the file that kfuzz adds
// to a user's test package imports coverage, and must build with the
// go.sum lines that requiring kfuzz adds.
func TestDependencies(t *testing.T) {
	const module = "github.com/seed72891827/kfuzz/"
	dirs := map[string]string{
		module + "coverage":               ".",
		module + "coverage/rt":            "rt",
		module + "coverage/internal/meta": "internal/meta",
	}
	for path, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, spec := range f.Imports {
				imp, _ := strconv.Unquote(spec.Path.Value)
				first, _, _ := strings.Cut(imp, "/")
				if strings.Contains(first, ".") && dirs[imp] == "" {
					t.Errorf("%s (%s) imports %s; coverage may import only the standard library, rt and internal/meta", path, file, imp)
				}
			}
		}
	}
}
