package measure

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/internal/atomicfile"
	"github.com/seed72891827/kfuzz/internal/protocol"
)

// seedOptions returns options that configure fuzzharness.Seeds or a codec
// as the described harness is configured, except for its validity
// predicate, which a description cannot hold.
func seedOptions(d *protocol.Description) []fuzzharness.Option {
	return []fuzzharness.Option{
		fuzzharness.WithBounds(fuzzharness.Bounds(d.Bounds)), fuzzharness.WithKPathSeeds(d.K), fuzzharness.WithExamples(d.Examples...),
	}
}

// SeedInputs returns the seeds that the described harness adds in plain go
// test and go test -fuzz runs: its k-path covering forest and its examples
// (see fuzzharness.Seeds), encoded for its codec, with IDs "seed#1",
// "seed#2", ... Seed trees given with fuzzharness.WithSeedTrees cannot be
// described and are missing.
func SeedInputs(d *protocol.Description) ([]Input, error) {
	gr, err := d.Graph()
	if err != nil {
		return nil, fmt.Errorf("measure: the grammar of %s: %w", d.Target, err)
	}
	trees, err := fuzzharness.Seeds(gr, seedOptions(d)...)
	if err != nil {
		return nil, fmt.Errorf("measure: the seeds of %s: %w", d.Target, err)
	}
	codec, err := fuzzharness.NewCodec(gr, fuzzharness.WithBounds(fuzzharness.Bounds(d.Bounds)))
	if err != nil {
		return nil, fmt.Errorf("measure: the codec of %s: %w", d.Target, err)
	}
	ins := make([]Input, len(trees))
	for i, t := range trees {
		data, err := codec.Encode(t)
		if err != nil {
			return nil, fmt.Errorf("measure: seed %d %q of %s: %w", i+1, t, d.Target, err)
		}
		ins[i] = Input{ID: fmt.Sprintf("seed#%d", i+1), Data: data}
	}
	return ins, nil
}

// CorpusInputs returns the entries of a corpus directory, such as
// testdata/fuzz/FuzzX, sorted by name, with their paths as IDs. Each entry
// must hold one value: []byte (data for the harness's codec) or string
// (input text). A directory that does not exist has no entries.
func CorpusInputs(dir string) ([]Input, error) {
	entries, err := corpus.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("measure: %w", err)
	}
	ins := make([]Input, 0, len(entries))
	for _, e := range entries {
		in, err := entryInput(e)
		if err != nil {
			return nil, err
		}
		ins = append(ins, in)
	}
	return ins, nil
}

// entryInput converts a corpus entry of one []byte or string value.
func entryInput(e corpus.Entry) (Input, error) {
	if len(e.Values) == 1 {
		switch v := e.Values[0].(type) {
		case []byte:
			return Input{ID: e.Path, Data: v}, nil
		case string:
			return Input{ID: e.Path, Text: v}, nil
		}
	}
	return Input{}, fmt.Errorf("%s: the entry holds %s, want one []byte or string value", e.Path, describeValues(e.Values))
}

func describeValues(vs []any) string {
	if len(vs) != 1 {
		return fmt.Sprintf("%d values", len(vs))
	}
	return fmt.Sprintf("a %T", vs[0])
}

// corpusHeader starts every file in the go test fuzz v1 format.
var corpusHeader = []byte("go test fuzz v1")

// FileInputs reads inputs from files and directories, in the order given.
// A file that starts with "go test fuzz v1" is one corpus entry (see
// CorpusInputs); any other file is a plain input: its content is the input
// text. A directory stands for its files (not its subdirectories) in name
// order, each read as a file given alone, so a corpus directory such as
// testdata/fuzz/FuzzX, a directory of plain inputs (as kfuzz gen -o
// writes) and a mix all work. The paths are the IDs. The errors of all
// paths are returned together, each naming its file.
func FileInputs(paths ...string) ([]Input, error) {
	var ins []Input
	var errs []error
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		files := []string{p}
		if st.IsDir() {
			if files, err = dirFiles(p); err != nil {
				errs = append(errs, err)
				continue
			}
		}
		for _, f := range files {
			in, err := fileInput(f)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			ins = append(ins, in)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return ins, nil
}

// dirFiles returns the paths of the regular files (or symbolic links) in
// dir, in name order, leaving out unfinished atomic writes.
func dirFiles(dir string) ([]string, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, de := range des {
		if t := de.Type(); !t.IsRegular() && t&fs.ModeSymlink == 0 || atomicfile.IsTemp(de.Name()) {
			continue
		}
		files = append(files, filepath.Join(dir, de.Name()))
	}
	return files, nil
}

// fileInput reads one file as FileInputs does: a corpus entry if it starts
// with the corpus header, a plain input otherwise.
func fileInput(path string) (Input, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Input{}, err
	}
	if !bytes.HasPrefix(data, corpusHeader) {
		return Input{ID: path, Text: string(data)}, nil
	}
	e, err := corpus.ReadFile(path)
	if err != nil {
		return Input{}, err
	}
	e.Path = path
	return entryInput(e)
}

// TestdataInputs returns the entries of the fuzz test's seed corpus
// directory testdata/fuzz/<Target> in its package, which plain go test
// runs as regression inputs.
func (r *Runner) TestdataInputs() ([]Input, error) {
	ins, err := CorpusInputs(corpus.TestdataDir(r.pkg.Dir, r.cfg.Target))
	relID(ins, r.pkg.Dir)
	return ins, err
}

// relID makes the IDs of inputs read from under dir relative to it.
func relID(ins []Input, dir string) {
	for i := range ins {
		if rel, err := filepath.Rel(dir, ins[i].ID); err == nil && filepath.IsLocal(rel) {
			ins[i].ID = filepath.ToSlash(rel)
		}
	}
}
