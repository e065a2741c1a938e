package isla

import (
	"math/big"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// Pos is a position in a constraint source: file, byte offset, line and
// column (1-based, counting bytes). It is the position type of the grammar
// package, so that errors in grammars and constraints read alike.
type Pos = grammar.Pos

// A Constraint is a parsed ISLa constraint: an optional constant declaration
// and a core ISLa formula. Parse translates every feature of simplified ISLa
// into core ISLa, so the Formula holds only the node types documented at
// Formula and Term.
type Constraint struct {
	// Const is the name of the constant that stands for the whole input:
	// "start" unless the constraint declares another one.
	Const string
	// ConstType is the nonterminal of the constant, without angle brackets,
	// as declared by "const name: <type>;", or "" if there is no
	// declaration. Without a declaration (or with the type <start> in a
	// grammar that has no rule <start>) the constant stands for the
	// derivation tree of the grammar's start symbol.
	ConstType string
	// ConstPos is the position of the declaration, if any.
	ConstPos Pos
	// Formula is the constraint proper, in core ISLa.
	Formula Formula
}

// A Formula is a core ISLa formula: one of *SMT, *Pred, *Not, *Binary,
// *Quantifier and *IntQuantifier.
type Formula interface {
	// Position returns where the formula starts in the source.
	Position() Pos
	formula()
}

// SMT is an SMT-LIB formula: a term of sort Bool over the string values of
// variables, such as (= opid clid) or (>= (str.len x) 3).
type SMT struct {
	Term Term
}

// Pred is a predicate formula, such as inside(attr, tree) or
// count(line, "<field>", n). Its arguments are variables (*Var), string
// literals (*StrLit) and integer literals (*IntLit).
type Pred struct {
	Name string
	Args []Term
	P    Pos
}

// Not is the negation of X.
type Not struct {
	X Formula
	P Pos
}

// Op is a binary propositional connective.
type Op uint8

// The binary connectives, from the tightest binding to the loosest.
const (
	And     Op = iota // X and Y
	Or                // X or Y
	Xor               // X xor Y: exactly one of X and Y
	Implies           // X implies Y: (not X) or Y
	Iff               // X iff Y: X and Y are both true or both false
)

var opNames = [...]string{"and", "or", "xor", "implies", "iff"}

// String returns the connective's keyword.
func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "Op(?)"
}

// Binary is a binary propositional combination X Op Y.
type Binary struct {
	Op   Op
	X, Y Formula
	P    Pos
}

// A Quantifier ranges over the nodes of the derivation tree bound to the
// variable In that are labeled with the nonterminal Type, the node of In
// itself included, in pre-order:
//
//	forall <Type> Var="Match" in In: Body
//	exists <Type> Var="Match" in In: Body
//
// With a match expression, only the nodes that match it count, and the
// variables the expression binds are bound too, once for every way the node
// matches.
type Quantifier struct {
	Exists bool       // exists rather than forall
	Type   string     // the nonterminal, without angle brackets
	Var    string     // the bound variable
	Match  *MatchExpr // the match expression, or nil
	In     string     // the variable whose tree is searched
	Body   Formula
	P      Pos

	// Set by the parser for the translation to core ISLa only.
	inTerm    Term // the in-part as written: *Var, nonterminal or XPath
	anonymous bool // the variable name was omitted
}

// An IntQuantifier ranges over the natural numbers, written as decimal
// strings ("0", "1", ...):
//
//	forall int Var: Body
//	exists int Var: Body
type IntQuantifier struct {
	Exists bool
	Var    string
	Body   Formula
	P      Pos
}

// Position returns the position of the formula's term.
func (f *SMT) Position() Pos { return f.Term.Position() }

// Position returns the position of the predicate's name.
func (f *Pred) Position() Pos { return f.P }

// Position returns the position of the keyword not.
func (f *Not) Position() Pos { return f.P }

// Position returns the position of the left operand.
func (f *Binary) Position() Pos { return f.P }

// Position returns the position of the keyword forall or exists.
func (f *Quantifier) Position() Pos { return f.P }

// Position returns the position of the keyword forall or exists.
func (f *IntQuantifier) Position() Pos { return f.P }

func (*SMT) formula()           {}
func (*Pred) formula()          {}
func (*Not) formula()           {}
func (*Binary) formula()        {}
func (*Quantifier) formula()    {}
func (*IntQuantifier) formula() {}

