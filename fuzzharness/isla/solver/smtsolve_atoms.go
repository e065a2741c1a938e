package solver

import (
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
	"math/big"
)

// What the solver knows of an SMT-LIB atom to solve it in Go:
//
//   - pins: an equation that gives one variable its value once the others
//     have one: (= x t), (= (str.to_int x) t), and linear equations over
//     str.to_int of numbers such as (= (+ (str.to_int a) (str.to_int b))
//     (str.to_int c)), solved for the variable that occurs once;
//   - length bounds: (= (str.len x) t), (>= (str.len x) t), ... with t
//     known;
//   - regular expressions: (str.in_re x R) with R constant.
//
// Hints only guide the random choice of a value; every atom is evaluated
// once its variables have values, as the validator evaluates it.

type atomInfo struct {
	pins []pinInfo
	lens []lenHint
	res  []reHint
	// group maps the slot of each variable to its group (-1: the slot is
	// no variable of the atom; see groupOf): variables in different
	// groups occur in different conjuncts, so the value of one does not
	// decide whether the conjuncts of the other hold.
	group []int
}

// groupOf returns the group of the variable in slot, if it is one of the
// atom's.
func (a *atomInfo) groupOf(slot int) (int, bool) {
	if slot < 0 || slot >= len(a.group) || a.group[slot] < 0 {
		return 0, false
	}
	return a.group[slot], true
}

// pinInfo computes the value of the variable in slot from the others.
type pinInfo struct {
	slot    int
	compute func(e *isla.Evaluator) (string, bool) // the value in the internal string form
}

// lenHint bounds the length (in characters) of the variable in slot:
// op is one of = >= <= > <, relating str.len of the variable to other.
type lenHint struct {
	slot  int
	op    string
	other isla.CompiledTerm
}

// reHint says the variable in slot is in the language of re.
type reHint struct {
	slot int
	re   *smtlib.Regex
}

// termScope compiles terms over the variables of one atom.
type termScope struct {
	tc   *isla.TermCompiler
	vars []isla.Variable
}

func (sc termScope) term(t isla.Term) (isla.CompiledTerm, bool) { return sc.tc.Compile(t, sc.vars) }

// analyzeAtom finds the pins and hints of an atom, from its conjuncts.
func (s *Solver) analyzeAtom(n *isla.CompiledSMT) *atomInfo {
	info := &atomInfo{}
	cp := termScope{s.tc, n.Vars}
	byName := map[string]isla.Variable{}
	for _, v := range n.Vars {
		byName[v.Name] = v
	}
	var conj func(t isla.Term)
	conj = func(t isla.Term) {
		app, ok := t.(*isla.App)
		if !ok {
			return
		}
		switch app.Op {
		case "and":
			for _, a := range app.Args {
				conj(a)
			}
		case "=":
			if len(app.Args) == 2 {
				s.addPins(cp, info, n.Vars, app.Args[0], app.Args[1])
				s.addPins(cp, info, n.Vars, app.Args[1], app.Args[0])
			}
			s.addLen(cp, info, byName, app)
		case ">=", "<=", ">", "<":
			s.addLen(cp, info, byName, app)
		case "str.in_re", "str.in.re":
			if len(app.Args) != 2 {
				return
			}
			v, ok := app.Args[0].(*isla.Var)
			if !ok {
				return
			}
			vi, ok := byName[v.Name]
			if !ok || vi.Kind == isla.LetVar {
				return
			}
			ct, ok := cp.term(app.Args[1])
			if !ok || !ct.Const || ct.Sort != smtlib.SortRegLan {
				return
			}
			if re := ct.Eval(nil).Re; re != nil {
				info.res = append(info.res, reHint{slot: vi.Slot, re: re})
			}
		}
	}
	conj(n.Src.Term)
	info.group = varGroups(n)
	return info
}

// varGroups groups the variables of an atom (but let names) by the
// top-level conjuncts they share, transitively: per slot, its group (-1:
// no variable's slot).
func varGroups(n *isla.CompiledSMT) []int {
	slotOf := map[string]int{}
	parent := map[int]int{}
	for _, v := range n.Vars {
		if v.Kind != isla.LetVar {
			slotOf[v.Name] = v.Slot
			parent[v.Slot] = v.Slot
		}
	}
	var find func(x int) int
	find = func(x int) int {
		for parent[x] != x {
			x = parent[x]
		}
		return x
	}
	var conjuncts []isla.Term
	var split func(t isla.Term)
	split = func(t isla.Term) {
		if app, ok := t.(*isla.App); ok && app.Op == "and" {
			for _, a := range app.Args {
				split(a)
			}
			return
		}
		conjuncts = append(conjuncts, t)
	}
	split(n.Src.Term)
	for _, t := range conjuncts {
		var slots []int
		var walk func(t isla.Term)
		walk = func(t isla.Term) {
			switch t := t.(type) {
			case *isla.Var:
				if s, ok := slotOf[t.Name]; ok {
					slots = append(slots, s)
				}
			case *isla.App:
				for _, a := range t.Args {
					walk(a)
				}
			case *isla.Let:
				// A let may bind any variable: all of them share it.
				for _, s := range slotOf {
					slots = append(slots, s)
				}
			}
		}
		walk(t)
		for _, s := range slots[min(1, len(slots)):] {
			parent[find(s)] = find(slots[0])
		}
	}
	var group []int
	for s := range parent {
		for len(group) <= s {
			group = append(group, -1)
		}
		group[s] = find(s)
	}
	return group
}

