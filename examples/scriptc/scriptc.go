// Package scriptc is an interpreter for Scriptsize-C, the small C subset
// of the ISLa evaluation, as the built-in grammar scriptsizec of
// kfuzz/fuzzharness/grammar defines it: integer variables declared with
// "int x;" or "int x = e;", blocks, if and if-else, while, do-while,
// assignments, +, - and <.
//
// A program runs in three steps: Parse reads it, Program.Check rejects the
// programs that use a variable before its declaration or declare one twice
// in the same block (the ISLa constraints def-use and no-redef), and
// Program.Run executes it with a step limit.
//
// The package is the subject of kfuzz's constraint-aware fuzz target: a
// grammar alone produces programs that almost never pass Check, while the
// constraint-aware harness (fuzzharness.WithConstraint with an
// solver.Repairer) makes nearly every fuzzer input a program that Check
// accepts, so that the fuzzer spends its time in Run.
package scriptc

import (
	"errors"
	"fmt"
)

// Errors of Check and Run, wrapped by the errors they return.
var (
	// ErrUndeclared: a variable is used or assigned before its declaration,
	// or outside the block that declares it.
	ErrUndeclared = errors.New("undeclared variable")
	// ErrRedeclared: a variable is declared twice in the same block.
	ErrRedeclared = errors.New("variable declared twice in the same block")
	// ErrStepLimit: the program ran longer than its step limit.
	ErrStepLimit = errors.New("step limit exceeded")
)

// A SyntaxError reports where a program does not follow the grammar.
type SyntaxError struct {
	Offset int    // byte offset in the source
	Msg    string // what was expected
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("scriptc: syntax error at offset %d: %s", e.Offset, e.Msg)
}

// A SemanticError reports a variable that Check or Run rejects. It wraps
// ErrUndeclared or ErrRedeclared.
type SemanticError struct {
	Offset int    // byte offset of the identifier in the source
	Name   string // the variable
	Err    error
}

func (e *SemanticError) Error() string {
	return fmt.Sprintf("scriptc: offset %d: %s: %v", e.Offset, e.Name, e.Err)
}

func (e *SemanticError) Unwrap() error { return e.Err }

// A Program is a parsed Scriptsize-C program: its top-level statements and
// declarations.
type Program struct {
	Body []Stmt
}

// A Stmt is a statement or a declaration.
type Stmt interface{ stmt() }

// Statements.
type (
	// Decl declares a variable, with an initial value or zero.
	Decl struct {
		Name   string
		Offset int
		Init   Expr // nil: zero
	}
	// Block is a braced sequence of statements; its declarations are
	// local to it.
	Block struct{ Body []Stmt }
	// If runs Then if Cond is not zero, else Else (which may be nil).
	If struct {
		Cond       Expr
		Then, Else Stmt
	}
	// While runs Body while Cond is not zero.
	While struct {
		Cond Expr
		Body Stmt
	}
	// DoWhile runs Body, then again while Cond is not zero.
	DoWhile struct {
		Body Stmt
		Cond Expr
	}
	// ExprStmt evaluates an expression; X is nil for the empty statement.
	ExprStmt struct{ X Expr }
)

func (*Decl) stmt()     {}
func (*Block) stmt()    {}
func (*If) stmt()       {}
func (*While) stmt()    {}
func (*DoWhile) stmt()  {}
func (*ExprStmt) stmt() {}

// An Expr is an expression.
type Expr interface{ expr() }

// Expressions.
type (
	// Var is a variable.
	Var struct {
		Name   string
		Offset int
	}
	// Int is a decimal constant; it wraps around like the int64 arithmetic.
	Int struct{ Value int64 }
	// Assign assigns X to a variable and has its value.
	Assign struct {
		Var Var
		X   Expr
	}
	// Binary is X + Y, X - Y (wrapping int64 arithmetic) or X < Y (1 or 0).
	Binary struct {
		Op   byte // '+', '-' or '<'
		X, Y Expr
	}
)

func (*Var) expr()    {}
func (*Int) expr()    {}
func (*Assign) expr() {}
func (*Binary) expr() {}

// Check reports the first use or assignment of a variable that is not
// declared before it in the same or an enclosing block, and the first
// variable declared twice in one block, as a *SemanticError. A declaration's
// initializer cannot use the variable it declares.
func (p *Program) Check() error {
	c := &checker{}
	return c.block(p.Body)
}

type checker struct {
	scopes []map[string]bool
}

func (c *checker) block(body []Stmt) error {
	c.scopes = append(c.scopes, map[string]bool{})
	defer func() { c.scopes = c.scopes[:len(c.scopes)-1] }()
	for _, s := range body {
		if err := c.stmt(s); err != nil {
			return err
		}
	}
	return nil
}

func (c *checker) stmt(s Stmt) error {
	switch s := s.(type) {
	case *Decl:
		if s.Init != nil {
			if err := c.expr(s.Init); err != nil {
				return err
			}
		}
		top := c.scopes[len(c.scopes)-1]
		if top[s.Name] {
			return &SemanticError{Offset: s.Offset, Name: s.Name, Err: ErrRedeclared}
		}
		top[s.Name] = true
	case *Block:
		return c.block(s.Body)
	case *If:
		if err := c.expr(s.Cond); err != nil {
			return err
		}
		if err := c.stmt(s.Then); err != nil {
			return err
		}
		if s.Else != nil {
			return c.stmt(s.Else)
		}
	case *While:
		if err := c.expr(s.Cond); err != nil {
			return err
		}
		return c.stmt(s.Body)
	case *DoWhile:
		if err := c.stmt(s.Body); err != nil {
			return err
		}
		return c.expr(s.Cond)
	case *ExprStmt:
		if s.X != nil {
			return c.expr(s.X)
		}
	}
	return nil
}

