// Package goexprcheck (in examples/goexpr) checks Go's go/parser and
// go/printer with Go expressions: every expression that its grammar derives
// parses with go/parser.ParseExpr, in every parser mode to the same syntax
// tree, its literals have the values their text says, and printing the tree
// with go/printer or go/format gives text that parses to a tree of the same
// shape.
//
// The grammar (Grammar, the file goexpr.bnf) derives a subset of Go
// expressions: the binary operators at Go's five precedence levels, unary
// operators, parentheses, identifiers, all forms of integer, floating-point,
// imaginary, rune and string literals, selectors, index and slice
// expressions, type assertions, calls, conversions, composite literals, and
// function literals whose bodies hold most kinds of statement, so that
// ParseExpr reaches most of go/parser and go/scanner. Its header comment
// says where it is narrower than the Go specification.
//
// Its fuzz test, FuzzGoExpr, drives Check through fuzzharness with
// expressions of the grammar, seeded with the grammar's 2-path covering
// forest and a few example expressions. Run it with
//
//	go test -fuzz=FuzzGoExpr ./examples/goexpr
//
// The subject, whose coverage kfuzz measures, is go/parser (with go/scanner
// and go/printer).
package goexprcheck

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"go/ast"
	"go/constant"
	"go/format"
	"go/parser"
	"go/printer"
	"go/scanner"
	"go/token"
	"reflect"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

//go:embed goexpr.bnf
var grammarSource []byte

// GrammarSource returns the text of the grammar, the file goexpr.bnf.
func GrammarSource() []byte { return bytes.Clone(grammarSource) }

// Grammar returns the grammar of Go expressions, freshly parsed: the caller
// may modify it. Its start symbol is <start>.
func Grammar() *grammar.Grammar {
	g, err := grammar.Parse("goexpr.bnf", grammarSource)
	if err != nil {
		// The file is embedded and tested; it cannot fail to parse.
		panic("goexprcheck: " + err.Error())
	}
	return g
}

// modes are the parser modes in which Check parses every expression; they
// must all give the same tree.
var modes = []parser.Mode{0, parser.SkipObjectResolution, parser.ParseComments | parser.AllErrors | parser.DeclarationErrors}

// Check parses the Go expression src and checks what go/parser, go/scanner
// and go/printer make of it. The expression must
//
//   - parse with parser.ParseExpr, and to a tree of the same shape (see
//     Shape) with parser.ParseExprFrom in other modes (object resolution
//     skipped; comments, all errors);
//   - parse with parser.ParseFile, as the value of a variable declaration
//     (with object resolution and comments), to a tree of the same shape;
//   - fail to parse, with a scanner.ErrorList naming the position and the
//     unexpected token, when a line with a ')' is appended;
//   - have literals whose values go/constant and strconv can read: every
//     number converts with constant.MakeFromLiteral (but for those with
//     exponents of more than eight digits, which have no value), every rune and string
//     unquotes with strconv.Unquote to the value MakeFromLiteral gives;
//   - print with go/printer to text that parses to a tree of the same shape,
//     and so again, after which printing gives the same text;
//   - do the same with go/format.
//
// Check returns nil if all holds, and otherwise an error saying what did
// not; if src does not parse, the error is that of ParseExpr.
func Check(src string) error {
	x, err := parser.ParseExpr(src)
	if err != nil {
		return err
	}
	want, err := Shape(x)
	if err != nil {
		return err
	}
	for _, mode := range modes {
		y, err := parser.ParseExprFrom(token.NewFileSet(), "", src, mode)
		if err != nil {
			return fmt.Errorf("ParseExprFrom in mode %#x: %w", mode, err)
		}
		if got, err := Shape(y); err != nil || got != want {
			return fmt.Errorf("ParseExprFrom in mode %#x gives another tree: %s", mode, diff(got, want, err))
		}
	}
	if err := checkFile(src, want); err != nil {
		return err
	}
	if err := checkError(src); err != nil {
		return err
	}
	if err := checkLiterals(x); err != nil {
		return err
	}
	print := func(fset *token.FileSet, x ast.Expr) (string, error) {
		var b bytes.Buffer
		err := printer.Fprint(&b, fset, x)
		return b.String(), err
	}
	if err := checkReprint(src, want, "go/printer", print); err != nil {
		return err
	}
	return checkReprint(src, want, "go/format", func(fset *token.FileSet, x ast.Expr) (string, error) {
		var b bytes.Buffer
		err := format.Node(&b, fset, x)
		return b.String(), err
	})
}

