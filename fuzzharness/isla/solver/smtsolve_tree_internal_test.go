package solver

import (
	"context"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/tarpred"
)

// tarSolver returns a solver of a constraint over the built-in tar grammar
// with tarpred's predicates.
func tarSolver(t *testing.T, constraint string, seed uint64) *Solver {
	t.Helper()
	gr := grammar.MustCompile(grammar.MustBuiltin("tar"))
	spec, err := isla.Compile(isla.MustParse(constraint), gr, tarpred.Predicates())
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(spec, Seed(seed))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A tree solver's fixes are in place (inPlace) when each names a closed
// node that has the fix's text already: solveTree then makes no step of
// them. On an archive whose checksum fields are open, tar_size's answer for
// a size field is in place if it is the field's text; a different text, the
// open checksum field and the header around it are not.
func TestTreeFixInPlace(t *testing.T) {
	s := tarSolver(t, tarpred.Constraint, 1)
	gen := grammar.NewGenerator(s.spec.Graph(), 3)
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

// tarAtoms returns a solver for TAR's size and checksum atoms and a state
// of an archive of at least two entries whose size and checksum fields are
// open, with its atoms instantiated; the number of entries.
func tarAtoms(t *testing.T, seed uint64) (*Solver, *state, int) {
	t.Helper()
	s := tarSolver(t, `tar_size(<entry>) and tar_checksum(<header>, <header>.<checksum>)`, seed)
	spec := s.spec
	gen := grammar.NewGenerator(spec.Graph(), 5)
	keep := func(n *grammar.Node) bool {
		return n.Kind == grammar.KindRef && (n.Name == "checksum" || n.Name == "file-size")
	}
	for range 50 {
		t0, err := gen.GenerateFrom(s.rhs)
		if err != nil {
			t.Fatal(err)
		}
		root := mkNode(s.ids.id(), s.rootRef, []*stree{s.ids.fromTree(t0, keep)}, "", false)
		entries := len(root.openLeaves()) / 2
		if entries < 2 {
			continue
		}
		s.constID = root.id
		st := &state{root: root, forms: []item{{n: spec.Formula(), env: (*env)(nil).bind(0, root.id)}}}
		if children, ok := s.simplify(s.newEvalCtx(st), st); !ok || children != nil {
			t.Fatalf("simplify: %d children, ok %v", len(children), ok)
		}
		return s, st, entries
	}
	t.Fatal("no generated archive has two entries")
	return nil, nil, 0
}

// Tree solvers take their steps together while their tree arguments are
// apart: on an archive of several entries whose size and checksum fields
// are open, one pass of propagate sets every entry's size field (and no
// checksum, whose header holds a size field just set), the next pass every
// checksum, and then every atom holds.
func TestTreeSolversOnePass(t *testing.T) {
	s, st, entries := tarAtoms(t, 1)
	r := &cspRun{s: s, base: st, items: st.forms, vals: map[int32]*stree{}, cur: st.root,
		fresh: map[int32]*stree{}, dirty: true, solved: map[string]int{}, holds: make([]bool, len(st.forms))}
	for pass, want := range []string{"file-size", "checksum"} {
		und, ok := r.check()
		if !ok {
			t.Fatalf("pass %d: an atom is false", pass)
		}
		progress, conflict := r.propagate(und)
		if !progress || conflict {
			t.Fatalf("pass %d: progress %v, conflict %v", pass, progress, conflict)
		}
		if len(r.written) != entries {
			t.Errorf("pass %d set %d nodes, want one %s field in each of %d entries", pass, len(r.written), want, entries)
		}
		for _, i := range r.written {
			if got := r.c.v.Node(i).Nonterminal(); got != want {
				t.Errorf("pass %d set a <%s> node, want <%s>", pass, got, want)
			}
		}
	}
	if und, ok := r.check(); !ok || len(und) > 0 {
		t.Errorf("after two passes: %d atoms undecided, ok %v", len(und), ok)
	}
}

// toTree makes the grammar tree of a solver tree from two blocks: the same
// nodes, values and shape as the tree the solver tree was made of, and
// child lists without spare capacity, so that appending to one cannot
// overwrite the next.
func TestToTreeBlocks(t *testing.T) {
	s := tarSolver(t, `tar_size(<entry>)`, 1)
	gen := grammar.NewGenerator(s.spec.Graph(), 9)
	var same func(a, b *grammar.Tree) bool
	same = func(a, b *grammar.Tree) bool {
		if a.Node != b.Node || a.Value != b.Value || a.Open != b.Open || len(a.Children) != len(b.Children) ||
			cap(a.Children) != len(a.Children) {
			return false
		}
		for i := range a.Children {
			if !same(a.Children[i], b.Children[i]) {
				return false
			}
		}
		return true
	}
	for range 5 {
		want, err := gen.GenerateFrom(s.rhs)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.ids.fromTree(want, nil).toTree(nil); !same(got, want) {
			t.Fatalf("toTree differs from the tree of %d bytes it was made of", len(want.Bytes()))
		}
	}
}

// valid, the check of every output on a reused view, decides as
// Spec.EvalTree does: on the solver's archives (valid) and on random ones
// (mostly not), one after the other.
func TestValidReusesViewAsEvalTree(t *testing.T) {
	s := tarSolver(t, tarpred.Constraint, 3)
	gen := grammar.NewGenerator(s.spec.Graph(), 11)
	outs, err := tarSolver(t, tarpred.Constraint, 4).Solve(context.Background(), 5)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[bool]int{}
	for i := range 10 {
		tr := outs[i/2]
		if i%2 == 1 {
			if tr, err = gen.GenerateFrom(s.rhs); err != nil {
				t.Fatal(err)
			}
		}
		want := s.spec.EvalTree(tr).Valid
		if got := s.valid(tr, tr.Bytes()); got != want {
			t.Fatalf("input %d: valid = %v, EvalTree says %v", i, got, want)
		}
		seen[want]++
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Fatalf("want valid and invalid archives, got %v", seen)
	}
}
