package instrument

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/cover"

	"github.com/seed72891827/kfuzz/coverage"
	"github.com/seed72891827/kfuzz/coverage/profile"
	"github.com/seed72891827/kfuzz/coverage/rt"
	"github.com/seed72891827/kfuzz/internal/gocmd"
)

// rtPath is the import path of package rt.
var rtPath = reflect.TypeFor[rt.Package]().PkgPath()

// Config says which packages to instrument and how.
type Config struct {
	// Dir is the directory in which to run the go command: a directory of
	// the module whose tests will run. Empty means the current directory.
	// That module must require github.com/seed72891827/kfuzz, because
	// instrumented code imports its package coverage/rt.
	Dir string
	// Patterns selects the packages to instrument, as for go list: "./...",
	// "./parser", the import path of a dependency such as
	// "golang.org/x/mod/semver" (its files in the module cache are
	// overlaid, never changed), or of a standard-library package such as
	// "encoding/json" (except the Go runtime and the packages rt uses).
	Patterns []string
	// BuildFlags are passed to go list, so that the files chosen are those
	// the build will use; pass the same flags to go test or go build
	// (e.g. "-tags=netgo", "-race"). -cover, -coverpkg, -covermode and
	// -overlay are refused: go test -cover ignores overlays (golang/go#73802).
	BuildFlags []string
	// Env is the environment of the go command; nil means os.Environ().
	Env []string
	// Mode is the counter mode. The default is coverage.ModeHits, or
	// coverage.ModeAtomic when BuildFlags contain -race.
	Mode coverage.Mode
}

func (c *Config) mode() coverage.Mode {
	if c.Mode != "" {
		return c.Mode
	}
	for _, f := range c.BuildFlags {
		if f == "-race" || f == "--race" || f == "-race=true" {
			return coverage.ModeAtomic
		}
	}
	return coverage.ModeHits
}

func (c *Config) check() error {
	if len(c.Patterns) == 0 {
		return errors.New("coverage: no package patterns")
	}
	for _, f := range c.BuildFlags {
		name, _, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
		switch name {
		case "cover", "coverpkg", "covermode", "coverprofile":
			return fmt.Errorf("coverage: build flag %s cannot be combined with an overlay (go test -cover reads the files on disk, golang/go#73802); kfuzz counts coverage itself", f)
		case "overlay":
			return fmt.Errorf("coverage: build flag %s: coverage writes the overlay itself", f)
		}
	}
	if m := c.mode(); !m.Valid() {
		return fmt.Errorf("coverage: unknown mode %q (want hits, set, count or atomic)", m)
	}
	return nil
}

// listedPackage is the part of go list -json output that is used.
type listedPackage struct {
	ImportPath string
	Name       string
	Dir        string
	GoFiles    []string
	CgoFiles   []string
	Standard   bool
	Deps       []string
	Module     *listedModule
	Error      *struct{ Err string }
}

type listedModule struct {
	Path, Version, Dir string
	Main               bool
	Replace            *listedModule
}

// goList runs go list -e -json with the given extra arguments.
func (c *Config) goList(ctx context.Context, args ...string) ([]*listedPackage, error) {
	argv := append([]string{"-e"}, c.BuildFlags...)
	argv = append(argv, "--")
	argv = append(argv, args...)
	pkgs, err := gocmd.List[*listedPackage](ctx, gocmd.Runner{Dir: c.Dir, Env: c.Env}, argv...)
	if err != nil {
		return nil, fmt.Errorf("coverage: %w", err)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("coverage: patterns %s match no packages", strings.Join(args, " "))
	}
	return pkgs, nil
}

// runtimeCompanions are packages that the runtime calls into outside
// ordinary Go code (or that implement the sanitizers) without importing
// them; like the runtime and its dependencies, they cannot be instrumented.
var runtimeCompanions = []string{"runtime/cgo", "runtime/race", "runtime/msan", "runtime/asan"}

