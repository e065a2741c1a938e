package mineeval

import (
	"fmt"
	"math/bits"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// Defaults of Seeds.
const (
	// DefaultSeeds is the number of seed inputs given to a miner.
	DefaultSeeds = 10
	// DefaultSeedLen bounds the length of a seed input in bytes.
	DefaultSeedLen = 50
	// seedMaxSize bounds the derivation trees of seed candidates (nodes).
	seedMaxSize = 100
	// seedCandidates is the number of random candidates seeds are chosen
	// from.
	seedCandidates = 2000
)

// Seeds returns n distinct non-empty inputs of the subject of at most maxLen
// bytes: small samples of the language, as GLADE and Arvada give their
// miners, generated from the reference grammar with the given seed. The
// candidates are seedCandidates random inputs and the inputs of the
// grammar's terse 1-path covering forest; the seeds are chosen from them
// greedily to use as many symbols of the grammar as possible (the next seed
// is the one adding the most 1-paths, the shorter one on ties), like the few
// examples a user writes to show each construct; once no input adds a
// symbol, the rest are random ones in the order generated. It fails if fewer
// than n distinct inputs fit.
func (s *Subject) Seeds(n int, seed uint64, maxLen int) ([][]byte, error) {
	gr, err := s.Graph()
	if err != nil {
		return nil, err
	}
	pt, err := gr.PathTable(1)
	if err != nil {
		return nil, err
	}
	gen := grammar.NewGenerator(gr, seed)
	gen.MaxSize = max(seedMaxSize, 2*gr.Root.MinSize)
	type candidate struct {
		in    []byte
		paths grammar.PathSet
		taken bool
	}
	seen := map[string]bool{}
	var cands []*candidate
	for range seedCandidates {
		t, err := gen.Generate()
		if err != nil {
			return nil, err
		}
		in := t.Bytes()
		if len(in) == 0 || len(in) > maxLen || seen[string(in)] {
			continue
		}
		seen[string(in)] = true
		cands = append(cands, &candidate{in: in, paths: pt.Paths(t)})
	}
	// The grammar's 1-path covering forest with the shortest completions
	// (TRIBBLE's Algorithm 1, terse): a smallest input for every symbol,
	// which random inputs of a few dozen bytes rarely show for the larger
	// constructs (a while language's if statement).
	forest, err := gr.CoveringForest(1, grammar.CloseTerse)
	if err != nil {
		return nil, err
	}
	for _, t := range forest {
		in := t.Bytes()
		if len(in) == 0 || len(in) > maxLen || seen[string(in)] {
			continue
		}
		seen[string(in)] = true
		cands = append(cands, &candidate{in: in, paths: pt.Paths(t)})
	}
	if len(cands) < n {
		return nil, fmt.Errorf("%s: only %d distinct seed inputs of at most %d bytes", s.Name, len(cands), maxLen)
	}
	covered := pt.NewPathSet()
	out := make([][]byte, 0, n)
	for len(out) < n {
		var best *candidate
		bestGain := 0
		for _, c := range cands {
			if c.taken {
				continue
			}
			gain := 0
			for i, w := range c.paths {
				gain += bits.OnesCount64(w &^ covered[i])
			}
			if gain > bestGain || gain == bestGain && gain > 0 && len(c.in) < len(best.in) {
				best, bestGain = c, gain
			}
		}
		if best == nil {
			break
		}
		best.taken = true
		covered.Union(best.paths)
		out = append(out, best.in)
	}
	for _, c := range cands {
		if len(out) == n {
			break
		}
		if !c.taken {
			c.taken = true
			out = append(out, c.in)
		}
	}
	return out, nil
}
