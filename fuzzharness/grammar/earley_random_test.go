package grammar

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// randomGrammar returns a small random grammar over the characters x, y
// and é: every construct of the notation, with empty words, recursion and
// ambiguity likely. It may fail Check.
func randomGrammar(rng *rand.Rand) *Grammar {
	names := []string{"a", "b", "c", "d"}[:1+rng.IntN(4)]
	lits := []string{"", "x", "y", "xy", "é", "yx"}
	var expr func(depth int) Expr
	expr = func(depth int) Expr {
		k := rng.IntN(12)
		if depth >= 3 {
			k = rng.IntN(5)
		}
		switch k {
		case 0, 1:
			return &Lit{S: lits[rng.IntN(len(lits))]}
		case 2, 3:
			return &Ref{Name: names[rng.IntN(len(names))]}
		case 4:
			switch rng.IntN(4) {
			case 0:
				return &Class{Ranges: []Range{{'x', 'y'}}}
			case 1:
				return &Class{Negated: true, Ranges: []Range{{'x', 'x'}}}
			case 2:
				return &Class{Ranges: []Range{{0xC3, 0xC3}, {'y', 'y'}}, Bytes: true}
			default:
				return &Class{Ranges: []Range{{'é', 'é'}, {'x', 'x'}}}
			}
		case 5, 6, 7:
			alt := &Alt{}
			for n := 2 + rng.IntN(2); n > 0; n-- {
				alt.X = append(alt.X, expr(depth+1))
			}
			return alt
		case 8, 9:
			seq := &Seq{}
			for n := 2 + rng.IntN(2); n > 0; n-- {
				seq.X = append(seq.X, expr(depth+1))
			}
			return seq
		default:
			lo := rng.IntN(3)
			hi := Unbounded
			if rng.IntN(2) == 0 {
				hi = lo + rng.IntN(3)
			}
			return &Repeat{X: expr(depth + 1), Min: lo, Max: hi}
		}
	}
	g := &Grammar{Start: "a"}
	for _, n := range names {
		g.Rules = append(g.Rules, &Rule{Name: n, Expr: expr(0)})
	}
	return g
}

// TestEarleyRandomGrammars compares the parser with brute-force counting
// on random grammars and short inputs: acceptance, the number of parses
// (and whether it is infinite), the trees and the k-paths.
func TestEarleyRandomGrammars(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	grammars := 300
	if testing.Short() {
		grammars = 100
	}
	tested, accepted := 0, 0
	for gi := 0; gi < grammars*4 && tested < grammars; gi++ {
		g := randomGrammar(rng)
		gr, err := Compile(g)
		if err != nil {
			continue
		}
		tested++
		p, err := NewParser(gr, MaxItems(1<<20))
		if err != nil {
			t.Fatalf("grammar %d:\n%s\n%v", gi, g, err)
		}
		pt, err := gr.PathTable(3)
		if err != nil {
			t.Fatal(err)
		}
		gen := NewGenerator(gr, uint64(gi))
		gen.MaxDepth, gen.MaxSize, gen.MaxRepeat = 8, 40, 3
		var inputs []string
		for range 6 {
			if tr, err := gen.Generate(); err == nil && tr.Len() <= 10 {
				inputs = append(inputs, tr.String())
			}
		}
		alphabet := []string{"x", "y", "é", "\xc3"}
		for range 6 {
			s := ""
			for n := rng.IntN(6); n > 0; n-- {
				s += alphabet[rng.IntN(len(alphabet))]
			}
			inputs = append(inputs, s)
		}
		for _, in := range inputs {
			if p.Recognize([]byte(in)) == nil {
				accepted++
			}
			if err := compareBrute(p, pt, in); err != nil {
				t.Errorf("grammar %d:\n%sinput %q: %v", gi, g, in, err)
			}
		}
	}
	if tested < grammars/2 || accepted < tested {
		t.Errorf("only %d random grammars passed Check, %d inputs were accepted", tested, accepted)
	}
}

// compareBrute parses in with p and checks the forest against brute-force
// counting.
func compareBrute(p *Parser, pt *PathTable, in string) error {
	want, wantInf := bruteCount(p.Graph(), p.Start(), in)
	f, err := p.Parse([]byte(in))
	rerr := p.Recognize([]byte(in))
	if errors.Is(err, ErrItemLimit) || errors.Is(rerr, ErrItemLimit) {
		// Parse also counts the items Leo's optimization skipped, which
		// it builds for the forest.
		return nil
	}
	if (err == nil) != (rerr == nil) {
		return fmt.Errorf("Parse error %v, Recognize error %v", err, rerr)
	}
	if want == 0 {
		var se *SyntaxError
		if !errors.As(err, &se) {
			return fmt.Errorf("brute force finds no derivation; Parse returned %v", err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("brute force finds %d derivations (infinite %v); Parse: %v", want, wantInf, err)
	}
	if f.Infinite() != wantInf {
		return fmt.Errorf("Infinite() = %v, brute force %v", f.Infinite(), wantInf)
	}
	if !wantInf && want < bruteMany && countOf(f) != want {
		return fmt.Errorf("Count() = %d, brute force %d", countOf(f), want)
	}
	limit := 20
	trees := f.Trees(limit)
	if !wantInf && want <= uint64(limit) && len(trees) != int(want) {
		return fmt.Errorf("Trees(%d) returned %d of %d trees", limit, len(trees), want)
	}
	if len(trees) == 0 || !trees[0].Equal(f.Tree()) {
		return fmt.Errorf("Trees()[0] is not Tree()")
	}
	union := pt.NewPathSet()
	for i, tr := range trees {
		if tr.String() != in {
			return fmt.Errorf("tree %d derives %q", i, tr.String())
		}
		if err := checkTree(tr); err != nil {
			return fmt.Errorf("tree %d: %v\n%s", i, err, tr.Outline())
		}
		for _, u := range trees[:i] {
			if u.Equal(tr) {
				return fmt.Errorf("tree %d is a duplicate", i)
			}
		}
		pt.AddPaths(union, tr)
	}
	fp := pt.ForestPaths(f)
	for _, id := range union.IDs() {
		if !fp.Has(id) {
			return fmt.Errorf("the forest lacks k-path %s of a tree", pt.Path(id).Format(p.Graph()))
		}
	}
	if !wantInf && want <= uint64(limit) && !fp.equal(union) {
		return fmt.Errorf("forest k-paths %d, union of the trees' %d", len(fp.IDs()), len(union.IDs()))
	}
	return nil
}