// selectPackages lists the packages that match the patterns and checks
// that they can be instrumented: that the instrumented code will be able to
// import package rt or, for standard-library packages, that the runtime
// does not depend on them.
//
// If build is false, the packages are only analyzed, not built, and any
// package is allowed.
func (c *Config) selectPackages(ctx context.Context, build bool) ([]*listedPackage, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	rtDeps := make(map[string]bool)
	runtimeDeps := make(map[string]bool)
	if build {
		rtPkgs, err := c.goList(ctx, rtPath, "runtime")
		if err != nil {
			return nil, err
		}
		for _, p := range rtPkgs {
			switch p.ImportPath {
			case rtPath:
				if e := p.Error; e != nil {
					return nil, fmt.Errorf("coverage: instrumented code imports %s, which the module in %s cannot import (it must require github.com/seed72891827/kfuzz; run go get github.com/seed72891827/kfuzz): %s", rtPath, c.dirName(), strings.TrimSpace(e.Err))
				}
				rtDeps[rtPath] = true
				for _, d := range p.Deps {
					rtDeps[d] = true
				}
			case "runtime":
				runtimeDeps["runtime"] = true
				for _, d := range p.Deps {
					runtimeDeps[d] = true
				}
			}
		}
		for _, p := range runtimeCompanions {
			runtimeDeps[p] = true
		}
	}
	pkgs, err := c.goList(ctx, c.Patterns...)
	if err != nil {
		return nil, err
	}
	var errs []string
	var out []*listedPackage
	seen := make(map[string]bool)
	for _, p := range pkgs {
		switch {
		case p.Error != nil:
			errs = append(errs, fmt.Sprintf("package %s: %s", p.ImportPath, strings.TrimSpace(p.Error.Err)))
		case rtDeps[p.ImportPath]:
			errs = append(errs, fmt.Sprintf("cannot instrument %s: the coverage runtime %s depends on it", p.ImportPath, rtPath))
		case runtimeDeps[p.ImportPath] && p.Standard:
			errs = append(errs, fmt.Sprintf("cannot instrument %s: it is part of the Go runtime (package runtime, what runtime imports, or what the runtime calls on its own), whose code runs before package initialization and inside the scheduler and garbage collector", p.ImportPath))
		case len(p.GoFiles)+len(p.CgoFiles) == 0 || seen[p.ImportPath]:
			// Nothing to instrument (for instance only tests).
		default:
			seen[p.ImportPath] = true
			out = append(out, p)
		}
	}
	if len(errs) > 0 {
		return nil, errors.New("coverage: " + strings.Join(errs, "\n\t"))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("coverage: patterns %s match no package with Go files", strings.Join(c.Patterns, " "))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ImportPath < out[j].ImportPath })
	return out, nil
}

func (c *Config) dirName() string {
	if c.Dir == "" {
		return "the current directory"
	}
	return c.Dir
}

// instrumentListed reads and instruments the files of p.
func instrumentListed(p *listedPackage, mode coverage.Mode) (*instrumented, []string, error) {
	var files []srcFile
	var paths []string
	for _, name := range append(append([]string(nil), p.GoFiles...), p.CgoFiles...) {
		fp := filepath.Join(p.Dir, name)
		if strings.ContainsAny(fp, "\r\n") || strings.Contains(fp, "*/") {
			// Such a name cannot appear in a line directive.
			return nil, nil, fmt.Errorf("coverage: cannot instrument %q: newline or */ in file name", fp)
		}
		src, err := os.ReadFile(fp)
		if err != nil {
			return nil, nil, fmt.Errorf("coverage: %v", err)
		}
		files = append(files, srcFile{path: fp, src: src})
		paths = append(paths, fp)
	}
	in, err := instrumentPackage(p.ImportPath, files, mode, rtPath, p.Standard)
	if err != nil {
		return nil, nil, err
	}
	return in, paths, nil
}

// LoadTable returns the functions and blocks of the packages that cfg
// selects, as instrumentation would count them, without building anything.
// It is what profiles are mapped onto (see [profile.Import]).
func LoadTable(ctx context.Context, cfg Config) (*coverage.Table, error) {
	pkgs, err := cfg.selectPackages(ctx, false)
	if err != nil {
		return nil, err
	}
	var md []coverage.Metadata
	for _, p := range pkgs {
		in, _, err := instrumentListed(p, cfg.mode())
		if err != nil {
			return nil, err
		}
		md = append(md, coverage.Metadata{Path: in.meta.Path, Text: in.meta.Encode()})
	}
	return coverage.NewTableFromMetadata(md)
}

