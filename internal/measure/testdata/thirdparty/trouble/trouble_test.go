package trouble_test

import (
	"testing"

	"example.com/thirdparty/trouble"
	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

func FuzzTrouble(f *testing.F) {
	g, err := grammar.Parse("words", []byte(`<word> ::= [a-z]* ;`))
	if err != nil {
		f.Fatal(err)
	}
	fuzzharness.New(f, g, fuzzharness.WithKPathSeeds(0)).FuzzString(func(t *testing.T, s string) {
		if s == "skip" {
			t.Skip("skipped on request")
		}
		if err := trouble.Do(s); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzPlain does not use fuzzharness.
func FuzzPlain(f *testing.F) {
	f.Add("a")
	f.Fuzz(func(t *testing.T, s string) {
		if err := trouble.Do(s); err != nil {
			t.Fatal(err)
		}
	})
}
