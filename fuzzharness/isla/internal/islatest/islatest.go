// Package islatest holds what the tests of package isla and its solver
// share: the grammars and constraints of isla's testdata, the TAR
// predicates of the paper's TAR constraint, and the process's CPU time for
// benchmarks on a loaded machine.
package islatest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// Testdata returns the directory of isla's test grammars and constraints.
func Testdata() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata")
}

var graphs sync.Map // name -> *grammar.Graph

// Graph returns the graph of a built-in grammar or of a grammar file in
// testdata (name ending in .bnf).
func Graph(t testing.TB, name string) *grammar.Graph {
	t.Helper()
	if g, ok := graphs.Load(name); ok {
		return g.(*grammar.Graph)
	}
	var g *grammar.Grammar
	var err error
	if strings.HasSuffix(name, ".bnf") {
		g, err = grammar.Load(filepath.Join(Testdata(), name))
	} else {
		g, err = grammar.Builtin(name)
	}
	if err != nil {
		t.Fatal(err)
	}
	gr, err := grammar.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	graphs.Store(name, gr)
	return gr
}

// Constraint parses a constraint file of testdata.
func Constraint(t testing.TB, name string) *isla.Constraint {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(Testdata(), name))
	if err != nil {
		t.Fatal(err)
	}
	c, err := isla.Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Compile compiles a constraint file of testdata against a grammar.
func Compile(t testing.TB, gname, cname string, opts ...isla.Option) *isla.Spec {
	t.Helper()
	s, err := isla.Compile(Constraint(t, cname), Graph(t, gname), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TarChecksum is the semantic predicate tar_checksum(header, checksum): the
// unsigned sum of the 512 header bytes, the 8 bytes of the checksum field
// counted as spaces, equals the octal number in the checksum field.
type TarChecksum struct{}

func (TarChecksum) Name() string { return "tar_checksum" }

func (TarChecksum) Params() []isla.Param { return []isla.Param{isla.TreeParam, isla.TreeParam} }

func (TarChecksum) Eval(args []isla.Arg) (bool, error) {
	h, c := args[0].Node, args[1].Node
	hdr := h.Text()
	if len(hdr) != 512 {
		return false, fmt.Errorf("a header has 512 bytes, not %d", len(hdr))
	}
	off := c.Offset() - h.Offset()
	if off < 0 || off+8 > 512 {
		return false, fmt.Errorf("the checksum field is not inside the header")
	}
	sum := 0
	for i := 0; i < len(hdr); i++ {
		if i >= off && i < off+8 {
			sum += ' '
		} else {
			sum += int(hdr[i])
		}
	}
	want, err := strconv.ParseInt(strings.Trim(c.Text(), " \x00"), 8, 64)
	if err != nil {
		return false, nil
	}
	return int64(sum) == want, nil
}

// TarSize is the semantic predicate tar_size(entry): the entry has as many
// data blocks as its size field needs.
type TarSize struct{}

func (TarSize) Name() string { return "tar_size" }

func (TarSize) Params() []isla.Param { return []isla.Param{isla.TreeParam} }

func (TarSize) Eval(args []isla.Arg) (bool, error) {
	e := args[0].Node
	sizes := e.Find("file-size")
	if len(sizes) != 1 {
		return false, fmt.Errorf("an entry has one size field, not %d", len(sizes))
	}
	size, err := strconv.ParseInt(strings.Trim(sizes[0].Text(), " \x00"), 8, 64)
	if err != nil {
		return false, nil
	}
	return int64(len(e.Find("data-block"))) == (size+511)/512, nil
}

// TarPredicates makes TarChecksum and TarSize available to a constraint.
var TarPredicates = isla.WithPredicates(TarChecksum{}, TarSize{})

// ReportRates reports inputs per second of wall time and, where the
// platform tells, per second of CPU time (all threads, GC included) since
// cpu0: on a loaded machine the latter is the steadier figure.
func ReportRates(b *testing.B, cpu0 time.Duration) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "inputs/s")
	if cpu := ProcessCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "inputs/cpu-s")
	}
}
