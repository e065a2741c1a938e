package algebra

import (
	"slices"
	"strconv"
	"strings"
)

// A literal is an atom or its negation: 2*atom for the atom, 2*atom+1 for
// its negation.
type literal int

func posLit(a int) literal      { return literal(2 * a) }
func (l literal) atom() int     { return int(l) / 2 }
func (l literal) negated() bool { return l%2 == 1 }
func (l literal) not() literal  { return l ^ 1 }

// A conj is a conjunction of literals, sorted, without duplicates; the
// empty conj is true.
type conj []literal

// and returns c ∧ d, and false if they contradict each other.
func (c conj) and(d conj) (conj, bool) {
	out := make(conj, 0, len(c)+len(d))
	i, j := 0, 0
	for i < len(c) || j < len(d) {
		var l literal
		switch {
		case j == len(d) || i < len(c) && c[i] < d[j]:
			l = c[i]
			i++
		case i == len(c) || d[j] < c[i]:
			l = d[j]
			j++
		default:
			l = c[i]
			i++
			j++
		}
		if n := len(out); n > 0 && out[n-1] == l.not() && l.negated() {
			return nil, false
		}
		out = append(out, l)
	}
	return out, true
}

// subset reports whether every literal of c is in d.
func (c conj) subset(d conj) bool {
	i := 0
	for _, l := range d {
		if i < len(c) && c[i] == l {
			i++
		}
	}
	return i == len(c)
}

func (c conj) key() string {
	var b strings.Builder
	for i, l := range c {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(int(l)))
	}
	return b.String()
}

// A row is one disjunct of a DNF over the slots of a production: one
// conjunction per slot. A set of rows is their disjunction; no rows is
// false, and one row of empty conjunctions is true.
type row []conj

func trueRows(slots int) []row { return []row{make(row, slots)} }

// one returns the rows of a single literal at slot i.
func one(slots, i int, l literal) []row {
	r := make(row, slots)
	r[i] = conj{l}
	return []row{r}
}

// product returns the conjunction of two DNFs, without contradictory rows,
// absorbed.
func product(a, b []row) []row {
	var out []row
	for _, x := range a {
	next:
		for _, y := range b {
			r := make(row, len(x))
			for i := range x {
				c, ok := x[i].and(y[i])
				if !ok {
					continue next
				}
				r[i] = c
			}
			out = append(out, r)
		}
	}
	return absorb(out)
}

// absorb removes duplicate rows and rows implied by others (a row whose
// every slot conjunction contains another row's).
func absorb(rows []row) []row {
	slices.SortStableFunc(rows, func(x, y row) int { return x.size() - y.size() })
	var out []row
	for _, r := range rows {
		dup := false
		for _, o := range out {
			if o.subsumes(r) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, r)
		}
	}
	return out
}

func (r row) size() int {
	n := 0
	for _, c := range r {
		n += len(c)
	}
	return n
}

// subsumes reports whether every slot conjunction of r is part of s's: then
// s implies r, and s is redundant next to r.
func (r row) subsumes(s row) bool {
	for i := range r {
		if !r[i].subset(s[i]) {
			return false
		}
	}
	return true
}

// negation returns the DNF of not(c1 and c2 and ... and cn), the ci given
// as rows of one literal or true (nil): disjoint alternatives
// not c1 | c1 not c2 | c1 c2 not c3 | ..., as the corrected rule negation
// of Input Algebras prescribes.
func negation(slots int, lits []slotLit) []row {
	var out []row
	prefix := make(row, slots)
	for _, sl := range lits {
		r := make(row, slots)
		copy(r, prefix)
		c, ok := r[sl.slot].and(conj{sl.l.not()})
		if ok {
			r[sl.slot] = c
			out = append(out, r)
		}
		p, ok := prefix[sl.slot].and(conj{sl.l})
		if !ok {
			break
		}
		prefix = slices.Clone(prefix)
		prefix[sl.slot] = p
	}
	return out
}

// A slotLit is a literal at a slot of a production.
type slotLit struct {
	slot int
	l    literal
}

// conjunction returns the single row of all the literals.
func conjunction(slots int, lits []slotLit) []row {
	r := make(row, slots)
	for _, sl := range lits {
		c, ok := r[sl.slot].and(conj{sl.l})
		if !ok {
			return nil
		}
		r[sl.slot] = c
	}
	return []row{r}
}

// maxResolve bounds the rows resolve looks at: it takes quadratic time.
const maxResolve = 256

// resolve merges pairs of rows that differ only in one literal of one
// slot, x in one and not x in the other (c∧x ∨ c∧¬x = c), until there are
// none, and absorbs the result: "P or not P" is true, and two alternatives
// that differ only in <A:+P> and <A:-P> become one with <A>.
func resolve(rows []row) []row {
	if len(rows) > maxResolve {
		return rows
	}
	for changed := true; changed; {
		changed = false
	pairs:
		for i := 0; i < len(rows); i++ {
			for j := i + 1; j < len(rows); j++ {
				if m, ok := resolvent(rows[i], rows[j]); ok {
					rows = append(rows[:j], rows[j+1:]...)
					rows[i] = m
					changed = true
					break pairs
				}
			}
		}
		rows = absorb(rows)
	}
	return rows
}

// resolvent returns the merge of r and s if they differ in exactly one
// slot, whose conjunctions differ only in the sign of one literal.
func resolvent(r, s row) (row, bool) {
	slot := -1
	for i := range r {
		if !slices.Equal(r[i], s[i]) {
			if slot >= 0 {
				return nil, false
			}
			slot = i
		}
	}
	if slot < 0 || len(r[slot]) != len(s[slot]) {
		return nil, false
	}
	a, b := r[slot], s[slot]
	diff := -1
	for i := range a {
		if a[i] != b[i] {
			if diff >= 0 || a[i].atom() != b[i].atom() {
				return nil, false
			}
			diff = i
		}
	}
	m := slices.Clone(r)
	m[slot] = slices.Delete(slices.Clone(a), diff, diff+1)
	return m, true
}
