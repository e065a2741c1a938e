package instrument

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/coverage"
	"github.com/seed72891827/kfuzz/coverage/internal/meta"
	"github.com/seed72891827/kfuzz/coverage/rt"
)

func instrumentSrc(t *testing.T, mode coverage.Mode, srcs ...string) *instrumented {
	t.Helper()
	var files []srcFile
	for i, s := range srcs {
		files = append(files, srcFile{path: fmt.Sprintf("/src/p/f%d.go", i), src: []byte(s)})
	}
	in, err := instrumentPackage("example.com/p", files, mode, "example.com/rt", false)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func TestInstrumentedSource(t *testing.T) {
	const src = `package p

func F(x int) int {
	if x > 0 {
		return 1
	} else {
		x++
	}
	return 0
}
`
	want := map[coverage.Mode]string{
		coverage.ModeCount: `/*line /src/p/f0.go:1:1*/package p

func F(x int) int {_kfuzzcov[0]++;/*line /src/p/f0.go:3:20*/
	if x > 0 {_kfuzzcov[2]++;/*line /src/p/f0.go:4:12*/
		return 1
	} else{_kfuzzcov[3]++;/*line /src/p/f0.go:6:8*/ {
		x++
	}}/*line /src/p/f0.go:8:3*/
	_kfuzzcov[1]++;/*line /src/p/f0.go:9:2*/return 0
}
`,
		coverage.ModeHits: `/*line /src/p/f0.go:1:1*/package p

func F(x int) int {_kfuzzcov[0]++;/*line /src/p/f0.go:3:20*/
	if x > 0 {_kfuzzcov[2] = 1;/*line /src/p/f0.go:4:12*/
		return 1
	} else{_kfuzzcov[3] = 1;/*line /src/p/f0.go:6:8*/ {
		x++
	}}/*line /src/p/f0.go:8:3*/
	_kfuzzcov[1] = 1;/*line /src/p/f0.go:9:2*/return 0
}
`,
		coverage.ModeSet: `/*line /src/p/f0.go:1:1*/package p

func F(x int) int {_kfuzzcov[0] = 1;/*line /src/p/f0.go:3:20*/
	if x > 0 {_kfuzzcov[2] = 1;/*line /src/p/f0.go:4:12*/
		return 1
	} else{_kfuzzcov[3] = 1;/*line /src/p/f0.go:6:8*/ {
		x++
	}}/*line /src/p/f0.go:8:3*/
	_kfuzzcov[1] = 1;/*line /src/p/f0.go:9:2*/return 0
}
`,
		coverage.ModeAtomic: `/*line /src/p/f0.go:1:1*/package p; import _kfuzzatomic "sync/atomic"/*line /src/p/f0.go:1:10*/

func F(x int) int {_kfuzzatomic.AddUint32(&_kfuzzcov[0], 1);/*line /src/p/f0.go:3:20*/
	if x > 0 {_kfuzzatomic.AddUint32(&_kfuzzcov[2], 1);/*line /src/p/f0.go:4:12*/
		return 1
	} else{_kfuzzatomic.AddUint32(&_kfuzzcov[3], 1);/*line /src/p/f0.go:6:8*/ {
		x++
	}}/*line /src/p/f0.go:8:3*/
	_kfuzzatomic.AddUint32(&_kfuzzcov[1], 1);/*line /src/p/f0.go:9:2*/return 0
}


var _ = _kfuzzatomic.AddUint32
`,
	}
	for mode, w := range want {
		in := instrumentSrc(t, mode, src)
		if got := string(in.files[0]); got != w {
			t.Errorf("mode %s:\n%s\nwant\n%s", mode, got, w)
		}
	}

	in := instrumentSrc(t, coverage.ModeCount, src)
	reg := string(in.registry)
	for _, s := range []string{"package p\n", `import _kfuzzrt "example.com/rt"`, "var _kfuzzcov [4]uint32",
		`var _ = _kfuzzrt.Register(1, "example.com/p", _kfuzzcov[:], "mode count\n`} {
		if !strings.Contains(reg, s) {
			t.Errorf("registry file lacks %q:\n%s", s, reg)
		}
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "reg.go", in.registry, 0); err != nil {
		t.Errorf("registry file: %v", err)
	}
}

// goToolCoverBlocks returns the blocks that go tool cover (in its
// single-file mode) finds in file, in the order it numbers them.
func goToolCoverBlocks(t *testing.T, file string) []meta.Block {
	t.Helper()
	out, err := exec.Command("go", "tool", "cover", "-mode=count", "-var=X", file).Output()
	if err != nil {
		t.Fatalf("go tool cover %s: %v", file, err)
	}
	var blocks []meta.Block
	pos := regexp.MustCompile(`(?m)^\t\t(\d+), (\d+), 0x([0-9a-f]+), // \[(\d+)\]$`)
	for _, m := range pos.FindAllStringSubmatch(string(out), -1) {
		sl, _ := strconv.Atoi(m[1])
		el, _ := strconv.Atoi(m[2])
		cols, _ := strconv.ParseUint(m[3], 16, 32)
		blocks = append(blocks, meta.Block{Start: meta.Pos{Line: sl, Col: int(cols & 0xffff)}, End: meta.Pos{Line: el, Col: int(cols >> 16)}})
	}
	stmts := regexp.MustCompile(`(?m)^\t\t(\d+), // (\d+)$`)
	for i, m := range stmts.FindAllStringSubmatch(string(out), -1) {
		if i < len(blocks) {
			blocks[i].Stmts, _ = strconv.Atoi(m[1])
		}
	}
	return blocks
}

// TestBlocksMatchGoToolCover compares the blocks of tricky code with those
// of go tool cover.
func TestBlocksMatchGoToolCover(t *testing.T) {
	files, _ := filepath.Glob("testdata/blocks/*.src")
	if len(files) == 0 {
		t.Fatal("no test files")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			abs, _ := filepath.Abs(file)
			in, err := instrumentPackage("example.com/blocks", []srcFile{{abs, src}}, coverage.ModeCount, "example.com/rt", false)
			if err != nil {
				t.Fatal(err)
			}
			want := goToolCoverBlocks(t, abs)
			if len(in.meta.Blocks) != len(want) {
				t.Errorf("%d blocks, go tool cover finds %d", len(in.meta.Blocks), len(want))
			}
			for i := range min(len(want), len(in.meta.Blocks)) {
				got := in.meta.Blocks[i]
				got.Func = 0
				if got != want[i] {
					t.Errorf("block %d: %v-%v %d statements; go tool cover: %v-%v %d statements",
						i, got.Start, got.End, got.Stmts, want[i].Start, want[i].End, want[i].Stmts)
				}
			}
			checkPositions(t, abs, src, in.files[0])
		})
	}
}

