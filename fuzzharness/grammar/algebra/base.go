package algebra

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// A position is one occurrence of a grammar element in a rule of the base
// grammar: the same unit as a node of the grammar graph, but independent of
// any one compilation, so that trees of every graph of the base grammar (and
// of the augmented grammar patterns are parsed with) map onto it.
type position struct {
	id    int
	kind  grammar.NodeKind
	rule  string // the rule in whose right-hand side it stands
	name  string // ref: the nonterminal
	lit   string // lit: the bytes
	class *grammar.Class
	set   []grammar.Range // class: members after negation
	min   int             // repeat
	max   int             // repeat; grammar.Unbounded for none
	kids  []*position
	expr  grammar.Expr // the expression as written
	ord   int          // repeat: 1-based ordinal among the repeats of its rule (for names)

	reach map[string]bool // nonterminals a subtree rooted here can contain (refs, transitively)
}

// base is the base grammar seen as positions.
type base struct {
	g     *grammar.Grammar
	rhs   map[string]*position
	all   []*position
	names map[string]bool
}

func newBase(g *grammar.Grammar) (*base, error) {
	if err := g.Check(); err != nil {
		return nil, err
	}
	if g.Rule(g.Start) == nil {
		return nil, fmt.Errorf("algebra: start symbol <%s> is not defined", g.Start)
	}
	b := &base{g: g, rhs: map[string]*position{}, names: map[string]bool{}}
	for _, r := range g.Rules {
		b.names[r.Name] = true
		ord := 0
		b.rhs[r.Name] = b.build(r.Expr, r.Name, &ord)
	}
	b.computeReach()
	return b, nil
}

// build mirrors grammar.Compile's graph construction: an Alt or Seq with one
// member is that member.
func (b *base) build(e grammar.Expr, rule string, ord *int) *position {
	p := &position{id: len(b.all), rule: rule, expr: e}
	switch e := e.(type) {
	case *grammar.Alt, *grammar.Seq:
		kind, xs := grammar.KindSeq, []grammar.Expr(nil)
		if x, ok := e.(*grammar.Alt); ok {
			kind, xs = grammar.KindAlt, x.X
		} else {
			xs = e.(*grammar.Seq).X
		}
		if len(xs) == 1 {
			return b.build(xs[0], rule, ord)
		}
		b.all = append(b.all, p)
		p.kind = kind
		for _, x := range xs {
			p.kids = append(p.kids, b.build(x, rule, ord))
		}
		return p
	case *grammar.Repeat:
		b.all = append(b.all, p)
		*ord++
		p.kind, p.min, p.max, p.ord = grammar.KindRepeat, e.Min, e.Max, *ord
		p.kids = []*position{b.build(e.X, rule, ord)}
		return p
	case *grammar.Lit:
		b.all = append(b.all, p)
		p.kind, p.lit = grammar.KindLit, e.S
		return p
	case *grammar.Class:
		b.all = append(b.all, p)
		p.kind, p.class, p.set = grammar.KindClass, e, e.Set()
		return p
	case *grammar.Ref:
		b.all = append(b.all, p)
		p.kind, p.name = grammar.KindRef, e.Name
		return p
	}
	panic(fmt.Sprintf("algebra: unknown expression type %T", e))
}

// computeReach sets position.reach: the nonterminals that can occur in a
// subtree rooted at each position (a reference position includes its own
// nonterminal).
func (b *base) computeReach() {
	// Nonterminals reachable from each rule's right-hand side, by fixpoint.
	direct := map[string][]string{}
	for name, p := range b.rhs {
		direct[name] = refsUnder(p, nil)
	}
	closure := map[string]map[string]bool{}
	for name := range b.rhs {
		closure[name] = reachable(direct[name], func(n string, visit func(string)) {
			for _, m := range direct[n] {
				visit(m)
			}
		})
	}
	for _, p := range b.all {
		p.reach = map[string]bool{}
		for _, n := range refsUnder(p, nil) {
			p.reach[n] = true
			for m := range closure[n] {
				p.reach[m] = true
			}
		}
	}
}

// reachable returns the names reachable from start (included), next
// calling visit with the successors of a name.
func reachable(start []string, next func(n string, visit func(string))) map[string]bool {
	seen := map[string]bool{}
	stack := slices.Clone(start)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		next(n, func(m string) { stack = append(stack, m) })
	}
	return seen
}

func refsUnder(p *position, out []string) []string {
	if p.kind == grammar.KindRef {
		return append(out, p.name)
	}
	for _, k := range p.kids {
		out = refsUnder(k, out)
	}
	return out
}

// chainNext returns the chain index of a repeat position after one more
// element at chain index i: repetitions are counted up to the minimum of an
// unbounded repeat, and up to the maximum of a bounded one.
func (p *position) chainNext(i int) int {
	if p.max == grammar.Unbounded && i+1 >= p.min {
		return p.min
	}
	return i + 1
}

// canEnd reports whether a repeat at chain index i may derive no more
// elements; canGo whether it may derive one more.
func (p *position) canEnd(i int) bool { return i >= p.min }
func (p *position) canGo(i int) bool  { return p.max == grammar.Unbounded || i < p.max }

// rest returns the expression for the repetitions of p from chain index i
// on, unspecialized.
func (p *position) rest(i int) grammar.Expr {
	lo := max(0, p.min-i)
	hi := grammar.Unbounded
	if p.max != grammar.Unbounded {
		hi = p.max - i
	}
	x := p.kids[0].expr
	switch {
	case hi == 0:
		return &grammar.Lit{}
	case lo == 1 && hi == 1:
		return x
	}
	return &grammar.Repeat{X: x, Min: lo, Max: hi}
}

