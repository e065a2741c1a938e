package solver

import (
	"context"
	"errors"
	"fmt"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// An SMTSolver solves SMT-LIB string constraints for the ISLa solver. Package
// isla/solver/z3 implements it with Z3; packages isla and solver need no cgo.
type SMTSolver interface {
	// Solve returns up to n models of the query, each differing from the
	// others in the value of some variable. Fewer than n models (none: the
	// query is unsatisfiable) with a nil error mean there are no more. An
	// error means the answer is not conclusive (a time-out, an unknown
	// answer); the models found so far may come with it.
	Solve(ctx context.Context, q *SMTQuery, n int) ([]SMTModel, error)
}

// An SMTQuery is a set of SMT-LIB assertions over string variables.
type SMTQuery struct {
	Vars       []SMTVar
	Assertions []string // SMT-LIB 2.6 terms of sort Bool, in printable ASCII
}

// An SMTVar is a variable of sort String of a query.
type SMTVar struct {
	Name string
	// Regex is an SMT-LIB term of sort RegLan the value must be in (the
	// language of the variable's nonterminal), or "".
	Regex string
}

// An SMTModel maps the variables of a query to their values, as bytes:
// SMT-LIB characters U+DC80 to U+DCFF stand for the bytes 0x80 to 0xFF,
// all others for their UTF-8 encoding.
type SMTModel map[string]string

// String writes the query as an SMT-LIB script.
func (q *SMTQuery) String() string {
	var b strings.Builder
	for _, v := range q.Vars {
		fmt.Fprintf(&b, "(declare-const %s String)\n", v.Name)
		if v.Regex != "" {
			fmt.Fprintf(&b, "(assert (str.in_re %s %s))\n", v.Name, v.Regex)
		}
	}
	for _, a := range q.Assertions {
		fmt.Fprintf(&b, "(assert %s)\n", a)
	}
	return b.String()
}

// finishSMT solves the atoms of a state with the SMT solver: the SMT-LIB
// atoms go to it, each open leaf a variable in its nonterminal's language;
// each model is parsed back into the tree, and the rest (predicates) solved
// in Go.
func (s *Solver) finishSMT(ctx context.Context, c *evalCtx, st *state) ([]*grammar.Tree, error) {
	if s.cfg.smt == nil {
		s.cspIncomplete("the atoms were not solved in Go, and the solver has no SMT solver")
		return nil, nil
	}
	b := &queryBuilder{s: s, c: c, st: st, vars: map[string]bool{}, exact: true}
	for _, it := range st.forms {
		if n, ok := it.n.(*isla.CompiledSMT); ok {
			a, ok := b.atom(it, n)
			if !ok {
				s.incomplete(NoLimit, "an atom the solver cannot give the SMT solver")
				return nil, nil
			}
			b.q.Assertions = append(b.q.Assertions, a)
		}
	}
	if len(b.q.Assertions) == 0 {
		s.cspIncomplete("predicates the solver could not solve")
		return nil, nil
	}
	s.stats.SMTQueries++
	qctx, cancel := context.WithTimeout(ctx, s.cfg.smtTimeout)
	models, err := s.cfg.smt.Solve(qctx, &b.q, s.cfg.models)
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errors.Is(err, context.DeadlineExceeded) {
			s.incomplete(LimitSMTTimeout, "the SMT solver did not answer in time")
		} else {
			s.incomplete(NoLimit, "the SMT solver gave no answer (%v)", err)
		}
	} else if len(models) == 0 && !b.exact {
		s.incomplete(NoLimit, "the SMT solver found no model, but a nonterminal's language was approximated")
	}
	var outs []*grammar.Tree
	for _, m := range models {
		next := &state{root: st.root, forms: st.forms, ints: append([]string(nil), st.ints...)}
		subs := map[int32]*stree{}
		ok := true
		for id, l := range b.leaves {
			sub, parsed := s.parseLeaf(l, m[leafName(id)])
			if !parsed {
				ok = false
				break
			}
			subs[id] = sub
		}
		for i := range b.ints {
			v := m[intName(i)]
			if !smtlib.IsDigits(v) {
				ok = false
				break
			}
			next.ints[i] = v
		}
		if !ok {
			continue
		}
		next.root = st.root.replace(subs)
		root, rnd, rewrote, solved := s.csp(next, nil)
		if !solved {
			s.cspIncomplete("the atoms left after a model of the SMT solver were not solved")
			continue
		}
		if t, closed, ok := s.closeTree(root, rewrote); ok {
			outs = append(outs, t)
			if rnd || closed {
				// The state is not kept for more samples (each would
				// query the SMT solver again): no proof of exhaustion.
				s.incomplete(NoLimit, "the solver took samples of the completions of a state the SMT solver solved")
			}
		}
	}
	return outs, nil
}

