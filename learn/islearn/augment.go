package islearn

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
	"github.com/seed72891827/kfuzz/learn/oracle"
)

// augment makes the inputs the oracle labels (generated ones, mutants of
// the positive samples, the solver's) and returns those it accepts and
// those it rejects, as samples, without duplicates of each other or of
// the positive samples.
func augment(ctx context.Context, cfg *config, gr *grammar.Graph, p *grammar.Parser, pos []sample) (accepted, rejected []sample, err error) {
	seen := map[string]bool{}
	for _, s := range pos {
		seen[string(s.input)] = true
	}
	var inputs [][]byte
	add := func(b []byte) {
		if !seen[string(b)] {
			seen[string(b)] = true
			inputs = append(inputs, b)
		}
	}
	gn := grammar.NewGenerator(gr, cfg.seed^0x9e3779b97f4a7c15)
	for range cfg.oracleInputs {
		if t, err := gn.Generate(); err == nil {
			add(t.Bytes())
		}
	}
	if cfg.mutations > 0 {
		rng := rand.New(rand.NewPCG(cfg.seed, 0x6d757461))
		pt, err := gr.PathTable(mutationK)
		var covered grammar.PathSet
		if err == nil {
			covered = pt.NewPathSet()
			for _, s := range pos {
				if len(s.trees) > 0 {
					pt.AddPaths(covered, s.trees[0])
				}
			}
		}
		for i := range cfg.mutations {
			s := pos[i%len(pos)]
			if len(s.trees) == 0 {
				continue
			}
			if t := mutateNew(s.trees[0], gn, rng, pt, covered); t != nil {
				add(t.Bytes())
			}
		}
	}
	if cfg.solverInputs != nil && cfg.solverN > 0 {
		s, err := solver.New(cfg.solverInputs, solver.Seed(cfg.seed))
		if err != nil {
			return nil, nil, fmt.Errorf("islearn: solver inputs: %w", err)
		}
		trees, err := s.Solve(ctx, cfg.solverN)
		if err != nil && len(trees) == 0 {
			return nil, nil, fmt.Errorf("islearn: solver inputs: %w", err)
		}
		for _, t := range trees {
			add(t.Bytes())
		}
	}
	ok, err := oracle.AcceptAll(ctx, cfg.oracle, inputs)
	if err != nil {
		return nil, nil, fmt.Errorf("islearn: oracle: %w", err)
	}
	for i, b := range inputs {
		f, err := p.Parse(b)
		if err != nil {
			continue // a mutant outside the language, which the codec cannot make
		}
		s := sample{input: b, trees: f.Trees(isla.DefaultMaxDerivations)}
		if ok[i] {
			accepted = append(accepted, s)
		} else {
			rejected = append(rejected, s)
		}
	}
	return accepted, rejected, nil
}

// mutationK is the k of the k-paths that guide mutation, and
// mutationTries the number of mutants among which one is chosen.
const (
	mutationK     = 3
	mutationTries = 4
)

// mutateNew makes mutationTries mutants of t and returns the one whose
// k-paths add the most to covered (the first of them on a tie), adding
// them; without a path table (pt nil) it returns the first mutant.
func mutateNew(t *grammar.Tree, gn *grammar.Generator, rng *rand.Rand, pt *grammar.PathTable, covered grammar.PathSet) *grammar.Tree {
	if pt == nil {
		return mutate(t, gn, rng)
	}
	var best *grammar.Tree
	var bestPaths grammar.PathSet
	bestNew := -1
	for range mutationTries {
		m := mutate(t, gn, rng)
		if m == nil {
			continue
		}
		ps := pt.Paths(m)
		n := 0
		for _, id := range ps.IDs() {
			if !covered.Has(id) {
				n++
			}
		}
		if n > bestNew {
			best, bestPaths, bestNew = m, ps, n
		}
	}
	if best != nil {
		covered.Union(bestPaths)
	}
	return best
}

// mutate returns a copy of t with one subtree replaced by a random one of
// the same nonterminal: the nonterminal is chosen first, with equal
// chances among those in t, then one of its nodes. It returns nil if t has
// no nonterminal below the root or generation fails.
func mutate(t *grammar.Tree, gn *grammar.Generator, rng *rand.Rand) *grammar.Tree {
	t = t.Clone()
	byName := map[string][]*grammar.Tree{}
	t.Walk(func(n *grammar.Tree) bool {
		if n != t && n.Node.Kind == grammar.KindRef {
			byName[n.Node.Name] = append(byName[n.Node.Name], n)
		}
		return true
	})
	if len(byName) == 0 {
		return nil
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	nodes := byName[names[rng.IntN(len(names))]]
	n := nodes[rng.IntN(len(nodes))]
	r, err := gn.GenerateFrom(n.Node)
	if err != nil {
		return nil
	}
	*n = *r
	return t
}