// checkFile parses src as the value of a variable in a file.
func checkFile(src, want string) error {
	file := "package p\n\nvar _ = " + src + "\n"
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", file, parser.ParseComments|parser.AllErrors)
	if err != nil {
		return fmt.Errorf("ParseFile: %w", err)
	}
	var x ast.Expr
	if len(f.Decls) == 1 {
		if d, ok := f.Decls[0].(*ast.GenDecl); ok && len(d.Specs) == 1 {
			if v, ok := d.Specs[0].(*ast.ValueSpec); ok && len(v.Values) == 1 {
				x = v.Values[0]
			}
		}
	}
	if x == nil {
		return fmt.Errorf("ParseFile does not give one variable declaration: %d declarations", len(f.Decls))
	}
	if got, err := Shape(x); err != nil || got != want {
		return fmt.Errorf("ParseFile gives another tree: %s", diff(got, want, err))
	}
	return nil
}

// checkError appends a line with a ')' to src and checks the error.
func checkError(src string) error {
	bad := src + "\n)"
	fset := token.NewFileSet()
	_, err := parser.ParseExprFrom(fset, "x.go", bad, parser.AllErrors)
	var list scanner.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		return fmt.Errorf("ParseExpr(%q) = %v, want a scanner.ErrorList", bad, err)
	}
	list.Sort()
	list.RemoveMultiples()
	first := list[0]
	if first.Pos.Offset != len(src)+1 || !strings.Contains(first.Msg, "')'") || list.Err() == nil ||
		!strings.HasPrefix(list.Error(), first.Error()) {
		return fmt.Errorf("ParseExpr(%q) fails with %v, want an error at offset %d about ')'", bad, err, len(src)+1)
	}
	var b strings.Builder
	scanner.PrintError(&b, err)
	if !strings.Contains(b.String(), first.Msg) {
		return fmt.Errorf("scanner.PrintError writes %q, without %q", b.String(), first.Msg)
	}
	return nil
}

// checkReprint parses src, prints its tree with print, and checks that the
// text parses to a tree of shape want. Printing is not idempotent in layout
// (go/printer places line breaks by the source's lines, and the first
// printing moves them; go.dev/issue/26930 has the maintainers' view), so
// that the check is that printing converges: the text printed from the
// printed text prints the same again.
func checkReprint(src, want, name string, print func(*token.FileSet, ast.Expr) (string, error)) error {
	out := src
	for i := range 3 {
		fset := token.NewFileSet()
		x, err := parser.ParseExprFrom(fset, "", out, 0)
		if err != nil {
			return fmt.Errorf("%s prints %q, which does not parse: %w", name, out, err)
		}
		if i > 0 {
			if got, err := Shape(x); err != nil || got != want {
				return fmt.Errorf("%s prints %q, which parses to another tree: %s", name, out, diff(got, want, err))
			}
		}
		next, err := print(fset, x)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if i == 2 && next != out {
			return fmt.Errorf("%s prints %q, then %q: printing does not converge", name, out, next)
		}
		out = next
	}
	return nil
}

// checkLiterals checks that every literal of x has a value.
func checkLiterals(x ast.Expr) error {
	var err error
	ast.Inspect(x, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || err != nil {
			return err == nil
		}
		v := constant.MakeFromLiteral(lit.Value, lit.Kind, 0)
		if v.Kind() == constant.Unknown && !hugeExponent(lit) {
			err = fmt.Errorf("the %s literal %s has no value", lit.Kind, lit.Value)
			return false
		}
		switch lit.Kind {
		case token.STRING:
			s, uerr := strconv.Unquote(lit.Value)
			if uerr != nil || s != constant.StringVal(v) {
				err = fmt.Errorf("strconv.Unquote(%s) = %q, %v; go/constant reads %q", lit.Value, s, uerr, constant.StringVal(v))
			}
		case token.CHAR:
			s, uerr := strconv.Unquote(lit.Value)
			r, _ := constant.Int64Val(v)
			if uerr != nil || s != string(rune(r)) && !strings.HasPrefix(lit.Value, `'\x`) && !isOctal(lit.Value) {
				err = fmt.Errorf("strconv.Unquote(%s) = %q, %v; go/constant reads %d", lit.Value, s, uerr, r)
			}
		}
		return false
	})
	return err
}

