package changes

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

const sampleDiff = `diff --git a/calc/calc.go b/calc/calc.go
index 1111111..2222222 100644
--- a/calc/calc.go
+++ b/calc/calc.go
@@ -3,5 +3,6 @@ package calc
 func Add(a, b int) int {
-	return a + b
+	s := a + b
+	return s
 }
 
 type T struct{}
@@ -20,3 +21,2 @@ func (t *T) M() {
 	x := 1
-	y := 2
 	_ = x
diff --git a/new.go b/new.go
new file mode 100644
--- /dev/null
+++ b/new.go
@@ -0,0 +1,2 @@
+package calc
+// new
diff --git a/gone.go b/gone.go
deleted file mode 100644
--- a/gone.go
+++ /dev/null
@@ -1,2 +0,0 @@
-package calc
-// gone
diff --git "a/with space.go" "b/with space.go"
--- "a/with space.go"
+++ "b/with space.go"
@@ -1 +1 @@
-old
\ No newline at end of file
+new
\ No newline at end of file
Binary files a/x.png and b/x.png differ
`

func TestParseDiff(t *testing.T) {
	got, err := ParseDiff("change.diff", []byte(sampleDiff))
	if err != nil {
		t.Fatal(err)
	}
	want := []FileChange{
		{Path: "calc/calc.go", OldPath: "calc/calc.go", Added: []int{4, 5}, Deleted: []int{3, 21}},
		{Path: "new.go", Added: []int{1, 2}},
		{Path: "with space.go", OldPath: "with space.go", Added: []int{1}, Deleted: []int{0}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}

	// diff -u: no git prefixes, time stamps after a tab, a deletion at the
	// end of a hunk.
	plain := "--- a/f.go\t2024-01-01 00:00:00\n+++ a/f.go\t2024-01-02 00:00:00\n@@ -1,3 +1,2 @@\n x\n y\n-z\n"
	got, err = ParseDiff("plain.diff", []byte(plain))
	if err != nil {
		t.Fatal(err)
	}
	if want := []FileChange{{Path: "a/f.go", OldPath: "a/f.go", Deleted: []int{2}}}; !reflect.DeepEqual(got, want) {
		t.Errorf("plain diff: %+v, want %+v", got, want)
	}
}

func TestParseDiffErrors(t *testing.T) {
	head := "--- a/f.go\n+++ b/f.go\n"
	for _, tc := range []struct{ diff, want string }{
		{"@@ -1 +1 @@\n-x\n+y\n", "d.diff:1: hunk before a file header"},
		{head + "@@ -1 +1\n", "d.diff:3: malformed hunk header"},
		{head + "@@ -a +1 @@\n", "d.diff:3: malformed hunk header"},
		{head + "@@ -1 +0 @@\n+x\n", "d.diff:3: malformed hunk header"},
		{head + "@@ -1 +1,2 @@\n x\n+y\n@@ -1 +2 @@\n z\n", "d.diff:6: hunk starts at line 2"},
		{head + "@@ -1,2 +1,2 @@\n x\n", "d.diff:4: hunk ends early"},
		{head + "@@ -1 +1 @@\n*x\n", "d.diff:4: unexpected line in hunk"},
		{head + "@@ -1 +1,2 @@\n-x\n-y\n", "d.diff:5: hunk deletes more lines"},
		{"--- \"a/f.go\n+++ b/f.go\n", "d.diff:1: unterminated quoted file name"},
		{"--- a/f.go\n+++ \n", "d.diff:2: empty file name"},
	} {
		_, err := ParseDiff("d.diff", []byte(tc.diff))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %s", tc.diff, err, tc.want)
		}
	}
}

func FuzzParseDiff(f *testing.F) {
	f.Add([]byte(sampleDiff))
	f.Add([]byte("--- a\n+++ b\n@@ -1,2 +1,3 @@\n a\n+b\n-c\n d\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		changes, err := ParseDiff("fuzz.diff", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.diff:") {
				t.Errorf("error without position: %v", err)
			}
			return
		}
		for _, c := range changes {
			if c.Path == "" || !slices.IsSorted(c.Added) || !slices.IsSorted(c.Deleted) {
				t.Fatalf("bad change %+v", c)
			}
			for _, l := range c.Added {
				if l < 1 {
					t.Fatalf("added line %d", l)
				}
			}
			for _, l := range c.Deleted {
				if l < 0 {
					t.Fatalf("deleted after line %d", l)
				}
			}
		}
	})
}

