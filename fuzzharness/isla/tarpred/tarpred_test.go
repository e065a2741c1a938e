package tarpred_test

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/tarpred"
)

func compile(t testing.TB, src string) *isla.Spec {
	t.Helper()
	gr := grammar.MustCompile(grammar.MustBuiltin("tar"))
	spec, err := isla.Compile(isla.MustParse(src), gr, tarpred.Predicates())
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// field is the text of the first node labeled name in the tree.
func field(t *grammar.Tree, name string) string {
	var out string
	found := false
	t.Walk(func(u *grammar.Tree) bool {
		if found {
			return false
		}
		if u.Node.Kind == grammar.KindRef && u.Node.Name == name {
			out, found = u.String(), true
			return false
		}
		return true
	})
	return out
}

// find returns the subtrees of the nonterminal name, not nested, in order.
func find(t *grammar.Tree, name string) []*grammar.Tree {
	var out []*grammar.Tree
	t.Walk(func(u *grammar.Tree) bool {
		if u.Node.Kind == grammar.KindRef && u.Node.Name == name {
			out = append(out, u)
			return false
		}
		return true
	})
	return out
}

// entries returns the <entry> subtrees in order.
func entries(t *grammar.Tree) []*grammar.Tree { return find(t, "entry") }

func octal(t *testing.T, s string) int64 {
	t.Helper()
	s = strings.Trim(s, " \x00")
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	if s == "" {
		return 0
	}
	n, err := strconv.ParseInt(s, 8, 64)
	if err != nil {
		t.Fatalf("numeric field %q: %v", s, err)
	}
	return n
}

func cstring(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return s[:i]
	}
	return s
}

// checkArchive reads the archive with archive/tar and compares every header
// and the data of every entry with the derivation tree.
func checkArchive(t *testing.T, tr *grammar.Tree) {
	t.Helper()
	in := tr.Bytes()
	es := entries(tr)
	r := tar.NewReader(bytes.NewReader(in))
	for i := 0; ; i++ {
		h, err := r.Next()
		if err == io.EOF {
			if i != len(es) {
				t.Errorf("archive/tar read %d entries, the tree has %d", i, len(es))
			}
			return
		}
		if err != nil {
			t.Fatalf("entry %d: archive/tar: %v\n%q", i, err, in)
		}
		if i >= len(es) {
			t.Fatalf("archive/tar read more entries than the tree's %d", len(es))
		}
		e := es[i]
		data, err := io.ReadAll(r)
		if err != nil {
			t.Fatalf("entry %d: reading the data: %v", i, err)
		}
		size := octal(t, field(e, "file-size"))
		var blocks strings.Builder
		for _, d := range find(e, "data-block") {
			blocks.WriteString(d.String())
		}
		if h.Size != size || int64(len(data)) != size || !strings.HasPrefix(blocks.String(), string(data)) {
			t.Errorf("entry %d: archive/tar read size %d and %d bytes of data, the tree says %d and %q…",
				i, h.Size, len(data), size, blocks.String()[:min(16, blocks.Len())])
		}
		if (size+511)/512*512 != int64(blocks.Len()) {
			t.Errorf("entry %d: size %d, but %d bytes of data blocks", i, size, blocks.Len())
		}
		name := cstring(field(e, "file-name"))
		if field(e, "magic") == "ustar\x00" {
			if p := cstring(field(e, "prefix")); p != "" {
				name = p + "/" + name
			}
		}
		if !strings.HasSuffix(h.Name, name) || field(e, "magic") == "ustar\x00" && h.Name != name {
			t.Errorf("entry %d: archive/tar read the name %q, the tree says %q", i, h.Name, name)
		}
		for _, f := range []struct {
			name string
			got  int64
		}{{"file-mode", h.Mode}, {"uid", int64(h.Uid)}, {"gid", int64(h.Gid)}, {"mod-time", h.ModTime.Unix()}} {
			if want := octal(t, field(e, f.name)); f.got != want {
				t.Errorf("entry %d: archive/tar read %s %d, the tree says %d", i, f.name, f.got, want)
			}
		}
		if want := field(e, "typeflag")[0]; h.Typeflag != want {
			t.Errorf("entry %d: archive/tar read the type flag %q, the tree says %q", i, h.Typeflag, want)
		}
	}
}

// Every archive the solver makes under Constraint satisfies the constraint
// and archive/tar reads it: the same entries, names, sizes, modes and data.
func TestSolveArchives(t *testing.T) {
	spec := compile(t, tarpred.Constraint)
	n := 40
	if testing.Short() {
		n = 12
	}
	got, multi, data := 0, 0, 0
	for _, seed := range []uint64{1, 2, 3, 4} {
		s, err := solver.New(spec, solver.Seed(seed))
		if err != nil {
			t.Fatal(err)
		}
		trees, err := s.Solve(context.Background(), n/4)
		if err != nil {
			t.Fatalf("seed %d: %d archives: %v", seed, len(trees), err)
		}
		for _, tr := range trees {
			if r := spec.EvalTree(tr); !r.Valid {
				t.Fatalf("the solver's archive violates the constraint: %s", r)
			}
			if r, err := spec.Check(tr.Bytes()); err != nil || !r.Valid {
				t.Fatalf("the validator rejects the solver's archive read from its bytes: %v %v", r, err)
			}
			checkArchive(t, tr)
			got++
			es := entries(tr)
			if len(es) > 1 {
				multi++
			}
			for _, e := range es {
				if len(find(e, "data-block")) > 0 {
					data++
				}
			}
		}
	}
	// The outputs are diverse: several entries, entries with data.
	if multi == 0 || data == 0 {
		t.Errorf("%d archives: %d with several entries, %d entries with data; want some of each", got, multi, data)
	}
}

