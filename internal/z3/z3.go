package z3

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// ErrNoCgo is returned by [NewSolver] in a kfuzz built without cgo.
var ErrNoCgo = errors.New("z3: kfuzz was built without cgo; rebuild with CGO_ENABLED=1 and libz3-dev installed")

// ErrClosed is returned by the methods of a [Solver] after [Solver.Close].
var ErrClosed = errors.New("z3: solver is closed")

// Error is an error reported by Z3 or found in the input of a Solver method.
type Error struct {
	// Op names the method that failed, such as "Assert".
	Op string
	// Code is Z3's error code (a Z3_error_code value), or 0 if the error
	// was found before the input reached Z3.
	Code int
	// Msg is the message: Z3's own text, with line and column numbers
	// (from 1) counted in the term given to Op, after "term i: " if Op
	// was given several.
	Msg string
}

// Error returns "z3: Op: Msg".
func (e *Error) Error() string { return "z3: " + e.Op + ": " + e.Msg }

// Sort is the sort (type) of a declared constant.
type Sort int

// The sorts a constant can be declared with.
const (
	Bool   Sort = iota + 1 // SMT-LIB Bool; model values are Go bools
	Int                    // SMT-LIB Int; model values are *big.Int
	String                 // SMT-LIB String; model values are Go strings
)

// String returns the SMT-LIB name of the sort.
func (s Sort) String() string {
	switch s {
	case Bool:
		return "Bool"
	case Int:
		return "Int"
	case String:
		return "String"
	}
	return fmt.Sprintf("Sort(%d)", int(s))
}

// Result is the outcome of [Solver.Check].
type Result int

// The results of a satisfiability check.
const (
	Unknown Result = iota // Z3 gave up, ran out of time or was interrupted
	Sat                   // the assertions have a model
	Unsat                 // the assertions have no model
)

// String returns "sat", "unsat" or "unknown", as in SMT-LIB.
func (r Result) String() string {
	switch r {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	case Unknown:
		return "unknown"
	}
	return fmt.Sprintf("Result(%d)", int(r))
}

// A Model holds the values that one satisfying assignment gives to the
// constants declared in a Solver. It is a plain Go value, independent of
// the Solver that made it.
type Model struct {
	names  []string
	values map[string]any
}

// Names returns the names of the constants in m, in the order they were
// declared.
func (m *Model) Names() []string { return append([]string(nil), m.names...) }

// Value returns the value of the constant name: a bool, a *big.Int or a
// string, by the constant's sort. It reports false if m has no such
// constant.
func (m *Model) Value(name string) (any, bool) {
	v, ok := m.values[name]
	if b, isInt := v.(*big.Int); isInt {
		v = new(big.Int).Set(b)
	}
	return v, ok
}

// BoolValue returns the value of the Bool constant name.
func (m *Model) BoolValue(name string) (bool, error) {
	v, err := m.lookup(name, Bool)
	if err != nil {
		return false, err
	}
	return v.(bool), nil
}

// IntValue returns the value of the Int constant name.
func (m *Model) IntValue(name string) (*big.Int, error) {
	v, err := m.lookup(name, Int)
	if err != nil {
		return nil, err
	}
	return new(big.Int).Set(v.(*big.Int)), nil
}

// Int64Value returns the value of the Int constant name, or an error if it
// does not fit in an int64.
func (m *Model) Int64Value(name string) (int64, error) {
	v, err := m.lookup(name, Int)
	if err != nil {
		return 0, err
	}
	b := v.(*big.Int)
	if !b.IsInt64() {
		return 0, fmt.Errorf("z3: value of %s, %s, overflows int64", name, b)
	}
	return b.Int64(), nil
}

// StringValue returns the value of the String constant name, decoded as
// described in the package documentation.
func (m *Model) StringValue(name string) (string, error) {
	v, err := m.lookup(name, String)
	if err != nil {
		return "", err
	}
	return v.(string), nil
}

// String formats m as an SMT-LIB model, one define-fun per constant.
func (m *Model) String() string {
	var b strings.Builder
	b.WriteString("(model")
	for _, name := range m.names {
		v := m.values[name]
		var sort Sort
		var text string
		switch v := v.(type) {
		case bool:
			sort, text = Bool, fmt.Sprint(v)
		case *big.Int:
			sort = Int
			if v.Sign() < 0 {
				text = "(- " + new(big.Int).Neg(v).String() + ")"
			} else {
				text = v.String()
			}
		case string:
			sort, text = String, Quote(v)
		}
		fmt.Fprintf(&b, "\n  (define-fun %s () %s %s)", symbol(name), sort, text)
	}
	b.WriteString(")")
	return b.String()
}

func (m *Model) lookup(name string, want Sort) (any, error) {
	v, ok := m.values[name]
	if !ok {
		return nil, fmt.Errorf("z3: model has no constant %q", name)
	}
	var ok2 bool
	switch want {
	case Bool:
		_, ok2 = v.(bool)
	case Int:
		_, ok2 = v.(*big.Int)
	case String:
		_, ok2 = v.(string)
	}
	if !ok2 {
		return nil, fmt.Errorf("z3: constant %s is not of sort %s", name, want)
	}
	return v, nil
}

// symbol writes name as an SMT-LIB symbol, quoting it with bars unless it
// is a simple symbol.
func symbol(name string) string {
	simple := name != "" && !(name[0] >= '0' && name[0] <= '9')
	for i := 0; i < len(name) && simple; i++ {
		c := name[i]
		simple = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			strings.IndexByte("~!@$%^&*_-+=<>.?/", c) >= 0
	}
	if simple {
		return name
	}
	return "|" + name + "|"
}
