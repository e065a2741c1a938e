package constrained_test

import (
	"archive/tar"
	"bytes"
	_ "embed"
	"encoding/csv"
	"encoding/xml"
	"flag"
	"io"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/tarpred"
)

// The ISLa constraints, copies of the isla package's testdata.
var (
	//go:embed testdata/xml-balance.isla
	xmlBalance string
	//go:embed testdata/csv-columns.isla
	csvColumns string
)

// subject is a grammar with its constraint and its target.
type subject struct {
	grammar, name, src string
	opts               []isla.Option
	// read runs the standard library's reader over an input and returns
	// its error; valid says the input satisfies the constraint.
	read func(data []byte) error
}

var (
	xmlSubject = subject{"xml", "xml-balance.isla", xmlBalance, nil, readXML}
	csvSubject = subject{"csv", "csv-columns.isla", csvColumns, nil, readCSV}
	tarSubject = subject{"tar", "ustar.isla", tarpred.Constraint, []isla.Option{tarpred.Predicates()}, readTAR}
)

// readXML reads every token of an XML document with encoding/xml, which
// checks that the tags match.
func readXML(data []byte) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		if _, err := d.Token(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// readCSV reads every record of a CSV file with encoding/csv, which checks
// that all records have as many fields as the first.
func readCSV(data []byte) error {
	_, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	return err
}

// readTAR reads every entry of a tape archive, header and data, with
// archive/tar.
func readTAR(data []byte) error {
	r := tar.NewReader(bytes.NewReader(data))
	for {
		_, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := io.Copy(io.Discard, r); err != nil {
			return err
		}
	}
}

// repairer compiles the subject's constraint against its grammar and
// returns the grammar graph and a repairer for the constraint.
func (s subject) repairer(tb testing.TB) (*grammar.Graph, *solver.Repairer) {
	tb.Helper()
	gr := grammar.MustCompile(grammar.MustBuiltin(s.grammar))
	c, err := isla.Parse(s.name, []byte(s.src))
	if err != nil {
		tb.Fatal(err)
	}
	spec, err := isla.Compile(c, gr, s.opts...)
	if err != nil {
		tb.Fatal(err)
	}
	rep, err := solver.NewRepairer(spec)
	if err != nil {
		tb.Fatal(err)
	}
	return gr, rep
}

// checkValid fails the test if the reader rejects an input that satisfies
// the constraint: each constraint states what its reader checks beyond
// the grammar.
func (s subject) checkValid(t *testing.T, data []byte) {
	if err := s.read(data); err != nil {
		t.Fatalf("%s reader rejects an input that satisfies %s: %v", s.grammar, s.name, err)
	}
}

// seedTrees returns the solver's seeds that the harness's codec can
// encode: the seeds of every target but the grammar-only one. A worker
// process of go test -fuzz never runs its seeds, so it makes none: the
// solver takes seconds for TAR archives.
func (s subject) seedTrees(tb testing.TB, gr *grammar.Graph, rep *solver.Repairer) []*grammar.Tree {
	if f := flag.Lookup("test.fuzzworker"); f != nil && f.Value.String() == "true" {
		return nil
	}
	c, err := fuzzharness.NewCodec(gr)
	if err != nil {
		tb.Fatal(err)
	}
	var out []*grammar.Tree
	for _, t := range rep.Seeds(fuzzharness.DefaultConstraintSeeds) {
		if _, err := c.Encode(t); err == nil {
			out = append(out, t)
		}
	}
	return out
}

// plain fuzzes the reader with plain strings from the solver's seeds: it
// must not panic.
func (s subject) plain(f *testing.F) {
	gr, rep := s.repairer(f)
	for _, t := range s.seedTrees(f, gr, rep) {
		f.Add(t.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) { s.read(data) })
}

// grammarOnly fuzzes the reader with inputs of the grammar, without the
// constraint: it must not panic.
func (s subject) grammarOnly(f *testing.F) {
	gr := grammar.MustCompile(grammar.MustBuiltin(s.grammar))
	fuzzharness.NewGraph(f, gr).Fuzz(func(t *testing.T, in fuzzharness.Input) { s.read(in.Bytes()) })
}

// skip fuzzes the reader with inputs of the grammar that satisfy the
// constraint, skipping the others.
func (s subject) skip(f *testing.F) {
	gr, rep := s.repairer(f)
	fuzzharness.NewGraph(f, gr, fuzzharness.WithValidity(rep.Valid), fuzzharness.WithSeedTrees(s.seedTrees(f, gr, rep)...)).
		Fuzz(func(t *testing.T, in fuzzharness.Input) { s.checkValid(t, in.Bytes()) })
}

// invalidShare is the share of the repair targets' inputs that the
// harness makes invalid on purpose (fuzzharness.WithInvalidShare), so that
// the fuzzer also reaches the readers' syntax errors.
const invalidShare = 0.1

// repair fuzzes the reader with inputs of the grammar repaired to satisfy
// the constraint, a tenth of them with one near-valid mutation: the reader
// must accept the others and not panic on those.
func (s subject) repair(f *testing.F) {
	gr, rep := s.repairer(f)
	fuzzharness.NewGraph(f, gr, fuzzharness.WithConstraint(rep), fuzzharness.WithInvalidShare(invalidShare)).
		Fuzz(func(t *testing.T, in fuzzharness.Input) {
			if in.Edited() {
				s.read(in.Bytes())
				return
			}
			s.checkValid(t, in.Bytes())
		})
}

func FuzzXMLPlain(f *testing.F)   { xmlSubject.plain(f) }
func FuzzXMLGrammar(f *testing.F) { xmlSubject.grammarOnly(f) }
func FuzzXMLSkip(f *testing.F)    { xmlSubject.skip(f) }
func FuzzXMLRepair(f *testing.F)  { xmlSubject.repair(f) }

func FuzzCSVPlain(f *testing.F)   { csvSubject.plain(f) }
func FuzzCSVGrammar(f *testing.F) { csvSubject.grammarOnly(f) }
func FuzzCSVSkip(f *testing.F)    { csvSubject.skip(f) }
func FuzzCSVRepair(f *testing.F)  { csvSubject.repair(f) }

func FuzzTARPlain(f *testing.F)   { tarSubject.plain(f) }
func FuzzTARGrammar(f *testing.F) { tarSubject.grammarOnly(f) }
func FuzzTARSkip(f *testing.F)    { tarSubject.skip(f) }
func FuzzTARRepair(f *testing.F)  { tarSubject.repair(f) }

// TestRepairedReadersAccept repairs random inputs of each grammar and
// checks that the reader accepts every repaired input, and rejects some
// of those that violate the constraint (for XML and CSV: the constraint
// is what the reader checks beyond the grammar).
func TestRepairedReadersAccept(t *testing.T) {
	for _, s := range []subject{xmlSubject, csvSubject, tarSubject} {
		t.Run(s.grammar, func(t *testing.T) {
			gr, rep := s.repairer(t)
			c, err := fuzzharness.NewCodec(gr)
			if err != nil {
				t.Fatal(err)
			}
			invalid, rejected, repaired := 0, 0, 0
			for i := range 60 {
				data := make([]byte, 40+5*i)
				for k := range data {
					data[k] = byte(k*131 + i*29 + k*k*7)
				}
				tr := c.Decode(data).Tree()
				if rep.Valid(tr) {
					continue
				}
				invalid++
				if s.read(tr.Bytes()) != nil {
					rejected++
				}
				out, ok := rep.Repair(tr, uint64(i))
				if !ok {
					continue
				}
				repaired++
				if err := s.read(out.Bytes()); err != nil {
					t.Fatalf("the reader rejects the repaired %q: %v", out, err)
				}
			}
			if invalid == 0 || repaired < invalid*9/10 || s.grammar != "tar" && rejected == 0 {
				t.Errorf("%d invalid inputs, %d rejected by the reader, %d repaired; want some, some, at least 90%%", invalid, rejected, repaired)
			}
			t.Logf("%d invalid inputs, %d rejected by the reader, %d repaired", invalid, rejected, repaired)
		})
	}
}