// A ptree is a derivation tree in terms of positions: the form both patterns
// and the trees the matcher checks are brought into.
type ptree struct {
	pos   *position
	hole  bool     // a pattern hole: any derivation of the nonterminal (ref positions only)
	alt   int      // alt: the chosen alternative
	kids  []*ptree // ref: the right-hand side; alt: the chosen alternative; seq: the elements; repeat: the repetitions
	value string   // lit, class: the derived text
}

// fromTree converts a derivation tree of a graph compiled from the base
// grammar, or from the base grammar augmented with hole alternatives
// (holes: nonterminal -> the marker alternative's index), into a ptree at
// position p.
func (b *base) fromTree(t *grammar.Tree, p *position, holes map[string]int) (*ptree, error) {
	if t == nil || t.Open {
		return nil, fmt.Errorf("algebra: the tree has an open slot at %s", p.where())
	}
	n := t.Node
	if p.kind == grammar.KindRef {
		if n.Kind != grammar.KindRef || n.Name != p.name || len(t.Children) != 1 {
			return nil, mismatch(t, p)
		}
		rhs := b.rhs[p.name]
		k, err := b.fromRHS(t.Children[0], p.name, rhs, holes)
		if err != nil {
			return nil, err
		}
		if k.hole {
			return &ptree{pos: p, hole: true}, nil
		}
		return &ptree{pos: p, kids: []*ptree{k}}, nil
	}
	if n.Kind != p.kind {
		return nil, mismatch(t, p)
	}
	out := &ptree{pos: p}
	switch p.kind {
	case grammar.KindLit:
		if n.Lit != p.lit {
			return nil, mismatch(t, p)
		}
		out.value = p.lit
	case grammar.KindClass:
		out.value = t.Value
	case grammar.KindAlt:
		if len(t.Children) != 1 {
			return nil, mismatch(t, p)
		}
		j := slices.Index(n.Children, t.Children[0].Node)
		if j < 0 || j >= len(p.kids) {
			return nil, mismatch(t, p)
		}
		k, err := b.fromTree(t.Children[0], p.kids[j], holes)
		if err != nil {
			return nil, err
		}
		out.alt, out.kids = j, []*ptree{k}
	case grammar.KindSeq:
		if len(t.Children) != len(p.kids) {
			return nil, mismatch(t, p)
		}
		for i, c := range t.Children {
			k, err := b.fromTree(c, p.kids[i], holes)
			if err != nil {
				return nil, err
			}
			out.kids = append(out.kids, k)
		}
	case grammar.KindRepeat:
		if len(t.Children) < p.min || (p.max != grammar.Unbounded && len(t.Children) > p.max) {
			return nil, mismatch(t, p)
		}
		for _, c := range t.Children {
			k, err := b.fromTree(c, p.kids[0], holes)
			if err != nil {
				return nil, err
			}
			out.kids = append(out.kids, k)
		}
	}
	return out, nil
}

// fromRHS converts the right-hand side tree of nonterminal name. With holes,
// the rule may be augmented: its right-hand side is then an alternation whose
// last alternative is the hole marker, and whose other alternatives are the
// base rule's alternatives (or, if the base rule is no alternation, its one
// expression).
func (b *base) fromRHS(t *grammar.Tree, name string, rhs *position, holes map[string]int) (*ptree, error) {
	marker, augmented := holes[name]
	if !augmented {
		return b.fromTree(t, rhs, holes)
	}
	if t == nil || t.Node.Kind != grammar.KindAlt || len(t.Children) != 1 {
		return nil, mismatch(t, rhs)
	}
	j := slices.Index(t.Node.Children, t.Children[0].Node)
	switch {
	case j == marker:
		return &ptree{pos: rhs, hole: true}, nil
	case rhs.kind == grammar.KindAlt && j >= 0 && j < len(rhs.kids):
		k, err := b.fromTree(t.Children[0], rhs.kids[j], holes)
		if err != nil {
			return nil, err
		}
		return &ptree{pos: rhs, alt: j, kids: []*ptree{k}}, nil
	case rhs.kind != grammar.KindAlt && j == 0:
		return b.fromTree(t.Children[0], rhs, holes)
	}
	return nil, mismatch(t, rhs)
}

func mismatch(t *grammar.Tree, p *position) error {
	got := "nothing"
	if t != nil && t.Node != nil {
		got = t.Node.Label()
	}
	return fmt.Errorf("algebra: the tree is not a derivation of the base grammar: %s where %s expects %s", got, p.where(), p.label())
}

func (p *position) where() string { return "<" + p.rule + ">" }

func (p *position) label() string {
	switch p.kind {
	case grammar.KindRef:
		return "<" + p.name + ">"
	case grammar.KindLit:
		return strconv.Quote(p.lit)
	case grammar.KindClass:
		return grammar.ExprString(p.class)
	}
	return p.kind.String()
}

// outline writes the tree's nonterminal structure: <a>{<b>{"x"} "y"}.
func (t *ptree) outline(b *strings.Builder) {
	switch {
	case t.hole:
		b.WriteString("<" + t.pos.name + ">")
	case t.pos.kind == grammar.KindRef:
		b.WriteString("<" + t.pos.name + ">{")
		var inner strings.Builder
		t.kids[0].outline(&inner)
		b.WriteString(strings.TrimSpace(inner.String()))
		b.WriteString("}")
	case len(t.kids) == 0:
		if t.value != "" {
			b.WriteString(strconv.Quote(t.value))
		}
	default:
		for i, k := range t.kids {
			var inner strings.Builder
			k.outline(&inner)
			if i > 0 && inner.Len() > 0 && b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(inner.String())
		}
	}
}
