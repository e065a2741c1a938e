package mineeval

import (
	"context"
	"errors"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// TestRunReferenceMiner checks Run with a miner that returns the reference
// grammar after asking the oracle about every seed: score 1, and the queries
// counted.
func TestRunReferenceMiner(t *testing.T) {
	s, err := Lookup("while")
	if err != nil {
		t.Fatal(err)
	}
	miner := func(ctx context.Context, seeds [][]byte, oracle func([]byte) bool) (*grammar.Grammar, error) {
		for _, in := range seeds {
			if !oracle(in) {
				t.Errorf("oracle rejects seed %q", in)
			}
		}
		return s.Grammar()
	}
	res, err := Run(context.Background(), s, Config{Name: "ref", Mine: miner}, RunOptions{Options: Options{N: 100, Seed: 1}, Seeds: 4})
	if err != nil {
		t.Fatal(err)
	}
	if res.Err != nil || res.Score == nil || res.Score.F1 != 1 || res.Queries != 4 || len(res.Seeds) != 4 {
		t.Errorf("result %+v, score %+v; want F1 1 after 4 queries", res, res.Score)
	}
}

// TestRunQueryLimit checks that a miner over RunOptions.MaxQueries is
// stopped and the limit reported.
func TestRunQueryLimit(t *testing.T) {
	s, err := Lookup("expr")
	if err != nil {
		t.Fatal(err)
	}
	miner := func(ctx context.Context, seeds [][]byte, oracle func([]byte) bool) (*grammar.Grammar, error) {
		for ctx.Err() == nil {
			oracle([]byte("x"))
		}
		return nil, ctx.Err()
	}
	res, err := Run(context.Background(), s, Config{Name: "greedy", Mine: miner}, RunOptions{Options: Options{N: 10}, MaxQueries: 50})
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(res.Err, ErrQueryLimit) || res.Queries != 50 || res.Score != nil {
		t.Errorf("result error %v, %d queries, score %v; want ErrQueryLimit after 50", res.Err, res.Queries, res.Score)
	}
}

// TestRunMinerError checks that a failing miner is reported, not fatal.
func TestRunMinerError(t *testing.T) {
	s, err := Lookup("lisp")
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	miner := func(context.Context, [][]byte, func([]byte) bool) (*grammar.Grammar, error) { return nil, boom }
	res, err := Run(context.Background(), s, Config{Name: "failing", Mine: miner}, RunOptions{Options: Options{N: 10}})
	if err != nil || !errors.Is(res.Err, boom) {
		t.Errorf("Run = %v, result error %v; want the miner's error in the result", err, res.Err)
	}
}

// TestSeeds checks that seeds are distinct, within the length bound, valid
// and the same for the same seed.
func TestSeeds(t *testing.T) {
	for _, s := range Subjects() {
		a, err := s.Seeds(DefaultSeeds, 5, DefaultSeedLen)
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.Seeds(DefaultSeeds, 5, DefaultSeedLen)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for i, in := range a {
			if len(in) == 0 || len(in) > DefaultSeedLen || seen[string(in)] || !s.Oracle(in) {
				t.Errorf("%s: seed %q: empty, too long, repeated or invalid", s.Name, in)
			}
			seen[string(in)] = true
			if string(in) != string(b[i]) {
				t.Errorf("%s: seed %d differs between runs with the same seed: %q, %q", s.Name, i, in, b[i])
			}
		}
		if len(a) != DefaultSeeds {
			t.Errorf("%s: %d seeds, want %d", s.Name, len(a), DefaultSeeds)
		}
	}
}