// An Overlay is a set of instrumented copies of source files, described by
// an overlay file for the go command's -overlay flag.
type Overlay struct {
	// File is the overlay file: go test -overlay=File ... builds the
	// instrumented code. It replaces every source file of the selected
	// packages with an instrumented copy and adds one file per package
	// that registers the counters. The originals are never modified.
	//
	// The go command refuses to overlay files in the module cache, so
	// for packages there the overlay also replaces go.mod by a copy that
	// replaces their module with a directory of links to its files.
	File string
	// Table lists the functions and blocks of the instrumented packages.
	Table *coverage.Table
	// Metadata describes each instrumented package, as Table was made
	// from it (coverage.NewTableFromMetadata); a caller that keeps the
	// build keeps it to remake the table.
	Metadata []coverage.Metadata
	// Replace maps each original path to the path of its instrumented
	// copy, as written to File.
	Replace map[string]string

	dir string
}

// BuildOverlay instruments the packages that cfg selects and writes the
// copies and the overlay file to a new temporary directory. The caller
// runs, for instance,
//
//	go test -overlay=OV.File -run='^FuzzX$' ./pkg
//
// in cfg.Dir with cfg.BuildFlags, reads the counters in the test with
// [Current], and finally calls Close to remove the files.
func BuildOverlay(ctx context.Context, cfg Config) (*Overlay, error) {
	pkgs, err := cfg.selectPackages(ctx, true)
	if err != nil {
		return nil, err
	}
	env, err := cfg.goEnv(ctx, "GOMODCACHE", "GOMOD", "GOWORK")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "kfuzz-cover-")
	if err != nil {
		return nil, fmt.Errorf("coverage: %v", err)
	}
	ov := &Overlay{dir: dir, Replace: make(map[string]string)}
	if err := ov.build(cfg, pkgs, env); err != nil {
		ov.Close()
		return nil, err
	}
	return ov, nil
}

func (ov *Overlay) build(cfg Config, pkgs []*listedPackage, env map[string]string) error {
	modcache := env["GOMODCACHE"]
	mirrors := make(map[string]string) // module directory -> its mirror
	var replaced []*listedModule
	var md []coverage.Metadata
	for i, p := range pkgs {
		in, paths, err := instrumentListed(p, cfg.mode())
		if err != nil {
			return err
		}
		md = append(md, coverage.Metadata{Path: in.meta.Path, Text: in.meta.Encode()})
		// Where the go command finds the package: its directory, or for
		// a package in the module cache, the mirror of its module.
		pkgDir := p.Dir
		if modcache != "" && within(modcache, p.Dir) {
			m := p.Module
			if m == nil || m.Dir == "" || !within(m.Dir, p.Dir) {
				return fmt.Errorf("coverage: cannot find the module of %s in %s", p.ImportPath, p.Dir)
			}
			root, ok := mirrors[m.Dir]
			if !ok {
				root = filepath.Join(ov.dir, "mod", fmt.Sprintf("%03d_%s", len(mirrors), path.Base(m.Path)))
				if err := mirrorModule(m, root); err != nil {
					return err
				}
				mirrors[m.Dir] = root
				replaced = append(replaced, &listedModule{Path: m.Path, Dir: root})
			}
			rel, _ := filepath.Rel(m.Dir, p.Dir)
			pkgDir = filepath.Join(root, rel)
		}
		copyDir := filepath.Join(ov.dir, fmt.Sprintf("%03d_%s", i, path.Base(p.ImportPath)))
		if err := os.Mkdir(copyDir, 0o755); err != nil {
			return fmt.Errorf("coverage: %v", err)
		}
		if _, err := os.Stat(filepath.Join(p.Dir, registryFile)); err == nil {
			return fmt.Errorf("coverage: cannot instrument %s: file %s exists", p.ImportPath, filepath.Join(p.Dir, registryFile))
		}
		paths = append(paths, filepath.Join(p.Dir, registryFile))
		contents := append(in.files, in.registry)
		for k, orig := range paths {
			cp := filepath.Join(copyDir, filepath.Base(orig))
			if err := os.WriteFile(cp, contents[k], 0o644); err != nil {
				return fmt.Errorf("coverage: %v", err)
			}
			ov.Replace[filepath.Join(pkgDir, filepath.Base(orig))] = cp
		}
	}
	if len(replaced) > 0 {
		if err := ov.replaceModules(cfg, env, replaced); err != nil {
			return err
		}
	}
	data, err := json.MarshalIndent(struct{ Replace map[string]string }{ov.Replace}, "", "\t")
	if err != nil {
		return fmt.Errorf("coverage: %v", err)
	}
	ov.File = filepath.Join(ov.dir, "overlay.json")
	if err := os.WriteFile(ov.File, data, 0o644); err != nil {
		return fmt.Errorf("coverage: %v", err)
	}
	ov.Metadata = md
	ov.Table, err = coverage.NewTableFromMetadata(md)
	return err
}

