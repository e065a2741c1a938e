package solver

import (
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/pattern"
)

// Tree insertion next to and around existing nodes, for grammars that
// express repetition and nesting by recursion (a path <A> ... <A> in the
// grammar) rather than by a repetition operator. A node u labeled A in the
// quantifier's range gets a new node of the quantifier's type T in one of
// two ways (ISLa's tree insertion by self-embedding and by reverse
// embedding):
//
//   - beside u: u's slot gets a new A node that derives u again along a
//     shortest cycle A ->+ A of the grammar, and an off-path child of a
//     sequence on that cycle derives the new T node;
//   - around u: u's slot derives the new T node, and one of the holes of
//     the quantifier's match expression derives u. So an existential
//     quantifier over an enclosing node, such as an XML element declaring
//     the namespace prefix of an attribute inside it, can be satisfied once
//     the inner node exists.
//
// The new T node is built from the match expression (holes left open); the
// paths between the nodes follow shortest paths of the grammar, with the
// nodes off them generated at random. u keeps its id and its subtree, so
// the formulas that bind it stay bound; only when u is the quantifier's
// range itself (beside u) does the new A node take its id, so that the
// range grows by the new node. A third kind, into an open leaf of the range
// (holeInsertions), derives the leaf into the new node.

// embeds reports whether the solver inserts beside and around existing
// nodes and into open leaves: with tree insertion on, when it prefers
// non-vacuous solutions (NonVacuous). These insertions make many more
// states, most of them not leading to a solution; a search that takes any
// solution finds vacuous ones much faster without them (on ISLa's XML
// constraints, 100 times as many per CPU minute).
func (s *Solver) embeds() bool { return s.cfg.insertion && s.cfg.nonVacuous > 0 }

// maxWrapTries bounds the nodes tried for an insertion beside or around an
// existing node, for one existential quantifier.
const maxWrapTries = 24

// wrapMode says where a new node goes relative to an existing one.
type wrapMode uint8

const (
	wrapBeside wrapMode = iota // a sibling on a cycle of the grammar
	wrapAround                 // an ancestor of the existing node
)

// wrapCand is a candidate of an insertion beside or around node u.
type wrapCand struct {
	u    *stree
	mode wrapMode
}

// wraps returns up to n ways to eliminate an existential quantifier by
// inserting a new node of its type beside or around an existing node of its
// range. The nodes that hold a node the quantifier's instance binds (the
// variables of the enclosing formulas) and the range itself are tried
// first, in random order, then the others; the ways where the quantifier's
// body is false at once are dropped.
func (s *Solver) wraps(c *evalCtx, st *state, it item, q *isla.CompiledQuantifier, key string, n int) []option {
	if n <= 0 || q.Child > 0 || !s.embeds() {
		return nil
	}
	inID, _ := it.env.lookup(q.In)
	scope := c.node(inID)
	if scope == nil {
		scope = st.root // the virtual <start>
	}
	// The ancestors of the nodes the instance binds.
	near := map[int32]bool{}
	for e := it.env; e != nil; e = e.next {
		if s.slotKind[e.slot] == isla.IntVar || e.val == inID {
			continue
		}
		for _, u := range scope.path(e.val) {
			near[u.id] = true
		}
	}
	var first, rest []wrapCand
	add := func(cd wrapCand) {
		if near[cd.u.id] || cd.u == scope {
			first = append(first, cd)
		} else {
			rest = append(rest, cd)
		}
	}
	scope.walk(func(u *stree) bool {
		if u.open {
			return false
		}
		if u.g.Kind != grammar.KindRef || u.g.ID < 0 {
			return true
		}
		if len(s.besides(u.g.Name, q.Src.Type)) > 0 {
			add(wrapCand{u, wrapBeside})
		}
		if u != scope && s.derives(u.g, q.Src.Type) && s.wrapsInto(q, u.g.Name) {
			add(wrapCand{u, wrapAround})
		}
		return true
	})
	// Only where no node is near, the others.
	s.rng.Shuffle(len(first), func(a, b int) { first[a], first[b] = first[b], first[a] })
	s.rng.Shuffle(len(rest), func(a, b int) { rest[a], rest[b] = rest[b], rest[a] })
	cands := append(first, rest...)
	var out []option
	tried := 0
	for _, cd := range cands {
		if len(out) >= n || tried >= maxWrapTries {
			break
		}
		tried++
		binds := make([]int32, 1+s.binderCount(q))
		var sub *stree
		var ok bool
		if cd.mode == wrapBeside {
			sub, ok = s.besideTree(cd.u, cd.u == scope, q, binds)
		} else {
			sub, ok = s.aroundTree(cd.u, q, binds)
		}
		if !ok {
			continue
		}
		root := st.root.replace(map[int32]*stree{cd.u.id: sub})
		out = append(out, s.insertedOptions(st, root, it, q, key, binds)...)
	}
	if tried < len(cands) {
		s.incomplete(LimitBranches, "not every tree insertion beside or around an existing node was tried")
	}
	return out
}

