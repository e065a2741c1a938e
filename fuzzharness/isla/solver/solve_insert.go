package solver

import (
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/pattern"
)

// maxInsertTries bounds the insertion points tried for one existential
// quantifier.
const maxInsertTries = 24

// insertions returns up to n ways to eliminate an existential quantifier
// by tree insertion: a new subtree of the quantifier's type, built from its
// match expression (holes left open), becomes a new element of a
// repetition inside the quantifier's range, or is inserted around an
// existing node (wraps), the two kinds taking turns. Insertion points are tried in
// random order; those where the quantifier's body is false at once are
// dropped.
func (s *Solver) insertions(c *evalCtx, st *state, it item, q *isla.CompiledQuantifier, key string, n int) []option {
	if n <= 0 {
		return nil
	}
	inID, _ := it.env.lookup(q.In)
	scope := c.node(inID)
	if scope == nil {
		scope = st.root // the virtual <start>
	}
	type cand struct {
		rep *stree
		pos int
	}
	var cands []cand
	scope.walk(func(u *stree) bool {
		if u.open {
			return false
		}
		if u.g.Kind == grammar.KindRepeat && (u.g.Max == grammar.Unbounded || len(u.kids) < u.g.Max) &&
			s.derives(u.g.Children[0], q.Src.Type) {
			for p := 0; p <= len(u.kids); p++ {
				cands = append(cands, cand{u, p})
			}
		}
		return true
	})
	s.rng.Shuffle(len(cands), func(a, b int) { cands[a], cands[b] = cands[b], cands[a] })
	var out []option
	tried := 0
	for _, cd := range cands {
		if len(out) >= n || tried >= maxInsertTries {
			break
		}
		tried++
		binds := make([]int32, 1+s.binderCount(q))
		elem, ok := s.pathTree(cd.rep.g.Children[0], q, binds)
		if !ok {
			continue
		}
		kids := make([]*stree, 0, len(cd.rep.kids)+1)
		kids = append(append(append(kids, cd.rep.kids[:cd.pos]...), elem), cd.rep.kids[cd.pos:]...)
		root := st.root.replace(map[int32]*stree{cd.rep.id: mkNode(cd.rep.id, cd.rep.g, kids, "", false)})
		out = append(out, s.insertedOptions(st, root, it, q, key, binds)...)
	}
	if tried < len(cands) {
		s.incomplete(LimitBranches, "not every tree insertion was tried")
	}
	return interleave(out, s.wraps(c, st, it, q, key, n), n)
}

func (s *Solver) binderCount(q *isla.CompiledQuantifier) int {
	if q.Match == nil {
		return 0
	}
	return len(q.Match.Binders)
}

// derives reports whether graph node n can derive a reference to the
// nonterminal name (n itself included).
func (s *Solver) derives(n *grammar.Node, name string) bool {
	return s.refPath(n, name) != nil
}

// refPath returns a shortest path of graph nodes from n to a reference to
// name, both included, or nil.
func (s *Solver) refPath(n *grammar.Node, name string) []*grammar.Node {
	if p, ok := s.paths[pathKey{n.ID, name}]; ok {
		return p
	}
	parent := map[*grammar.Node]*grammar.Node{n: nil}
	queue := []*grammar.Node{n}
	var found *grammar.Node
	for len(queue) > 0 && found == nil {
		u := queue[0]
		queue = queue[1:]
		if u.Kind == grammar.KindRef && u.Name == name {
			found = u
			break
		}
		for _, c := range u.Children {
			if _, seen := parent[c]; !seen {
				parent[c] = u
				queue = append(queue, c)
			}
		}
	}
	var path []*grammar.Node
	for u := found; u != nil; u = parent[u] {
		path = append([]*grammar.Node{u}, path...)
	}
	if s.paths == nil {
		s.paths = map[pathKey][]*grammar.Node{}
	}
	s.paths[pathKey{n.ID, name}] = path
	return path
}

type pathKey struct {
	id   int
	name string
}