// identPositions returns the identifiers of a file with their positions
// (honouring line directives), leaving out those of the instrumentation.
// With lineOnly, columns are left out.
func identPositions(t testing.TB, name string, src []byte, lineOnly bool) map[string]int {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	ids := make(map[string]int)
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !strings.HasPrefix(id.Name, reservedPrefix) {
			p := fset.Position(id.Pos())
			if lineOnly {
				p.Column = 0
			}
			ids[fmt.Sprintf("%s %s:%d:%d", id.Name, p.Filename, p.Line, p.Column)]++
		}
		return true
	})
	return ids
}

var lineDirective = regexp.MustCompile(`//line |/\*line `)

// checkPositions checks that every identifier of src keeps its position
// (file, line and column; only the line in files with line directives of
// their own) in the instrumented out.
func checkPositions(t testing.TB, name string, src, out []byte) {
	t.Helper()
	lineOnly := lineDirective.Match(src)
	want := identPositions(t, name, src, lineOnly)
	// Parse the output under the same name, so that relative file names
	// in line directives resolve alike.
	got := identPositions(t, name, out, lineOnly)
	for k, n := range want {
		if got[k] != n {
			t.Errorf("identifier %s: %d times in the instrumented code, want %d", k, got[k], n)
		}
	}
	for k, n := range got {
		if want[k] == 0 {
			t.Errorf("instrumented code has identifier %s %d times", k, n)
		}
	}
}

