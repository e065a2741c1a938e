package mineeval

import (
	"context"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/learn/glade"
	"github.com/seed72891827/kfuzz/learn/oracle"
)

// Names of the configurations Configs returns.
const (
	ConfigGLADE     = "glade"
	ConfigRecursion = "glade+rec"
	ConfigTrees     = "bubble"
)

// GLADE returns a Miner running learn/glade's Synthesize with the oracle as
// an in-process oracle.Func, with the recursion stage on or off, and opts.
func GLADE(recursion bool, opts ...glade.Option) Miner {
	return func(ctx context.Context, seeds [][]byte, accept func([]byte) bool) (*grammar.Grammar, error) {
		o := append([]glade.Option{glade.WithRecursion(recursion)}, opts...)
		res, err := glade.Synthesize(ctx, seeds, oracle.Func(accept), o...)
		if err != nil {
			return nil, err
		}
		return res.Grammar, nil
	}
}

// Configs returns the configurations of the evaluation: GLADE alone (phases
// one and two with character generalization), GLADE with the recursion
// stage, and the tree stage (glade.WithTrees: bubbling and merging after
// Arvada and TreeVada, then character generalization), each with opts.
func Configs(opts ...glade.Option) []Config {
	return []Config{
		{Name: ConfigGLADE, Mine: GLADE(false, opts...)},
		{Name: ConfigRecursion, Mine: GLADE(true, opts...)},
		{Name: ConfigTrees, Mine: GLADE(false, append([]glade.Option{glade.WithTrees(true)}, opts...)...)},
	}
}
