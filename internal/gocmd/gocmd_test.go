package gocmd

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func needGo(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not installed")
	}
}

func TestList(t *testing.T) {
	needGo(t)
	type pkg struct {
		ImportPath string
		Name       string
		Dir        string
		Imports    []string `json:"Imports"`
		Skipped    int      `json:"-"`
	}
	pkgs, err := List[pkg](context.Background(), Runner{}, "--", ".", "errors")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 2 {
		t.Fatalf("%d packages, want 2: %+v", len(pkgs), pkgs)
	}
	wd, _ := os.Getwd()
	if p := pkgs[0]; p.ImportPath != "github.com/seed72891827/kfuzz/internal/gocmd" || p.Name != "gocmd" || p.Dir != wd {
		t.Errorf("first package %+v", p)
	}
	if !slices.Contains(pkgs[0].Imports, "os/exec") {
		t.Errorf("imports %q lack os/exec", pkgs[0].Imports)
	}
	if pkgs[1].ImportPath != "errors" {
		t.Errorf("second package %q, want errors", pkgs[1].ImportPath)
	}
}

func TestListModule(t *testing.T) {
	needGo(t)
	type module struct{ Path, Dir string }
	mods, err := List[module](context.Background(), Runner{Dir: ".."}, "-m")
	if err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.Abs("../..")
	if len(mods) != 1 || mods[0].Path != "github.com/seed72891827/kfuzz" || mods[0].Dir != root {
		t.Errorf("modules %+v, want kfuzz in %s", mods, root)
	}
}

func TestError(t *testing.T) {
	needGo(t)
	dir := t.TempDir()
	_, err := Runner{Dir: dir}.Go(context.Background(), "list", "./nothing/here")
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("error %T %v, want *Error", err, err)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Errorf("error %v does not wrap the exit error", err)
	}
	if ce.Dir != dir || !slices.Equal(ce.Args, []string{"go", "list", "./nothing/here"}) || len(ce.Stderr) == 0 {
		t.Errorf("error %+v", ce)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "go list ./nothing/here (in "+dir+"): exit status 1\n") || !strings.HasSuffix(msg, string(ce.Stderr)) {
		t.Errorf("message %q", msg)
	}
}

func TestNotFound(t *testing.T) {
	_, err := Runner{}.run(context.Background(), "kfuzz-no-such-program", nil)
	if !errors.Is(err, exec.ErrNotFound) {
		t.Errorf("error %v does not wrap exec.ErrNotFound", err)
	}
}

func TestCanceled(t *testing.T) {
	needGo(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Runner{}.Go(ctx, "version")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

func TestGoEnv(t *testing.T) {
	needGo(t)
	vars, err := Runner{Env: append(os.Environ(), "GOFLAGS=-mod=mod")}.GoEnv(context.Background(), "GOROOT", "GOFLAGS", "KFUZZ_NOT_A_GO_VARIABLE")
	if err != nil {
		t.Fatal(err)
	}
	if vars["GOROOT"] == "" || vars["GOFLAGS"] != "-mod=mod" {
		t.Errorf("go env gave %q", vars)
	}
	if v := vars["KFUZZ_NOT_A_GO_VARIABLE"]; v != "" {
		t.Errorf("an unknown variable is %q", v)
	}
}

func TestGitTopLevel(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	top, err := Runner{}.GitTopLevel(context.Background())
	if err != nil {
		t.Skipf("not in a git work tree: %v", err)
	}
	root, _ := filepath.Abs("../..")
	if r, _ := filepath.EvalSymlinks(root); filepath.FromSlash(top) != r && filepath.FromSlash(top) != root {
		t.Errorf("top level %s, want %s", top, root)
	}
	if _, err := (Runner{Dir: t.TempDir()}).GitTopLevel(context.Background()); err == nil {
		t.Error("a temporary directory: no error")
	}
}

func TestJSONFields(t *testing.T) {
	type T struct {
		A      string
		B      int  `json:"b,omitempty"`
		C      bool `json:"-"`
		hidden int
	}
	got, err := jsonFields(reflectType[T]())
	if err != nil || !slices.Equal(got, []string{"A", "b"}) {
		t.Errorf("fields %q, %v; want [A b]", got, err)
	}
	if _, err := jsonFields(reflectType[int]()); err == nil {
		t.Error("int: no error")
	}
	if _, err := jsonFields(reflectType[struct{ x int }]()); err == nil {
		t.Error("no exported fields: no error")
	}
}

func TestExcerpt(t *testing.T) {
	for _, tc := range []struct {
		max    int
		writes []string
		want   string
	}{
		{8, []string{"ab", "cdefghij", "kl"}, "abcd\n[... 4 bytes ...]\nijkl"},
		{8, []string{"abcdefgh"}, "abcdefgh"},
		{8, []string{"abcdefghi"}, "abcd\n[... 1 bytes ...]\nfghi"},
		{100, []string{"  short \n"}, "short"},
		{0, []string{"x"}, "[... 1 bytes ...]"},
	} {
		e := Excerpt{Max: tc.max}
		for _, w := range tc.writes {
			if n, err := e.Write([]byte(w)); n != len(w) || err != nil {
				t.Fatalf("Write(%q) = %d, %v", w, n, err)
			}
		}
		if got := e.Bytes(); !bytes.Equal(got, []byte(tc.want)) {
			t.Errorf("max %d, %q: kept %q, want %q", tc.max, tc.writes, got, tc.want)
		}
	}
}

func reflectType[T any]() reflect.Type { return reflect.TypeFor[T]() }
