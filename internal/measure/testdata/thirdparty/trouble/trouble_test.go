package trouble_test

import (
	"testing"
	"unicode/utf8"

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

// FuzzInvalidUTF8 passes on the byte strings that are not valid UTF-8 and
// skips the others.
func FuzzInvalidUTF8(f *testing.F) {
	g, err := grammar.Parse("bytes", []byte(`<bytes> ::= [\x00-\xff]* ;`))
	if err != nil {
		f.Fatal(err)
	}
	fuzzharness.New(f, g, fuzzharness.WithKPathSeeds(0)).FuzzString(func(t *testing.T, s string) {
		if utf8.ValidString(s) {
			t.Skip("valid UTF-8")
		}
	})
}