func TestFuncNames(t *testing.T) {
	a := `package p

import "sort"

// Variables are initialized in the order c (and d), e, b, a: the earliest
// whose dependencies are initialized comes first.
var a = b + func() int { return 1 }()
var b = dep() + func() int { return func() int { return 2 }() }()
var c, d = func() int { return 3 }, 4

func dep() int { return e }

var e = func() int { return 5 }()

func init() { go func() {}() }

type T struct{}
type G[K comparable, V any] struct{}

func (T) Value()               {}
func (*T) Ptr()                { defer func() {}(); _ = func() { func() {}() } }
func (t (T)) Paren()           {}
func (t *(T)) ParenPtr()       {}
func (g G[K, V]) Gen()         {}
func (g *G[K, V]) GenPtr()     { sort.Slice(nil, func(i, j int) bool { return false }) }
func Generic[T any](x T) T     { return x }
func _()                       {}
func Plain(e int) int          { local := func() int { return e }; return local() }
`
	b := `package p

var f = func() {}

func init() {}
`
	in := instrumentSrc(t, coverage.ModeCount, a, b)
	var got []string
	for _, f := range in.meta.Funcs {
		got = append(got, strings.TrimPrefix(f.Name, "example.com/p."))
	}
	want := []string{
		"init.func4", "init.func3", "init.func3.1", "init.func1", "dep", "init.func2",
		"init.0", "init.0.func1", "T.Value", "(*T).Ptr", "(*T).Ptr.func1", "(*T).Ptr.func2", "(*T).Ptr.func2.1",
		"T.Paren", "(*T).ParenPtr", "G[...].Gen", "(*G[...]).GenPtr", "(*G[...]).GenPtr.func1",
		"Generic[...]", "Plain", "Plain.func1",
		"init.func5", "init.1",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("names\n%v\nwant\n%v", got, want)
	}
	for _, f := range in.meta.Funcs {
		closure := strings.Contains(f.Name, ".func")
		if f.Closure != closure {
			t.Errorf("%s: closure = %v", f.Name, f.Closure)
		}
		if f.Entry < 0 || in.meta.Blocks[f.Entry].Start.Line != f.Start.Line {
			t.Errorf("%s: entry block %d does not start on line %d", f.Name, f.Entry, f.Start.Line)
		}
	}
}

func TestInstrumentErrors(t *testing.T) {
	tests := []struct {
		srcs []string
		mode coverage.Mode
		want string
	}{
		{[]string{"package p\n\nfunc f() {\n\tx := 1 +\n}\n"}, coverage.ModeCount, "/src/p/f0.go:5:1: expected operand"},
		{[]string{"package p\n\nvar _kfuzzx = 1\n"}, coverage.ModeCount, "/src/p/f0.go:3:5: identifier _kfuzzx is reserved"},
		{[]string{"package p\n", "package q\n"}, coverage.ModeCount, "/src/p/f1.go: package q; expected package p"},
		{[]string{"package p\n"}, "fast", `unknown mode "fast" (want hits, set, count or atomic)`},
		{nil, coverage.ModeCount, "has no Go files"},
	}
	for _, tt := range tests {
		var files []srcFile
		for i, s := range tt.srcs {
			files = append(files, srcFile{path: fmt.Sprintf("/src/p/f%d.go", i), src: []byte(s)})
		}
		_, err := instrumentPackage("example.com/p", files, tt.mode, "example.com/rt", false)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %q", tt.srcs, err, tt.want)
		}
	}
	// Syntax errors of several files come sorted and together.
	_, err := instrumentPackage("example.com/p", []srcFile{
		{"/b.go", []byte("package p\nfunc (")}, {"/a.go", []byte("package p\nvar = 1")},
	}, coverage.ModeCount, "example.com/rt", false)
	list, ok := err.(scanner.ErrorList)
	if !ok || len(list) < 2 || list[0].Pos.Filename != "/a.go" {
		t.Errorf("error %v, want a sorted list for both files", err)
	}
}

