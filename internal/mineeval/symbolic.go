package mineeval

import (
	"context"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/learn/symbolic"
)

// ConfigSymbolic is the name of the configuration Symbolic returns.
const ConfigSymbolic = "symbolic"

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
		c := cfg
		c.Dir, c.Package, c.Entry = dir, code.Package, code.Entry
		codeOptions(code, &c)
		res, err := symbolic.Mine(ctx, c)
		if err != nil {
			return nil, 0, err
		}
		return res.Grammar, int64(res.Stats.Paths), nil
	}}
}
