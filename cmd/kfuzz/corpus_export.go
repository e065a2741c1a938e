package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/internal/atomicfile"
	"github.com/seed72891827/kfuzz/internal/libfuzzer"
)

func init() {
	register(&command{
		name:  "corpus export",
		usage: "-o DIR CORPUSDIR...",
		short: "write fuzz corpus entries (testdata/fuzz/FuzzX) as the libFuzzer seed corpus of a go-118-fuzz-build binary",
		run:   runCorpusExport,
	})
}

// runCorpusExport writes each entry of the corpus directories as a file of
// the output directory, under the entry's name, in the form from which a
// libFuzzer binary of go-118-fuzz-build reads the entry's values. Files are
// written atomically and never replaced: an existing file with the same
// content is left alone, one with other content is an error. Entries that
// cannot be read or encoded are reported all together after the others are
// written.
func runCorpusExport(e *env, args []string) error {
	c := commands["corpus export"]
	fs := newFlagSet(e, c)
	out := fs.String("o", "", "write the libFuzzer corpus files to this `dir` (created if missing)")
	dirs, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *out == "" || len(dirs) == 0 {
		fs.Usage()
		return errUsage
	}
	if err := os.MkdirAll(*out, 0o777); err != nil {
		return err
	}
	var errs []error
	written, same := 0, 0
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			if err == nil {
				err = fmt.Errorf("%s: not a directory", dir)
			}
			errs = append(errs, err)
			continue
		}
		entries, err := corpus.ReadDir(dir)
		if err != nil {
			errs = append(errs, err)
		}
		for _, en := range entries {
			data, err := libfuzzer.Encode(en.Values)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %v", en.Path, err))
				continue
			}
			added, err := writeSeedFile(filepath.Join(*out, en.Name), data)
			switch {
			case err != nil:
				errs = append(errs, err)
			case added:
				written++
			default:
				same++
			}
		}
	}
	fmt.Fprintf(e.stdout, "%s: %d files written, %d already there\n", *out, written, same)
	return errors.Join(errs...)
}

// writeSeedFile writes data to path atomically unless the file exists. It
// reports false if it exists with the same content, and an error if it
// exists with other content.
func writeSeedFile(path string, data []byte) (added bool, err error) {
	err = atomicfile.Write(path, data, false)
	if !errors.Is(err, fs.ErrExist) {
		return err == nil, err
	}
	old, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	if string(old) != string(data) {
		return false, fmt.Errorf("%s already exists with different content; not replacing it", path)
	}
	return false, nil
}
