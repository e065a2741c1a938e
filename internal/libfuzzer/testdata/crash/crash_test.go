package crash

import (
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// FuzzCrash finds the seeded bug of Check; its seed corpus holds an input
// that triggers it.
func FuzzCrash(f *testing.F) {
	fuzzharness.New(f, grammar.MustBuiltin("expr")).FuzzString(func(t *testing.T, s string) {
		Check(s)
	})
}
