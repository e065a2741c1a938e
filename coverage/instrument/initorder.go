package instrument

import (
	"go/ast"
	"go/token"
	"strconv"
)

// initUnit is one initialization of package-level variables: a variable with
// its initializer, or several variables sharing one multi-valued
// initializer.
type initUnit struct {
	names []string
	exprs []ast.Expr
	lits  []*ast.FuncLit // function literals outside other literals, in source order
}

// packageLitNames names the function literals in package-level variable
// declarations the way the compiler does: init.func1, init.func2, ... in
// the order in which the variables are initialized, which the Go
// specification defines by their dependencies.
//
// The dependencies are found without type information: an identifier
// refers to the package-level variable or function of its name unless the
// function or literal it appears in declares that name. References through
// methods are not followed. Within those limits the names are exact.
func packageLitNames(files []*ast.File) map[*ast.FuncLit]string {
	var units []*initUnit
	haveLits := false
	funcs := make(map[string]*ast.FuncDecl)
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Body != nil && d.Name.Name != "init" && d.Name.Name != "_" {
					funcs[d.Name.Name] = d
				}
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, s := range d.Specs {
					vs, ok := s.(*ast.ValueSpec)
					if !ok || len(vs.Values) == 0 {
						continue
					}
					var group []*initUnit
					if len(vs.Values) == len(vs.Names) {
						for i, v := range vs.Values {
							group = append(group, &initUnit{names: []string{vs.Names[i].Name}, exprs: []ast.Expr{v}})
						}
					} else {
						u := &initUnit{exprs: vs.Values}
						for _, n := range vs.Names {
							u.names = append(u.names, n.Name)
						}
						group = append(group, u)
					}
					for _, u := range group {
						for _, e := range u.exprs {
							ast.Inspect(e, func(n ast.Node) bool {
								if l, ok := n.(*ast.FuncLit); ok {
									u.lits = append(u.lits, l)
									return false
								}
								return true
							})
						}
						haveLits = haveLits || len(u.lits) > 0
					}
					units = append(units, group...)
				}
			}
		}
	}
	if !haveLits {
		return nil
	}

	unitOf := make(map[string]int) // variable name -> unit
	for i, u := range units {
		for _, n := range u.names {
			if n != "_" {
				unitOf[n] = i
			}
		}
	}
	isPkgName := func(name string) bool {
		_, v := unitOf[name]
		_, f := funcs[name]
		return v || f
	}

	// Variables each function refers to, directly or through the
	// functions it calls.
	funcVars := make(map[string]map[int]bool)
	var varsOfFunc func(name string) map[int]bool
	varsOfFunc = func(name string) map[int]bool {
		if s, ok := funcVars[name]; ok {
			return s
		}
		s := make(map[int]bool)
		funcVars[name] = s // breaks recursion
		d := funcs[name]
		for _, ref := range packageRefs(d, declaredNames(d), isPkgName) {
			if u, ok := unitOf[ref]; ok {
				s[u] = true
			} else {
				for v := range varsOfFunc(ref) {
					s[v] = true
				}
			}
		}
		return s
	}
	deps := make([]map[int]bool, len(units))
	for i, u := range units {
		deps[i] = make(map[int]bool)
		for _, e := range u.exprs {
			for _, ref := range packageRefs(e, declaredNames(e), isPkgName) {
				if v, ok := unitOf[ref]; ok {
					deps[i][v] = true
				} else {
					for v := range varsOfFunc(ref) {
						deps[i][v] = true
					}
				}
			}
		}
		delete(deps[i], i)
	}

	// Initialize repeatedly the earliest unit whose dependencies are
	// initialized; with a cycle (which the compiler rejects) take the
	// earliest left.
	done := make([]bool, len(units))
	names := make(map[*ast.FuncLit]string)
	k := 0
	first := 0
	for range units {
		for done[first] {
			first++
		}
		pick := first
		for i := first; i < len(units); i++ {
			if done[i] {
				continue
			}
			ready := true
			for d := range deps[i] {
				if !done[d] {
					ready = false
					break
				}
			}
			if ready {
				pick = i
				break
			}
		}
		done[pick] = true
		for _, l := range units[pick].lits {
			k++
			names[l] = "init.func" + strconv.Itoa(k)
		}
	}
	return names
}

// packageRefs returns the identifiers in n that name package-level objects
// (by isPkgName) and are not among the locally declared names.
func packageRefs(n ast.Node, local map[string]bool, isPkgName func(string) bool) []string {
	var refs []string
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(x.X, visit) // x.Sel names a field, method or imported object
			return false
		case *ast.KeyValueExpr:
			if _, ok := x.Key.(*ast.Ident); !ok {
				ast.Inspect(x.Key, visit)
			}
			ast.Inspect(x.Value, visit)
			return false
		case *ast.Ident:
			if !local[x.Name] && isPkgName(x.Name) {
				refs = append(refs, x.Name)
			}
		}
		return true
	}
	ast.Inspect(n, visit)
	return refs
}

// declaredNames returns every name declared inside n: parameters, results,
// receivers and local variables, constants and types.
func declaredNames(n ast.Node) map[string]bool {
	names := make(map[string]bool)
	addIdents := func(exprs []ast.Expr) {
		for _, e := range exprs {
			if id, ok := e.(*ast.Ident); ok {
				names[id.Name] = true
			}
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncDecl:
			// The function's own name is package-level; only its
			// signature and body declare local names.
			if x.Recv != nil {
				ast.Inspect(x.Recv, func(n ast.Node) bool { return collectField(n, names) })
			}
			ast.Inspect(x.Type, func(n ast.Node) bool { return collectField(n, names) })
			if x.Body != nil {
				for k := range declaredNames(x.Body) {
					names[k] = true
				}
			}
			return false
		case *ast.Field:
			collectField(x, names)
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE {
				addIdents(x.Lhs)
			}
		case *ast.RangeStmt:
			if x.Tok == token.DEFINE {
				addIdents([]ast.Expr{x.Key, x.Value})
			}
		case *ast.ValueSpec:
			for _, id := range x.Names {
				names[id.Name] = true
			}
		case *ast.TypeSpec:
			names[x.Name.Name] = true
		}
		return true
	})
	return names
}

func collectField(n ast.Node, names map[string]bool) bool {
	if f, ok := n.(*ast.Field); ok {
		for _, id := range f.Names {
			names[id.Name] = true
		}
	}
	return true
}