// pathTree builds a subtree for graph node n that derives a new node of the
// quantifier's type along a shortest path, from a random pattern tree of
// its match expression if it has one. binds receives the new node's id and
// the ids of the pattern's bound holes. Nodes off the path are generated at
// random.
func (s *Solver) pathTree(n *grammar.Node, q *isla.CompiledQuantifier, binds []int32) (*stree, bool) {
	return s.alongPath(s.refPath(n, q.Src.Type), 0, s.typeNode(q, binds), nil)
}

// typeNode returns a function that makes a new node of the quantifier's
// type for its reference graph node g: from a random pattern tree of its
// match expression if it has one, else an open leaf. binds receives the new
// node's id and the ids of the pattern's bound holes.
func (s *Solver) typeNode(q *isla.CompiledQuantifier, binds []int32) func(g *grammar.Node) (*stree, bool) {
	return func(g *grammar.Node) (*stree, bool) {
		id := s.ids.id()
		binds[0] = id
		ps := s.patterns[q]
		if len(ps) == 0 {
			return mkNode(id, g, nil, "", true), true
		}
		p := ps[s.rng.IntN(len(ps))]
		return mkNode(id, g, []*stree{s.fromPattern(p, binds[1:])}, "", false), true
	}
}

// alongPath builds a subtree for the graph path path (as refPath returns
// them): the nodes on the path are derived into the next one, the last is
// made by end, and the nodes off the path are generated at random. The
// subtree's root gets the id top (0: a new one). An off-path node that is
// a key of side is made by its function instead. It fails on an empty
// path.
func (s *Solver) alongPath(path []*grammar.Node, top int32, end func(*grammar.Node) (*stree, bool),
	side map[*grammar.Node]func() (*stree, bool)) (*stree, bool) {
	if len(path) == 0 {
		return nil, false
	}
	var build func(k int) (*stree, bool)
	build = func(k int) (*stree, bool) {
		g := path[k]
		if k == len(path)-1 {
			return end(g)
		}
		// The id is drawn after the children's, as it always was, so
		// that a seed gives the same trees.
		newID := func() int32 {
			if k == 0 && top != 0 {
				return top
			}
			return s.ids.id()
		}
		next := path[k+1]
		switch g.Kind {
		case grammar.KindRef, grammar.KindAlt:
			sub, ok := build(k + 1)
			if !ok {
				return nil, false
			}
			return mkNode(newID(), g, []*stree{sub}, "", false), true
		case grammar.KindSeq:
			kids := make([]*stree, len(g.Children))
			onPath := false
			for i, ch := range g.Children {
				var ok bool
				if ch == next && !onPath {
					onPath = true
					kids[i], ok = build(k + 1)
				} else if f := side[ch]; f != nil {
					kids[i], ok = f()
				} else {
					kids[i], ok = s.generate(ch)
				}
				if !ok {
					return nil, false
				}
			}
			return mkNode(newID(), g, kids, "", false), true
		case grammar.KindRepeat:
			kids := make([]*stree, max(1, g.Min))
			var ok bool
			if kids[0], ok = build(k + 1); !ok {
				return nil, false
			}
			for i := 1; i < len(kids); i++ {
				if kids[i], ok = s.generate(g.Children[0]); !ok {
					return nil, false
				}
			}
			return mkNode(newID(), g, kids, "", false), true
		}
		return nil, false
	}
	return build(0)
}

// generate derives graph node n at random, leaving open the references the
// solver leaves open.
func (s *Solver) generate(n *grammar.Node) (*stree, bool) {
	if n.Kind == grammar.KindRef && s.keep(n) {
		return s.ids.openLeaf(n), true
	}
	t, err := s.gen.GenerateFrom(n)
	if err != nil {
		return nil, false
	}
	return s.ids.fromTree(t, s.keep), true
}

// fromPattern converts a pattern tree into a solver tree: holes become open
// leaves, whose ids go to binds by binder index.
func (s *Solver) fromPattern(p *pattern.Tree, binds []int32) *stree {
	if p.Hole {
		l := s.ids.openLeaf(p.G)
		if p.Bind >= 0 {
			binds[p.Bind] = l.id
		}
		return l
	}
	var kids []*stree
	for _, k := range p.Kids {
		kids = append(kids, s.fromPattern(k, binds))
	}
	return mkNode(s.ids.id(), p.G, kids, p.Val, false)
}
