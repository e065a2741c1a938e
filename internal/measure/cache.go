package measure

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/seed72891827/kfuzz/coverage"
	"github.com/seed72891827/kfuzz/internal/gocmd"
)

// CacheEnv names the environment variable (in Config.Env, or the process's
// environment when Config.Env is nil) that places Build's cache of
// instrumented test binaries: "off" turns the cache off, a directory puts
// it there. Unset or empty, the cache is kfuzz/measure in
// os.UserCacheDir().
//
// A cached binary is used when everything that goes into it is the same:
// the contents of every file of the fuzz test's package, of the measured
// packages and of all their dependencies (as go list -deps -test sees them
// under the build flags), the build flags, the counter mode, the go
// environment that selects the toolchain and target (GOVERSION, GOROOT,
// GOOS, GOARCH, CGO_ENABLED, GOFLAGS, ...), go.mod and go.sum, and the kfuzz
// executable itself, which holds the instrumenter and the glue. The go
// command's own build cache still makes an uncached build fast when only
// some packages changed; this cache also spares the instrumenting and the
// link, and serves when the go build cache is empty.
const CacheEnv = "KFUZZ_CACHE"

// cacheMaxBytes bounds the size of the cache: after adding an entry, Build
// removes the least recently used entries until the rest fit.
const cacheMaxBytes = 1 << 30

// cacheVersion changes when the layout or meaning of an entry changes.
const cacheVersion = "kfuzz measure cache 1"

// Names in a cache entry, a directory named by its key.
const (
	cacheBinary = "fuzz.test"
	cacheMeta   = "meta.json"
	cacheTemp   = ".tmp-" // starts the names of entries being written or removed
)

// A buildCache is a directory of cached builds.
type buildCache struct {
	dir string
}

// openCache returns the cache that env selects, or nil when it is off or
// there is no cache directory.
func openCache(env []string) *buildCache {
	v := envValue(env, CacheEnv)
	switch {
	case v == "off":
		return nil
	case v != "":
		return &buildCache{dir: filepath.Join(v, "measure")}
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return nil
	}
	return &buildCache{dir: filepath.Join(d, "kfuzz", "measure")}
}

// cacheEntry is the meta.json of an entry.
type cacheEntry struct {
	Version  string
	Metadata []coverage.Metadata
}

// keyedPackage is the part of go list -json output that the key hashes.
type keyedPackage struct {
	ImportPath      string
	Dir             string
	GoFiles         []string
	CgoFiles        []string
	CFiles          []string
	CXXFiles        []string
	MFiles          []string
	HFiles          []string
	FFiles          []string
	SFiles          []string
	SwigFiles       []string
	SwigCXXFiles    []string
	SysoFiles       []string
	EmbedFiles      []string
	TestGoFiles     []string
	XTestGoFiles    []string
	TestEmbedFiles  []string
	XTestEmbedFiles []string
	Error           *struct{ Err string }
}

// files returns the names of all files of p that a build may read.
func (p *keyedPackage) files() []string {
	var all []string
	for _, l := range [][]string{p.GoFiles, p.CgoFiles, p.CFiles, p.CXXFiles, p.MFiles, p.HFiles, p.FFiles,
		p.SFiles, p.SwigFiles, p.SwigCXXFiles, p.SysoFiles, p.EmbedFiles, p.TestGoFiles, p.XTestGoFiles,
		p.TestEmbedFiles, p.XTestEmbedFiles} {
		all = append(all, l...)
	}
	return all
}

// keyEnv are the go env variables that choose the toolchain, the target,
// the modules and the packages' files.
var keyEnv = []string{
	"GOVERSION", "GOROOT", "GOOS", "GOARCH", "GOAMD64", "GOARM", "GOARM64", "GO386", "GOMIPS", "GOMIPS64",
	"GOPPC64", "GORISCV64", "GOWASM", "GOEXPERIMENT", "GOFLAGS", "GOMOD", "GOWORK", "GOMODCACHE",
	"CGO_ENABLED", "CC", "CXX", "CGO_CFLAGS", "CGO_CPPFLAGS", "CGO_CXXFLAGS", "CGO_FFLAGS", "CGO_LDFLAGS",
	"PKG_CONFIG", "AR",
}