// The validator accepts a solver output read as bytes, and rejects it when
// a header byte or the size field changes.
func TestCheckSolved(t *testing.T) {
	spec := compile(t, tarpred.Constraint)
	s, err := solver.New(spec, solver.Seed(9))
	if err != nil {
		t.Fatal(err)
	}
	var in []byte
	for range 20 {
		tr, err := s.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if es := entries(tr); len(es) > 0 && len(find(es[0], "data-block")) > 0 {
			in = tr.Bytes()
			break
		}
	}
	if in == nil {
		t.Fatal("no archive whose first entry has data in 20 solutions")
	}
	if r, err := spec.Check(in); err != nil || !r.Valid {
		t.Fatalf("Check of a solver output: %v %v", r, err)
	}
	for name, tc := range map[string]struct {
		edit func(b []byte)
		want string
	}{
		"checksum":   {func(b []byte) { b[148] = '7'; b[149] ^= 1 }, "tar_checksum"},
		"name byte":  {func(b []byte) { b[0] ^= 1 }, "tar_checksum"},
		"size field": {func(b []byte) { copy(b[124:136], "00000007000\x00") }, "tar_"},
	} {
		b := bytes.Clone(in)
		tc.edit(b)
		r, err := spec.Check(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.Valid || !strings.Contains(r.String(), tc.want) {
			t.Errorf("%s: want a violation of %s, got %s", name, tc.want, r)
		}
	}
}

// The predicates evaluate archives written by archive/tar.
func TestEvalWriterArchive(t *testing.T) {
	spec := compile(t, "tar_checksum(<header>, <header>.<checksum>) and tar_size(<entry>)")
	var buf bytes.Buffer
	w := tar.NewWriter(&buf)
	for _, f := range []struct{ name, body string }{{"a.txt", "A"}, {"b", strings.Repeat("b", 1300)}, {"empty", ""}} {
		if err := w.WriteHeader(&tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.body)), Format: tar.FormatUSTAR}); err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, f.body)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := spec.Check(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !r.Valid {
		t.Errorf("an archive of archive/tar: %s", r)
	}
}

// Solve waits for the fields it reads: with the size field unknown, the
// checksum cannot be computed.
func TestSolveOrder(t *testing.T) {
	if got := tarpred.Checksum.Writes(); len(got) != 1 || got[0] != "checksum" {
		t.Errorf("Checksum.Writes() = %q", got)
	}
	if got := tarpred.Size.Writes(); len(got) != 1 || got[0] != "file-size" {
		t.Errorf("Size.Writes() = %q", got)
	}
	for _, p := range []isla.Predicate{tarpred.Checksum, tarpred.Size} {
		if len(p.Params()) == 0 || p.Name() == "" {
			t.Errorf("%T: no name or parameters", p)
		}
	}
}

// Generate tape archives that archive/tar reads.
func Example() {
	gr := grammar.MustCompile(grammar.MustBuiltin("tar"))
	spec, err := isla.Compile(isla.MustParse(tarpred.Constraint), gr, tarpred.Predicates())
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := solver.New(spec, solver.Seed(3))
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 3 {
		t, err := s.Next(context.Background())
		if err != nil {
			fmt.Println(err)
			return
		}
		r := tar.NewReader(bytes.NewReader(t.Bytes()))
		entries := 0
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				fmt.Println(err)
				return
			}
			if _, err := io.Copy(io.Discard, r); err != nil {
				fmt.Println(err)
				return
			}
			entries++
		}
		want := 0 // the entries of the derivation tree
		t.Walk(func(u *grammar.Tree) bool {
			if u.Node.Kind == grammar.KindRef && u.Node.Name == "entry" {
				want++
			}
			return true
		})
		fmt.Printf("valid: %v, archive/tar read every entry: %v\n", spec.EvalTree(t).Valid, entries == want)
	}
	// Output:
	// valid: true, archive/tar read every entry: true
	// valid: true, archive/tar read every entry: true
	// valid: true, archive/tar read every entry: true
}

// BenchmarkSolve measures archives per second from one solver under
// Constraint, each validated by the solver.
func BenchmarkSolve(b *testing.B) {
	benchSolve(b, solver.Seed(1))
}

// BenchmarkSolveEval solves with the settings of kfuzz eval isla (restarts
// every 1,500 archives, 1,000 states per search, restarts of stalled
// searches).
func BenchmarkSolveEval(b *testing.B) {
	benchSolve(b, solver.Seed(1), solver.RestartEvery(1500), solver.MaxStates(1000),
		solver.StallFactor(solver.DefaultStallFactor))
}

func benchSolve(b *testing.B, opts ...solver.Option) {
	spec := compile(b, tarpred.Constraint)
	s, err := solver.New(spec, opts...)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Next(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "archives/s")
}
