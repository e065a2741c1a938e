package subjects_test

import (
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/subjects/calc"
	"github.com/seed72891827/kfuzz/internal/subjects/cgidecode"
	"github.com/seed72891827/kfuzz/internal/subjects/jsonparse"
	"github.com/seed72891827/kfuzz/internal/subjects/tinyc"
)

// TestGoldenAccepted checks each golden grammar against its parser: every
// input generated from the grammar is accepted, and the parser's own
// rejections of hand-picked inputs are inputs the grammar rejects too.
func TestGoldenAccepted(t *testing.T) {
	for _, s := range []struct {
		name    string
		golden  string
		accept  func([]byte) bool
		invalid []string
	}{
		{"calc", calc.Golden, func(b []byte) bool {
			_, err := calc.Eval(string(b))
			return err == nil || err.Error() == "calc: division by zero"
		}, []string{"", "1+", "(1", "--1", "1 + 2", "+1"}},
		{"cgidecode", cgidecode.Golden, func(b []byte) bool { _, err := cgidecode.Decode(b); return err == nil },
			[]string{"%", "%4", "%4g", "a%zz"}},
		{"jsonparse", jsonparse.Golden, func(b []byte) bool { return jsonparse.Parse(string(b)) == nil },
			[]string{"", "[1,]", "{1}", "nul", "\"abc", "1e", ".", "[ 1]"}},
		{"tinyc", tinyc.Golden, func(b []byte) bool { return tinyc.Parse(string(b)) == nil },
			[]string{"", "a", "a=1", "1=a;", "a+b=1;", "doa=1;while(a);", "if(a)b;elsec;", "ab;", "{a;", "x=_;", "while a;", "a;;b"}},
	} {
		g, err := grammar.Parse(s.name+"/golden.bnf", []byte(s.golden))
		if err != nil {
			t.Fatal(err)
		}
		gr := grammar.MustCompile(g)
		gen := grammar.NewGenerator(gr, 1)
		gen.MaxSize = 300
		n := 1000
		if testing.Short() {
			n = 200
		}
		for range n {
			tr, err := gen.Generate()
			if err != nil {
				t.Fatal(err)
			}
			if !s.accept(tr.Bytes()) {
				t.Errorf("%s rejects %q, generated from its golden grammar", s.name, tr.Bytes())
			}
		}
		p, err := grammar.NewParser(gr)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range s.invalid {
			if s.accept([]byte(in)) {
				t.Errorf("%s accepts %q, listed as invalid", s.name, in)
			}
			if p.Recognize([]byte(in)) == nil {
				t.Errorf("the golden grammar of %s accepts %q, which %s rejects", s.name, in, s.name)
			}
		}
	}
}
