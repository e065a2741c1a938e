package corpus

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/seed72891827/kfuzz/internal/atomicfile"
	"github.com/seed72891827/kfuzz/internal/gocmd"
)

// An Entry is one file of a corpus directory.
type Entry struct {
	Name   string // base name of the file; go test runs the entry as FuzzX/Name
	Path   string // path of the file
	Data   []byte // content of the file
	Values []any  // the values it holds, one per argument of the fuzz target
}

// TestdataDir returns the directory of the seed corpus that go test reads for
// the fuzz test fuzzName of the package in pkgDir: pkgDir/testdata/fuzz/fuzzName.
func TestdataDir(pkgDir, fuzzName string) string {
	return filepath.Join(pkgDir, "testdata", "fuzz", fuzzName)
}

// CacheDir returns the directory in which go test -fuzz keeps the inputs it
// generated for the fuzz test fuzzName of the package with the given import
// path, when gocache is the build cache directory (go env GOCACHE):
// gocache/fuzz/importPath/fuzzName.
func CacheDir(gocache, importPath, fuzzName string) string {
	return filepath.Join(gocache, "fuzz", filepath.FromSlash(importPath), fuzzName)
}

// GoCache returns the build cache directory of the go command: $GOCACHE if
// it is set in the environment, and otherwise what go env GOCACHE prints. It
// returns an error if the go command fails or the cache is turned off.
func GoCache(ctx context.Context) (string, error) {
	dir := os.Getenv("GOCACHE")
	if dir == "" {
		vars, err := gocmd.Runner{}.GoEnv(ctx, "GOCACHE")
		if err != nil {
			return "", fmt.Errorf("corpus: %w", err)
		}
		dir = vars["GOCACHE"]
	}
	switch {
	case dir == "off":
		return "", errors.New("corpus: the build cache is turned off (GOCACHE=off)")
	case dir == "" || !filepath.IsAbs(dir):
		return "", fmt.Errorf("corpus: GOCACHE is %q, want an absolute path", dir)
	}
	return dir, nil
}

// ReadFile reads the corpus file at path. A malformed file gives a
// *SyntaxError whose File is path.
func ReadFile(path string) (Entry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Entry{}, err
	}
	values, err := unmarshal(path, data)
	if err != nil {
		return Entry{}, err
	}
	return Entry{Name: filepath.Base(path), Path: path, Data: data, Values: values}, nil
}

// ReadDir reads all entries of the corpus directory dir, sorted by name. Like
// go test, it reads every file in dir and skips subdirectories; it also skips
// files that are not regular files or symbolic links, and the temporary files
// that Add uses while writing. A directory that does not exist has no
// entries.
//
// A file that cannot be read or parsed does not stop ReadDir: it returns the
// entries it could read together with an error that joins (see errors.Join)
// one error per bad file, a *SyntaxError for each malformed one.
func ReadDir(dir string) ([]Entry, error) {
	files, err := readDir(dir)
	var entries []Entry
	var errs []error
	if err != nil {
		errs = append(errs, err)
	}
	for _, f := range files {
		if f.err != nil {
			errs = append(errs, f.err)
			continue
		}
		values, err := unmarshal(f.path, f.data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		entries = append(entries, Entry{Name: filepath.Base(f.path), Path: f.path, Data: f.data, Values: values})
	}
	return entries, errors.Join(errs...)
}

// file is one file of a corpus directory as readDir returns it.
type file struct {
	path string
	data []byte
	err  error // error reading the file
}

// readDir reads the content of the files in dir that ReadDir considers.
func readDir(dir string) ([]file, error) {
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var files []file
	for _, de := range des {
		if t := de.Type(); !t.IsRegular() && t&fs.ModeSymlink == 0 || atomicfile.IsTemp(de.Name()) {
			continue
		}
		path := filepath.Join(dir, de.Name())
		data, err := os.ReadFile(path)
		files = append(files, file{path: path, data: data, err: err})
	}
	return files, err
}

// A Dir is a corpus directory, such as testdata/fuzz/FuzzX, to which entries
// are added. It remembers the entries it has seen, so that adding values
// already in the directory does nothing. A Dir is safe for concurrent use.
type Dir struct {
	path string

	mu   sync.Mutex
	seen map[[sha256.Size]byte]string // content hash → name of the file holding it
}

// OpenDir returns the corpus directory at path, reading the entries already
// in it. The directory need not exist; Add creates it. OpenDir fails only if
// the directory cannot be listed: files it cannot read or parse are left
// alone.
func OpenDir(path string) (*Dir, error) {
	files, err := readDir(path)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	d := &Dir{path: path, seen: make(map[[sha256.Size]byte]string)}
	for _, f := range files {
		if f.err == nil {
			d.remember(f.data, filepath.Base(f.path))
		}
	}
	return d, nil
}

// Path returns the path of the directory.
func (d *Dir) Path() string { return d.path }

// remember records that the file name holds data. A file that parses is
// also recorded under its values' canonical encoding, so that a hand-written
// int(0x10) makes adding int(16) a no-op.
func (d *Dir) remember(data []byte, name string) {
	add := func(content []byte) {
		sum := sha256.Sum256(content)
		if _, ok := d.seen[sum]; !ok {
			d.seen[sum] = name
		}
	}
	add(data)
	if values, err := Unmarshal(data); err == nil {
		if canon, err := Marshal(values...); err == nil && !bytes.Equal(canon, data) {
			add(canon)
		}
	}
}

// Add writes values as a new entry of the directory, creating the directory
// if needed, and returns the entry's name. The file is named and encoded as
// go test would write it (see FileName and Marshal). If an entry with the
// same values is already in the directory, Add writes nothing and returns
// that entry's name and added == false.
//
// The file appears atomically: it is written under a temporary name in the
// same directory and then linked to its final name, which fails rather than
// replace a file that is already there, even one written at the same moment
// by another process. (On file systems without hard links, Add creates the
// final name exclusively and writes it in place.) Add never changes or
// removes an existing entry; if a file of the entry's name exists with other
// content, Add returns an error.
func (d *Dir) Add(values ...any) (name string, added bool, err error) {
	data, err := Marshal(values...)
	if err != nil {
		return "", false, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	sum := sha256.Sum256(data)
	if name, ok := d.seen[sum]; ok {
		return name, false, nil
	}
	name = FileName(data)
	added, err = writeNew(d.path, name, data)
	if err != nil {
		return "", false, err
	}
	d.seen[sum] = name
	return name, added, nil
}

// Add adds values as an entry of the corpus directory dir, as OpenDir(dir)
// followed by Add(values...) does. To add many entries, open the directory
// once with OpenDir instead.
func Add(dir string, values ...any) (name string, added bool, err error) {
	d, err := OpenDir(dir)
	if err != nil {
		return "", false, err
	}
	return d.Add(values...)
}

// writeNew writes data to a new file dir/name. It reports false if the file
// already exists with the same content, and an error if it exists with other
// content.
func writeNew(dir, name string, data []byte) (added bool, err error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return false, fmt.Errorf("corpus: %w", err)
	}
	final := filepath.Join(dir, name)
	err = atomicfile.Write(final, data, false)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrExist):
		return false, sameContent(final, data)
	}
	return false, fmt.Errorf("corpus: %w", err)
}

// sameContent returns nil if the file at path holds data, and an error
// otherwise.
func sameContent(path string, data []byte) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("corpus: %w", err)
	}
	if !bytes.Equal(old, data) {
		return fmt.Errorf("corpus: %s already exists with different content; not replacing it", path)
	}
	return nil
}
