package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// names returns the names of the files in dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func checkFile(t *testing.T, path, want string) {
	t.Helper()
	if data, err := os.ReadFile(path); err != nil || string(data) != want {
		t.Errorf("%s holds %q, %v; want %q", path, data, err, want)
	}
}

func testWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "model.json")
	if err := Write(p, []byte("one"), false); err != nil {
		t.Fatal(err)
	}
	err := Write(p, []byte("two"), false)
	var pe *fs.PathError
	if !errors.Is(err, fs.ErrExist) || !errors.As(err, &pe) || pe.Path != p {
		t.Errorf("Write over an existing file: %v", err)
	}
	checkFile(t, p, "one")
	if err := Write(p, []byte("two"), true); err != nil {
		t.Fatal(err)
	}
	checkFile(t, p, "two")
	if n := names(t, dir); len(n) != 1 {
		t.Errorf("files left: %q", n)
	}
	if err := Write(filepath.Join(dir, "no", "such", "dir"), nil, false); err == nil {
		t.Errorf("Write into a missing directory succeeded")
	}
	if err := Write(filepath.Join(dir, "empty"), nil, false); err != nil {
		t.Fatal(err)
	}
	checkFile(t, filepath.Join(dir, "empty"), "")
}

func TestWrite(t *testing.T) { testWrite(t) }

func TestWriteWithoutHardLinks(t *testing.T) {
	saved := link
	defer func() { link = saved }()
	link = func(oldname, newname string) error {
		return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: errors.ErrUnsupported}
	}
	testWrite(t)
}

// Of many writers of one file at once, exactly one succeeds without
// replace, and the file holds its data.
func TestWriteConcurrent(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	const n = 16
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { errs[i] = Write(p, []byte{byte('a' + i)}, false) })
	}
	wg.Wait()
	won := -1
	for i, err := range errs {
		switch {
		case err == nil && won >= 0:
			t.Fatalf("writers %d and %d both succeeded", won, i)
		case err == nil:
			won = i
		case !errors.Is(err, fs.ErrExist):
			t.Errorf("writer %d: %v", i, err)
		}
	}
	if won < 0 {
		t.Fatal("no writer succeeded")
	}
	checkFile(t, p, string(rune('a'+won)))
	if n := names(t, dir); len(n) != 1 {
		t.Errorf("files left: %q", n)
	}
}

func TestIsTemp(t *testing.T) {
	dir := t.TempDir()
	saved := link
	defer func() { link = saved }()
	var tmp string
	link = func(oldname, newname string) error {
		tmp = filepath.Base(oldname)
		return os.Link(oldname, newname)
	}
	if err := Write(filepath.Join(dir, "f"), []byte("x"), false); err != nil {
		t.Fatal(err)
	}
	if !IsTemp(tmp) || IsTemp("f") || IsTemp("0123abcd") {
		t.Errorf("IsTemp: temporary file %q", tmp)
	}
}
