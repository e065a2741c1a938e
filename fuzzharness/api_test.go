package fuzzharness

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/internal/protocol"
)

// maxExported is the budget of exported names of the package: top-level
// names and methods. fuzzharness holds what a fuzz-test author uses; the
// protocol with the measuring tool lives in internal/protocol.
const maxExported = 61

// TestExportedBudget counts the exported top-level names and methods of
// the package's non-test files and fails above maxExported.
func TestExportedBudget(t *testing.T) {
	names, err := exportedNames(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) > maxExported {
		t.Errorf("fuzzharness exports %d names, more than the budget of %d:\n%s", len(names), maxExported, strings.Join(names, "\n"))
	}
	t.Logf("%d exported names", len(names))
}

// exportedNames returns the exported top-level names and methods
// ("Type.Method", including those of interfaces) declared in the non-test Go files of dir, sorted.
func exportedNames(dir string) ([]string, error) {
	fset := token.NewFileSet()
	notTest := func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }
	pkgs, err := parser.ParseDir(fset, dir, notTest, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if !d.Name.IsExported() {
						continue
					}
					name := d.Name.Name
					if d.Recv != nil && len(d.Recv.List) == 1 {
						name = recvName(d.Recv.List[0].Type) + "." + name
					}
					names = append(names, name)
				case *ast.GenDecl:
					for _, s := range d.Specs {
						switch s := s.(type) {
						case *ast.ValueSpec:
							for _, n := range s.Names {
								if n.IsExported() {
									names = append(names, n.Name)
								}
							}
						case *ast.TypeSpec:
							if !s.Name.IsExported() {
								continue
							}
							names = append(names, s.Name.Name)
							if it, ok := s.Type.(*ast.InterfaceType); ok {
								for _, m := range it.Methods.List {
									for _, n := range m.Names {
										if n.IsExported() {
											names = append(names, s.Name.Name+"."+n.Name)
										}
									}
								}
							}
						}
					}
				}
			}
		}
	}
	sort.Strings(names)
	return names, nil
}

// recvName returns the name of a method's receiver type.
func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvName(e.X)
	case *ast.IndexExpr:
		return recvName(e.X)
	case *ast.IndexListExpr:
		return recvName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return "?"
}

func TestExportedNamesCounted(t *testing.T) {
	dir := t.TempDir()
	src := `package p

const A, b = 1, 2
var (
	C int
	d int
)
type E struct{ F int }
func (E) G() {}
func (*E) h() {}
func I() {}
type j int
func (j) K() {}
type M interface{ N(); o() }
`
	if err := os.WriteFile(dir+"/p.go", []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/p_test.go", []byte("package p\nfunc L() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	names, err := exportedNames(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names, " "); got != "A C E E.G I M M.N j.K" {
		t.Errorf("exported names %q, want A C E E.G I M M.N j.K", got)
	}
}

// TestBoundsDescribed checks that protocol.Bounds, which a description
// holds, has the fields and JSON names of Bounds (a conversion between them
// compiles only if the fields agree; this checks the tags too).
func TestBoundsDescribed(t *testing.T) {
	a, b := reflect.TypeFor[Bounds](), reflect.TypeFor[protocol.Bounds]()
	if a.NumField() != b.NumField() {
		t.Fatalf("%d fields, protocol.Bounds %d", a.NumField(), b.NumField())
	}
	for i := range a.NumField() {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name || fa.Type != fb.Type || fa.Tag != fb.Tag {
			t.Errorf("field %s %s `%s`, protocol.Bounds has %s %s `%s`", fa.Name, fa.Type, fa.Tag, fb.Name, fb.Type, fb.Tag)
		}
	}
}
