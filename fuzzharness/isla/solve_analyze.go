package isla

import (
	"fmt"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// analyze prepares the compiled constraint for solving: ids and free slots
// of the formula nodes, the kinds of the slots, the pattern trees of match
// expressions, which nonterminals derive which, and which references the
// solver leaves open while it expands (those whose text atoms constrain).
func (s *Solver) analyze() error {
	spec := s.spec
	lb := spec.lb
	// Reachability between labels.
	s.reach = map[int32]map[int32]bool{}
	for name, id := range lb.ids {
		r := map[int32]bool{}
		var todo []*grammar.Node
		if rhs := spec.graph.RHS(name); rhs != nil {
			todo = append(todo, rhs)
		} else if name == "start" && spec.virtual {
			todo = append(todo, spec.graph.Root)
			r[lb.ids[spec.graph.Root.Rule]] = true
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
				r[lb.ids[n.Name]] = true
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
	var walk func(n cnode)
	walk = func(n cnode) {
		if n == nil || err != nil {
			return
		}
		s.nodeID[n] = len(s.nodeID)
		var vars []varInfo
		switch n := n.(type) {
		case *cSMT:
			vars = n.vars
			for _, v := range n.vars {
				if v.kind == vTree {
					controlled[v.typ] = true
				}
			}
			s.atoms[n] = s.analyzeAtom(n)
		case *cPred:
			vars = n.vars
			if n.impl != nil {
				if _, ok := n.impl.(NumSolver); ok {
					for _, a := range n.args {
						if a.kind == TreeParam {
							controlled[s.slotType(n.vars, a.slot)] = true
						}
					}
				}
				if ts, ok := n.impl.(TreeSolver); ok {
					for _, w := range ts.Writes() {
						controlled[w] = true
						if id, ok := lb.ids[w]; ok {
							s.semWrites[id] = true
						}
					}
				}
			}
		case *cNot:
			vars = n.vars
			walk(n.x)
		case *cBin:
			vars = n.vars
			walk(n.x)
			walk(n.y)
		case *cQuant:
			vars = n.vars
			quants = append(quants, qinfo{n.label, n.match != nil})
			if n.match != nil {
				ps, perr := s.patternTrees(n.match, n.src.Type)
				if perr != nil {
					err = fmt.Errorf("%s: %w", n.src.P, perr)
					return
				}
				s.patterns[n] = ps
				for _, p := range ps {
					internalRefs(p, internal)
				}
			}
			walk(n.body)
		case *cIntQ:
			vars = n.vars
			s.slotKind[n.slot] = vInt
			walk(n.body)
		}
		var slots []int
		for _, v := range vars {
			if v.kind != vLet {
				slots = append(slots, v.slot)
			}
		}
		s.freeSlots[n] = slots
	}
	walk(spec.root)
	if err != nil {
		return err
	}
	// A controlled nonterminal is left open unless a quantifier could find
	// its type, or a node of a type with a match expression, below or at it.
	leave := map[string]bool{}
	for name := range controlled {
		id, ok := lb.ids[name]
		if !ok || spec.graph.RHS(name) == nil {
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
	s.keepOpen = make([]bool, len(spec.graph.Nodes))
	for _, n := range spec.graph.Nodes {
		if n.Kind == grammar.KindRef && leave[n.Name] && !internal[n] {
			s.keepOpen[n.ID] = true
		}
	}
	return nil
}

// slotType returns the nonterminal of the variable in slot.
func (s *Solver) slotType(vars []varInfo, slot int) string {
	for _, v := range vars {
		if v.slot == slot {
			return v.typ
		}
	}
	return ""
}

// keep reports whether the solver leaves a reference open when it expands.
func (s *Solver) keep(n *grammar.Node) bool { return n.ID >= 0 && s.keepOpen[n.ID] }

// closingCosts estimates, per nonterminal, the effort of closing an open
// leaf: the mean number of symbolic nodes of a few random derivations.
func (s *Solver) closingCosts() {
	s.closing = map[string]float64{}
	gen := grammar.NewGenerator(s.spec.graph, s.cfg.seed^0xc105e)
	gen.MaxSize = s.gen.MaxSize
	const samples = 4
	for _, name := range s.spec.graph.Nonterminals() {
		rhs := s.spec.graph.RHS(name)
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
