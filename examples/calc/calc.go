// Package calc parses, simplifies and evaluates the arithmetic expressions of
// the expr grammar (kfuzz's built-in grammar "expr", Fig. 1 of the TRIBBLE
// paper): sums and differences of products, quotients and remainders of
// unary expressions, which are identifiers (x, y, z), decimal numbers,
// parenthesised expressions, or a unary operator + - ++ -- applied to a
// unary expression. The text has no white space.
//
// It is kfuzz's demo subject. Its functions are reached by different
// features of the input, so that learning which features reach which
// function has something to do. In particular distribute, the distributive
// law of Simplify, is reached exactly when a multiplication, division or
// remainder has a parenthesised sum or difference as an operand: a*(b+c),
// (b-c)*a, (b+c)/a or a%(b-c), as the paper's distributive_rule() (CODEINE,
// Table 7: (1-2)/3 and 1*(2+3) both cover it). It multiplies out products.
//
// Arithmetic is on int64 and wraps around on overflow, so that the
// distributive law holds exactly; division and remainder by zero are errors.
package calc

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// An Expr is a node of an expression tree: *Num, *Var, *Unary, *Binary or
// *Paren.
type Expr interface {
	// String returns the expression as text that parses back to an
	// expression of the same value.
	String() string
}

// Num is a decimal number, as written.
type Num struct {
	Text  string
	Value int64
}

// Var is a variable: x, y or z.
type Var struct{ Name string }

// Unary is a unary operator applied to an operand: Op is "+", "-", "++" or
// "--".
type Unary struct {
	Op string
	X  Expr
}

// Binary is a binary operation: Op is '+', '-', '*', '/' or '%'.
type Binary struct {
	Op   byte
	X, Y Expr
}

// Paren is a parenthesised expression.
type Paren struct{ X Expr }

func (e *Num) String() string    { return e.Text }
func (e *Var) String() string    { return e.Name }
func (e *Unary) String() string  { return e.Op + e.X.String() }
func (e *Binary) String() string { return e.X.String() + string(e.Op) + e.Y.String() }
func (e *Paren) String() string  { return "(" + e.X.String() + ")" }

