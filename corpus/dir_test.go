package corpus

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/seed72891827/kfuzz/internal/atomicfile"
)

func TestDirPaths(t *testing.T) {
	if got, want := TestdataDir("pkg", "FuzzX"), filepath.Join("pkg", "testdata", "fuzz", "FuzzX"); got != want {
		t.Errorf("TestdataDir = %q, want %q", got, want)
	}
	if got, want := CacheDir("/cache", "example.com/m/p", "FuzzX"), filepath.Join("/cache", "fuzz", "example.com", "m", "p", "FuzzX"); got != want {
		t.Errorf("CacheDir = %q, want %q", got, want)
	}
}

// listNames returns the names of the files in dir.
func listNames(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

func TestAddAndReadDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "testdata", "fuzz", "FuzzX")
	values := []any{[]byte("\x00abc"), "s", int64(-3)}
	name, added, err := Add(dir, values...)
	if err != nil || !added {
		t.Fatalf("Add = %q, %v, %v; want a new entry", name, added, err)
	}
	data, _ := Marshal(values...)
	if name != FileName(data) {
		t.Errorf("Add named the entry %q, want %q", name, FileName(data))
	}
	if got, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !bytes.Equal(got, data) {
		t.Errorf("file holds %q, %v; want %q", got, err, data)
	}

	// The same values again: nothing is written.
	name2, added, err := Add(dir, values...)
	if err != nil || added || name2 != name {
		t.Errorf("second Add = %q, %v, %v; want %q, false, nil", name2, added, err, name)
	}
	other, added, err := Add(dir, []byte("\x00abc"), "s", int64(-4))
	if err != nil || !added || other == name {
		t.Errorf("Add of other values = %q, %v, %v; want a new entry", other, added, err)
	}
	if names := listNames(t, dir); len(names) != 2 {
		t.Errorf("directory holds %q, want two entries", names)
	}

	entries, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Fatalf("ReadDir returned %d entries, want 2", len(entries))
	}
	if entries[0].Name > entries[1].Name {
		t.Errorf("entries not sorted by name: %q, %q", entries[0].Name, entries[1].Name)
	}
	for _, e := range entries {
		want := values
		if e.Name == other {
			want = []any{[]byte("\x00abc"), "s", int64(-4)}
		}
		if e.Path != filepath.Join(dir, e.Name) || !sameValues(e.Values, want) || FileName(e.Data) != e.Name {
			t.Errorf("entry %+v, want values %#v", e, want)
		}
	}
}

func TestDirAddDeduplicatesByValues(t *testing.T) {
	dir := t.TempDir()
	// Hand-written entries under names of their own.
	writeFile(t, dir, "seed-hex", "go test fuzz v1\nint(0x10)\n")
	writeFile(t, dir, "seed-plain", "go test fuzz v1\nstring(\"x\")\n")
	d, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d.Path() != dir {
		t.Errorf("Path = %q, want %q", d.Path(), dir)
	}
	for _, tt := range []struct {
		value any
		name  string
	}{{16, "seed-hex"}, {"x", "seed-plain"}} {
		name, added, err := d.Add(tt.value)
		if err != nil || added || name != tt.name {
			t.Errorf("Add(%#v) = %q, %v, %v; want %q, false, nil", tt.value, name, added, err, tt.name)
		}
	}
	if names := listNames(t, dir); len(names) != 2 {
		t.Errorf("directory holds %q, want only the two seeds", names)
	}
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o666); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestAddNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	data, _ := Marshal(42)
	// A file under the entry's name with other content, as if edited by hand.
	path := writeFile(t, dir, FileName(data), "go test fuzz v1\nint(43)\n")
	name, added, err := Add(dir, 42)
	if err == nil || added {
		t.Fatalf("Add = %q, %v, %v; want an error", name, added, err)
	}
	if !strings.Contains(err.Error(), "different content") {
		t.Errorf("error %q does not say why", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "go test fuzz v1\nint(43)\n" {
		t.Errorf("existing file changed to %q", got)
	}
	if names := listNames(t, dir); len(names) != 1 {
		t.Errorf("directory holds %q, want only the existing file", names)
	}
}

// Add finds an entry already in the directory that a Dir did not see
// when the file system refuses to create it again. (How the file is
// written, with or without hard links, is tested in internal/atomicfile.)
func TestAddExisting(t *testing.T) {
	dir := t.TempDir()
	name, added, err := Add(dir, "v")
	if err != nil || !added {
		t.Fatalf("Add = %q, %v, %v; want a new entry", name, added, err)
	}
	if names := listNames(t, dir); len(names) != 1 || names[0] != name {
		t.Errorf("directory holds %q, want only %q", names, name)
	}
	if e, err := ReadFile(filepath.Join(dir, name)); err != nil || !sameValues(e.Values, []any{"v"}) {
		t.Errorf("ReadFile = %+v, %v", e, err)
	}

	// A new Dir does not know the entry; the exclusive create finds it.
	d := &Dir{path: dir, seen: nil}
	d.seen = make(map[[32]byte]string)
	if name2, added, err := d.Add("v"); err != nil || added || name2 != name {
		t.Errorf("Add of an existing entry = %q, %v, %v; want %q, false, nil", name2, added, err, name)
	}
	data, _ := Marshal(1)
	writeFile(t, dir, FileName(data), "go test fuzz v1\nint(2)\n")
	if _, _, err := d.Add(1); err == nil {
		t.Error("Add over a file with other content succeeded")
	}
}

func TestAddConcurrent(t *testing.T) {
	dir := t.TempDir()
	const workers, values = 8, 20
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		added = make(map[string]int)
	)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Half the workers share a Dir; the others race through Add.
			var d *Dir
			if w%2 == 0 {
				var err error
				if d, err = OpenDir(dir); err != nil {
					t.Error(err)
					return
				}
			}
			for i := range values {
				var (
					name string
					ok   bool
					err  error
				)
				if d != nil {
					name, ok, err = d.Add(i, fmt.Sprint(i))
				} else {
					name, ok, err = Add(dir, i, fmt.Sprint(i))
				}
				if err != nil {
					t.Error(err)
					return
				}
				if ok {
					mu.Lock()
					added[name]++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if len(added) != values {
		t.Errorf("%d entries reported added, want %d", len(added), values)
	}
	for name, n := range added {
		if n != 1 {
			t.Errorf("%s reported added %d times", name, n)
		}
	}
	names := listNames(t, dir)
	if len(names) != values {
		t.Errorf("directory holds %d files, want %d: %q", len(names), values, names)
	}
	entries, err := ReadDir(dir)
	if err != nil || len(entries) != values {
		t.Errorf("ReadDir = %d entries, %v", len(entries), err)
	}
}

func TestReadDirMalformed(t *testing.T) {
	dir := t.TempDir()
	good, _, err := Add(dir, []byte("ok"))
	if err != nil {
		t.Fatal(err)
	}
	bad := writeFile(t, dir, "bad", "go test fuzz v1\n[]byte(\"ok\")\nint(\"x\")\n")
	headerless := writeFile(t, dir, "README", "not a corpus file\n")
	writeFile(t, dir, atomicfile.TempPrefix+"partial", "go test fuzz")
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o777); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)

	entries, err := ReadDir(dir)
	if len(entries) != 1 || entries[0].Name != good {
		t.Errorf("ReadDir returned %+v, want only the good entry %s", entries, good)
	}
	if err == nil {
		t.Fatal("ReadDir returned no error for malformed files")
	}
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok {
		t.Fatalf("error %T does not unwrap to a list", err)
	}
	var got []string
	for _, e := range joined.Unwrap() {
		var se *SyntaxError
		if !errors.As(e, &se) {
			t.Errorf("error %v is not a *SyntaxError", e)
			continue
		}
		got = append(got, fmt.Sprintf("%s:%d:%d", se.File, se.Line, se.Col))
	}
	want := []string{headerless + ":1:1", bad + ":3:5"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("errors at %q, want %q", got, want)
	}
	if msg := err.Error(); !strings.Contains(msg, bad+":3:5: expected an integer literal for int, found string literal \"x\"") {
		t.Errorf("error message %q does not name the file, line and expectation", msg)
	}
	if after := snapshot(t, dir); after != before {
		t.Errorf("ReadDir changed the directory:\n%s\nwant\n%s", after, before)
	}
}