// varIn reports the variable (not a let name) that term t is, if it is one.
func varIn(t isla.Term, byName map[string]isla.Variable) (isla.Variable, bool) {
	v, ok := t.(*isla.Var)
	if !ok {
		return isla.Variable{}, false
	}
	vi, ok := byName[v.Name]
	return vi, ok && vi.Kind != isla.LetVar
}

// occurrences counts the occurrences of the variable name in t.
func occurrences(t isla.Term, name string) int {
	n := 0
	var walk func(t isla.Term)
	walk = func(t isla.Term) {
		switch t := t.(type) {
		case *isla.Var:
			if t.Name == name {
				n++
			}
		case *isla.App:
			for _, a := range t.Args {
				walk(a)
			}
		case *isla.Let:
			n += 2 // lets are not inverted
		}
	}
	walk(t)
	return n
}

// addPins adds the pins of the equation side = other for the variables
// occurring once in side and not in other.
func (s *Solver) addPins(cp termScope, info *atomInfo, vars []isla.Variable, side, other isla.Term) {
	ot, ok := cp.term(other)
	if !ok {
		return
	}
	for _, vi := range vars {
		name := vi.Name
		if vi.Kind == isla.LetVar || occurrences(side, name) != 1 || occurrences(other, name) != 0 {
			continue
		}
		if f := s.invert(cp, side, name, vi); f != nil {
			info.pins = append(info.pins, pinInfo{slot: vi.Slot, compute: func(e *isla.Evaluator) (string, bool) {
				return f(e, ot.Eval(e))
			}})
		}
	}
}

// invert returns a function that, given the value side must have, computes
// the value of the variable name (occurring once in side), or nil if side
// is not of a form the solver inverts.
func (s *Solver) invert(cp termScope, side isla.Term, name string, vi isla.Variable) func(*isla.Evaluator, smtlib.Value) (string, bool) {
	switch t := side.(type) {
	case *isla.Var:
		if t.Name != name {
			return nil
		}
		return func(_ *isla.Evaluator, v smtlib.Value) (string, bool) {
			if v.Undef {
				return "", false
			}
			return v.Str, true
		}
	case *isla.App:
		switch t.Op {
		case "str.to_int", "str.to.int":
			if len(t.Args) != 1 {
				return nil
			}
			if v, ok := t.Args[0].(*isla.Var); !ok || v.Name != name {
				return nil
			}
			return func(_ *isla.Evaluator, v smtlib.Value) (string, bool) {
				if v.Undef || v.Int.Sign() < 0 {
					return "", false
				}
				return v.Int.String(), true
			}
		case "+", "-":
			k := -1
			for i, a := range t.Args {
				if occurrences(a, name) == 1 {
					k = i
				}
			}
			if k < 0 || t.Op == "-" && len(t.Args) != 2 {
				return nil
			}
			inner := s.invert(cp, t.Args[k], name, vi)
			if inner == nil {
				return nil
			}
			var others []isla.CompiledTerm
			for i, a := range t.Args {
				if i == k {
					continue
				}
				ct, ok := cp.term(a)
				if !ok || ct.Sort != smtlib.SortInt {
					return nil
				}
				others = append(others, ct)
			}
			op := t.Op
			return func(e *isla.Evaluator, v smtlib.Value) (string, bool) {
				if v.Undef {
					return "", false
				}
				x := v.Int
				for _, o := range others {
					ov := o.Eval(e)
					if ov.Undef {
						return "", false
					}
					switch {
					case op == "+":
						x = smtlib.SubInt(x, ov.Int)
					case k == 0: // (- x o) = v: x = v + o
						x = smtlib.AddInt(x, ov.Int)
					default: // (- o x) = v: x = o - v
						x = smtlib.SubInt(ov.Int, x)
					}
				}
				return inner(e, smtlib.Value{Int: x})
			}
		}
	}
	return nil
}

// addLen adds a length bound from a comparison of (str.len x) with a term.
func (s *Solver) addLen(cp termScope, info *atomInfo, byName map[string]isla.Variable, app *isla.App) {
	if len(app.Args) != 2 {
		return
	}
	flip := map[string]string{"=": "=", ">=": "<=", "<=": ">=", ">": "<", "<": ">"}
	for side := 0; side < 2; side++ {
		l, ok := app.Args[side].(*isla.App)
		if !ok || l.Op != "str.len" || len(l.Args) != 1 {
			continue
		}
		vi, ok := varIn(l.Args[0], byName)
		if !ok || occurrences(app.Args[1-side], vi.Name) != 0 {
			continue
		}
		ot, ok := cp.term(app.Args[1-side])
		if !ok || ot.Sort != smtlib.SortInt {
			continue
		}
		op := app.Op
		if side == 1 {
			op = flip[op]
		}
		info.lens = append(info.lens, lenHint{slot: vi.Slot, op: op, other: ot})
	}
}

// lenBounds narrows [lo, hi] (hi < 0: unbounded) by a length hint whose
// other side has value v.
func lenBounds(op string, v smtlib.Value, lo, hi int) (int, int) {
	if v.Undef {
		return lo, hi
	}
	n, ok := v.Int.Int64()
	if !ok {
		if v.Int.Big().Cmp(new(big.Int)) < 0 {
			n = -1
		} else {
			n = 1 << 30
		}
	}
	k := int(min(max(n, -1), 1<<30))
	switch op {
	case "=":
		lo, hi = max(lo, k), minHi(hi, k)
	case ">=":
		lo = max(lo, k)
	case ">":
		lo = max(lo, k+1)
	case "<=":
		hi = minHi(hi, k)
	case "<":
		hi = minHi(hi, k-1)
	}
	return lo, hi
}

func minHi(hi, k int) int {
	if hi < 0 || k < hi {
		return k
	}
	return hi
}
