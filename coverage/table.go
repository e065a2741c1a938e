package coverage

import (
	"fmt"
	"sort"

	"github.com/seed72891827/kfuzz/coverage/internal/meta"
)

// A Pos is a position in a source file, as go tool cover records it: a line
// and a byte column, both counted from 1.
type Pos struct {
	Line, Col int
}

// String returns "line:col".
func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// before reports whether p comes before q.
func (p Pos) before(q Pos) bool {
	return p.Line < q.Line || p.Line == q.Line && p.Col < q.Col
}

// A Func describes one function: a function or method declaration or a
// function literal.
type Func struct {
	// Name is the function's name as the runtime spells it, with the
	// unescaped import path: "import/path.F", "import/path.(*T).M",
	// "import/path.T.M", "import/path.G[...]", closures
	// "import/path.F.func1" (and "import/path.F.func1.1" for one inside
	// it), init functions "import/path.init.0" and closures in
	// package-level variables "import/path.init.func1".
	Name string
	// Package is the import path.
	Package string
	// File is the source file as cover profiles name it:
	// "import/path/file.go". It is empty if unknown.
	File string
	// Start and End delimit the function in File, from the keyword func
	// to just past the closing brace. They are zero if unknown.
	Start, End Pos
	// Closure reports whether the function is a function literal.
	Closure bool
}

// A Block is a basic block as go tool cover splits function bodies: a run
// of statements executed together.
type Block struct {
	// Func is the index of the innermost function holding the block.
	Func int
	// Start and End delimit the block in the function's file.
	Start, End Pos
	// NumStmt is the number of statements in the block.
	NumStmt int
}

// A Table lists functions and their blocks by index. Packages come in order
// of import path, functions and blocks of a package in source order, so two
// tables of the same packages agree on indices. Indices are meaningful only
// within one table; function names are the key across tables and
// processes.
//
// A Table may also hold functions known only by name (see [Table.Add]),
// for instance when sets of covered functions are read back from a file.
//
// Methods other than Add may be called concurrently.
type Table struct {
	funcs  []Func
	entry  []int // block that counts entries of each function, -1 if none
	blocks []Block
	byName map[string]int
	pkgs   []tablePkg
	byFile map[string][]int // functions of each file, in order of Start
}

type tablePkg struct {
	path      string
	mode      Mode
	funcBase  int
	blockBase int
	nblocks   int
}

// NewTable returns an empty table.
func NewTable() *Table {
	return &Table{byName: make(map[string]int), byFile: make(map[string][]int)}
}

// Metadata describes the functions and blocks of one instrumented package,
// as the instrumented code hands it to package rt.
type Metadata struct {
	Path string // import path
	Text string // the description, in an encoding internal to kfuzz
}

// NewTableFromMetadata returns the table of the instrumented packages that
// pkgs describe, sorted by import path.
func NewTableFromMetadata(pkgs []Metadata) (*Table, error) {
	metas := make([]*meta.Package, len(pkgs))
	for i, p := range pkgs {
		m, err := meta.Decode(p.Path, p.Text)
		if err != nil {
			return nil, fmt.Errorf("coverage: %v", err)
		}
		metas[i] = m
	}
	sort.SliceStable(metas, func(i, j int) bool { return metas[i].Path < metas[j].Path })
	for i := 1; i < len(metas); i++ {
		if metas[i].Path == metas[i-1].Path {
			return nil, fmt.Errorf("coverage: package %s described twice", metas[i].Path)
		}
	}
	t := NewTable()
	for _, m := range metas {
		fb, bb := len(t.funcs), len(t.blocks)
		t.pkgs = append(t.pkgs, tablePkg{path: m.Path, mode: Mode(m.Mode), funcBase: fb, blockBase: bb, nblocks: len(m.Blocks)})
		for _, f := range m.Funcs {
			entry := -1
			if f.Entry >= 0 {
				entry = bb + f.Entry
			}
			t.addFunc(Func{Name: f.Name, Package: m.Path, File: m.Files[f.File], Start: Pos(f.Start), End: Pos(f.End), Closure: f.Closure}, entry)
		}
		for _, b := range m.Blocks {
			t.blocks = append(t.blocks, Block{Func: fb + b.Func, Start: Pos(b.Start), End: Pos(b.End), NumStmt: b.Stmts})
		}
	}
	return t, nil
}

func (t *Table) addFunc(f Func, entry int) int {
	i := len(t.funcs)
	t.funcs = append(t.funcs, f)
	t.entry = append(t.entry, entry)
	if _, dup := t.byName[f.Name]; !dup {
		t.byName[f.Name] = i
	}
	if f.File != "" {
		// Keep the functions of each file in order of Start.
		fs := append(t.byFile[f.File], i)
		for k := len(fs) - 1; k > 0 && f.Start.before(t.funcs[fs[k-1]].Start); k-- {
			fs[k], fs[k-1] = fs[k-1], fs[k]
		}
		t.byFile[f.File] = fs
	}
	return i
}

// Add adds a function known only by its description (it has no blocks) and
// returns its index. If a function of that name is in the table already,
// Add returns its index and changes nothing.
func (t *Table) Add(f Func) int {
	if i, ok := t.byName[f.Name]; ok {
		return i
	}
	return t.addFunc(f, -1)
}

// Len returns the number of functions.
func (t *Table) Len() int { return len(t.funcs) }

// Func returns function i.
func (t *Table) Func(i int) Func { return t.funcs[i] }

// Lookup returns the index of the function with the given name.
func (t *Table) Lookup(name string) (int, bool) {
	i, ok := t.byName[name]
	return i, ok
}

// NumBlocks returns the number of blocks.
func (t *Table) NumBlocks() int { return len(t.blocks) }

// Block returns block i.
func (t *Table) Block(i int) Block { return t.blocks[i] }

// Packages returns the import paths of the instrumented packages in the
// table, sorted.
func (t *Table) Packages() []string {
	var s []string
	for _, p := range t.pkgs {
		s = append(s, p.path)
	}
	return s
}

// Mode returns the counter mode of the instrumented packages: the mode they
// share, or ModeCount if they differ or the table has none.
func (t *Table) Mode() Mode {
	if len(t.pkgs) == 0 {
		return ModeCount
	}
	m := t.pkgs[0].mode
	for _, p := range t.pkgs[1:] {
		if p.mode != m {
			return ModeCount
		}
	}
	return m
}

// FuncAt returns the innermost function of file (named as in cover
// profiles) whose extent holds pos.
func (t *Table) FuncAt(file string, pos Pos) (int, bool) {
	best := -1
	for _, i := range t.byFile[file] {
		f := t.funcs[i]
		if pos.before(f.Start) {
			break
		}
		if pos.before(f.End) {
			best = i // later starts are nested deeper
		}
	}
	return best, best >= 0
}
