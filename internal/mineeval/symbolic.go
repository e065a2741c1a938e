package mineeval

import (
	"context"
	"fmt"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/learn/symbolic"
)

// ConfigSymbolic and ConfigSymbolicRefined are the names of the
// configurations Symbolic and SymbolicRefined return.
const (
	ConfigSymbolic        = "symbolic"
	ConfigSymbolicRefined = "symbolic+refine"
)

// DefaultSymbolicMaxPaths bounds the paths ConfigSymbolic explores in the
// evaluation, a quarter of learn/symbolic's DefaultMaxPaths; calc stays
// exact (docs/mine-eval.md). jsonparse is explored compositionally
// (symbolic.Config.Compose) and saturates well before.
const DefaultSymbolicMaxPaths = 50000

// Symbolic returns the configuration ConfigSymbolic: learn/symbolic's Mine
// (STALAGMITE) on the subject's code, which needs no seeds and no oracle;
// its work, in the queries column, is the number of paths explored. The
// code's package is resolved in dir, the root of the kfuzz module. cfg gives
// the bounds (LoopBound, MaxPaths, ...) and Progress; its Dir, Package and
// Entry are set from dir and the subject.
func Symbolic(dir string, cfg symbolic.Config) Config {
	return Config{Name: ConfigSymbolic, MineCode: func(ctx context.Context, code Code) (*grammar.Grammar, int64, error) {
		res, err := mineCode(ctx, dir, cfg, code)
		if err != nil {
			return nil, 0, err
		}
		return res.Grammar, int64(res.Stats.Paths), nil
	}}
}

// SymbolicRefined returns the configuration ConfigSymbolicRefined:
// Symbolic's grammar refined against the subject's oracle, run in-process
// (symbolic.Refine with rcfg and, for a subject mined with a lexer, its
// token nonterminals), as STALAGMITE's refined grammars are. Its work is
// the paths explored plus the oracle's calls during refinement.
func SymbolicRefined(dir string, cfg symbolic.Config, rcfg symbolic.RefineConfig) Config {
	return Config{Name: ConfigSymbolicRefined, MineCode: func(ctx context.Context, code Code) (*grammar.Grammar, int64, error) {
		if code.Oracle == nil {
			return nil, 0, fmt.Errorf("mineeval: %s needs the subject's oracle", ConfigSymbolicRefined)
		}
		res, err := mineCode(ctx, dir, cfg, code)
		if err != nil {
			return nil, 0, err
		}
		rc := rcfg
		rc.Tokens = res.Tokens
		g, st, err := symbolic.Refine(ctx, res.Grammar, code.Oracle, rc)
		if err != nil {
			return nil, 0, err
		}
		return g, int64(res.Stats.Paths) + int64(st.Queries), nil
	}}
}

// mineCode runs learn/symbolic's Mine with cfg on the code of a subject in
// the module at dir.
func mineCode(ctx context.Context, dir string, cfg symbolic.Config, code Code) (*symbolic.Result, error) {
	c := cfg
	c.Dir, c.Package, c.Entry = dir, code.Package, code.Entry
	codeOptions(code, &c)
	return symbolic.Mine(ctx, c)
}