// FuzzInstrument checks that instrumenting any valid source never panics
// and yields valid source in which every identifier keeps its position.
func FuzzInstrument(f *testing.F) {
	files, _ := filepath.Glob("testdata/blocks/*.src")
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src, uint8(1))
		}
	}
	f.Add([]byte("package p\nfunc f() { L: goto L }\n"), uint8(0))
	f.Add([]byte("package p\nfunc f(x int) { if x > 0 {} else if x < 0 {} else {} }\n"), uint8(2))
	f.Add([]byte("package p\nvar v = func() int { return 1 }()\n"), uint8(7))
	f.Fuzz(func(t *testing.T, src []byte, m uint8) {
		if _, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0); err != nil {
			return
		}
		mode := []coverage.Mode{coverage.ModeSet, coverage.ModeCount, coverage.ModeAtomic, coverage.ModeHits}[m%4]
		std := m&4 != 0 // as a standard-library package
		in, err := instrumentPackage("example.com/p", []srcFile{{"/src/x.go", src}}, mode, "example.com/rt", std)
		if err != nil {
			if !strings.Contains(err.Error(), "reserved") {
				t.Fatalf("error for valid source: %v", err)
			}
			return
		}
		if mode == coverage.ModeAtomic {
			if _, err := parser.ParseFile(token.NewFileSet(), "out.go", in.files[0], 0); err != nil {
				t.Fatalf("instrumented source does not parse: %v\n%s", err, in.files[0])
			}
		} else {
			checkPositions(t, "/src/x.go", src, in.files[0])
		}
		if _, err := meta.Decode("example.com/p", in.meta.Encode()); err != nil {
			t.Fatal(err)
		}
		if _, err := parser.ParseFile(token.NewFileSet(), registryFile, in.registry, 0); err != nil {
			t.Fatalf("registration file (std %v) does not parse: %v\n%s", std, err, in.registry)
		}
	})
}

// TestStdRegistryLayout checks that the registration file of a standard
// package declares its description with the fields of rt.StdPackage, links
// it into rt's list under rt.StdList and imports nothing but unsafe.
func TestStdRegistryLayout(t *testing.T) {
	in, err := instrumentPackage("encoding/p", []srcFile{{"/goroot/src/encoding/p/p.go", []byte("package p\n\nfunc F() {}\n")}},
		coverage.ModeHits, rtPath, true)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, registryFile, in.registry, parser.ParseComments)
	if err != nil {
		t.Fatalf("%v\n%s", err, in.registry)
	}
	if len(f.Imports) != 1 || f.Imports[0].Path.Value != `"unsafe"` {
		t.Errorf("registration file imports %v, want unsafe only", f.Imports)
	}
	var fields []string
	ast.Inspect(f, func(n ast.Node) bool {
		if ts, ok := n.(*ast.TypeSpec); ok && ts.Name.Name == stdType {
			for _, fl := range ts.Type.(*ast.StructType).Fields.List {
				var typ bytes.Buffer
				format.Node(&typ, fset, fl.Type)
				for _, name := range fl.Names {
					fields = append(fields, name.Name+" "+strings.ReplaceAll(typ.String(), unsafeName+".", "unsafe."))
				}
			}
		}
		return true
	})
	var want []string
	rtType := reflect.TypeFor[rt.StdPackage]()
	for i := range rtType.NumField() {
		fl := rtType.Field(i)
		want = append(want, fl.Name+" "+fl.Type.String())
	}
	if fmt.Sprint(fields) != fmt.Sprint(want) {
		t.Errorf("registration type has fields %q, rt.StdPackage %q", fields, want)
	}
	src := string(in.registry)
	for _, s := range []string{"//go:linkname " + stdHead + " " + rt.StdList + "\n", "Format: " + strconv.Itoa(rt.Format) + ",", `Path: "encoding/p"`} {
		if !strings.Contains(src, s) {
			t.Errorf("registration file lacks %q:\n%s", s, src)
		}
	}
	if strings.Contains(string(in.files[0]), "import") {
		t.Errorf("hits mode adds an import to a standard file:\n%s", in.files[0])
	}
}