// replaceModules overlays the main module's go.mod with a copy that
// replaces the given modules by their mirrors.
func (ov *Overlay) replaceModules(cfg Config, env map[string]string, mods []*listedModule) error {
	if w := env["GOWORK"]; w != "" && w != "off" {
		return fmt.Errorf("coverage: instrumenting packages in the module cache (%s) needs GOWORK=off: the workspace %s would have to replace their modules", mods[0].Path, w)
	}
	gomod := env["GOMOD"]
	for _, f := range cfg.BuildFlags {
		if v, ok := strings.CutPrefix(strings.TrimLeft(f, "-"), "modfile="); ok {
			gomod = v
			if !filepath.IsAbs(gomod) {
				gomod = filepath.Join(cfg.Dir, gomod)
			}
		}
	}
	if gomod == "" || gomod == os.DevNull {
		return fmt.Errorf("coverage: instrumenting packages in the module cache (%s) needs a main module", mods[0].Path)
	}
	data, err := os.ReadFile(gomod)
	if err != nil {
		return fmt.Errorf("coverage: %v", err)
	}
	f, err := modfile.Parse(gomod, data, nil)
	if err != nil {
		return fmt.Errorf("coverage: %v", err)
	}
	for _, m := range mods {
		if err := f.AddReplace(m.Path, "", m.Dir, ""); err != nil {
			return fmt.Errorf("coverage: replacing %s: %v", m.Path, err)
		}
	}
	out, err := f.Format()
	if err != nil {
		return fmt.Errorf("coverage: %v", err)
	}
	cp := filepath.Join(ov.dir, "go.mod")
	if err := os.WriteFile(cp, out, 0o644); err != nil {
		return fmt.Errorf("coverage: %v", err)
	}
	ov.Replace[gomod] = cp
	return nil
}

// mirrorModule makes root a tree of directories with links to the files of
// module m, so that root can replace m without copying it.
func mirrorModule(m *listedModule, root string) error {
	err := filepath.WalkDir(m.Dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(m.Dir, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(root, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if err := os.Symlink(p, dst); err != nil {
			// Where links are not allowed, copy.
			data, rerr := os.ReadFile(p)
			if rerr != nil {
				return err
			}
			return os.WriteFile(dst, data, 0o644)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("coverage: mirroring module %s: %v", m.Path, err)
	}
	gomod := filepath.Join(root, "go.mod")
	if _, err := os.Lstat(gomod); os.IsNotExist(err) {
		// A module without go.mod; a replacement directory needs one.
		return os.WriteFile(gomod, []byte("module "+modfile.AutoQuote(m.Path)+"\n"), 0o644)
	}
	return nil
}

// within reports whether path lies in directory dir.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// goEnv returns the values of go env variables.
func (c *Config) goEnv(ctx context.Context, names ...string) (map[string]string, error) {
	vars, err := gocmd.Runner{Dir: c.Dir, Env: c.Env}.GoEnv(ctx, names...)
	if err != nil {
		return nil, fmt.Errorf("coverage: %w", err)
	}
	return vars, nil
}

// Close removes the overlay's files.
func (o *Overlay) Close() error {
	if o.dir == "" {
		return nil
	}
	err := os.RemoveAll(o.dir)
	o.dir = ""
	return err
}

// ReadProfile reads a cover profile (such as go test -coverprofile writes)
// and maps it onto the functions of the packages it covers. The packages
// are those of cfg.Patterns or, if there are none, those the profile names;
// cfg.Dir must lie in a module that can load them.
func ReadProfile(ctx context.Context, cfg Config, file string) (*coverage.Counts, error) {
	profiles, err := cover.ParseProfiles(file)
	if err != nil {
		return nil, fmt.Errorf("coverage: %s: %v", file, err)
	}
	if len(cfg.Patterns) == 0 {
		seen := make(map[string]bool)
		for _, p := range profiles {
			if d := path.Dir(p.FileName); !seen[d] {
				seen[d] = true
				cfg.Patterns = append(cfg.Patterns, d)
			}
		}
	}
	t, err := LoadTable(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return profile.Import(t, profiles)
}