// A Term is an SMT-LIB term: one of *Var, *StrLit, *IntLit, *BoolLit, *App
// and *Let.
type Term interface {
	// Position returns where the term starts in the source.
	Position() Pos
	term()
}

// Var is a reference to a variable: one bound by a quantifier, a match
// expression or a let, or the constant. Its value is the text its tree
// derives (a string), or for an int variable the decimal number.
type Var struct {
	Name string
	P    Pos
}

// StrLit is a string literal. Value holds the string's characters (Unicode
// code points) in the encoding described at the package documentation:
// UTF-8, extended to the code points UTF-8 cannot encode.
type StrLit struct {
	Value string
	P     Pos
}

// IntLit is a non-negative integer literal. SMT-LIB writes negative numbers
// as (- n).
type IntLit struct {
	Value *big.Int
	P     Pos
}

// BoolLit is true or false.
type BoolLit struct {
	Value bool
	P     Pos
}

// App applies the SMT-LIB function Op to Args, such as (str.len x) or
// (re.++ r s). Indices holds the numerals of an indexed function
// ((_ re.loop 1 3) r); it is nil otherwise. Nullary functions such as
// re.allchar have no arguments.
type App struct {
	Op      string
	Indices []int
	Args    []Term
	P       Pos
}

// Let binds names to terms in Body: (let ((x t) ...) body). The bindings are
// parallel, as in SMT-LIB: no binding sees another.
type Let struct {
	Binds []LetBind
	Body  Term
	P     Pos
}

// LetBind is one binding of a Let.
type LetBind struct {
	Name  string
	Value Term
	P     Pos
}

// Position returns the position of the variable's name.
func (t *Var) Position() Pos { return t.P }

// Position returns the position of the literal.
func (t *StrLit) Position() Pos { return t.P }

// Position returns the position of the literal.
func (t *IntLit) Position() Pos { return t.P }

// Position returns the position of the literal.
func (t *BoolLit) Position() Pos { return t.P }

// Position returns where the application starts.
func (t *App) Position() Pos { return t.P }

// Position returns where the let starts.
func (t *Let) Position() Pos { return t.P }

func (*Var) term()     {}
func (*StrLit) term()  {}
func (*IntLit) term()  {}
func (*BoolLit) term() {}
func (*App) term()     {}
func (*Let) term()     {}

// A MatchExpr is the match expression of a quantifier: a pattern for the
// text of a node, in which nonterminals stand for any subtree labeled with
// them and binders {<type> name} bind such subtrees to variables.
type MatchExpr struct {
	Elems []MatchElem
	P     Pos
}

// MatchKind tells what a match expression element is.
type MatchKind uint8

// The kinds of match expression elements.
const (
	MatchText     MatchKind = iota // literal text
	MatchHole                      // a nonterminal <Type>: any subtree labeled Type
	MatchBind                      // a binder {<Type> Var}
	MatchOptional                  // [ ... ]: text and nonterminals, present or not
)

// A MatchElem is one element of a match expression.
type MatchElem struct {
	Kind MatchKind
	Text string      // MatchText: the bytes to match
	Type string      // MatchHole, MatchBind: the nonterminal, without brackets
	Var  string      // MatchBind: the variable
	Opt  []MatchElem // MatchOptional: the elements (MatchText and MatchHole only)
	P    Pos
}

// Equal reports whether two constraints are the same, ignoring source
// positions.
func Equal(a, b *Constraint) bool {
	return a.Const == b.Const && a.ConstType == b.ConstType && EqualFormula(a.Formula, b.Formula)
}

// EqualFormula reports whether two formulas are structurally equal, ignoring
// source positions.
func EqualFormula(a, b Formula) bool {
	switch a := a.(type) {
	case *SMT:
		b, ok := b.(*SMT)
		return ok && EqualTerm(a.Term, b.Term)
	case *Pred:
		b, ok := b.(*Pred)
		if !ok || a.Name != b.Name || len(a.Args) != len(b.Args) {
			return false
		}
		for i := range a.Args {
			if !EqualTerm(a.Args[i], b.Args[i]) {
				return false
			}
		}
		return true
	case *Not:
		b, ok := b.(*Not)
		return ok && EqualFormula(a.X, b.X)
	case *Binary:
		b, ok := b.(*Binary)
		return ok && a.Op == b.Op && EqualFormula(a.X, b.X) && EqualFormula(a.Y, b.Y)
	case *Quantifier:
		b, ok := b.(*Quantifier)
		return ok && a.Exists == b.Exists && a.Type == b.Type && a.Var == b.Var && a.In == b.In &&
			equalMatch(a.Match, b.Match) && EqualFormula(a.Body, b.Body)
	case *IntQuantifier:
		b, ok := b.(*IntQuantifier)
		return ok && a.Exists == b.Exists && a.Var == b.Var && EqualFormula(a.Body, b.Body)
	}
	return false
}