func (c *checker) declared(v Var) error {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if c.scopes[i][v.Name] {
			return nil
		}
	}
	return &SemanticError{Offset: v.Offset, Name: v.Name, Err: ErrUndeclared}
}

func (c *checker) expr(e Expr) error {
	switch e := e.(type) {
	case *Var:
		return c.declared(*e)
	case *Assign:
		if err := c.declared(e.Var); err != nil {
			return err
		}
		return c.expr(e.X)
	case *Binary:
		if err := c.expr(e.X); err != nil {
			return err
		}
		return c.expr(e.Y)
	}
	return nil
}

// A Result is the outcome of a run.
type Result struct {
	// Steps is the number of statements executed and expressions
	// evaluated.
	Steps int
	// Globals are the values of the top-level variables at the end.
	Globals map[string]int64
}

// Run executes the program, counting a step for every statement executed
// and every expression node evaluated; past maxSteps it stops with an error
// wrapping ErrStepLimit. A variable that is not declared when it is used is
// an error wrapping ErrUndeclared, as in Check; a second declaration in
// the same block instance wraps ErrRedeclared.
func (p *Program) Run(maxSteps int) (*Result, error) {
	r := &runner{limit: maxSteps}
	globals := map[string]int64{}
	r.scopes = []map[string]int64{globals}
	err := r.body(p.Body)
	return &Result{Steps: r.steps, Globals: globals}, err
}

type runner struct {
	scopes []map[string]int64
	steps  int
	limit  int
}

func (r *runner) step() error {
	r.steps++
	if r.steps > r.limit {
		return fmt.Errorf("scriptc: %w (%d steps)", ErrStepLimit, r.limit)
	}
	return nil
}

func (r *runner) body(body []Stmt) error {
	for _, s := range body {
		if err := r.stmt(s); err != nil {
			return err
		}
	}
	return nil
}

func (r *runner) stmt(s Stmt) error {
	if err := r.step(); err != nil {
		return err
	}
	switch s := s.(type) {
	case *Decl:
		var v int64
		if s.Init != nil {
			x, err := r.expr(s.Init)
			if err != nil {
				return err
			}
			v = x
		}
		top := r.scopes[len(r.scopes)-1]
		if _, ok := top[s.Name]; ok {
			return &SemanticError{Offset: s.Offset, Name: s.Name, Err: ErrRedeclared}
		}
		top[s.Name] = v
	case *Block:
		r.scopes = append(r.scopes, map[string]int64{})
		err := r.body(s.Body)
		r.scopes = r.scopes[:len(r.scopes)-1]
		return err
	case *If:
		c, err := r.expr(s.Cond)
		if err != nil {
			return err
		}
		if c != 0 {
			return r.stmt(s.Then)
		}
		if s.Else != nil {
			return r.stmt(s.Else)
		}
	case *While:
		for {
			c, err := r.expr(s.Cond)
			if err != nil || c == 0 {
				return err
			}
			if err := r.stmt(s.Body); err != nil {
				return err
			}
		}
	case *DoWhile:
		for {
			if err := r.stmt(s.Body); err != nil {
				return err
			}
			c, err := r.expr(s.Cond)
			if err != nil || c == 0 {
				return err
			}
		}
	case *ExprStmt:
		if s.X != nil {
			_, err := r.expr(s.X)
			return err
		}
	}
	return nil
}

// lookup returns the scope that holds the variable.
func (r *runner) lookup(v Var) (map[string]int64, error) {
	for i := len(r.scopes) - 1; i >= 0; i-- {
		if _, ok := r.scopes[i][v.Name]; ok {
			return r.scopes[i], nil
		}
	}
	return nil, &SemanticError{Offset: v.Offset, Name: v.Name, Err: ErrUndeclared}
}

func (r *runner) expr(e Expr) (int64, error) {
	if err := r.step(); err != nil {
		return 0, err
	}
	switch e := e.(type) {
	case *Int:
		return e.Value, nil
	case *Var:
		sc, err := r.lookup(*e)
		if err != nil {
			return 0, err
		}
		return sc[e.Name], nil
	case *Assign:
		sc, err := r.lookup(e.Var)
		if err != nil {
			return 0, err
		}
		v, err := r.expr(e.X)
		if err != nil {
			return 0, err
		}
		sc[e.Var.Name] = v
		return v, nil
	case *Binary:
		x, err := r.expr(e.X)
		if err != nil {
			return 0, err
		}
		y, err := r.expr(e.Y)
		if err != nil {
			return 0, err
		}
		switch e.Op {
		case '+':
			return x + y, nil
		case '-':
			return x - y, nil
		default:
			if x < y {
				return 1, nil
			}
			return 0, nil
		}
	}
	return 0, fmt.Errorf("scriptc: unknown expression %T", e)
}
