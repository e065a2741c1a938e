package symbolic

import (
	"context"
	"errors"
	"fmt"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// Refinement's defaults.
const (
	DefaultRefineSamples = 1000
	DefaultRefineTries   = 20
	DefaultRefineLevels  = 4
	DefaultRefineFixes   = 100
	DefaultRefineRounds  = 3
	DefaultRefineMaxSize = 300
)

// RefineConfig says how Refine samples.
type RefineConfig struct {
	// Seed seeds the generation of samples and of replacement subtrees.
	Seed uint64
	// Samples is the number of inputs generated from the grammar each round
	// (0: DefaultRefineSamples); those the parser accepts are the valid
	// inputs no refinement may lose.
	Samples int
	// Tries is the number of replacement subtrees tried per node of a
	// rejected input, and of subtrees taking the rejected input's
	// alternative (0: DefaultRefineTries).
	Tries int
	// Rounds is the number of rounds of sampling and refining
	// (0: DefaultRefineRounds); refining stops early when a round rejects
	// no sample or changes nothing.
	Rounds int
	// MaxSize bounds the derivation trees of the samples
	// (0: DefaultRefineMaxSize).
	MaxSize int
	// MaxRejected bounds the rejected samples refinement looks into per
	// round (0: DefaultRefineFixes): each costs parser runs for the repairs
	// and a parse of every valid sample per candidate update.
	MaxRejected int
	// Tokens names the token nonterminals of a grammar mined with a lexer
	// (Result.Tokens), whose rules begin with the white space the lexer
	// skips ([\n ]*). With them, Refine first learns which adjacent tokens
	// the lexer would read as one (do followed by the identifier a, doa):
	// those whose white space, removed from an accepted sample, makes the
	// parser reject it, or, added to a rejected one, accept it. It then
	// rewrites the grammar so that such tokens always have white space
	// between them: the rules that can begin with the second get a variant
	// per kind of token before them (<statement-after-doSym>), in which it is
	// <B-sep> ::= [\n ] <B>.
	Tokens []string
}

// RefineStats counts what Refine did.
type RefineStats struct {
	Rounds   int // rounds of sampling run
	Rejected int // samples the parser rejected, over all rounds
	Fixes    int // grammar updates kept
	Queries  int // calls of the parser
	// Separated counts the pairs of token kinds found to need white space
	// between them (with Tokens).
	Separated int
}

// Refine narrows the over-approximations of a mined grammar against the
// parser (STALAGMITE's section 3.4): it generates inputs from g and runs the
// parser, accept, on them. Each rejected input is first made smaller: its
// subtrees, top down, are replaced by smallest ones while the parser still
// rejects it, so that one error is left. Then the derivation subtrees of its
// nonterminals, innermost first, are replaced by random ones until the
// parser accepts the result; unless the alternative the rejected input took
// there is valid in that place (a random subtree taking it is accepted too),
// it is then dropped (or, failing that, the nonterminal restricted to the
// alternative of the accepted replacement), first in the nonterminal
// everywhere, then only in the context of the replaced subtree (a copy of
// the nonterminal and of the rules on the way down from an enclosing
// nonterminal, going up one level at a time). An update is kept when every
// accepted sample still parses and the rejected input no longer does, so
// that the refined grammar is at least as precise and keeps what the
// samples showed valid.
//
// With RefineConfig.Tokens, the grammar's tokens are first separated where
// the lexer needs white space between them (see RefineConfig.Tokens).
//
// g must have the form Mine returns: every rule with several alternatives is
// an alternation at its top. The result is a new grammar.
func Refine(ctx context.Context, g *grammar.Grammar, accept func([]byte) bool, cfg RefineConfig) (*grammar.Grammar, RefineStats, error) {
	if cfg.Samples <= 0 {
		cfg.Samples = DefaultRefineSamples
	}
	if cfg.Tries <= 0 {
		cfg.Tries = DefaultRefineTries
	}
	if cfg.Rounds <= 0 {
		cfg.Rounds = DefaultRefineRounds
	}
	if cfg.MaxSize <= 0 {
		cfg.MaxSize = DefaultRefineMaxSize
	}
	if cfg.MaxRejected <= 0 {
		cfg.MaxRejected = DefaultRefineFixes
	}
	var st RefineStats
	r := &refiner{ctx: ctx, accept: accept, cfg: cfg, st: &st}
	if len(cfg.Tokens) > 0 {
		sep, n, err := r.separate(g, cfg.Tokens, cfg.Seed^0x5e9a7a7e)
		if err != nil {
			return nil, st, fmt.Errorf("symbolic: refine: %v", err)
		}
		if n > 0 && recognizesAll(sep, r.valid) {
			g, st.Separated = sep, n
		}
	}
	// Parsing the printed grammar gives every expression a position, by
	// which graph nodes are traced back to the expressions they come from.
	cur, err := grammar.Parse("mined.bnf", []byte(expandOptional(g).String()))
	if err != nil {
		return nil, st, fmt.Errorf("symbolic: refine: %v", err)
	}
	for round := 0; round < cfg.Rounds; round++ {
		st.Rounds++
		changed, err := r.round(cur, cfg.Seed+uint64(round)*7919)
		if err != nil {
			return nil, st, err
		}
		if !changed {
			break
		}
		cur = r.g
	}
	out, err := grammar.Parse("refined.bnf", []byte(cur.String()))
	if err != nil {
		return nil, st, fmt.Errorf("symbolic: refine: the refined grammar is malformed (a kfuzz bug): %v", err)
	}
	return out, st, nil
}

type refiner struct {
	ctx    context.Context
	accept func([]byte) bool
	cfg    RefineConfig
	st     *RefineStats
	g      *grammar.Grammar
	gr     *grammar.Graph
	parser *grammar.Parser
	valid  [][]byte
	fresh  int // numbers the copies of rules
}

func (r *refiner) query(in []byte) bool {
	r.st.Queries++
	return r.accept(in)
}

func (r *refiner) use(g *grammar.Grammar) error {
	gr, err := grammar.Compile(g)
	if err != nil {
		return err
	}
	p, err := grammar.NewParser(gr)
	if err != nil {
		return err
	}
	r.g, r.gr, r.parser = g, gr, p
	return nil
}

// round samples g, and refines it for each rejected sample. It reports
// whether the grammar changed.
func (r *refiner) round(g *grammar.Grammar, seed uint64) (bool, error) {
	if err := r.use(g); err != nil {
		return false, fmt.Errorf("symbolic: refine: %v", err)
	}
	gen := grammar.NewGenerator(r.gr, seed)
	gen.MaxSize = r.cfg.MaxSize
	var failing []*grammar.Tree
	for range r.cfg.Samples {
		t, err := gen.Generate()
		if err != nil {
			return false, fmt.Errorf("symbolic: refine: %v", err)
		}
		if r.query(t.Bytes()) {
			r.valid = append(r.valid, t.Bytes())
		} else {
			failing = append(failing, t)
		}
	}
	r.st.Rejected += len(failing)
	small := grammar.NewGenerator(r.gr, seed^0x736d616c6c)
	changed := false
	looked := 0
	for _, t := range failing {
		if looked >= r.cfg.MaxRejected {
			break
		}
		if err := r.ctx.Err(); err != nil {
			return false, err
		}
		if r.parser.Recognize(t.Bytes()) != nil {
			continue // an earlier update excluded it already
		}
		looked++
		// The tree is over the grammar of the round's start; an update
		// since then may have removed its rules: regenerate the failing
		// input's tree only from the round's graph (its nodes are stable).
		r.reduce(t, small)
		if r.parser.Recognize(t.Bytes()) != nil {
			continue
		}
		ok, err := r.fix(t, gen)
		if err != nil {
			return false, err
		}
		changed = changed || ok
	}
	return changed, nil
}

// reduce makes the rejected input t smaller while the parser still rejects
// it, so that one repair can make it valid: top down, it replaces each
// subtree of a nonterminal by a smallest one (from small) and keeps the
// replacement when the parser still rejects the input. A sample with
// several errors (two assignments to a parenthesised expression) has none
// left whose repair alone makes it valid; reduced, it keeps one.
func (r *refiner) reduce(t *grammar.Tree, small *grammar.Generator) {
	var walk func(n *grammar.Tree)
	walk = func(n *grammar.Tree) {
		if n.Node.Kind == grammar.KindRef && n.Size() > n.Node.MinSize {
			small.MaxSize = n.Node.MinSize
			if s, err := small.GenerateFrom(n.Node); err == nil && len(s.Children) == 1 {
				saved := n.Children
				n.Children = s.Children
				if !r.query(t.Bytes()) {
					return
				}
				n.Children = saved
			}
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(t)
}

// fix looks for an update of the grammar that excludes the rejected input t.
func (r *refiner) fix(t *grammar.Tree, gen *grammar.Generator) (bool, error) {
	// The nonterminal occurrences of t, innermost first, each with its
	// enclosing occurrences.
	type occ struct {
		node *grammar.Tree
		up   []*grammar.Tree // enclosing reference nodes, nearest first
	}
	var occs []occ
	var walk func(n *grammar.Tree, up []*grammar.Tree)
	walk = func(n *grammar.Tree, up []*grammar.Tree) {
		if n.Node.Kind == grammar.KindRef {
			for _, c := range n.Children {
				walk(c, append([]*grammar.Tree{n}, up...))
			}
			occs = append(occs, occ{node: n, up: up})
			return
		}
		for _, c := range n.Children {
			walk(c, up)
		}
	}
	walk(t, nil)
	for _, o := range occs {
		rhs := o.node.Node.Children[0]
		if rhs.Kind != grammar.KindAlt || len(o.node.Children) != 1 || len(o.node.Children[0].Children) != 1 {
			continue
		}
		took := altIndex(rhs, o.node.Children[0].Children[0].Node)
		if took < 0 {
			continue
		}
		good := r.repair(t, o.node, gen)
		if good < 0 || r.validHere(t, o.node, took, gen) {
			continue
		}
		for level := -1; level <= min(len(o.up), DefaultRefineLevels); level++ {
			// Dropping the alternative the rejected input took, then the
			// paper's update, the nonterminal restricted to the
			// alternative of the repair: the smaller change first, as
			// the samples may lack what a larger one loses.
			drop, ok := r.update(o.node, o.up, level, rhs, func(i int) bool { return i != took })
			if !ok {
				break
			}
			if r.keeps(drop, t.Bytes()) {
				r.st.Fixes++
				return true, r.use(drop)
			}
			restrict, _ := r.update(o.node, o.up, level, rhs, func(i int) bool { return i == good })
			if r.keeps(restrict, t.Bytes()) {
				r.st.Fixes++
				return true, r.use(restrict)
			}
		}
	}
	return false, nil
}

// recognizer returns a parser of g, or nil (g nil or not compilable).
func recognizer(g *grammar.Grammar) *grammar.Parser {
	if g == nil {
		return nil
	}
	gr, err := grammar.Compile(g)
	if err != nil {
		return nil
	}
	p, err := grammar.NewParser(gr)
	if err != nil {
		return nil
	}
	return p
}

// recognizesAll reports whether g derives every input of ins.
func recognizesAll(g *grammar.Grammar, ins [][]byte) bool {
	p := recognizer(g)
	if p == nil {
		return false
	}
	for _, in := range ins {
		if p.Recognize(in) != nil {
			return false
		}
	}
	return true
}

func altIndex(alt, chosen *grammar.Node) int {
	for i, c := range alt.Children {
		if c == chosen {
			return i
		}
	}
	return -1
}

// repair replaces the subtree at n by random ones until the parser accepts
// the input, and returns the alternative of n's nonterminal the accepted
// replacement took, or -1: n's choice is a cause of the rejection.
func (r *refiner) repair(t, n *grammar.Tree, gen *grammar.Generator) int {
	saved := n.Children
	defer func() { n.Children = saved }()
	for range r.cfg.Tries {
		s, err := gen.GenerateFrom(n.Node)
		if err != nil || len(s.Children) != 1 || len(s.Children[0].Children) != 1 {
			return -1
		}
		n.Children = s.Children
		if in := t.Bytes(); r.query(in) {
			// A repaired input is valid, and close to the rejected one:
			// the sample no update may lose.
			r.valid = append(r.valid, in)
			return altIndex(n.Node.Children[0], s.Children[0].Children[0].Node)
		}
	}
	return -1
}

// validHere reports whether the parser accepts t with n's subtree replaced
// by a random one that takes alternative took, as the rejected input did:
// then that alternative is valid where n stands, and the error lies inside
// the subtree (a bad assignment in a chain of them): dropping it there would
// lose valid inputs the samples may lack.
func (r *refiner) validHere(t, n *grammar.Tree, took int, gen *grammar.Generator) bool {
	saved := n.Children
	defer func() { n.Children = saved }()
	rhs := n.Node.Children[0]
	for range r.cfg.Tries {
		s, err := gen.GenerateFrom(rhs.Children[took])
		if err != nil {
			return false
		}
		n.Children = []*grammar.Tree{{Node: rhs, Children: []*grammar.Tree{s}}}
		if in := t.Bytes(); r.query(in) {
			r.valid = append(r.valid, in)
			return true
		}
	}
	return false
}

// keeps reports whether g still parses every valid sample and no longer the
// rejected input.
func (r *refiner) keeps(g *grammar.Grammar, rejected []byte) bool {
	p := recognizer(g)
	if p == nil || p.Recognize(rejected) == nil {
		return false
	}
	for i, v := range r.valid {
		if p.Recognize(v) != nil {
			// Try this one first next time: a lost sample tends to be
			// lost again.
			r.valid[0], r.valid[i] = r.valid[i], r.valid[0]
			return false
		}
	}
	return true
}

// update returns a copy of the current grammar in which the nonterminal
// referenced at n keeps only the alternatives that keep (by their index in
// rhs, its right-hand side when the input was generated): at level -1 the
// nonterminal itself; at level 0 a copy referenced at n only; at level k a
// copy reached through copies of the rules of the k enclosing references
// up[:k], referenced at up[k-1]'s place. It reports false when there is no
// such level or the rule changed since.
func (r *refiner) update(n *grammar.Tree, up []*grammar.Tree, level int, rhs *grammar.Node, keep func(int) bool) (*grammar.Grammar, bool) {
	if level > len(up) {
		return nil, false
	}
	g := cloneGrammar(r.g)
	target := g.Rule(n.Node.Name)
	if target == nil {
		return nil, false
	}
	alt, ok := target.Expr.(*grammar.Alt)
	if !ok || len(alt.X) != len(rhs.Children) {
		return nil, false // an update since the input was generated changed the rule
	}
	for i, x := range alt.X {
		if x.Position() != rhs.Children[i].Pos {
			return nil, false
		}
	}
	narrow := func(e *grammar.Alt) grammar.Expr {
		var x []grammar.Expr
		for i, y := range e.X {
			if keep(i) {
				x = append(x, y)
			}
		}
		if len(x) == 1 {
			return x[0]
		}
		return &grammar.Alt{X: x, P: e.P}
	}
	if level < 0 {
		target.Expr = narrow(alt)
		return g, true
	}
	// Copy the target, then the rules holding n and its enclosing
	// references up to level, each copy referring to the one below.
	name := r.copyName(n.Node.Name)
	g.Rules = append(g.Rules, &grammar.Rule{Name: name, Expr: narrow(cloneExpr(alt).(*grammar.Alt))})
	occ := n.Node
	for i := 0; i < level; i++ {
		holder := g.Rule(occ.Rule)
		if holder == nil {
			return nil, false
		}
		cp := &grammar.Rule{Name: r.copyName(occ.Rule), Expr: cloneExpr(holder.Expr)}
		if !retarget(cp.Expr, occ, name) {
			return nil, false
		}
		g.Rules = append(g.Rules, cp)
		name = cp.Name
		occ = up[i].Node
	}
	holder := g.Rule(occ.Rule)
	if holder == nil || !retarget(holder.Expr, occ, name) {
		return nil, false
	}
	return g, true
}

func (r *refiner) copyName(base string) string {
	r.fresh++
	return fmt.Sprintf("%s-r%d", base, r.fresh)
}

// retarget makes the reference expression of graph node occ refer to name.
func retarget(e grammar.Expr, occ *grammar.Node, name string) bool {
	found := false
	for x := range grammar.Refs(e) {
		if x.P == occ.Pos && x.Name == occ.Name {
			x.Name = name
			found = true
		}
	}
	return found
}

func cloneGrammar(g *grammar.Grammar) *grammar.Grammar {
	c := *g
	c.Rules = make([]*grammar.Rule, len(g.Rules))
	for i, r := range g.Rules {
		cr := *r
		cr.Expr = cloneExpr(r.Expr)
		c.Rules[i] = &cr
	}
	return &c
}

func cloneExpr(e grammar.Expr) grammar.Expr {
	switch e := e.(type) {
	case *grammar.Ref:
		c := *e
		return &c
	case *grammar.Lit:
		c := *e
		return &c
	case *grammar.Class:
		c := *e
		return &c
	case *grammar.Alt:
		c := &grammar.Alt{P: e.P, X: make([]grammar.Expr, len(e.X))}
		for i, x := range e.X {
			c.X[i] = cloneExpr(x)
		}
		return c
	case *grammar.Seq:
		c := &grammar.Seq{P: e.P, X: make([]grammar.Expr, len(e.X))}
		for i, x := range e.X {
			c.X[i] = cloneExpr(x)
		}
		return c
	case *grammar.Repeat:
		c := *e
		c.X = cloneExpr(e.X)
		return &c
	}
	panic(errors.New("symbolic: unknown grammar expression"))
}

// expandOptional returns g with alternations nested at the top of a rule
// made one ((x | y) | z as x | y | z), and optional elements at the top of
// its alternatives (x y? z) written as alternatives (x z | x y z), up to
// three per alternative, so that refinement can drop or keep each.
func expandOptional(g *grammar.Grammar) *grammar.Grammar {
	c := cloneGrammar(g)
	for _, r := range c.Rules {
		var alts []grammar.Expr
		if a, ok := r.Expr.(*grammar.Alt); ok {
			alts = a.X
		} else {
			alts = []grammar.Expr{r.Expr}
		}
		var out []grammar.Expr
		for _, a := range flattenAlts(alts) {
			out = append(out, expandSeq(a)...)
		}
		if len(out) > 1 {
			r.Expr = &grammar.Alt{X: out}
		}
	}
	return c
}

func expandSeq(e grammar.Expr) []grammar.Expr {
	xs := []grammar.Expr{e}
	if s, ok := e.(*grammar.Seq); ok {
		xs = s.X
	}
	opts := 0
	for _, x := range xs {
		if rp, ok := x.(*grammar.Repeat); ok && rp.Min == 0 && rp.Max == 1 {
			opts++
		}
	}
	if opts == 0 || opts > 3 {
		return []grammar.Expr{e}
	}
	seqs := [][]grammar.Expr{nil}
	for _, x := range xs {
		rp, ok := x.(*grammar.Repeat)
		if !ok || rp.Min != 0 || rp.Max != 1 {
			for i := range seqs {
				seqs[i] = append(seqs[i], x)
			}
			continue
		}
		var next [][]grammar.Expr
		for _, s := range seqs {
			next = append(next, append([]grammar.Expr(nil), s...), append(append([]grammar.Expr(nil), s...), rp.X))
		}
		seqs = next
	}
	var out []grammar.Expr
	for _, s := range seqs {
		switch len(s) {
		case 0:
			out = append(out, &grammar.Lit{S: ""})
		case 1:
			out = append(out, cloneExpr(s[0]))
		default:
			c := make([]grammar.Expr, len(s))
			for i, x := range s {
				c[i] = cloneExpr(x)
			}
			out = append(out, &grammar.Seq{X: c})
		}
	}
	return out
}

// flattenAlts returns alts with the alternatives of nested alternations in
// their place.
func flattenAlts(alts []grammar.Expr) []grammar.Expr {
	var out []grammar.Expr
	for _, a := range alts {
		if n, ok := a.(*grammar.Alt); ok {
			out = append(out, flattenAlts(n.X)...)
		} else {
			out = append(out, a)
		}
	}
	return out
}
