package measure

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/internal/gocmd"
)

// cacheModule writes a module with a package words and a fuzz test of it
// through fuzzharness into a new directory, and returns the directory.
func cacheModule(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not available")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/cached\n\ngo 1.25.0\n\nrequire github.com/seed72891827/kfuzz v0.0.0\n\nreplace github.com/seed72891827/kfuzz => " + root + "\n",
		"words.go": `package words

import "strings"

// Count returns the number of words of s.
func Count(s string) int { return len(strings.Fields(s)) }
`,
		"tagged.go": `//go:build kfuzztag

package words

// Tagged is built only with -tags=kfuzztag.
func Tagged() int { return 1 }
`,
		"words_test.go": `package words

import (
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

func FuzzWords(f *testing.F) {
	g, err := grammar.Parse("words", []byte("<words> ::= <word> (\" \" <word>)* ; <word> ::= [a-z]+ ;"))
	if err != nil {
		f.Fatal(err)
	}
	fuzzharness.New(f, g).FuzzString(func(t *testing.T, s string) { Count(s) })
}
`,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyGoSum(t, root, dir)
	tidy := gocmd.Runner{Dir: dir, Env: cacheTestEnv(t, "GOFLAGS=-mod=mod")}
	if _, err := tidy.Go(context.Background(), "mod", "tidy"); err != nil {
		t.Fatal(err)
	}
	return dir
}

// copyGoSum writes kfuzz's go.sum (in root) into the test module dir. With
// GOPROXY=off, go mod tidy takes kfuzz's dependencies from the module cache,
// but it still checks the hashes of modules that go.sum lacks against the
// checksum database, which it then cannot reach; kfuzz's go.sum holds them.
func copyGoSum(t *testing.T, root, dir string) {
	t.Helper()
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
}

// cacheTestEnv is the environment of the go command in these tests, with
// more variables.
func cacheTestEnv(t *testing.T, more ...string) []string {
	return append(append(os.Environ(), "GOWORK=off", "GOPROXY=off"), more...)
}

// TestCacheKey checks that the key changes with a source file, a build
// flag, the counter mode and go.mod, and only with them.
func TestCacheKey(t *testing.T) {
	dir := cacheModule(t)
	c := &buildCache{dir: t.TempDir()}
	ctx := context.Background()
	key := func(cfg Config) string {
		t.Helper()
		cfg.Dir, cfg.Package, cfg.Env = dir, ".", cacheTestEnv(t)
		k, err := c.key(ctx, cfg, []string{"example.com/cached"})
		if err != nil {
			t.Fatal(err)
		}
		if k == "" {
			t.Fatal("no key")
		}
		return k
	}
	base := key(Config{})
	if k := key(Config{Timeout: time.Minute, Target: "FuzzOther"}); k != base {
		t.Errorf("the key changed with the timeout and target, which do not change the binary")
	}
	if k := key(Config{BuildFlags: []string{"-tags=kfuzztag"}}); k == base {
		t.Errorf("the key did not change with -tags=kfuzztag")
	}
	if k := key(Config{Mode: "count"}); k == base {
		t.Errorf("the key did not change with the counter mode")
	}
	// An unrelated change to a file that is not built (a build tag
	// excludes it) changes nothing; a change to a built file does.
	write := func(name, content string) {
		t.Helper()
		f := filepath.Join(dir, name)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, append(data, content...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("tagged.go", "\n// More.\n")
	if k := key(Config{}); k != base {
		t.Errorf("the key changed with a file that is not built")
	}
	write("words.go", "\nfunc more() {}\n")
	changed := key(Config{})
	if changed == base {
		t.Errorf("the key did not change with words.go")
	}
	write("go.mod", "\n// A comment.\n")
	if k := key(Config{}); k == changed {
		t.Errorf("the key did not change with go.mod")
	}
}

// TestCacheOff checks how KFUZZ_CACHE selects the cache.
func TestCacheOff(t *testing.T) {
	if c := openCache([]string{CacheEnv + "=/x", CacheEnv + "=off"}); c != nil {
		t.Errorf("KFUZZ_CACHE=off: cache %s", c.dir)
	}
	if c := openCache([]string{CacheEnv + "=/x"}); c == nil || c.dir != filepath.Join("/x", "measure") {
		t.Errorf("KFUZZ_CACHE=/x: cache %+v", c)
	}
}

// entries returns the names of the complete entries in c.
func entries(t *testing.T, c *buildCache) []string {
	t.Helper()
	des, err := os.ReadDir(c.dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		if !strings.HasPrefix(de.Name(), cacheTemp) {
			names = append(names, de.Name())
		}
	}
	return names
}

// TestCacheBuild builds the test of a module twice at the same time with
// an empty cache, then again: the concurrent builds leave one entry, the
// third build uses it (its binary is the entry's), and each measures the
// same functions. A changed source file then makes a new entry whose
// table has the new function; trimming keeps the newest entry.
func TestCacheBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := cacheModule(t)
	croot := t.TempDir()
	c := &buildCache{dir: filepath.Join(croot, "measure")}
	cfg := Config{Dir: dir, Target: "FuzzWords", Env: cacheTestEnv(t, CacheEnv+"="+croot)}
	ctx := context.Background()

	var wg sync.WaitGroup
	runners := make([]*Runner, 2)
	errs := make([]error, 2)
	for i := range runners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runners[i], errs[i] = Build(ctx, cfg)
		}()
	}
	wg.Wait()
	for i, r := range runners {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		defer r.Close()
	}
	if got := entries(t, c); len(got) != 1 {
		t.Fatalf("after two concurrent builds, entries %v, want one", got)
	}
	r, err := Build(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	entry := filepath.Join(c.dir, entries(t, c)[0], cacheBinary)
	a, err := os.Stat(entry)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.Stat(r.bin)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(a, b) {
		t.Errorf("the third build did not use the cached binary %s", entry)
	}
	for _, rr := range append(runners, r) {
		if rr.Table().Len() != runners[0].Table().Len() {
			t.Errorf("tables of %d and %d functions", rr.Table().Len(), runners[0].Table().Len())
		}
		rep, err := rr.Run(ctx, []Input{{Text: "ab cd"}})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Results[0].Funcs.Len() == 0 {
			t.Errorf("the input covered no function")
		}
	}

	f := filepath.Join(dir, "words.go")
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, append(data, "\n// Added is new.\nfunc Added() {}\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	r2, err := Build(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if _, ok := r2.Table().Lookup("example.com/cached.Added"); !ok {
		t.Errorf("after words.go changed, the table has no function Added")
	}
	got := entries(t, c)
	if len(got) != 2 {
		t.Fatalf("after a source change, entries %v, want two", got)
	}
	if err := c.trim(1); err != nil {
		t.Fatal(err)
	}
	if left := entries(t, c); len(left) != 0 {
		t.Errorf("trim to 1 byte left %v", left)
	}
}
