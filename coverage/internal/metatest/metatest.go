// Package metatest makes descriptions of made-up instrumented packages for
// the tests of coverage and its subpackages.
package metatest

import (
	"fmt"

	"github.com/seed72891827/kfuzz/coverage/internal/meta"
)

// Package describes a package path with nfuncs functions F0, F1, ... of per
// blocks each, in count mode, in the file path/f.go. Function f spans lines
// 1+f*(per+2) (column 1) to per+1 lines later (column 2); its blocks take one
// line each from column 10, and the first is its entry. Block b holds 1+b%3
// statements.
func Package(path string, nfuncs, per int) *meta.Package {
	m := &meta.Package{Path: path, Mode: "count", Files: []string{path + "/f.go"}}
	for f := range nfuncs {
		line := 1 + f*(per+2)
		m.Funcs = append(m.Funcs, meta.Func{Name: fmt.Sprintf("%s.F%d", path, f), Start: meta.Pos{Line: line, Col: 1},
			End: meta.Pos{Line: line + per + 1, Col: 2}, Entry: len(m.Blocks)})
		for b := range per {
			m.Blocks = append(m.Blocks, meta.Block{Func: f, Start: meta.Pos{Line: line + b, Col: 10},
				End: meta.Pos{Line: line + b + 1, Col: 1}, Stmts: 1 + b%3})
		}
	}
	return m
}