// beside is a way to derive a new node beside an existing one: along cycle,
// a shortest path of graph nodes from a nonterminal's right-hand side to a
// reference to the nonterminal, the off-path child spot of a sequence on it
// derives the new node's type.
type beside struct {
	cycle []*grammar.Node
	spot  *grammar.Node
}

type besideKey struct{ name, typ string }

// besides returns the ways to derive a node of type typ beside a node
// labeled name.
func (s *Solver) besides(name, typ string) []beside {
	k := besideKey{name, typ}
	if b, ok := s.besideWays[k]; ok {
		return b
	}
	var out []beside
	if rhs := s.spec.Graph().RHS(name); rhs != nil {
		cycle := s.refPath(rhs, name)
		for i, g := range cycle {
			if g.Kind != grammar.KindSeq || i+1 >= len(cycle) {
				continue
			}
			for _, ch := range g.Children {
				if ch != cycle[i+1] && s.derives(ch, typ) {
					out = append(out, beside{cycle, ch})
				}
			}
		}
	}
	if s.besideWays == nil {
		s.besideWays = map[besideKey][]beside{}
	}
	s.besideWays[k] = out
	return out
}

// besideTree returns the subtree that replaces node u: a new node of u's
// nonterminal that derives u again and, beside it, a new node of the
// quantifier's type. If top is set, the new node takes u's id and u a new
// one. binds receives the new node's id and the ids of the pattern's bound
// holes.
func (s *Solver) besideTree(u *stree, top bool, q *isla.CompiledQuantifier, binds []int32) (*stree, bool) {
	ways := s.besides(u.g.Name, q.Src.Type)
	w := ways[s.rng.IntN(len(ways))]
	topID, innerID := int32(0), u.id
	if top {
		topID, innerID = u.id, 0
	}
	side := map[*grammar.Node]func() (*stree, bool){w.spot: func() (*stree, bool) {
		return s.alongPath(s.refPath(w.spot, q.Src.Type), 0, s.typeNode(q, binds), nil)
	}}
	inner := func(g *grammar.Node) (*stree, bool) {
		id := innerID
		if id == 0 {
			id = s.ids.id()
		}
		return mkNode(id, g, u.kids, u.val, false), true
	}
	path := append([]*grammar.Node{u.g}, w.cycle...)
	return s.alongPath(path, topID, inner, side)
}

// wrapsInto reports whether a new node of the quantifier's type can hold a
// node labeled name: a hole of one of its match expression's patterns (or,
// without one, its right-hand side) derives name.
func (s *Solver) wrapsInto(q *isla.CompiledQuantifier, name string) bool {
	ps := s.patterns[q]
	if len(ps) == 0 {
		rhs := s.spec.Graph().RHS(q.Src.Type)
		return rhs != nil && s.derives(rhs, name)
	}
	for _, p := range ps {
		if s.holeDerives(p, name) {
			return true
		}
	}
	return false
}

// holeDerives reports whether a hole of pattern tree p can derive a
// reference to the nonterminal name.
func (s *Solver) holeDerives(p *pattern.Tree, name string) bool {
	if p.Hole {
		return s.derives(p.G, name)
	}
	for _, k := range p.Kids {
		if s.holeDerives(k, name) {
			return true
		}
	}
	return false
}

// aroundTree returns the subtree that replaces node u: it derives, from u's
// graph node, a new node of the quantifier's type whose subtree holds u.
// binds receives the new node's id and the ids of the pattern's bound
// holes.
func (s *Solver) aroundTree(u *stree, q *isla.CompiledQuantifier, binds []int32) (*stree, bool) {
	inner := func(g *grammar.Node) (*stree, bool) {
		return mkNode(u.id, g, u.kids, u.val, false), true
	}
	return s.alongPath(s.refPath(u.g, q.Src.Type), 0, func(g *grammar.Node) (*stree, bool) {
		id := s.ids.id()
		binds[0] = id
		ps := s.patterns[q]
		if len(ps) == 0 {
			sub, ok := s.alongPath(s.refPath(g.Children[0], u.g.Name), 0, inner, nil)
			if !ok {
				return nil, false
			}
			return mkNode(id, g, []*stree{sub}, "", false), true
		}
		var fits []*pattern.Tree
		for _, p := range ps {
			if s.holeDerives(p, u.g.Name) {
				fits = append(fits, p)
			}
		}
		if len(fits) == 0 {
			return nil, false
		}
		body := s.fromPattern(fits[s.rng.IntN(len(fits))], binds[1:])
		var holes []*stree
		for _, l := range body.openLeaves() {
			if s.derives(l.g, u.g.Name) {
				holes = append(holes, l)
			}
		}
		if len(holes) == 0 {
			return nil, false
		}
		h := holes[s.rng.IntN(len(holes))]
		path := s.refPath(h.g, u.g.Name)
		sub, ok := s.alongPath(path, h.id, inner, nil)
		if !ok {
			return nil, false
		}
		if len(path) == 1 {
			// u takes the hole's place: a binder of the hole binds u.
			for i, b := range binds[1:] {
				if b == h.id {
					binds[1+i] = u.id
				}
			}
		}
		return mkNode(id, g, []*stree{body.replace(map[int32]*stree{h.id: sub})}, "", false), true
	}, nil)
}

