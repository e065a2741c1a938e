package solver_test

import (
	"archive/tar"
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/tarpred"
)

// A padding predicate rewrites its argument even when the search derived
// the argument at random, because a quantifier's match expression needs
// the nodes inside it (here the quantifier over <digits>, as TAR's content_size_constr binds the characters
// of the <content> that content_length_constraint pads to 512 bytes). The
// solver used to decide the predicate false on the random derivation and
// drop every state, giving up.
func TestSolvePadMatchedNode(t *testing.T) {
	spec := specFromText(t, `
<start> ::= <field> ;
<field> ::= <digits> <fill> ;
<digits> ::= <digit> | <digit> <digits> ;
<digit> ::= [0-9] ;
<fill> ::= "" | <dots> ;
<dots> ::= "." | "." <dots> ;
`, `
forall <field> f in start:
  ljust_crop(f, 40, ".")
and
forall <field> f="{<digits> d}<fill>" in start:
  forall <digits> e in d:
    (not (= e "0"))
`)
	s, err := solver.New(spec, solver.Seed(1), solver.MaxStates(200))
	if err != nil {
		t.Fatal(err)
	}
	trees, err := s.Solve(context.Background(), 10)
	if err != nil {
		t.Fatalf("after %d solutions: %v", len(trees), err)
	}
	for _, tr := range trees {
		in := string(tr.Bytes())
		digits := strings.TrimRight(in, ".")
		if len(in) != 40 || digits == "" || strings.Trim(digits, "0123456789") != "" || strings.HasSuffix(digits, "0") {
			t.Errorf("%q: want 40 bytes, digits not ending in 0 and dots", in)
		}
		if r := spec.EvalTree(tr); !r.Valid {
			t.Errorf("%q invalid: %s", in, r)
		}
	}
}

// ISLa's whole TAR conjunction (testdata/formal/tar.isla, with
// content_size_constr) solves: content_length_constraint pads each
// <content> that content_size_constr's match expression made the search
// derive. Every archive is valid on its tree, has the 512-byte blocks of a
// TAR archive, and archive/tar reads its entries back.
func TestSolveFormalTarWithContentSize(t *testing.T) {
	spec := formalSpec(t, "tar.bnf", "tar.isla", tarpred.Predicates())
	if !strings.Contains(spec.Constraint().String(), "content_chars") {
		t.Fatal("tar.isla does not hold content_size_constr")
	}
	s, err := solver.New(spec, solver.Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	trees, err := s.Solve(context.Background(), 3)
	if err != nil {
		t.Fatalf("after %d archives: %v", len(trees), err)
	}
	for _, tr := range trees {
		if r := spec.EvalTree(tr); !r.Valid {
			t.Fatalf("invalid archive: %s", r)
		}
		in := tr.Bytes()
		if len(in)%512 != 0 {
			t.Errorf("an archive of %d bytes", len(in))
		}
		rd := tar.NewReader(bytes.NewReader(in))
		n := 0
		for {
			_, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("archive/tar: entry %d: %v", n, err)
			}
			if _, err := io.Copy(io.Discard, rd); err != nil {
				t.Fatalf("archive/tar: entry %d data: %v", n, err)
			}
			n++
		}
		if n == 0 {
			t.Errorf("archive/tar reads no entry of %q", in)
		}
	}
}
