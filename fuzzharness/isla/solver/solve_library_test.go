package solver_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
)

// formalSpec compiles a constraint of testdata/formal (ISLa's
// formalizations) against its grammar there.
func formalSpec(t *testing.T, gfile, cfile string, opts ...isla.Option) *isla.Spec {
	t.Helper()
	dir := filepath.Join("..", "testdata", "formal")
	g, err := grammar.Load(filepath.Join(dir, gfile))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, cfile))
	if err != nil {
		t.Fatal(err)
	}
	c, err := isla.Parse(cfile, src)
	if err != nil {
		t.Fatal(err)
	}
	s, err := isla.Compile(c, grammar.MustCompile(g), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The solver makes ISLa's padding and octal predicates hold: reST title
// underlines (ljust_crop, extend_crop) are at least as long as the title,
// and TAR size fields (octal_to_decimal, rjust_crop_tar) are 12 bytes of an
// octal number between 10 and 100.
func TestSolveLibraryPredicates(t *testing.T) {
	check := func(name string, spec *isla.Spec, n int, ok func(in string) bool) {
		s, err := solver.New(spec, solver.Seed(3))
		if err != nil {
			t.Fatal(err)
		}
		trees, err := s.Solve(context.Background(), n)
		if err != nil {
			t.Fatalf("%s: after %d: %v", name, len(trees), err)
		}
		for _, tr := range trees {
			in := string(tr.Bytes())
			if r, err := spec.Check([]byte(in)); err != nil || !r.Valid {
				t.Errorf("%s: %q invalid: %v %v", name, in, err, r)
			}
			if !ok(in) {
				t.Errorf("%s: %q", name, in)
			}
		}
	}
	check("underline", formalSpec(t, "rest.bnf", "rest-length-underline.isla"), 30, func(in string) bool {
		lines := strings.Split(in, "\n")
		for i := 1; i < len(lines); i++ {
			l := lines[i]
			if l != "" && strings.Trim(l, "=") == "" || l != "" && strings.Trim(l, "-") == "" {
				if len(l) < len(lines[i-1]) {
					return false
				}
			}
		}
		return true
	})
	size := `forall <file_size> file_size="{<octal_digits> octal_digits}<SPACE>" in start:
  exists int decimal:
    ((>= (str.to.int decimal) 10) and
    ((<= (str.to.int decimal) 100) and
    (octal_to_decimal(octal_digits, decimal) and
     rjust_crop_tar(file_size, 12, "0"))))`
	g, err := grammar.Load(filepath.Join("..", "testdata", "formal", "tar.bnf"))
	if err != nil {
		t.Fatal(err)
	}
	gr := grammar.MustCompile(g)
	spec, err := isla.Compile(isla.MustParse(size), gr)
	if err != nil {
		t.Fatal(err)
	}
	check("size", spec, 5, func(in string) bool {
		i := strings.Index(in, "ustar")
		if i < 0 {
			return false
		}
		// The header's fields before the size are NUL- or space-ended;
		// find the 12-byte size field: 11 octal digits and a space.
		for j := 0; j+12 <= i; j++ {
			f := in[j : j+12]
			if f[11] != ' ' {
				continue
			}
			if v, err := strconv.ParseInt(f[:11], 8, 64); err == nil && v >= 10 && v <= 100 {
				return true
			}
		}
		return false
	})
}
