package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/seed72891827/kfuzz/internal/protocol"
	"github.com/seed72891827/kfuzz/learn"
)

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
	// Measured holds the import paths of the packages whose functions were
	// measured (kfuzz learn -cover); commands that measure again, such as
	// kfuzz seed, measure the same packages.
	Measured []string
	// BuildFlags and Timeout are the build flags and the per-input time
	// limit the fuzz test was measured with; zero values for a model file
	// that does not record them.
	BuildFlags []string
	Timeout    time.Duration
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
	Measured   []string              `json:"measured,omitempty"`
	BuildFlags []string              `json:"build_flags,omitempty"`
	Timeout    string                `json:"timeout,omitempty"`
	Harness    *protocol.Description `json:"harness"`
	Model      json.RawMessage       `json:"model"`
}

// Marshal returns the model file as indented JSON: its format and version,
// the fuzz test and package, the measured packages and measurement settings,
// the harness's description (with the grammar, whose fingerprint the model
// holds) and the model in the format of learn.Model.Save.
func (mf *ModelFile) Marshal() ([]byte, error) {
	var model bytes.Buffer
	if err := mf.Model.Save(&model); err != nil {
		return nil, err
	}
	f := modelFileJSON{
		Format: FileFormat, Version: FileVersion,
		Target: mf.Target, ImportPath: mf.ImportPath, Dir: mf.Dir,
		Measured: mf.Measured, BuildFlags: mf.BuildFlags,
		Harness: mf.Desc, Model: model.Bytes(),
	}
	if mf.Timeout > 0 {
		f.Timeout = mf.Timeout.String()
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
	mf := &ModelFile{Target: f.Target, ImportPath: f.ImportPath, Dir: f.Dir, Measured: f.Measured, BuildFlags: f.BuildFlags, Desc: f.Harness, Model: m}
	if f.Timeout != "" {
		if mf.Timeout, err = time.ParseDuration(f.Timeout); err != nil || mf.Timeout <= 0 {
			return nil, nil, fmt.Errorf("%s: bad timeout %q", name, f.Timeout)
		}
	}
	return mf, h, nil
}

// LoadModelFile reads the model file at path.
func LoadModelFile(path string) (*ModelFile, *Harness, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return ReadModelFile(path, data)
}
