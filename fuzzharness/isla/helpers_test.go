package isla_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

var graphs sync.Map // name -> *grammar.Graph

// loadGraph returns the graph of a built-in grammar or of a grammar file in
// testdata (name ending in .bnf).
func loadGraph(t testing.TB, name string) *grammar.Graph {
	t.Helper()
	if g, ok := graphs.Load(name); ok {
		return g.(*grammar.Graph)
	}
	var g *grammar.Grammar
	var err error
	if strings.HasSuffix(name, ".bnf") {
		g, err = grammar.Load(filepath.Join("testdata", name))
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

// loadConstraint parses a constraint file of testdata.
func loadConstraint(t testing.TB, name string) *isla.Constraint {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	c, err := isla.Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// compile compiles a constraint file of testdata against a grammar.
func compile(t testing.TB, gname, cname string, opts ...isla.Option) *isla.Spec {
	t.Helper()
	s, err := isla.Compile(loadConstraint(t, cname), loadGraph(t, gname), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// tarChecksum is the semantic predicate tar_checksum(header, checksum): the
// unsigned sum of the 512 header bytes, the 8 bytes of the checksum field
// counted as spaces, equals the octal number in the checksum field.
type tarChecksum struct{}

func (tarChecksum) Name() string { return "tar_checksum" }

func (tarChecksum) Params() []isla.Param { return []isla.Param{isla.TreeParam, isla.TreeParam} }

func (tarChecksum) Eval(args []isla.Arg) (bool, error) {
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

// tarSize is the semantic predicate tar_size(entry): the entry has as many
// data blocks as its size field needs.
type tarSize struct{}

func (tarSize) Name() string { return "tar_size" }

func (tarSize) Params() []isla.Param { return []isla.Param{isla.TreeParam} }

func (tarSize) Eval(args []isla.Arg) (bool, error) {
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

var tarPredicates = isla.WithPredicates(tarChecksum{}, tarSize{})