// snapshot describes the names, sizes, modes, times and contents of the
// files in dir.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	for _, name := range listNames(t, dir) {
		fi, err := os.Lstat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(filepath.Join(dir, name))
		fmt.Fprintf(&b, "%s %d %v %v %q\n", name, fi.Size(), fi.Mode(), fi.ModTime(), data)
	}
	return b.String()
}

func TestReadDirMissing(t *testing.T) {
	entries, err := ReadDir(filepath.Join(t.TempDir(), "none"))
	if entries != nil || err != nil {
		t.Errorf("ReadDir of a missing directory = %v, %v; want nil, nil", entries, err)
	}
	d, err := OpenDir(filepath.Join(t.TempDir(), "none"))
	if err != nil {
		t.Fatalf("OpenDir of a missing directory: %v", err)
	}
	if _, added, err := d.Add(true); err != nil || !added {
		t.Errorf("Add into a missing directory = %v, %v", added, err)
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "e", "go test fuzz v1\nbyte('a')\nrune('b')\n")
	e, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if e.Name != "e" || e.Path != path || string(e.Data) != "go test fuzz v1\nbyte('a')\nrune('b')\n" || !sameValues(e.Values, []any{byte('a'), 'b'}) {
		t.Errorf("ReadFile = %+v", e)
	}
	bad := writeFile(t, dir, "bad", "go test fuzz v1\n\nbyte('a'\n")
	_, err = ReadFile(bad)
	var se *SyntaxError
	if !errors.As(err, &se) || se.File != bad || se.Line != 3 || se.Col != 9 {
		t.Errorf("ReadFile of a malformed file: %v; want a *SyntaxError at %s:3:9", err, bad)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile of a missing file: %v", err)
	}
}

func TestOpenDirKeepsMalformedFiles(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad", "garbage")
	d, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, added, err := d.Add(uint16(9)); err != nil || !added {
		t.Errorf("Add = %v, %v", added, err)
	}
	if got, _ := os.ReadFile(bad); string(got) != "garbage" {
		t.Errorf("malformed file changed to %q", got)
	}
}

func TestGoCache(t *testing.T) {
	ctx := context.Background()
	abs := filepath.Join(t.TempDir(), "cache")
	t.Setenv("GOCACHE", abs)
	if got, err := GoCache(ctx); err != nil || got != abs {
		t.Errorf("GoCache with GOCACHE=%s = %q, %v", abs, got, err)
	}
	for _, bad := range []string{"off", "relative/dir"} {
		t.Setenv("GOCACHE", bad)
		if got, err := GoCache(ctx); err == nil {
			t.Errorf("GoCache with GOCACHE=%s = %q, want an error", bad, got)
		}
	}

	t.Setenv("GOCACHE", "")
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found; cannot ask go env")
	}
	got, err := GoCache(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimSpace(string(out)); got != want {
		t.Errorf("GoCache = %q, want %q as go env says", got, want)
	}
}
