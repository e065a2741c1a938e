package isla

import (
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
	"strconv"
	"strings"
)

// String returns the constraint in core ISLa, on one line: SMT-LIB terms as
// S-expressions, every quantifier with its variable and its "in" part.
// Parsing the result gives back an equal constraint (see Equal).
func (c *Constraint) String() string {
	var b strings.Builder
	if c.ConstType != "" {
		b.WriteString("const " + c.Const + ": <" + c.ConstType + ">; ")
	}
	writeFormula(&b, c.Formula)
	return b.String()
}

// FormatFormula returns f in core ISLa on one line.
func FormatFormula(f Formula) string {
	var b strings.Builder
	writeFormula(&b, f)
	return b.String()
}

// FormatTerm returns t as an SMT-LIB S-expression.
func FormatTerm(t Term) string {
	var b strings.Builder
	writeTerm(&b, t)
	return b.String()
}

// prec returns the binding strength of a formula's top connective: -1 for
// atoms, negations and quantifiers, the level of the connective otherwise.
func prec(f Formula) int {
	if b, ok := f.(*Binary); ok {
		return int(b.Op)
	}
	return -1
}

func writeFormula(b *strings.Builder, f Formula) {
	switch f := f.(type) {
	case *SMT:
		writeTerm(b, f.Term)
	case *Pred:
		b.WriteString(f.Name + "(")
		for i, a := range f.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeTerm(b, a)
		}
		b.WriteByte(')')
	case *Not:
		b.WriteString("not ")
		writeOperand(b, f.X, prec(f.X) >= 0)
	case *Binary:
		writeOperand(b, f.X, prec(f.X) > int(f.Op))
		b.WriteString(" " + f.Op.String() + " ")
		writeOperand(b, f.Y, prec(f.Y) >= int(f.Op))
	case *Quantifier:
		if f.Exists {
			b.WriteString("exists <")
		} else {
			b.WriteString("forall <")
		}
		b.WriteString(f.Type + "> " + f.Var)
		if f.Match != nil {
			b.WriteByte('=')
			b.WriteString(quoteMatchBytes(formatMatch(f.Match.Elems, false)))
		}
		b.WriteString(" in " + f.In + ": ")
		writeOperand(b, f.Body, prec(f.Body) >= 0)
	case *IntQuantifier:
		if f.Exists {
			b.WriteString("exists int ")
		} else {
			b.WriteString("forall int ")
		}
		b.WriteString(f.Var + ": ")
		writeOperand(b, f.Body, prec(f.Body) >= 0)
	default:
		b.WriteString("<nil formula>")
	}
}

func writeOperand(b *strings.Builder, f Formula, paren bool) {
	if paren {
		b.WriteByte('(')
	}
	writeFormula(b, f)
	if paren {
		b.WriteByte(')')
	}
}

func writeTerm(b *strings.Builder, t Term) {
	switch t := t.(type) {
	case *Var:
		b.WriteString(t.Name)
	case *StrLit:
		b.WriteString(smtlib.QuoteString(t.Value))
	case *IntLit:
		b.WriteString(t.Value.String())
	case *BoolLit:
		b.WriteString(strconv.FormatBool(t.Value))
	case *App:
		if len(t.Args) == 0 && len(t.Indices) == 0 && nullaryFuncs[t.Op] {
			b.WriteString(t.Op)
			return
		}
		b.WriteByte('(')
		b.WriteString(t.Head())
		for _, a := range t.Args {
			b.WriteByte(' ')
			writeTerm(b, a)
		}
		b.WriteByte(')')
	case *Let:
		b.WriteString("(let (")
		for i, x := range t.Binds {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("(" + x.Name + " ")
			writeTerm(b, x.Value)
			b.WriteByte(')')
		}
		b.WriteString(") ")
		writeTerm(b, t.Body)
		b.WriteByte(')')
	case *ntTerm:
		b.WriteString("<" + t.Type + ">")
	case *xpathTerm:
		if t.BaseType {
			b.WriteString("<" + t.Base + ">")
		} else {
			b.WriteString(t.Base)
		}
		for _, s := range t.Steps {
			if s.Desc {
				b.WriteString("..<" + s.Type + ">")
			} else {
				b.WriteString(".<" + s.Type + ">[" + strconv.Itoa(s.Index) + "]")
			}
		}
	default:
		b.WriteString("<nil term>")
	}
}

// Head returns the function of the application as SMT-LIB writes it: its
// name, or (_ name i ...) for an indexed function such as re.loop.
func (t *App) Head() string {
	if len(t.Indices) == 0 {
		return t.Op
	}
	var b strings.Builder
	b.WriteString("(_ " + t.Op)
	for _, n := range t.Indices {
		b.WriteString(" " + strconv.Itoa(n))
	}
	b.WriteByte(')')
	return b.String()
}

// writeSMT writes an SMT-LIB term with variables replaced by subst (let
// names shadow it).
func WriteSMTLIB(b *strings.Builder, t Term, subst map[string]string) {
	switch t := t.(type) {
	case *Var:
		if v, ok := subst[t.Name]; ok {
			b.WriteString(v)
		} else {
			b.WriteString(t.Name)
		}
	case *StrLit:
		b.WriteString(smtlib.QuoteSMT(t.Value))
	case *IntLit:
		b.WriteString(t.Value.String())
	case *BoolLit:
		b.WriteString(strconv.FormatBool(t.Value))
	case *App:
		if len(t.Args) == 0 && len(t.Indices) == 0 {
			b.WriteString(t.Op)
			return
		}
		b.WriteByte('(')
		b.WriteString(t.Head())
		for _, a := range t.Args {
			b.WriteByte(' ')
			WriteSMTLIB(b, a, subst)
		}
		b.WriteByte(')')
	case *Let:
		inner := map[string]string{}
		for k, v := range subst {
			inner[k] = v
		}
		b.WriteString("(let (")
		for i, x := range t.Binds {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("(" + x.Name + " ")
			WriteSMTLIB(b, x.Value, subst)
			b.WriteByte(')')
			delete(inner, x.Name)
		}
		b.WriteString(") ")
		WriteSMTLIB(b, t.Body, inner)
		b.WriteByte(')')
	}
}
