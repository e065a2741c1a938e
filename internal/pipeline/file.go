package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/seed72891827/kfuzz/internal/protocol"
	"github.com/seed72891827/kfuzz/learn"
)

// ErrExist is returned (wrapped) by WriteFile when the file exists and may
// not be replaced.
var ErrExist = fs.ErrExist

// WriteFile writes data to the file at path atomically: it writes a
// temporary file in the same directory and then moves it into place, so that
// readers and an interrupted writer never leave a partial file. Unless
// replace is set it never replaces an existing file, even one created at the
// same moment: it fails with an error wrapping ErrExist.
func WriteFile(path string, data []byte, replace bool) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, name, err := createTemp(dir, base)
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return err
	}
	if replace {
		if err := os.Rename(name, path); err != nil {
			os.Remove(name)
			return err
		}
		return nil
	}
	err = os.Link(name, path)
	os.Remove(name)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrExist):
		return fmt.Errorf("%s already exists (use -f to replace it): %w", path, ErrExist)
	}
	// No hard links here: create the file exclusively and write it in place.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s already exists (use -f to replace it): %w", path, ErrExist)
	}
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// tempCount numbers the temporary files of this process.
var tempCount atomic.Uint64

// createTemp creates a new file in dir for the contents of base, named
// .base.tmp-<pid>-<n>, with the permissions os.Create gives (0666 less the
// umask), which os.CreateTemp does not.
func createTemp(dir, base string) (*os.File, string, error) {
	for {
		name := filepath.Join(dir, fmt.Sprintf(".%s.tmp-%d-%d", base, os.Getpid(), tempCount.Add(1)))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, name, err
	}
}

// CheckNew returns an error wrapping ErrExist if any of the files exists, so
// that a command can refuse before it does its work rather than after.
func CheckNew(paths ...string) error {
	for _, p := range paths {
		if _, err := os.Lstat(p); err == nil {
			return fmt.Errorf("%s already exists (use -f to replace it): %w", p, ErrExist)
		}
	}
	return nil
}

// The format of a model file.
const (
	FileFormat  = "kfuzz-model"
	FileVersion = 1
)

// A ModelFile is a learned model with what a command needs to use it on its
// own: the fuzz test it was learned for and its harness's description, from
// which the grammar, the codec of corpus entries and a parser are rebuilt.
type ModelFile struct {
	// Target is the fuzz test, such as FuzzCalc.
	Target string
	// ImportPath is the import path of its package, and Dir the package's
	// directory when the model was learned.
	ImportPath, Dir string
	// Desc is the harness's description.
	Desc *protocol.Description
	// Model is the model, for the graph of Desc.
	Model *learn.Model
}

type modelFileJSON struct {
	Format     string                `json:"format"`
	Version    int                   `json:"version"`
	Target     string                `json:"target"`
	ImportPath string                `json:"import_path"`
	Dir        string                `json:"dir"`
	Harness    *protocol.Description `json:"harness"`
	Model      json.RawMessage       `json:"model"`
}

// Marshal returns the model file as indented JSON: its format and version,
// the fuzz test and package, the harness's description and the model in the
// format of learn.Model.Save.
func (mf *ModelFile) Marshal() ([]byte, error) {
	var model bytes.Buffer
	if err := mf.Model.Save(&model); err != nil {
		return nil, err
	}
	f := modelFileJSON{
		Format: FileFormat, Version: FileVersion,
		Target: mf.Target, ImportPath: mf.ImportPath, Dir: mf.Dir,
		Harness: mf.Desc, Model: model.Bytes(),
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&f); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// ReadModelFile reads a model file written by Marshal and rebuilds its
// harness. name is used in error messages.
func ReadModelFile(name string, data []byte) (*ModelFile, *Harness, error) {
	var f modelFileJSON
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, nil, fmt.Errorf("%s: not a kfuzz model file: %v", name, err)
	}
	if f.Format != FileFormat {
		return nil, nil, fmt.Errorf("%s: not a kfuzz model file (format %q, want %q)", name, f.Format, FileFormat)
	}
	if f.Version != FileVersion {
		return nil, nil, fmt.Errorf("%s: model file version %d; this kfuzz reads version %d", name, f.Version, FileVersion)
	}
	if f.Harness == nil || len(f.Model) == 0 {
		return nil, nil, fmt.Errorf("%s: the model file lacks its harness or model", name)
	}
	h, err := NewHarness(f.Harness)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	m, err := learn.Load(bytes.NewReader(f.Model), h.Graph)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return &ModelFile{Target: f.Target, ImportPath: f.ImportPath, Dir: f.Dir, Desc: f.Harness, Model: m}, h, nil
}

// LoadModelFile reads the model file at path.
func LoadModelFile(path string) (*ModelFile, *Harness, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return ReadModelFile(path, data)
}
