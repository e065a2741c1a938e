// Package gomod writes the go.mod and go.sum of modules that kfuzz creates
// to run code against kfuzz's packages (the demo's copy of the calc example):
// it finds where the go command can get kfuzz from (FindSource) and writes a
// module that requires it (WriteGoMod).
package gomod

import (
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

	"github.com/seed72891827/kfuzz/internal/gocmd"
)

// KfuzzModule is the module path of kfuzz.
const KfuzzModule = "github.com/seed72891827/kfuzz"

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
	if root, err := KfuzzRoot(ctx); err == nil {
		return Source{Dir: root}, nil
	} else if errors.Is(err, exec.ErrNotFound) {
		return Source{}, fmt.Errorf("the go command is not installed: %w", err)
	}
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		// file is <root>/internal/gomod/gomod.go.
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

// KfuzzRoot returns the root directory of the kfuzz module if the current
// directory lies in it (go env GOMOD is kfuzz's go.mod), as when kfuzz runs
// in its repository; otherwise it returns an error that says which module
// the current directory is in, if any.
func KfuzzRoot(ctx context.Context) (string, error) {
	vars, err := (gocmd.Runner{}).GoEnv(ctx, "GOMOD")
	if err != nil {
		return "", err
	}
	gomod := vars["GOMOD"]
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("the current directory is in no module, not in kfuzz's")
	}
	data, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	if path := modfile.ModulePath(data); path != KfuzzModule {
		return "", fmt.Errorf("the current module is %s, not kfuzz", path)
	}
	return filepath.Dir(gomod), nil
}

// isKfuzzModule reports whether the go.mod file at path declares kfuzz.
func isKfuzzModule(path string) bool {
	data, err := os.ReadFile(path)
	return err == nil && modfile.ModulePath(data) == KfuzzModule
}

// WriteGoMod writes the go.mod (and go.sum) of the module path at dir that
// requires kfuzz from src. With a source directory, the module requires what
// kfuzz requires, at the same versions, and takes kfuzz's go.sum, so that
// building it needs nothing beyond what building kfuzz needed; with a
// version, go mod tidy completes the go.mod and go.sum (and needs the module's
// Go files to be in place).
func WriteGoMod(ctx context.Context, dir, path string, src Source) error {
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
	_, err = gocmd.Runner{Dir: dir, Env: append(os.Environ(), "GOWORK=off")}.Go(ctx, "mod", "tidy")
	return err
}