// insertedOptions returns the ways to eliminate the existential quantifier
// instance it by a node inserted into the state's tree, giving root: one per
// disjunct of the instance's body, the quantifier bound to binds, none if
// the body is false at once.
func (s *Solver) insertedOptions(st *state, root *stree, it item, q *isla.CompiledQuantifier, key string, binds []int32) []option {
	// The context only decides the instance's atoms: the memory of the
	// one before it is reused.
	c := s.reuseEvalCtx(s.spareCtx, &state{root: root, ints: st.ints})
	s.spareCtx = nil
	var out []option
	inst := item{n: q.Body, env: bindMatch(it.env, q, binds), neg: it.neg}
	for _, conj := range s.normalize(c, inst) {
		out = append(out, option{root: root, forms: conj, res: resolved{key: key, binds: binds}})
	}
	s.spareCtx = c
	return out
}

// interleave returns up to n options, taken in turn from a and b.
func interleave(a, b []option, n int) []option {
	out := make([]option, 0, min(n, len(a)+len(b)))
	for i := 0; len(out) < n && (i < len(a) || i < len(b)); i++ {
		if i < len(a) {
			out = append(out, a[i])
		}
		if i < len(b) && len(out) < n {
			out = append(out, b[i])
		}
	}
	return out
}

// holeInsertions returns the states in which an existential quantifier is
// eliminated by deriving an open leaf of its range into a new node of its
// type (ISLa's insertion into a hole), built from its match expression, at
// most Branches of them, chosen at random. The random expansion of the
// open leaves (Solver.expand) may derive such a node too, but seldom one
// that matches a match expression with fixed text, and it derives the rest
// of the leaf at random, which can bring new obligations (a random XML
// attribute whose prefix needs a declaration of its own). It makes them
// only the first time a state is expanded.
func (s *Solver) holeInsertions(c *evalCtx, st *state) []*state {
	if !s.embeds() || st.holed || st.root.open {
		return nil
	}
	st.holed = true
	type cand struct {
		i int
		l *stree
	}
	var cands []cand
	for i, it := range st.forms {
		q, ok := it.n.(*isla.CompiledQuantifier)
		if !ok || !it.exists() || q.Child > 0 {
			continue
		}
		inID, _ := it.env.lookup(q.In)
		in, ok := c.idx.get(inID)
		if !ok {
			continue
		}
		for y := in; y < c.v.Nodes[in].End; y++ {
			if !c.isOpen(y) || c.phantom(y) {
				continue
			}
			if l := c.node(c.ids[y]); l != nil && l.open && s.derives(l.g, q.Src.Type) {
				cands = append(cands, cand{i, l})
			}
		}
	}
	s.rng.Shuffle(len(cands), func(a, b int) { cands[a], cands[b] = cands[b], cands[a] })
	var out []*state
	for k, cd := range cands {
		if k >= s.cfg.branches {
			s.incomplete(LimitBranches, "not every insertion into an open leaf was tried")
			break
		}
		it := st.forms[cd.i]
		q := it.n.(*isla.CompiledQuantifier)
		binds := make([]int32, 1+s.binderCount(q))
		path := s.refPath(cd.l.g, q.Src.Type)
		mk := s.typeNode(q, binds)
		end := func(g *grammar.Node) (*stree, bool) {
			t, ok := mk(g)
			if ok && len(path) == 1 {
				// The leaf becomes the new node.
				binds[0] = cd.l.id
				t = mkNode(cd.l.id, t.g, t.kids, t.val, t.open)
			}
			return t, ok
		}
		sub, ok := s.alongPath(path, cd.l.id, end, nil)
		if !ok {
			continue
		}
		root := st.root.replace(map[int32]*stree{cd.l.id: sub})
		for _, o := range s.insertedOptions(st, root, it, q, s.key(it), binds) {
			// The tree only grows where it was open: what held before
			// still holds, and the universal quantifiers go on.
			o.root = nil
			child := s.applyOption(st, cd.i, o)
			child.root = root
			s.stats.Insertions++
			out = append(out, child)
		}
	}
	return out
}
