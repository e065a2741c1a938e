package grammar

// exprSlab is the number of expressions of one kind that an exprAlloc
// allocates at once.
const exprSlab = 512

// An exprAlloc allocates the rules and expressions of a grammar that a
// parser reads in slabs, and the element lists of alternations and concatenations in
// shared arrays: a grammar mined from a parser can have millions of
// expressions, and allocating each on its own makes reading it several
// times slower. Slices handed out have their capacity capped, so that
// appending to one never writes into its neighbour.
type exprAlloc struct {
	rules []Rule
	lits  []Lit
	refs  []Ref
	seqs  []Seq
	alts  []Alt
	lists []Expr
}

// rule returns a rule at pos, to be named and defined.
func (a *exprAlloc) rule(pos Pos) *Rule {
	if len(a.rules) == cap(a.rules) {
		a.rules = make([]Rule, 0, exprSlab)
	}
	a.rules = append(a.rules, Rule{Pos: pos})
	return &a.rules[len(a.rules)-1]
}

func (a *exprAlloc) lit(s string, pos Pos) *Lit {
	if len(a.lits) == cap(a.lits) {
		a.lits = make([]Lit, 0, exprSlab)
	}
	a.lits = append(a.lits, Lit{S: s, P: pos})
	return &a.lits[len(a.lits)-1]
}

func (a *exprAlloc) ref(name string, pos Pos) *Ref {
	if len(a.refs) == cap(a.refs) {
		a.refs = make([]Ref, 0, exprSlab)
	}
	a.refs = append(a.refs, Ref{Name: name, P: pos})
	return &a.refs[len(a.refs)-1]
}

// seq returns a concatenation of a copy of xs.
func (a *exprAlloc) seq(xs []Expr, pos Pos) *Seq {
	if len(a.seqs) == cap(a.seqs) {
		a.seqs = make([]Seq, 0, exprSlab)
	}
	a.seqs = append(a.seqs, Seq{X: a.list(xs), P: pos})
	return &a.seqs[len(a.seqs)-1]
}

// alt returns an alternation of a copy of xs.
func (a *exprAlloc) alt(xs []Expr, pos Pos) *Alt {
	if len(a.alts) == cap(a.alts) {
		a.alts = make([]Alt, 0, exprSlab)
	}
	a.alts = append(a.alts, Alt{X: a.list(xs), P: pos})
	return &a.alts[len(a.alts)-1]
}

// list returns a copy of xs.
func (a *exprAlloc) list(xs []Expr) []Expr {
	if len(xs) > exprSlab/4 {
		return append([]Expr(nil), xs...)
	}
	if cap(a.lists)-len(a.lists) < len(xs) {
		a.lists = make([]Expr, 0, 4*exprSlab)
	}
	l := len(a.lists)
	a.lists = append(a.lists, xs...)
	return a.lists[l : l+len(xs) : l+len(xs)]
}
