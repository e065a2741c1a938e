package isla_test

import (
	"bytes"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// The grammars of testdata work with the generator and the parser: derived
// inputs parse back, and the constraints evaluate on them.
func TestTestdataGrammars(t *testing.T) {
	for _, tc := range []struct {
		grammar     string
		constraints []string
		maxSize     int
		n           int
	}{
		{"rest", []string{"rest-title.isla", "rest-references.isla", "rest-numbering.isla"}, grammar.DefaultMaxSize, 200},
		{"tar", []string{"tar.isla"}, 20000, 10},
	} {
		gr := loadGraph(t, tc.grammar)
		gen := grammar.NewGenerator(gr, 5)
		gen.MaxSize = tc.maxSize
		p, err := grammar.NewParser(gr)
		if err != nil {
			t.Fatal(err)
		}
		valid := make([]int, len(tc.constraints))
		var specs []*isla.Spec
		for _, c := range tc.constraints {
			specs = append(specs, compile(t, tc.grammar, c, tarPredicates))
		}
		for i := 0; i < tc.n; i++ {
			tr, err := gen.Generate()
			if err != nil {
				t.Fatalf("%s: %v", tc.grammar, err)
			}
			in := tr.Bytes()
			if _, err := p.Parse(in); err != nil {
				t.Fatalf("%s: generated input does not parse: %v\n%q", tc.grammar, err, in)
			}
			if tc.grammar == "tar" {
				if len(in)%512 != 0 || len(in) < 1024 || !bytes.HasSuffix(in, make([]byte, 1024)) {
					t.Fatalf("tar: %d bytes, not whole blocks ending in two NUL blocks", len(in))
				}
			}
			for k, s := range specs {
				r, err := s.Check(in)
				if err != nil {
					t.Fatalf("%s: %v", tc.constraints[k], err)
				}
				if r.Valid {
					valid[k]++
				}
			}
		}
		t.Logf("%s: %d inputs, valid per constraint %v", tc.grammar, tc.n, valid)
	}
}