const calcSource = `package calc

func Add(a, b int) int {
	return a + b
}

type T struct{}

func (t *T) M() {
	f := func() {
		g := func() {}
		_ = g
	}
	_ = f
	h := func() {}
	_ = h
}

func (T) V() {}

func G[X any](x X) X { return x }

type S[X any] struct{}

func (s *S[X]) P() {}

func init() {}

var v = func() int { return 1 }
`

const calc2Source = `package calc

func init() { _ = func() {} }
`

func TestChangedFuncs(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "calc")
	files := map[string]string{
		"calc/calc.go":      calcSource,
		"calc/calc2.go":     calc2Source,
		"calc/calc_test.go": "package calc\n\nfunc TestX() {}\n",
		"calc/other.go":     "//go:build ignore\n\npackage calc\n\nfunc Ignored() {}\n",
	}
	for name, src := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	importPath := func(d string) (string, error) {
		if d != pkg {
			t.Errorf("import path asked for %s", d)
		}
		return "example.com/calc", nil
	}

	funcs, err := PackageFuncs(pkg, "example.com/calc")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range funcs {
		names = append(names, strings.TrimPrefix(f.Name, "example.com/calc."))
	}
	wantNames := []string{"Add", "(*T).M", "(*T).M.func1", "(*T).M.func1.1", "(*T).M.func2", "T.V", "G[...]",
		"(*S[...]).P", "init.0", "init.func1", "init.1", "init.1.func1"}
	if !slices.Equal(names, wantNames) {
		t.Errorf("functions %q\nwant %q", names, wantNames)
	}

	for _, tc := range []struct {
		change FileChange
		want   []string
	}{
		{FileChange{Path: "calc/calc.go", Added: []int{4}}, []string{"Add"}},
		{FileChange{Path: "calc/calc.go", Added: []int{11}}, []string{"(*T).M.func1.1"}},
		{FileChange{Path: "calc/calc.go", Added: []int{10, 15, 16}}, []string{"(*T).M", "(*T).M.func1", "(*T).M.func2"}},
		{FileChange{Path: "calc/calc.go", Added: []int{1, 2, 6, 7}}, nil},             // outside functions
		{FileChange{Path: "calc/calc.go", Deleted: []int{3, 5, 19}}, []string{"Add"}}, // only 3|4 is inside
		{FileChange{Path: "calc/calc.go", Added: []int{21, 25, 27, 29}}, []string{"(*S[...]).P", "G[...]", "init.0", "init.func1"}},
		{FileChange{Path: "calc/calc2.go", Added: []int{3}}, []string{"init.1.func1"}},
		{FileChange{Path: "calc/calc_test.go", Added: []int{3}}, nil},
		{FileChange{Path: "calc/other.go", Added: []int{5}}, nil},
		{FileChange{Path: "README.md", Added: []int{1}}, nil},
		// diff -u a/calc/calc.go b/calc/calc.go, read with the new tree's
		// files at the root: b/ is dropped.
		{FileChange{Path: "b/calc/calc.go", OldPath: "a/calc/calc.go", Added: []int{4}}, []string{"Add"}},
	} {
		got, err := ChangedFuncs([]FileChange{tc.change}, dir, importPath)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, w := range tc.want {
			want = append(want, "example.com/calc."+w)
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%+v: %q, want %q", tc.change, got, want)
		}
	}
	for _, c := range []FileChange{
		{Path: "calc/missing.go", Added: []int{1}},
		{Path: "b/calc/missing.go", OldPath: "a/calc/missing.go", Added: []int{1}},
		{Path: "b/calc/calc.go", OldPath: "calc/calc.go", Added: []int{1}}, // not an a/ b/ diff
	} {
		if _, err := ChangedFuncs([]FileChange{c}, dir, importPath); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
}

func TestImportPath(t *testing.T) {
	path, err := ImportPath(context.Background(), ".")
	if err != nil {
		t.Fatal(err)
	}
	if path != "github.com/seed72891827/kfuzz/internal/changes" {
		t.Errorf("import path %q", path)
	}
	if _, err := ImportPath(context.Background(), t.TempDir()); err == nil {
		t.Error("a directory outside any module: no error")
	}
}
