package main

import (
	"archive/tar"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/isla/tarpred"
)

// kfuzz isla solve knows the TAR predicates: it writes archives that
// archive/tar reads and that kfuzz isla check accepts.
func TestISLASolveTar(t *testing.T) {
	dir := t.TempDir()
	con := filepath.Join(dir, "ustar.isla")
	if err := os.WriteFile(con, []byte(tarpred.Constraint), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if _, errOut, code := runISLA(t, "solve", "-grammar", "tar", "-constraint", con, "-n", "4", "-o", out, "-z3=false"); code != 0 {
		t.Fatalf("code %d, err %q", code, errOut)
	}
	files, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 {
		t.Fatalf("%d archives, want 4", len(files))
	}
	args := []string{"check", "-grammar", "tar", "-constraint", con}
	for _, f := range files {
		args = append(args, filepath.Join(out, f.Name()))
		b, err := os.ReadFile(filepath.Join(out, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		r := tar.NewReader(bytes.NewReader(b))
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err == nil {
				_, err = io.Copy(io.Discard, r)
			}
			if err != nil {
				t.Fatalf("%s: archive/tar: %v", f.Name(), err)
			}
		}
	}
	if stdout, errOut, code := runISLA(t, args...); code != 0 {
		t.Errorf("isla check: code %d, %s %s", code, stdout, errOut)
	}
}
