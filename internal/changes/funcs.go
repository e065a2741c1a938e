package changes

import (
	"context"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/coverage/instrument"
	"github.com/seed72891827/kfuzz/internal/gocmd"
)

// A FuncExtent is where a function is in its source file.
type FuncExtent struct {
	// Name is the function's name as the runtime and the coverage package
	// spell it: import/path.F, import/path.T.M, import/path.(*T).M,
	// import/path.G[...], import/path.init.0, and for function literals
	// import/path.F.func1 (the first literal directly in F),
	// import/path.F.func1.1 (the first literal in F.func1).
	Name string
	// File is the path of the source file.
	File string
	// Start and End are the lines (from 1) of the "func" keyword and of
	// the closing brace.
	Start, End int
	// Closure reports whether the function is a function literal.
	Closure bool
}

// PackageFuncs returns the functions of the Go package in dir, as compiled
// for the default build context (test files excluded), named with the
// package's import path. If file is not empty, only the files of the package
// that file belongs to are considered (a directory may hold a package and
// files excluded by build constraints or of another package name).
//
// Function literals in package-level variable initializers are numbered
// init.func1, init.func2, ... in source order; the compiler numbers them in
// initialization order, which differs when an initializer depends on a
// variable declared after it.
func PackageFuncs(dir, importPath string) ([]FuncExtent, error) {
	return packageFuncs(dir, importPath, "")
}

func packageFuncs(dir, importPath, pkgName string) ([]FuncExtent, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, name); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		if pkgName != "" && f.Name.Name != pkgName {
			continue
		}
		if pkgName == "" {
			pkgName = f.Name.Name
		}
		if f.Name.Name == pkgName {
			files = append(files, f)
		}
	}
	n := namer{fset: fset, prefix: importPath + "."}
	n.name(files)
	return n.out, nil
}

// namer names the functions of one package like the compiler.
type namer struct {
	fset   *token.FileSet
	prefix string
	out    []FuncExtent
}

func (n *namer) add(name string, node ast.Node, closure bool) {
	start, end := n.fset.Position(node.Pos()), n.fset.Position(node.End())
	n.out = append(n.out, FuncExtent{Name: n.prefix + name, File: start.Filename, Start: start.Line, End: end.Line, Closure: closure})
}

func (n *namer) name(files []*ast.File) {
	inits := 0
	pkgLits := 0
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Body == nil {
					continue
				}
				name := instrument.FuncName(d)
				if d.Recv == nil && d.Name.Name == "init" {
					name = "init." + strconv.Itoa(inits)
					inits++
				}
				n.add(name, d, false)
				n.literals(d.Body, name, true)
			case *ast.GenDecl:
				// Literals in package-level initializers.
				ast.Inspect(d, func(x ast.Node) bool {
					if lit, ok := x.(*ast.FuncLit); ok {
						pkgLits++
						name := "init.func" + strconv.Itoa(pkgLits)
						n.add(name, lit, true)
						n.literals(lit.Body, name, false)
						return false
					}
					return true
				})
			}
		}
	}
}

// literals names the function literals directly inside body, which belongs
// to the function called outer, and recursively those inside them.
func (n *namer) literals(body ast.Node, outer string, decl bool) {
	k := 0
	ast.Inspect(body, func(x ast.Node) bool {
		lit, ok := x.(*ast.FuncLit)
		if !ok {
			return true
		}
		k++
		name := outer + "." + strconv.Itoa(k)
		if decl {
			name = outer + ".func" + strconv.Itoa(k)
		}
		n.add(name, lit, true)
		n.literals(lit.Body, name, false)
		return false
	})
}

// ChangedFuncs returns the functions a diff changes, sorted: for every
// changed Go file of the new version (test files excluded), the innermost
// function that contains an added or changed line, or that encloses a
// deletion (the lines before and after it are both in the function). root is
// the directory the diff's paths are relative to; importPath returns the
// import path of the package in a directory (ImportPath does so with the go
// command).
func ChangedFuncs(changes []FileChange, root string, importPath func(dir string) (string, error)) ([]string, error) {
	type pkg struct {
		funcs []FuncExtent
	}
	pkgs := map[string]*pkg{} // by directory and package name
	names := map[string]bool{}
	for _, c := range changes {
		if !strings.HasSuffix(c.Path, ".go") || strings.HasSuffix(c.Path, "_test.go") {
			continue
		}
		file := filepath.Join(root, filepath.FromSlash(c.Path))
		if stripped, ok := strippedPath(c, root); ok {
			file = stripped
		}
		dir := filepath.Dir(file)
		fset := token.NewFileSet()
		head, err := parser.ParseFile(fset, file, nil, parser.PackageClauseOnly)
		if err != nil {
			return nil, err
		}
		if ok, err := build.Default.MatchFile(dir, filepath.Base(file)); err != nil || !ok {
			continue // not compiled
		}
		key := dir + "\x00" + head.Name.Name
		p := pkgs[key]
		if p == nil {
			path, err := importPath(dir)
			if err != nil {
				return nil, fmt.Errorf("import path of %s: %w", dir, err)
			}
			funcs, err := packageFuncs(dir, path, head.Name.Name)
			if err != nil {
				return nil, err
			}
			p = &pkg{funcs}
			pkgs[key] = p
		}
		abs, _ := filepath.Abs(file)
		var inFile []FuncExtent
		for _, f := range p.funcs {
			if fa, _ := filepath.Abs(f.File); fa == abs {
				inFile = append(inFile, f)
			}
		}
		// The innermost function: the narrowest; among equally narrow ones
		// (on one line) the last, as literals follow their enclosing function.
		innermost := func(lo, hi int) (string, bool) {
			best := -1
			for i, f := range inFile {
				if f.Start <= lo && hi <= f.End && (best < 0 || f.End-f.Start <= inFile[best].End-inFile[best].Start) {
					best = i
				}
			}
			if best < 0 {
				return "", false
			}
			return inFile[best].Name, true
		}
		for _, l := range c.Added {
			if name, ok := innermost(l, l); ok {
				names[name] = true
			}
		}
		for _, d := range c.Deleted {
			if name, ok := innermost(d, d+1); ok {
				names[name] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(names)), nil
}

// strippedPath returns the file a change names under root when the diff
// compared two trees a/ and b/ (diff -u a/x.go b/x.go, or diff -ru a b) and
// root holds the new tree's files themselves: the new path without its b/,
// if the path as written does not exist under root and the stripped one
// does. git diff's prefixes are dropped when the diff is read; this is the
// same convention in a diff that diff -u wrote.
func strippedPath(c FileChange, root string) (string, bool) {
	rest, ok := strings.CutPrefix(c.Path, "b/")
	if !ok || (c.OldPath != "" && !strings.HasPrefix(c.OldPath, "a/")) {
		return "", false
	}
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(c.Path))); err == nil {
		return "", false
	}
	file := filepath.Join(root, filepath.FromSlash(rest))
	if _, err := os.Stat(file); err != nil {
		return "", false
	}
	return file, true
}

// ImportPath returns the import path of the package in dir, as go list
// run in that directory reports it.
func ImportPath(ctx context.Context, dir string) (string, error) {
	pkgs, err := gocmd.List[struct{ ImportPath string }](ctx, gocmd.Runner{Dir: dir}, "--", ".")
	if err != nil {
		return "", err
	}
	if len(pkgs) != 1 {
		return "", fmt.Errorf("go list in %s listed %d packages", dir, len(pkgs))
	}
	return pkgs[0].ImportPath, nil
}