// key returns the key of the build that cfg, with the packages cover,
// asks for, or "" if the build cannot be cached (go list reports an error,
// which the build will then report).
func (c *buildCache) key(ctx context.Context, cfg Config, cover []string) (string, error) {
	exe, err := executableHash()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	field := func(name string, vals ...string) {
		fmt.Fprintf(h, "%s %d\n", name, len(vals))
		for _, v := range vals {
			fmt.Fprintf(h, "%q\n", v)
		}
	}
	dir, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return "", err
	}
	glue, err := glueSource("p")
	if err != nil {
		return "", err
	}
	field("version", cacheVersion)
	field("executable", exe)
	field("glue", string(glue))
	field("dir", dir)
	field("package", cfg.Package)
	field("cover", cover...)
	field("flags", cfg.BuildFlags...)
	field("mode", string(cfg.Mode))
	run := gocmd.Runner{Dir: cfg.Dir, Env: cfg.Env}
	env, err := run.GoEnv(ctx, keyEnv...)
	if err != nil {
		return "", err
	}
	for _, name := range keyEnv {
		field(name, env[name])
	}
	mods := []string{env["GOMOD"], env["GOWORK"]}
	for _, f := range cfg.BuildFlags {
		if v, ok := strings.CutPrefix(strings.TrimLeft(f, "-"), "modfile="); ok {
			if !filepath.IsAbs(v) {
				v = filepath.Join(dir, v)
			}
			mods = append(mods, v)
		}
	}
	for _, m := range mods {
		if m == "" || m == "off" || m == os.DevNull {
			continue
		}
		// go.mod with go.sum, go.work with go.work.sum.
		for _, f := range []string{m, strings.TrimSuffix(m, ".mod") + ".sum", m + ".sum"} {
			if err := hashFile(h, f); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
		}
	}
	args := append([]string{"-e", "-deps", "-test"}, cfg.BuildFlags...)
	args = append(args, "--", cfg.Package)
	args = append(args, cover...)
	pkgs, err := gocmd.List[*keyedPackage](ctx, run, args...)
	if err != nil {
		return "", err
	}
	seen := make(map[string]bool)
	for _, p := range pkgs {
		if p.Error != nil {
			return "", nil
		}
		field("package", p.ImportPath, p.Dir)
		for _, name := range p.files() {
			if filepath.IsAbs(name) {
				// A file the go command generates (the test main, in
				// its build cache) from the files hashed here.
				continue
			}
			f := filepath.Join(p.Dir, name)
			if seen[f] {
				continue
			}
			seen[f] = true
			field("file", f)
			if err := hashFile(h, f); err != nil {
				return "", err
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashFile writes the size and the contents of file to h.
func hashFile(h hash.Hash, file string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	fmt.Fprintf(h, "%d\n", fi.Size())
	_, err = io.Copy(h, f)
	return err
}

var (
	exeOnce sync.Once
	exeSum  string
	exeErr  error
)

// executableHash returns the hash of the running executable, which holds
// the instrumenter and the glue: a kfuzz built from other sources makes
// other keys.
func executableHash() (string, error) {
	exeOnce.Do(func() {
		var exe string
		if exe, exeErr = os.Executable(); exeErr != nil {
			return
		}
		h := sha256.New()
		if exeErr = hashFile(h, exe); exeErr == nil {
			exeSum = hex.EncodeToString(h.Sum(nil))
		}
	})
	return exeSum, exeErr
}

// load makes bin the binary of the entry of key and returns the entry's
// metadata; ok is false if there is no such entry (or it cannot be read).
func (c *buildCache) load(key, bin string) (md []coverage.Metadata, ok bool) {
	dir := filepath.Join(c.dir, key)
	data, err := os.ReadFile(filepath.Join(dir, cacheMeta))
	if err != nil {
		return nil, false
	}
	var e cacheEntry
	if err := json.Unmarshal(data, &e); err != nil || e.Version != cacheVersion {
		return nil, false
	}
	if err := linkOrCopy(filepath.Join(dir, cacheBinary), bin); err != nil {
		return nil, false
	}
	now := time.Now()
	os.Chtimes(filepath.Join(dir, cacheMeta), now, now) // for trim: recently used
	return e.Metadata, true
}

// store adds the binary bin and its metadata as the entry of key, unless
// another process did so first, and then trims the cache.
func (c *buildCache) store(key, bin string, md []coverage.Metadata) error {
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(c.dir, cacheTemp)
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // after a successful rename, there is nothing left
	if err := linkOrCopy(bin, filepath.Join(tmp, cacheBinary)); err != nil {
		return err
	}
	data, err := json.Marshal(cacheEntry{Version: cacheVersion, Metadata: md})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, cacheMeta), data, 0o644); err != nil {
		return err
	}
	// The entry appears whole, or (if another process stored it first)
	// not at all.
	if err := os.Rename(tmp, filepath.Join(c.dir, key)); err != nil {
		if _, serr := os.Stat(filepath.Join(c.dir, key, cacheMeta)); serr != nil {
			return err
		}
	}
	return c.trim(cacheMaxBytes)
}

// trim removes the least recently used entries until the others take at
// most max bytes, and entries left half-written for an hour.
func (c *buildCache) trim(max int64) error {
	des, err := os.ReadDir(c.dir)
	if err != nil {
		return err
	}
	type entry struct {
		name string
		used time.Time
		size int64
	}
	var entries []entry
	var total int64
	for _, de := range des {
		if !de.IsDir() {
			continue
		}
		dir := filepath.Join(c.dir, de.Name())
		if strings.HasPrefix(de.Name(), cacheTemp) {
			if fi, err := de.Info(); err == nil && time.Since(fi.ModTime()) > time.Hour {
				os.RemoveAll(dir)
			}
			continue
		}
		e := entry{name: de.Name()}
		if fi, err := os.Stat(filepath.Join(dir, cacheMeta)); err == nil {
			e.used = fi.ModTime()
		}
		for _, f := range []string{cacheBinary, cacheMeta} {
			if fi, err := os.Stat(filepath.Join(dir, f)); err == nil {
				e.size += fi.Size()
			}
		}
		entries = append(entries, e)
		total += e.size
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].used.Before(entries[j].used) })
	var errs []error
	for _, e := range entries {
		if total <= max {
			break
		}
		// Move the entry out of the way first, so that no reader finds it
		// half removed.
		tmp, err := os.MkdirTemp(c.dir, cacheTemp)
		if err == nil {
			err = os.Rename(filepath.Join(c.dir, e.name), filepath.Join(tmp, e.name))
		}
		if err == nil || errors.Is(err, fs.ErrNotExist) {
			total -= e.size
		} else {
			errs = append(errs, err)
		}
		if tmp != "" {
			os.RemoveAll(tmp)
		}
	}
	return errors.Join(errs...)
}

