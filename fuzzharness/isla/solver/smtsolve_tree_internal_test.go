package solver

import (
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/tarpred"
)

// A tree solver's fixes are in place (inPlace) when each names a closed
// node that has the fix's text already: solveTree then makes no step of
// them. On an archive whose checksum fields are open, tar_size's answer for
// a size field is in place if it is the field's text; a different text, the
// open checksum field and the header around it are not.
func TestTreeFixInPlace(t *testing.T) {
	gr := grammar.MustCompile(grammar.MustBuiltin("tar"))
	spec, err := isla.Compile(isla.MustParse(tarpred.Constraint), gr, tarpred.Predicates())
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(spec, Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	gen := grammar.NewGenerator(gr, 3)
	keep := func(n *grammar.Node) bool { return n.Kind == grammar.KindRef && n.Name == "checksum" }
	for range 20 {
		t0, err := gen.GenerateFrom(s.rhs)
		if err != nil {
			t.Fatal(err)
		}
		root := mkNode(s.ids.id(), s.rootRef, []*stree{s.ids.fromTree(t0, keep)}, "", false)
		c := s.newEvalCtx(&state{root: root})
		r := &cspRun{s: s, c: c}
		top := c.v.Node(0)
		sizes := top.Find("file-size")
		if len(sizes) == 0 {
			continue // an archive without entries
		}
		f, sum, h := sizes[0], top.Find("checksum")[0], top.Find("header")[0]
		for _, tc := range []struct {
			name  string
			fixes []isla.Fix
			want  bool
		}{
			{"the size field's own text", []isla.Fix{{Node: f, Text: f.Text()}}, true},
			{"another text", []isla.Fix{{Node: f, Text: "00000001000\x00"}}, f.Text() == "00000001000\x00"},
			{"the own text and another", []isla.Fix{{Node: f, Text: f.Text()}, {Node: f, Text: f.Text() + "0"}}, false},
			{"the open checksum field", []isla.Fix{{Node: sum, Text: sum.Text()}}, false},
			{"the header around it", []isla.Fix{{Node: h, Text: h.Text()}}, false},
			{"no fixes", nil, false},
		} {
			if got := r.inPlace(c, tc.fixes); got != tc.want {
				t.Errorf("%s: inPlace = %v, want %v", tc.name, got, tc.want)
			}
		}
		return
	}
	t.Fatal("no generated archive has an entry")
}
