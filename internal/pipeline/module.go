package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"golang.org/x/mod/modfile"

	calcexample "github.com/seed72891827/kfuzz/examples/calc"
)

// calcFS holds the calc example (examples/calc of the kfuzz repository).
var calcFS = calcexample.Source

// calcImportPath is the import path of the calc example in the kfuzz
// repository, which its test file imports.
const calcImportPath = KfuzzModule + "/examples/calc"

// KfuzzModule is the module path of kfuzz.
const KfuzzModule = "github.com/seed72891827/kfuzz"

// CalcModule is the module path of the calc example written by
// WriteCalcModule; its package is the module's root package.
const CalcModule = "example.com/calc"

// A Source says where the go command finds kfuzz for a module written here:
// a directory holding its source, or else a published version.
type Source struct {
	// Dir is the root directory of a kfuzz module, which the written
	// module's go.mod uses in a replace directive; "" if none was found.
	Dir string
	// Version is the version of kfuzz to require from the module proxy
	// when Dir is empty.
	Version string
}

// FindSource finds the kfuzz source for modules that use kfuzz's packages, in
// this order: the module of the current directory if it is kfuzz (go env
// GOMOD: kfuzz run from its repository); the module the running program was
// built from, if its source is still where it was compiled; the version of
// kfuzz the running program was built as, if it is a published one (go
// install github.com/seed72891827/kfuzz/cmd/kfuzz@version). A program built
// from modified source elsewhere finds none and fails with an error that says
// to run it in the kfuzz repository.
func FindSource(ctx context.Context) (Source, error) {
	cmd := exec.CommandContext(ctx, "go", "env", "GOMOD")
	if out, err := cmd.Output(); err == nil {
		if gomod := strings.TrimSpace(string(out)); gomod != "" && gomod != os.DevNull && isKfuzzModule(gomod) {
			return Source{Dir: filepath.Dir(gomod)}, nil
		}
	} else if errors.Is(err, exec.ErrNotFound) {
		return Source{}, fmt.Errorf("the go command is not installed: %w", err)
	}
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		// file is <root>/internal/pipeline/module.go.
		root := filepath.Dir(filepath.Dir(filepath.Dir(file)))
		if isKfuzzModule(filepath.Join(root, "go.mod")) {
			return Source{Dir: root}, nil
		}
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		v := ""
		if bi.Main.Path == KfuzzModule {
			v = bi.Main.Version
		}
		for _, d := range bi.Deps {
			if d.Path == KfuzzModule && d.Replace == nil {
				v = d.Version
			}
		}
		if v != "" && v != "(devel)" && !strings.HasSuffix(v, "+dirty") {
			return Source{Version: v}, nil
		}
	}
	return Source{}, errors.New("cannot find the kfuzz source: run kfuzz in the kfuzz repository (go run ./cmd/kfuzz), or install a published version with go install " + KfuzzModule + "/cmd/kfuzz@latest")
}

// isKfuzzModule reports whether the go.mod file at path declares kfuzz.
func isKfuzzModule(path string) bool {
	data, err := os.ReadFile(path)
	return err == nil && modfile.ModulePath(data) == KfuzzModule
}

// WriteCalcModule writes the calc example into dir, which must be empty or
// not exist, as the module CalcModule: the package with its fuzz tests and
// their testdata corpus, and a go.mod that requires kfuzz from src. With a
// source directory, the module requires what kfuzz requires, at the same
// versions, and takes kfuzz's go.sum, so that building it needs nothing
// beyond what building kfuzz needed; with a version, go mod tidy completes
// the go.mod and go.sum.
func WriteCalcModule(ctx context.Context, dir string, src Source) error {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty", dir)
	}
	err := fs.WalkDir(calcFS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o777)
		}
		data, err := calcFS.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.HasSuffix(p, ".go") {
			data = bytes.ReplaceAll(data, []byte(`"`+calcImportPath+`"`), []byte(`"`+CalcModule+`"`))
		}
		return os.WriteFile(dst, data, 0o666)
	})
	if err != nil {
		return fmt.Errorf("writing the calc example: %w", err)
	}
	return writeGoMod(ctx, dir, CalcModule, src)
}

// writeGoMod writes the go.mod (and go.sum) of a module at dir that
// requires kfuzz from src.
func writeGoMod(ctx context.Context, dir, path string, src Source) error {
	mod := new(modfile.File)
	if err := mod.AddModuleStmt(path); err != nil {
		return err
	}
	// The go version of kfuzz's go.mod when it was written; go mod tidy
	// raises it if a published kfuzz requires more.
	if err := mod.AddGoStmt("1.25.0"); err != nil {
		return err
	}
	if src.Dir == "" {
		mod.AddNewRequire(KfuzzModule, src.Version, false)
		return writeModFiles(ctx, dir, mod, nil, true)
	}
	data, err := os.ReadFile(filepath.Join(src.Dir, "go.mod"))
	if err != nil {
		return err
	}
	kf, err := modfile.Parse(filepath.Join(src.Dir, "go.mod"), data, nil)
	if err != nil {
		return err
	}
	if kf.Go != nil {
		// Require no newer language than kfuzz's go.mod does.
		if err := mod.AddGoStmt(kf.Go.Version); err != nil {
			return err
		}
	}
	mod.AddNewRequire(KfuzzModule, "v0.0.0", false)
	for _, r := range kf.Require {
		mod.AddNewRequire(r.Mod.Path, r.Mod.Version, true)
	}
	if err := mod.AddReplace(KfuzzModule, "", src.Dir, ""); err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(src.Dir, "go.sum"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return writeModFiles(ctx, dir, mod, sum, false)
}

// writeModFiles writes go.mod and go.sum, and runs go mod tidy if asked.
func writeModFiles(ctx context.Context, dir string, mod *modfile.File, sum []byte, tidy bool) error {
	data, err := mod.Format()
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), data, 0o666); err != nil {
		return err
	}
	if sum != nil {
		if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o666); err != nil {
			return err
		}
	}
	if !tidy {
		return nil
	}
	cmd := exec.CommandContext(ctx, "go", "mod", "tidy")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go mod tidy in %s: %v\n%s", dir, err, bytes.TrimSpace(out))
	}
	return nil
}