// A SyntaxError reports text that is not an expression.
type SyntaxError struct {
	Offset int    // byte offset of the problem
	Msg    string // what was expected
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

// ErrDivideByZero is returned for a division or remainder by zero.
var ErrDivideByZero = errors.New("calc: division by zero")

// ErrRange is returned for a number that does not fit in an int64.
var ErrRange = errors.New("calc: number out of range")

// Parse parses an expression. It is a scannerless recursive-descent parser
// that follows the grammar: "++" and "--" in front of a unary expression are
// the increment and decrement operators (the text "++x" could also be read
// as +(+x), which has the same value but no side effect).
func Parse(src string) (Expr, error) {
	p := &parser{src: src}
	e, err := p.sum()
	if err != nil {
		return nil, err
	}
	if p.pos < len(src) {
		return nil, p.errorf("unexpected %q after the expression", src[p.pos])
	}
	return e, nil
}

type parser struct {
	src string
	pos int
}

func (p *parser) errorf(format string, args ...any) error {
	return &SyntaxError{Offset: p.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) peek() byte {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

// sum parses <AddExpr>: products joined by + and -, left-associative.
func (p *parser) sum() (Expr, error) {
	x, err := p.product()
	for err == nil && (p.peek() == '+' || p.peek() == '-') {
		op := p.src[p.pos]
		p.pos++
		var y Expr
		if y, err = p.product(); err == nil {
			x = &Binary{Op: op, X: x, Y: y}
		}
	}
	return x, err
}

// product parses <MultExpr>: unary expressions joined by *, / and %.
func (p *parser) product() (Expr, error) {
	x, err := p.unary()
	for err == nil && (p.peek() == '*' || p.peek() == '/' || p.peek() == '%') {
		op := p.src[p.pos]
		p.pos++
		var y Expr
		if y, err = p.unary(); err == nil {
			x = &Binary{Op: op, X: x, Y: y}
		}
	}
	return x, err
}

// unary parses <UnaryExpr>.
func (p *parser) unary() (Expr, error) {
	switch c := p.peek(); {
	case c == '+' || c == '-':
		op := string(c)
		if strings.HasPrefix(p.src[p.pos:], op+op) {
			op += op
		}
		p.pos += len(op)
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &Unary{Op: op, X: x}, nil
	case c == '(':
		p.pos++
		x, err := p.sum()
		if err != nil {
			return nil, err
		}
		if p.peek() != ')' {
			return nil, p.errorf("missing )")
		}
		p.pos++
		return &Paren{X: x}, nil
	case c == 'x' || c == 'y' || c == 'z':
		p.pos++
		return &Var{Name: string(c)}, nil
	case '0' <= c && c <= '9':
		return p.number()
	}
	return nil, p.errorf("expected an operand")
}

// number parses <DecDigits>.
func (p *parser) number() (Expr, error) {
	start := p.pos
	for '0' <= p.peek() && p.peek() <= '9' {
		p.pos++
	}
	text := p.src[start:p.pos]
	v, err := parseNumber(text)
	if err != nil {
		p.pos = start
		return nil, err
	}
	return &Num{Text: text, Value: v}, nil
}

// parseNumber converts decimal digits, rejecting values beyond int64.
func parseNumber(digits string) (int64, error) {
	var v int64
	for i := 0; i < len(digits); i++ {
		d := int64(digits[i] - '0')
		if v > (1<<63-1-d)/10 {
			return 0, ErrRange
		}
		v = v*10 + d
	}
	return v, nil
}

// An Env holds the values of the variables. Missing variables are 0.
type Env map[string]int64

// Eval parses src and evaluates it in env, which the increment and
// decrement operators update (env may be nil if src does not use them).
func Eval(src string, env Env) (int64, error) {
	e, err := Parse(src)
	if err != nil {
		return 0, err
	}
	return EvalExpr(e, env)
}

// EvalExpr evaluates e in env, left to right. On error the value is 0.
func EvalExpr(e Expr, env Env) (int64, error) {
	switch e := e.(type) {
	case *Num:
		return e.Value, nil
	case *Var:
		return lookup(env, e.Name), nil
	case *Paren:
		return EvalExpr(e.X, env)
	case *Unary:
		if e.Op == "++" || e.Op == "--" {
			return step(e, env)
		}
		x, err := EvalExpr(e.X, env)
		if err != nil {
			return 0, err
		}
		if e.Op == "-" {
			x = negate(x)
		}
		return x, nil
	case *Binary:
		x, err := EvalExpr(e.X, env)
		if err != nil {
			return 0, err
		}
		y, err := EvalExpr(e.Y, env)
		if err != nil {
			return 0, err
		}
		switch e.Op {
		case '+':
			return x + y, nil
		case '-':
			return x - y, nil
		case '*':
			return x * y, nil
		case '/':
			return divide(x, y)
		case '%':
			return remainder(x, y)
		}
	}
	return 0, fmt.Errorf("calc: unknown expression %T", e)
}

func lookup(env Env, name string) int64 { return env[name] }

func negate(x int64) int64 { return -x }

// step evaluates ++ and --: on a variable it updates the variable and
// yields the new value (a pre-increment); on anything else it yields the
// operand's value plus or minus one.
func step(e *Unary, env Env) (int64, error) {
	d := int64(1)
	if e.Op == "--" {
		d = -1
	}
	if v, ok := e.X.(*Var); ok && env != nil {
		env[v.Name] += d
		return env[v.Name], nil
	}
	x, err := EvalExpr(e.X, env)
	if err != nil {
		return 0, err
	}
	return x + d, nil
}

func divide(x, y int64) (int64, error) {
	if y == 0 {
		return 0, ErrDivideByZero
	}
	return x / y, nil
}

func remainder(x, y int64) (int64, error) {
	if y == 0 {
		return 0, ErrDivideByZero
	}
	return x % y, nil
}

// maxGrowth bounds how many nodes Simplify may add by distributing, so that
// products of many sums do not grow exponentially.
const maxGrowth = 4096

// Simplify returns an expression of the same value, simplified bottom-up:
// parentheses around a number or a variable are dropped, operations on two
// numbers are folded into a number (if it is not
// negative), operands that change nothing are dropped (x*1, x+0, x-0, x/1),
// products with a factor 0 become 0 if the other factor has no side effects
// and cannot fail, and products with a parenthesised sum as a factor are
// multiplied out by the distributive law, a*(b+c) = a*b+a*c and (b+c)*a =
// b*a+c*a, as long as the product has no side effects (++ or --) and the
// expression does not grow by more than a few thousand nodes. e is not
// modified.
func Simplify(e Expr) Expr {
	s := &simplifier{budget: maxGrowth}
	return s.simplify(e)
}

type simplifier struct{ budget int }

func (s *simplifier) simplify(e Expr) Expr {
	switch e := e.(type) {
	case *Paren:
		x := s.simplify(e.X)
		switch x.(type) {
		case *Num, *Var:
			return x // (7) is 7
		}
		return &Paren{X: x}
	case *Unary:
		x := s.simplify(e.X)
		if _, ok := x.(*Var); ok && (e.Op == "++" || e.Op == "--") && x != e.X {
			x = &Paren{X: x} // ++(x) does not change x, ++x does
		}
		return &Unary{Op: e.Op, X: x}
	case *Binary:
		if e.Op == '*' || e.Op == '/' || e.Op == '%' {
			if sum := parenSum(e.Y); sum != nil {
				return s.distribute(e.Op, e.X, sum, false)
			}
			if sum := parenSum(e.X); sum != nil {
				return s.distribute(e.Op, e.Y, sum, true)
			}
		}
		return s.binary(e.Op, s.simplify(e.X), s.simplify(e.Y))
	}
	return e
}

// binary returns the simplified operation x op y of simplified operands.
func (s *simplifier) binary(op byte, x, y Expr) Expr {
	if n, ok := fold(op, x, y); ok {
		return n
	}
	if r := identity(op, x, y); r != nil {
		return r
	}
	if op == '*' {
		if z := annihilate(x, y); z != nil {
			return z
		}
		return s.product(x, y)
	}
	return &Binary{Op: op, X: x, Y: y}
}

// fold evaluates an operation on two numbers at simplification time, if the
// result is a number again: not negative, and not a division by zero.
func fold(op byte, x, y Expr) (*Num, bool) {
	a, ok1 := x.(*Num)
	b, ok2 := y.(*Num)
	if !ok1 || !ok2 {
		return nil, false
	}
	v, err := EvalExpr(&Binary{Op: op, X: a, Y: b}, nil)
	if err != nil || v < 0 {
		return nil, false
	}
	return &Num{Text: strconv.FormatInt(v, 10), Value: v}, true
}

// identity removes an operand that does not change the value: x*1, 1*x,
// x+0, 0+x, x-0 and x/1 are x. The operand left stands where the operation
// stood, which the grammar allows because it binds at least as tightly.
func identity(op byte, x, y Expr) Expr {
	switch {
	case isNum(y, 1) && (op == '*' || op == '/'),
		isNum(y, 0) && (op == '+' || op == '-'):
		return x
	case isNum(x, 1) && op == '*',
		isNum(x, 0) && op == '+':
		return y
	}
	return nil
}

// annihilate returns 0 for x*0 and 0*x if the other factor can be dropped:
// it has no side effects and cannot fail.
func annihilate(x, y Expr) Expr {
	if isNum(y, 0) && safe(x) {
		return y
	}
	if isNum(x, 0) && safe(y) {
		return x
	}
	return nil
}

func isNum(e Expr, v int64) bool {
	n, ok := e.(*Num)
	return ok && n.Value == v
}

// safe reports whether evaluating e has no side effects and cannot fail: it
// has no ++, -- and no division or remainder.
func safe(e Expr) bool {
	switch e := e.(type) {
	case *Paren:
		return safe(e.X)
	case *Unary:
		return e.Op != "++" && e.Op != "--" && safe(e.X)
	case *Binary:
		return e.Op != '/' && e.Op != '%' && safe(e.X) && safe(e.Y)
	}
	return true
}

// product returns the product x*y of simplified factors, parenthesising
// them where the grammar needs it.
func (s *simplifier) product(x, y Expr) Expr {
	return &Binary{Op: '*', X: operand(x, false), Y: operand(y, true)}
}

// distribute is the distributive law. It is called for every operation of
// a multiplicative operator op written with a parenthesised sum or
// difference as an operand: factor op (b+c) or, if right is set,
// (b+c) op factor, where sum is b+c as written. The law holds exactly for
// products only (int64 arithmetic wraps around; integer division does not
// distribute: (1+1)/2 is 1, 1/2+1/2 is 0), so a quotient or remainder is
// only simplified. A product is multiplied out, factor into both terms, and
// the result simplified and parenthesised so that it can stand wherever the
// product stood, unless the product has side effects (++ or --), which
// multiplying out would repeat, or the expression would grow too much;
// then the product is only simplified.
func (s *simplifier) distribute(op byte, factor Expr, sum *Binary, right bool) Expr {
	grow := size(factor) + 2
	if op != '*' || !pure(factor) || !pure(sum) || grow > s.budget {
		f, p := s.simplify(factor), s.simplify(&Paren{X: sum})
		if right {
			return s.binary(op, p, f)
		}
		return s.binary(op, f, p)
	}
	s.budget -= grow
	mul := func(term Expr) Expr {
		if b, ok := term.(*Binary); ok && (b.Op == '+' || b.Op == '-') {
			return s.distribute(op, factor, b, right) // a+b+c is (a+b)+c: distribute into a+b as well
		}
		if right {
			return s.simplify(&Binary{Op: '*', X: term, Y: factor})
		}
		return s.simplify(&Binary{Op: '*', X: factor, Y: term})
	}
	switch e := s.binary(sum.Op, mul(sum.X), mul(sum.Y)).(type) {
	case *Binary:
		return &Paren{X: e}
	default:
		return e
	}
}

// parenSum returns the sum or difference inside a parenthesised factor, or
// nil if e is not one.
func parenSum(e Expr) *Binary {
	if p, ok := e.(*Paren); ok {
		if b, ok := p.X.(*Binary); ok && (b.Op == '+' || b.Op == '-') {
			return b
		}
	}
	return nil
}

// operand parenthesises a binary expression where it is a factor of a
// product and would otherwise be read differently: any sum, and any product
// on the right (because / and % do not associate).
func operand(e Expr, right bool) Expr {
	if b, ok := e.(*Binary); ok && (right || b.Op == '+' || b.Op == '-') {
		return &Paren{X: b}
	}
	return e
}

// pure reports whether evaluating e has no side effects.
func pure(e Expr) bool {
	switch e := e.(type) {
	case *Paren:
		return pure(e.X)
	case *Unary:
		return e.Op != "++" && e.Op != "--" && pure(e.X)
	case *Binary:
		return pure(e.X) && pure(e.Y)
	}
	return true
}

// size counts the nodes of e.
func size(e Expr) int {
	switch e := e.(type) {
	case *Paren:
		return 1 + size(e.X)
	case *Unary:
		return 1 + size(e.X)
	case *Binary:
		return 1 + size(e.X) + size(e.Y)
	}
	return 1
}
