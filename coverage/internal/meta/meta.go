// Package meta encodes the description of an instrumented package (its
// files, functions and blocks) that instrumented code hands to package rt,
// and that package coverage decodes into tables.
package meta

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/coverage/rt"
)

// Format is the version of the encoding; rt.Register checks it.
const Format = rt.Format

// Modes lists the counter modes a package may be instrumented in.
var Modes = []string{"hits", "set", "count", "atomic"}

// A Pos is a line and a byte column, both from 1.
type Pos struct{ Line, Col int }

// A Package describes one instrumented package. Block i is counted by
// counter i of the package.
type Package struct {
	Path   string   // import path
	Mode   string   // one of Modes
	Files  []string // file names as in cover profiles: import/path/file.go
	Funcs  []Func
	Blocks []Block
}

// A Func is a function declaration or literal.
type Func struct {
	Name       string // full name: import/path.F
	File       int    // index into Files
	Start, End Pos
	Entry      int // block that starts the body, or -1
	Closure    bool
}

// A Block is a basic block.
type Block struct {
	Func       int // innermost function holding the block
	Start, End Pos
	Stmts      int
}

// Encode returns p as text, one record a line:
//
//	mode count
//	file "import/path/a.go"
//	func FILE "import/path.F" LINE COL ENDLINE ENDCOL ENTRY CLOSURE
//	block FUNC LINE COL ENDLINE ENDCOL STMTS
//
// The import path travels separately.
func (p *Package) Encode() string {
	var b strings.Builder
	fmt.Fprintf(&b, "mode %s\n", p.Mode)
	for _, f := range p.Files {
		fmt.Fprintf(&b, "file %q\n", f)
	}
	for _, f := range p.Funcs {
		c := 0
		if f.Closure {
			c = 1
		}
		fmt.Fprintf(&b, "func %d %q %d %d %d %d %d %d\n", f.File, f.Name, f.Start.Line, f.Start.Col, f.End.Line, f.End.Col, f.Entry, c)
	}
	for _, bl := range p.Blocks {
		fmt.Fprintf(&b, "block %d %d %d %d %d %d\n", bl.Func, bl.Start.Line, bl.Start.Col, bl.End.Line, bl.End.Col, bl.Stmts)
	}
	return b.String()
}

// Decode parses the output of Encode for the package with the given import
// path, checking that its indices are in range.
func Decode(path, text string) (*Package, error) {
	p := &Package{Path: path}
	for n, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if err := p.decodeLine(line); err != nil {
			return nil, fmt.Errorf("metadata of %s, record %d: %v", path, n+1, err)
		}
	}
	valid := false
	for _, m := range Modes {
		valid = valid || p.Mode == m
	}
	if !valid {
		return nil, fmt.Errorf("metadata of %s: no valid mode", path)
	}
	for i, f := range p.Funcs {
		if f.File < 0 || f.File >= len(p.Files) || f.Entry < -1 || f.Entry >= len(p.Blocks) {
			return nil, fmt.Errorf("metadata of %s: function %d out of range", path, i)
		}
	}
	for i, b := range p.Blocks {
		if b.Func < 0 || b.Func >= len(p.Funcs) {
			return nil, fmt.Errorf("metadata of %s: block %d out of range", path, i)
		}
	}
	return p, nil
}

func (p *Package) decodeLine(line string) error {
	kind, rest, _ := strings.Cut(line, " ")
	switch kind {
	case "mode":
		p.Mode = rest
		return nil
	case "file":
		name, err := strconv.Unquote(rest)
		if err != nil {
			return fmt.Errorf("bad file name %s", rest)
		}
		p.Files = append(p.Files, name)
		return nil
	case "func":
		file, rest, _ := strings.Cut(rest, " ")
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return fmt.Errorf("bad function name in %q", line)
		}
		name, _ := strconv.Unquote(q)
		v, err := ints(file + rest[len(q):])
		if err != nil || len(v) != 7 {
			return fmt.Errorf("bad function record %q", line)
		}
		p.Funcs = append(p.Funcs, Func{Name: name, File: v[0],
			Start: Pos{v[1], v[2]}, End: Pos{v[3], v[4]}, Entry: v[5], Closure: v[6] != 0})
		return nil
	case "block":
		v, err := ints(rest)
		if err != nil || len(v) != 6 {
			return fmt.Errorf("bad block record %q", line)
		}
		p.Blocks = append(p.Blocks, Block{Func: v[0], Start: Pos{v[1], v[2]}, End: Pos{v[3], v[4]}, Stmts: v[5]})
		return nil
	}
	return fmt.Errorf("unknown record %q", kind)
}

func ints(s string) ([]int, error) {
	f := strings.Fields(s)
	v := make([]int, len(f))
	for i, x := range f {
		n, err := strconv.Atoi(x)
		if err != nil {
			return nil, err
		}
		v[i] = n
	}
	return v, nil
}
