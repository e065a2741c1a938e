package coverage

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/coverage/rt"
)

// metaFormat is the version of the encoding below; rt.Register checks it.
const metaFormat = rt.Format

// pkgMeta describes the functions and blocks of one instrumented package.
// Block i is counted by counter i of the package.
type pkgMeta struct {
	path   string
	mode   Mode
	files  []string // file names as in cover profiles: import/path/file.go
	funcs  []metaFunc
	blocks []metaBlock
}

type metaFunc struct {
	name       string // full name, import/path.F
	file       int    // index into files
	start, end Pos
	entry      int // block that starts the body
	closure    bool
}

type metaBlock struct {
	fn         int // innermost function holding the block
	start, end Pos
	stmts      int
}

// encode returns m as text, one record a line:
//
//	mode count
//	file "import/path/a.go"
//	func FILE "import/path.F" LINE COL ENDLINE ENDCOL ENTRY CLOSURE
//	block FUNC LINE COL ENDLINE ENDCOL STMTS
//
// The import path itself travels separately.
func (m *pkgMeta) encode() string {
	var b strings.Builder
	fmt.Fprintf(&b, "mode %s\n", m.mode)
	for _, f := range m.files {
		fmt.Fprintf(&b, "file %q\n", f)
	}
	for _, f := range m.funcs {
		c := 0
		if f.closure {
			c = 1
		}
		fmt.Fprintf(&b, "func %d %q %d %d %d %d %d %d\n", f.file, f.name, f.start.Line, f.start.Col, f.end.Line, f.end.Col, f.entry, c)
	}
	for _, bl := range m.blocks {
		fmt.Fprintf(&b, "block %d %d %d %d %d %d\n", bl.fn, bl.start.Line, bl.start.Col, bl.end.Line, bl.end.Col, bl.stmts)
	}
	return b.String()
}

// decodeMeta parses the output of encode.
func decodeMeta(path, s string) (*pkgMeta, error) {
	m := &pkgMeta{path: path}
	for n, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		if err := m.decodeLine(line); err != nil {
			return nil, fmt.Errorf("coverage: metadata of %s, record %d: %v", path, n+1, err)
		}
	}
	if !m.mode.valid() {
		return nil, fmt.Errorf("coverage: metadata of %s: no valid mode", path)
	}
	for i, f := range m.funcs {
		if f.file < 0 || f.file >= len(m.files) || f.entry < -1 || f.entry >= len(m.blocks) {
			return nil, fmt.Errorf("coverage: metadata of %s: function %d out of range", path, i)
		}
	}
	for i, b := range m.blocks {
		if b.fn < 0 || b.fn >= len(m.funcs) {
			return nil, fmt.Errorf("coverage: metadata of %s: block %d out of range", path, i)
		}
	}
	return m, nil
}

func (m *pkgMeta) decodeLine(line string) error {
	kind, rest, _ := strings.Cut(line, " ")
	switch kind {
	case "mode":
		m.mode = Mode(rest)
		return nil
	case "file":
		name, err := strconv.Unquote(rest)
		if err != nil {
			return fmt.Errorf("bad file name %s", rest)
		}
		m.files = append(m.files, name)
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
		m.funcs = append(m.funcs, metaFunc{name: name, file: v[0],
			start: Pos{v[1], v[2]}, end: Pos{v[3], v[4]}, entry: v[5], closure: v[6] != 0})
		return nil
	case "block":
		v, err := ints(rest)
		if err != nil || len(v) != 6 {
			return fmt.Errorf("bad block record %q", line)
		}
		m.blocks = append(m.blocks, metaBlock{fn: v[0], start: Pos{v[1], v[2]}, end: Pos{v[3], v[4]}, stmts: v[5]})
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