// EqualTerm reports whether two terms are structurally equal, ignoring
// source positions.
func EqualTerm(a, b Term) bool {
	switch a := a.(type) {
	case *Var:
		b, ok := b.(*Var)
		return ok && a.Name == b.Name
	case *StrLit:
		b, ok := b.(*StrLit)
		return ok && a.Value == b.Value
	case *IntLit:
		b, ok := b.(*IntLit)
		return ok && a.Value.Cmp(b.Value) == 0
	case *BoolLit:
		b, ok := b.(*BoolLit)
		return ok && a.Value == b.Value
	case *App:
		b, ok := b.(*App)
		if !ok || a.Op != b.Op || len(a.Indices) != len(b.Indices) || len(a.Args) != len(b.Args) {
			return false
		}
		for i := range a.Indices {
			if a.Indices[i] != b.Indices[i] {
				return false
			}
		}
		for i := range a.Args {
			if !EqualTerm(a.Args[i], b.Args[i]) {
				return false
			}
		}
		return true
	case *Let:
		b, ok := b.(*Let)
		if !ok || len(a.Binds) != len(b.Binds) || !EqualTerm(a.Body, b.Body) {
			return false
		}
		for i := range a.Binds {
			if a.Binds[i].Name != b.Binds[i].Name || !EqualTerm(a.Binds[i].Value, b.Binds[i].Value) {
				return false
			}
		}
		return true
	}
	return false
}

func equalMatch(a, b *MatchExpr) bool {
	if a == nil || b == nil {
		return a == b
	}
	return equalElems(a.Elems, b.Elems)
}

func equalElems(a, b []MatchElem) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Kind != y.Kind || x.Text != y.Text || x.Type != y.Type || x.Var != y.Var || !equalElems(x.Opt, y.Opt) {
			return false
		}
	}
	return true
}

// FreeVars returns the variables that occur free in f, in the order of their
// first occurrence.
func FreeVars(f Formula) []string {
	var out []string
	seen := map[string]bool{}
	add := func(name string) {
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	freeVarsFormula(f, map[string]int{}, add)
	return out
}

func freeVarsFormula(f Formula, bound map[string]int, add func(string)) {
	switch f := f.(type) {
	case *SMT:
		freeVarsTerm(f.Term, bound, add)
	case *Pred:
		for _, a := range f.Args {
			freeVarsTerm(a, bound, add)
		}
	case *Not:
		freeVarsFormula(f.X, bound, add)
	case *Binary:
		freeVarsFormula(f.X, bound, add)
		freeVarsFormula(f.Y, bound, add)
	case *Quantifier:
		if bound[f.In] == 0 {
			add(f.In)
		}
		names := []string{f.Var}
		if f.Match != nil {
			for _, e := range f.Match.Elems {
				if e.Kind == MatchBind {
					names = append(names, e.Var)
				}
			}
		}
		for _, n := range names {
			bound[n]++
		}
		freeVarsFormula(f.Body, bound, add)
		for _, n := range names {
			bound[n]--
		}
	case *IntQuantifier:
		bound[f.Var]++
		freeVarsFormula(f.Body, bound, add)
		bound[f.Var]--
	}
}

func freeVarsTerm(t Term, bound map[string]int, add func(string)) {
	switch t := t.(type) {
	case *Var:
		if bound[t.Name] == 0 {
			add(t.Name)
		}
	case *App:
		for _, a := range t.Args {
			freeVarsTerm(a, bound, add)
		}
	case *Let:
		for _, b := range t.Binds {
			freeVarsTerm(b.Value, bound, add)
		}
		for _, b := range t.Binds {
			bound[b.Name]++
		}
		freeVarsTerm(t.Body, bound, add)
		for _, b := range t.Binds {
			bound[b.Name]--
		}
	}
}
