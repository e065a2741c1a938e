package solver

import (
	"fmt"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// analyze prepares the compiled constraint for solving: ids and free slots
// of the formula nodes, the kinds of the slots, the pattern trees of match
// expressions, which nonterminals derive which, and which references the
// solver leaves open while it expands (those whose text atoms constrain).
func (s *Solver) analyze() error {
	spec := s.spec
	lb := spec.Labels()
	// Reachability between labels.
	s.reach = map[int32]map[int32]bool{}
	for name, id := range lb.IDs {
		r := map[int32]bool{}
		var todo []*grammar.Node
		if rhs := spec.Graph().RHS(name); rhs != nil {
			todo = append(todo, rhs)
		} else if name == "start" && spec.VirtualRoot() {
			todo = append(todo, spec.Graph().Root)
			r[lb.IDs[spec.Graph().Root.Rule]] = true
		}
		seen := map[*grammar.Node]bool{}
		for len(todo) > 0 {
			n := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			if seen[n] {
				continue
			}
			seen[n] = true
			if n.Kind == grammar.KindRef {
				r[lb.IDs[n.Name]] = true
			}
			todo = append(todo, n.Children...)
		}
		s.reach[id] = r
	}
	s.reach[-1] = map[int32]bool{}

	controlled := map[string]bool{}
	s.semWrites = map[int32]bool{}
	type qinfo struct {
		label int32
		match bool
	}
	var quants []qinfo
	internal := map[*grammar.Node]bool{}
	var err error
	var walk func(n isla.Compiled)
	walk = func(n isla.Compiled) {
		if n == nil || err != nil {
			return
		}
		s.nodeID[n] = len(s.nodeID)
		var vars []isla.Variable
		switch n := n.(type) {
		case *isla.CompiledSMT:
			vars = n.Vars
			for _, v := range n.Vars {
				if v.Kind == isla.TreeVar {
					controlled[v.Type] = true
				}
			}
			s.atoms[n] = s.analyzeAtom(n)
		case *isla.CompiledPred:
			vars = n.Vars
			if n.Impl != nil {
				if _, ok := n.Impl.(isla.NumSolver); ok {
					for _, a := range n.Args {
						if a.Kind == isla.TreeParam {
							controlled[s.slotType(n.Vars, a.Slot)] = true
						}
					}
				}
				if _, ok := n.Impl.(isla.TreeSolver); ok {
					for _, w := range n.Writes {
						controlled[w] = true
						if id, ok := lb.IDs[w]; ok {
							s.semWrites[id] = true
						}
					}
				}
			}
		case *isla.CompiledNot:
			vars = n.Vars
			walk(n.X)
		case *isla.CompiledBinary:
			vars = n.Vars
			walk(n.X)
			walk(n.Y)
		case *isla.CompiledQuantifier:
			vars = n.Vars
			quants = append(quants, qinfo{n.Label, n.Match != nil})
			if n.Match != nil {
				ps, perr := s.patternTrees(n.Match, n.Src.Type)
				if perr != nil {
					err = fmt.Errorf("%s: %w", n.Src.P, perr)
					return
				}
				s.patterns[n] = ps
				for _, p := range ps {
					internalRefs(p, internal)
				}
			}
			walk(n.Body)
		case *isla.CompiledIntQuantifier:
			vars = n.Vars
			s.slotKind[n.Slot] = isla.IntVar
			walk(n.Body)
		}
		var slots []int
		for _, v := range vars {
			if v.Kind != isla.LetVar {
				slots = append(slots, v.Slot)
			}
		}
		s.freeSlots[n] = slots
	}
	walk(spec.Formula())
	if err != nil {
		return err
	}
	// A controlled nonterminal is left open unless a quantifier could find
	// its type, or a node of a type with a match expression, below or at it.
	leave := map[string]bool{}
	for name := range controlled {
		id, ok := lb.IDs[name]
		if !ok || spec.Graph().RHS(name) == nil {
			continue
		}
		ok = true
		for _, q := range quants {
			if s.reach[id][q.label] || q.label == id && q.match {
				ok = false
			}
		}
		leave[name] = ok
	}
	s.keepOpen = make([]bool, len(spec.Graph().Nodes))
	for _, n := range spec.Graph().Nodes {
		if n.Kind == grammar.KindRef && leave[n.Name] && !internal[n] {
			s.keepOpen[n.ID] = true
		}
	}
	return nil
}

// slotType returns the nonterminal of the variable in slot.
func (s *Solver) slotType(vars []isla.Variable, slot int) string {
	for _, v := range vars {
		if v.Slot == slot {
			return v.Type
		}
	}
	return ""
}

// keep reports whether the solver leaves a reference open when it expands.
func (s *Solver) keep(n *grammar.Node) bool { return n.ID >= 0 && s.keepOpen[n.ID] }

// closingCosts estimates, per nonterminal, the effort of closing an open
// leaf: the mean number of symbolic nodes of a few random derivations.
func (s *Solver) closingCosts() {
	s.universals = s.universals[:0]
	for _, q := range s.spec.Universals() {
		s.universals = append(s.universals, q.Type)
	}
	s.closing = map[string]float64{}
	gen := grammar.NewGenerator(s.spec.Graph(), s.cfg.seed^0xc105e)
	gen.MaxSize = s.gen.MaxSize
	const samples = 4
	for _, name := range s.spec.Graph().Nonterminals() {
		rhs := s.spec.Graph().RHS(name)
		total := 0
		for range samples {
			t, err := gen.GenerateFrom(rhs)
			if err != nil {
				total += rhs.MinSize
				continue
			}
			t.Walk(func(u *grammar.Tree) bool {
				if u.Node.Symbolic() {
					total++
				}
				return true
			})
		}
		s.closing[name] = float64(total) / samples
	}
}