// hugeExponent reports whether lit is a floating-point or imaginary number
// whose exponent has more than eight digits: go/constant, like the
// compiler, cannot represent its value.
func hugeExponent(lit *ast.BasicLit) bool {
	if lit.Kind != token.FLOAT && lit.Kind != token.IMAG {
		return false
	}
	x := strings.ToLower(lit.Value)
	exp := "e"
	if strings.HasPrefix(x, "0x") {
		exp = "p"
	}
	i := strings.LastIndex(x, exp)
	if i < 0 {
		return false
	}
	digits := strings.TrimLeft(strings.NewReplacer("_", "", "+", "", "-", "", "i", "").Replace(x[i+1:]), "0")
	return len(digits) > 8
}

// isOctal reports whether a rune literal is an octal escape, which like a
// \x escape denotes a byte value that strconv.Unquote returns as a byte.
func isOctal(lit string) bool {
	return len(lit) == 6 && lit[1] == '\\' && '0' <= lit[2] && lit[2] <= '3'
}

// Shape returns a text describing the tree of x, for comparing trees: every
// node with its type and its fields, except positions (only whether they are
// set), the resolved objects of identifiers, scopes and comments. Literals
// appear as their kind and exact value (go/constant), not as written, so
// that 0X1P-2 and 0x1p-02 have the same shape. Parentheses that go/printer
// leaves out are left out: around the condition of if, for and switch, the
// range expression and the types of parameters and results, and all but one
// pair around a parenthesized expression, ((x)).
func Shape(x ast.Expr) (string, error) {
	var b strings.Builder
	err := shape(&b, reflect.ValueOf(x), 0)
	return b.String(), err
}

var (
	posType   = reflect.TypeFor[token.Pos]()
	skipTypes = map[reflect.Type]bool{
		reflect.TypeFor[*ast.Object]():       true,
		reflect.TypeFor[*ast.Scope]():        true,
		reflect.TypeFor[*ast.CommentGroup](): true,
	}
	exprType = reflect.TypeFor[ast.Expr]()
)

// unparenFields are the fields whose parentheses go/printer leaves out.
var unparenFields = map[reflect.Type][]string{
	reflect.TypeFor[ast.IfStmt]():     {"Cond"},
	reflect.TypeFor[ast.ForStmt]():    {"Cond"},
	reflect.TypeFor[ast.SwitchStmt](): {"Tag"},
	reflect.TypeFor[ast.RangeStmt]():  {"X"},
	reflect.TypeFor[ast.Field]():      {"Type"},
}

func shape(b *strings.Builder, v reflect.Value, depth int) error {
	if depth > 10000 {
		return fmt.Errorf("goexprcheck: the tree is nested too deeply")
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		if p, ok := v.Interface().(*ast.ParenExpr); ok {
			if _, ok := p.X.(*ast.ParenExpr); ok {
				return shape(b, reflect.ValueOf(p.X), depth+1)
			}
		}
		if lit, ok := v.Interface().(*ast.BasicLit); ok {
			val := constant.MakeFromLiteral(lit.Value, lit.Kind, 0)
			if val.Kind() == constant.Unknown {
				// A number with a huge exponent, which go/format
				// may write in lower case.
				fmt.Fprintf(b, "%s(%s)", lit.Kind, strings.ToLower(lit.Value))
				return nil
			}
			fmt.Fprintf(b, "%s(%s)", lit.Kind, val.ExactString())
			return nil
		}
		return shape(b, v.Elem(), depth+1)
	case reflect.Struct:
		b.WriteString(v.Type().Name())
		b.WriteByte('{')
		unparen := unparenFields[v.Type()]
		for i := range v.NumField() {
			f, ft := v.Field(i), v.Type().Field(i)
			if skipTypes[ft.Type] {
				continue
			}
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(ft.Name)
			b.WriteByte('=')
			if ft.Type == posType {
				// Positions change with printing; that of the "..." of a
				// call says whether there is one.
				fmt.Fprint(b, ft.Name == "Ellipsis" && f.Interface().(token.Pos).IsValid())
				continue
			}
			if ft.Type == exprType && !f.IsNil() && contains(unparen, ft.Name) {
				f = reflect.ValueOf(ast.Unparen(f.Interface().(ast.Expr)))
			}
			if err := shape(b, f, depth+1); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case reflect.Slice:
		b.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(' ')
			}
			if err := shape(b, v.Index(i), depth+1); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		fmt.Fprint(b, v.Interface())
	}
	return nil
}

// diff describes where two shapes differ.
func diff(got, want string, err error) string {
	if err != nil {
		return err.Error()
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-300)
	return fmt.Sprintf("after ...%s\nit has   %.200s...\ninstead of %.200s...", got[from:i], got[i:], want[i:])
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