// linkOrCopy makes dst a hard link to src, or a copy where links are not
// possible. The copy is written under a temporary name and renamed, so dst
// is never partial.
func linkOrCopy(src, dst string) error {
	if err := os.Link(src, dst); err == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.CreateTemp(filepath.Dir(dst), cacheTemp)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(out.Name(), 0o755)
	}
	if err == nil {
		err = os.Rename(out.Name(), dst)
	}
	if err != nil {
		os.Remove(out.Name())
	}
	return err
}

// loadCached returns a Runner of the cached build of key, or nil if there
// is none or it does not run.
func loadCached(c *buildCache, key string, cfg Config, pkg *listedPackage) *Runner {
	tmp, err := os.MkdirTemp("", "kfuzz-measure-")
	if err != nil {
		return nil
	}
	r := &Runner{cfg: cfg, pkg: pkg, tmp: tmp, bin: filepath.Join(tmp, cacheBinary)}
	md, ok := c.load(key, r.bin)
	if ok {
		r.table, err = coverage.NewTableFromMetadata(md)
		ok = err == nil
	}
	if ok {
		ok = r.index() == nil
	}
	if !ok {
		r.Close()
		return nil
	}
	return r
}

// envValue returns the value of the variable name in env, or in the
// process's environment if env is nil.
func envValue(env []string, name string) string {
	if env == nil {
		return os.Getenv(name)
	}
	v := ""
	for _, kv := range env {
		if s, ok := strings.CutPrefix(kv, name+"="); ok {
			v = s // the last one wins
		}
	}
	return v
}