func leafName(id int32) string { return "isla.x" + strconv.Itoa(int(id)) }
func intName(i int32) string   { return "isla.n" + strconv.Itoa(int(i)) }

// queryBuilder translates the atoms of a state into an SMT query.
type queryBuilder struct {
	s      *Solver
	c      *evalCtx
	st     *state
	q      SMTQuery
	vars   map[string]bool
	leaves map[int32]*stree
	ints   map[int32]bool
	exact  bool // every variable's regular expression is its exact language
}

// atom translates an instance of an SMT-LIB formula.
func (b *queryBuilder) atom(it item, n *isla.CompiledSMT) (string, bool) {
	subst := map[string]string{}
	for _, v := range n.Vars {
		x, ok := it.env.lookup(v.Slot)
		if !ok {
			return "", false
		}
		if v.Kind == isla.IntVar {
			if val := b.st.ints[x]; val != "" {
				subst[v.Name] = smtlib.QuoteSMT(val)
				continue
			}
			name := intName(x)
			if !b.vars[name] {
				b.vars[name] = true
				if b.ints == nil {
					b.ints = map[int32]bool{}
				}
				b.ints[x] = true
				b.q.Vars = append(b.q.Vars, SMTVar{Name: name,
					Regex: `(re.union (str.to_re "0") (re.++ (re.range "1" "9") (re.* (re.range "0" "9"))))`})
			}
			subst[v.Name] = name
			continue
		}
		subst[v.Name] = b.nodeText(b.c.node(x))
	}
	var sb strings.Builder
	isla.WriteSMTLIB(&sb, n.Src.Term, subst)
	text := sb.String()
	if it.neg {
		text = "(not " + text + ")"
	}
	return text, true
}

// nodeText is the SMT-LIB string term of a node's text: a literal, a leaf
// variable, or a concatenation of both.
func (b *queryBuilder) nodeText(n *stree) string {
	var parts []string
	var lit []byte
	flush := func() {
		if len(lit) > 0 {
			parts = append(parts, smtlib.QuoteSMT(smtlib.FromBytes(string(lit))))
			lit = lit[:0]
		}
	}
	var walk func(u *stree)
	walk = func(u *stree) {
		if u.open {
			flush()
			parts = append(parts, b.leafVar(u))
			return
		}
		if len(u.kids) == 0 {
			lit = append(lit, u.val...)
			return
		}
		for _, k := range u.kids {
			walk(k)
		}
	}
	walk(n)
	flush()
	switch len(parts) {
	case 0:
		return `""`
	case 1:
		return parts[0]
	}
	return "(str.++ " + strings.Join(parts, " ") + ")"
}

func (b *queryBuilder) leafVar(l *stree) string {
	name := leafName(l.id)
	if !b.vars[name] {
		b.vars[name] = true
		if b.leaves == nil {
			b.leaves = map[int32]*stree{}
		}
		b.leaves[l.id] = l
		re, exact := b.s.grammarRegex(l.g.Name)
		b.exact = b.exact && exact
		b.q.Vars = append(b.q.Vars, SMTVar{Name: name, Regex: re})
	}
	return name
}
