// Package atomicfile writes files whole or not at all: a reader, and a
// writer interrupted half-way, never leave or see a partial file, and an
// existing file is replaced only when the caller asks for it. kfuzz writes
// corpus entries, models and reports with it.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
)

// TempPrefix starts the names of the temporary files that Write creates
// next to the file it writes, and removes unless the process dies.
// Readers of a directory that Write fills (corpus directories) skip them.
const TempPrefix = ".kfuzz-tmp-"

// IsTemp reports whether the base name of a file is the name of one of
// Write's temporary files.
func IsTemp(name string) bool { return strings.HasPrefix(name, TempPrefix) }

// Write writes data to the file at path: first to a new temporary file in
// the same directory, synced to disk, which it then moves into place. With
// replace, an existing file is replaced (by renaming over it). Without, an
// existing file is never replaced, even one created at the same moment by
// another process (the temporary file is hard-linked to path, which fails if
// path exists; on file systems without hard links, path is created
// exclusively and written in place): Write then fails with an *fs.PathError
// wrapping fs.ErrExist. The directory must exist.
func Write(path string, data []byte, replace bool) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := writeTemp(dir, base, data)
	if err != nil {
		return err
	}
	if replace {
		if err := os.Rename(tmp, path); err != nil {
			os.Remove(tmp)
			return err
		}
		return nil
	}
	linkErr := link(tmp, path)
	if err := os.Remove(tmp); err != nil && linkErr == nil {
		return fmt.Errorf("wrote %s but could not remove the temporary file: %w", path, err)
	}
	switch {
	case linkErr == nil:
		return nil
	case errors.Is(linkErr, fs.ErrExist):
		return &fs.PathError{Op: "create", Path: path, Err: fs.ErrExist}
	}
	// No hard links here: create the file exclusively and write it in place.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path) // created here: remove the partial file
	}
	return err
}

// link is os.Link; tests replace it to exercise the way without hard links.
var link = os.Link

// tempCount numbers the temporary files of this process.
var tempCount atomic.Uint64

// writeTemp writes data, synced, to a new file in dir named after base, the
// process and a counter, with the permissions os.Create gives (0666 less the
// umask, which os.CreateTemp does not give), and returns its path.
func writeTemp(dir, base string, data []byte) (string, error) {
	for {
		name := filepath.Join(dir, fmt.Sprintf("%s%s-%d-%d", TempPrefix, base, os.Getpid(), tempCount.Add(1)))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = f.Write(data)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(name)
			return "", err
		}
		return name, nil
	}
}
