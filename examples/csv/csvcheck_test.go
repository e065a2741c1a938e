package csvcheck_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	csvcheck "github.com/seed72891827/kfuzz/examples/csv"
	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

var csvGraph = grammar.MustCompile(grammar.MustBuiltin("csv"))

// examples are CSV files of the csv grammar added as seeds.
var examples = []string{
	"name,qty,note\r\nnut,3,\"M4, steel\"\r\nbolt,10,\"say \"\"hi\"\"\"\r\n",
	"#x,1\r\n\"#y\",2\r\n  z ,3",
	"\"a\r\nb\",\"c\rd\",\"\"\r\n,,\r\n\"\"",
	"x;y\r\n\"1\n2\"",
}

// FuzzCSV checks encoding/csv with files of the csv grammar.
func FuzzCSV(f *testing.F) {
	fuzzharness.NewGraph(f, csvGraph, fuzzharness.WithKPathSeeds(2), fuzzharness.WithExamples(examples...)).
		Fuzz(func(t *testing.T, in fuzzharness.Input) {
			want, err := csvcheck.RecordsOf(in.Tree())
			if err != nil {
				t.Fatal(err)
			}
			if err := csvcheck.Check(in.Bytes(), want); err != nil {
				t.Fatalf("Check(%q): %v", in, err)
			}
		})
}

// TestGenerated runs Check over random files of the grammar, made by the
// grammar's generator and by decoding random bytes as the fuzzer's would be.
func TestGenerated(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	gen := grammar.NewGenerator(csvGraph, 1)
	codec, err := fuzzharness.NewCodec(csvGraph)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(2, 3))
	for i := range n {
		var tree *grammar.Tree
		if i%2 == 0 {
			if tree, err = gen.Generate(); err != nil {
				t.Fatal(err)
			}
		} else {
			data := make([]byte, rng.IntN(300))
			for j := range data {
				data[j] = byte(rng.Uint32())
			}
			tree = codec.Decode(data).Tree()
		}
		want, err := csvcheck.RecordsOf(tree)
		if err != nil {
			t.Fatal(err)
		}
		if err := csvcheck.Check(tree.Bytes(), want); err != nil {
			t.Errorf("Check(%q): %v", tree, err)
		}
	}
}

func records(t *testing.T, file string) [][]string {
	t.Helper()
	c, err := fuzzharness.NewCodec(csvGraph)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := c.Parse(file)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csvcheck.RecordsOf(tree)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestRecordsOf(t *testing.T) {
	got := records(t, "a,\"b\"\"\r\nc\"\r\n\"\"\r\n")
	want := [][]string{{"a", "b\"\nc"}, {""}}
	if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
		t.Errorf("RecordsOf = %q, want %q", got, want)
	}
	other, err := grammar.NewGenerator(grammar.MustCompile(grammar.MustBuiltin("expr")), 1).Generate()
	if err != nil {
		t.Fatal(err)
	}
	for _, tree := range []*grammar.Tree{nil, other} {
		if _, err := csvcheck.RecordsOf(tree); err == nil {
			t.Errorf("RecordsOf(%v) = nil error, want one: not a tree of the csv grammar", tree)
		}
	}
}

func TestWriteLoss(t *testing.T) {
	recs := [][]string{{""}, {"a\r\r\nb", "\rc"}, {"", ""}}
	for _, tc := range []struct {
		crlf bool
		want string
	}{
		{false, `[["a\r\nb" "\rc"] ["" ""]]`},
		{true, `[["a\nb" "c"] ["" ""]]`},
	} {
		if got := fmt.Sprintf("%q", csvcheck.WriteLoss(recs, tc.crlf)); got != tc.want {
			t.Errorf("WriteLoss(%q, %v) = %s, want %s", recs, tc.crlf, got, tc.want)
		}
	}
}

// TestCheckDetects makes sure that Check reports files that do not read as
// the records they should, and files that do not read at all.
func TestCheckDetects(t *testing.T) {
	file := "a,b\r\n\"c\",d"
	want := records(t, file)
	if err := csvcheck.Check([]byte(file), want); err != nil {
		t.Fatalf("Check(%q): %v", file, err)
	}
	for _, bad := range [][][]string{
		{{"a", "b"}},
		{{"a", "b"}, {`"c"`, "d"}},
		{{"a,b"}, {"c", "d"}},
	} {
		if err := csvcheck.Check([]byte(file), bad); err == nil {
			t.Errorf("Check(%q, %q) = nil, want an error", file, bad)
		}
	}
	if err := csvcheck.Check([]byte("a,\"b\n"), nil); err == nil {
		t.Errorf("Check of an unclosed quote = nil, want the read error")
	}
}

func ExampleCheck() {
	fmt.Println(csvcheck.Check([]byte("a,\"b,c\"\r\nd,e"), [][]string{{"a", "b,c"}, {"d", "e"}}))
	fmt.Println(csvcheck.Check([]byte("a,b\"c\""), nil))
	// Output:
	// <nil>
	// parse error on line 1, column 4: bare " in non-quoted-field
}
