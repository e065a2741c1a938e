package isla_test

import (
	"bytes"
	"encoding/csv"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// firstRef returns the first reference to nonterminal name in t, pre-order.
func firstRef(t *grammar.Tree, name string) *grammar.Tree {
	if t.Node.Kind == grammar.KindRef && t.Node.Name == name {
		return t
	}
	for _, c := range t.Children {
		if r := firstRef(c, name); r != nil {
			return r
		}
	}
	return nil
}

// balance makes every element of a generated XML tree balanced: the
// identifier of each closing tag becomes that of its opening tag. root is
// the right-hand side of <xml-tree>, as the generator derives it.
func balance(root *grammar.Tree) {
	var elem func(rhs *grammar.Tree)
	var walk func(t *grammar.Tree)
	elem = func(rhs *grammar.Tree) {
		open, close := firstRef(rhs, "xml-open-tag"), firstRef(rhs, "xml-close-tag")
		if open != nil && close != nil {
			oid, cid := firstRef(open, "id"), firstRef(close, "id")
			cid.Children = oid.Clone().Children
		}
		for _, c := range rhs.Children {
			walk(c)
		}
	}
	walk = func(t *grammar.Tree) {
		if t.Node.Kind == grammar.KindRef && t.Node.Name == "xml-tree" {
			for _, c := range t.Children {
				elem(c)
			}
			return
		}
		for _, c := range t.Children {
			walk(c)
		}
	}
	elem(root)
}

// xmlInputs generates n XML documents with the built-in grammar and, after
// each, the same document balanced: 2n inputs.
func xmlInputs(t testing.TB, seed uint64, n int) [][]byte {
	gen := grammar.NewGenerator(loadGraph(t, "xml"), seed)
	var out [][]byte
	for len(out) < 2*n {
		tr, err := gen.Generate()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tr.Bytes())
		balance(tr)
		out = append(out, tr.Bytes())
	}
	return out
}

const oracleInputs = 10000

func TestXMLBalanceOracle(t *testing.T) {
	s := compile(t, "xml", "xml-balance.isla")
	n := oracleInputs / 2 // each generated document is also checked balanced
	if testing.Short() {
		n = 200
	}
	var decided, balanced int
	for i, in := range xmlInputs(t, 1, n) {
		want, ok := xmlOracle(in)
		if !ok {
			continue
		}
		decided++
		r, err := s.Check(in)
		if err != nil {
			t.Fatalf("input %d %q: %v", i, in, err)
		}
		if r.Valid != want {
			t.Fatalf("input %d %q: encoding/xml says balanced=%v, the validator %s", i, in, want, r)
		}
		if want {
			balanced++
		}
	}
	t.Logf("%d of %d inputs decided by encoding/xml, %d balanced, all agree", decided, 2*n, balanced)
	if decided < 2*n*9/10 || balanced < decided/4 || balanced > decided*3/4 {
		t.Errorf("the oracle decided %d of %d inputs, %d balanced: too few to compare", decided, 2*n, balanced)
	}
}

func TestCSVColumnsOracle(t *testing.T) {
	s := compile(t, "csv", "csv-columns.isla")
	gr := loadGraph(t, "csv")
	gen := grammar.NewGenerator(gr, 1)
	n := oracleInputs
	if testing.Short() {
		n = 1000
	}
	var decided, equal int
	for i := 0; i < n; i++ {
		tr, err := gen.Generate()
		if err != nil {
			t.Fatal(err)
		}
		in := tr.Bytes()
		if i%2 == 1 {
			in = sameColumns(in)
		}
		want, ok := csvOracle(in)
		if !ok {
			continue
		}
		decided++
		r, err := s.Check(in)
		if err != nil {
			t.Fatalf("input %d %q: %v", i, in, err)
		}
		if r.Valid != want {
			t.Fatalf("input %d %q: encoding/csv says equal=%v, the validator %s", i, in, want, r)
		}
		if want {
			equal++
		}
	}
	t.Logf("%d of %d inputs decided by encoding/csv, %d with equal field counts, all agree", decided, n, equal)
	if decided < n*9/10 || equal < decided/4 || equal > decided*3/4 {
		t.Errorf("the oracle decided %d of %d inputs, %d equal: too few to compare", decided, n, equal)
	}
}

// sameColumns repeats the first record of a generated CSV file as many
// times as the file has records, so that all records have the same number
// of fields.
func sameColumns(in []byte) []byte {
	r := csv.NewReader(bytes.NewReader(in))
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil || len(recs) == 0 || len(recs[0]) == 1 && recs[0][0] == "" {
		return in
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.UseCRLF = true
	for range recs {
		w.Write(recs[0])
	}
	w.Flush()
	return b.Bytes()
}
