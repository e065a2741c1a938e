package glade

import (
	"context"
	"errors"
	"testing"

	"github.com/seed72891827/kfuzz/learn/oracle"
)

// balanced accepts the words over a-c, digits and brackets whose brackets
// are balanced: a small recursive language.
func balanced(b []byte) bool {
	depth := 0
	for _, c := range b {
		switch {
		case c == '(':
			depth++
		case c == ')':
			if depth == 0 {
				return false
			}
			depth--
		case c >= 'a' && c <= 'c', c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return depth == 0
}

// FuzzSynthesize checks on any pair of seeds that Synthesize neither
// panics nor hangs, that its grammar passes Check, and that the grammar
// derives every seed the oracle accepts (the algorithm only generalizes).
func FuzzSynthesize(f *testing.F) {
	f.Add([]byte("(a(b))"), []byte("12"), true)
	f.Add([]byte(""), []byte("()()"), false)
	f.Add([]byte("a)"), []byte("((c))"), true)
	f.Fuzz(func(t *testing.T, s1, s2 []byte, rec bool) {
		if len(s1) > 12 || len(s2) > 12 {
			t.Skip()
		}
		seeds := [][]byte{s1, s2}
		res, err := Synthesize(context.Background(), seeds, oracle.Func(balanced, oracle.Timeout(0)),
			WithRecursion(rec), WithAlphabet([]byte("ab()1")), WithMaxQueries(50000))
		if !balanced(s1) || !balanced(s2) {
			if err == nil {
				t.Fatalf("a rejected seed gave no error")
			}
			return
		}
		var limit *ErrMaxQueries
		if errors.As(err, &limit) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		checkDerives(t, res.Grammar, seeds)
	})
}
