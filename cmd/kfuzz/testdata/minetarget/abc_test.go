package minetarget

import (
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// FuzzABC runs Parse over strings of a, b and c, and skips those it
// rejects.
func FuzzABC(f *testing.F) {
	g, err := grammar.Parse("abc", []byte(`<s> ::= [abc]* ;`))
	if err != nil {
		f.Fatal(err)
	}
	fuzzharness.New(f, g).FuzzString(func(t *testing.T, s string) {
		if err := Parse(s); err != nil {
			t.Skip(err)
		}
	})
}
