package gomod

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/mod/modfile"
)

func TestFindSourceInRepository(t *testing.T) {
	src, err := FindSource(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.Abs("../..")
	if src.Dir != root || src.Version != "" {
		t.Errorf("FindSource = %+v, want the directory %s", src, root)
	}
}

func TestWriteGoModFromDir(t *testing.T) {
	root, _ := filepath.Abs("../..")
	dir := t.TempDir()
	if err := WriteGoMod(context.Background(), dir, "example.com/m", Source{Dir: root}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	kdata, _ := os.ReadFile(filepath.Join(root, "go.mod"))
	kmod, err := modfile.Parse("go.mod", kdata, nil)
	if err != nil {
		t.Fatal(err)
	}
	if mod.Module.Mod.Path != "example.com/m" || mod.Go == nil || mod.Go.Version != kmod.Go.Version {
		t.Errorf("module %v, go %v; want example.com/m, go %s", mod.Module.Mod, mod.Go, kmod.Go.Version)
	}
	required := map[string]string{}
	for _, r := range mod.Require {
		required[r.Mod.Path] = r.Mod.Version
	}
	if required[KfuzzModule] != "v0.0.0" {
		t.Errorf("requires %v, want kfuzz v0.0.0", required)
	}
	for _, r := range kmod.Require {
		if required[r.Mod.Path] != r.Mod.Version {
			t.Errorf("requires %s %s, want %s as kfuzz does", r.Mod.Path, required[r.Mod.Path], r.Mod.Version)
		}
	}
	if len(mod.Replace) != 1 || mod.Replace[0].Old.Path != KfuzzModule || mod.Replace[0].New.Path != root {
		t.Errorf("replace %+v, want kfuzz => %s", mod.Replace, root)
	}
	sum, _ := os.ReadFile(filepath.Join(dir, "go.sum"))
	ksum, _ := os.ReadFile(filepath.Join(root, "go.sum"))
	if !bytes.Equal(sum, ksum) {
		t.Error("go.sum is not kfuzz's")
	}
}
