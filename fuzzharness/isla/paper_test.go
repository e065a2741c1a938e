package isla_test

import (
	"archive/tar"
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// paperCases are the constraints of the ISLa paper, written in testdata, on
// hand-made inputs. fail lists, for each invalid input, a text the failure
// report must contain.
var paperCases = []struct {
	grammar, constraint string
	valid               []string
	invalid             map[string]string
}{
	{
		grammar: "xml", constraint: "xml-balance.isla",
		valid: []string{`<a>x</a>`, `<a/>`, `<a x="1"><b>t</b><c/></a>`, `<p:a>t<b>u</b></p:a>`,
			`<a>&lt;<b k="v" l="w">x</b>y</a>`, `<abc><abc>t</abc></abc>`},
		invalid: map[string]string{
			`<a>x</b>`:                `clid = "b"`,
			`<a><b>y</c></a>`:         `tree = "<b>y</c>"`,
			`<a>t<b>u</b></A>`:        `clid = "A"`,
			`<p:a>t</q:a>`:            `opid = "p:a"`,
			`<a><b>x</b><c>y</d></a>`: `(<xml-tree> at 1:12-`,
		},
	},
	{
		grammar: "xml", constraint: "xml-balance-simplified.isla",
		valid: []string{`<a>x</a>`, `<a/>`, `<a x="1"><b>t</b><c/></a>`, `<p:a>t<b>u</b></p:a>`,
			`<a>&lt;<b k="v" l="w">x</b>y</a>`, `<abc><abc>t</abc></abc>`},
		invalid: map[string]string{
			`<a>x</b>`:         `id_1 = "b"`,
			`<a><b>y</c></a>`:  `xml_tree = "<b>y</c>"`,
			`<a>t<b>u</b></A>`: `id_1 = "A"`,
			`<p:a>t</q:a>`:     `id = "p:a"`,
		},
	},
	{
		grammar: "xml", constraint: "xml-namespace.isla",
		valid: []string{`<a x="1">t</a>`, `<a xmlns:p="u" p:x="1">t</a>`, `<a xmlns:p="u"><b p:x="1">t</b></a>`,
			`<a xmlns:xmlns="u">t</a>`, `<a xmlns:p="u"><b><c p:x="1">t</c></b></a>`},
		invalid: map[string]string{
			`<a p:x="1">t</a>`: `prefix_use = "p"`,
			`<a><b xmlns:p="u">t</b><c p:x="1">t</c></a>`: `exists <xml-tree> outer_tag=`,
			`<a xmlns:q="u" p:x="1">t</a>`:                `prefix_use = "p"`,
			`<a xmlns:p="v"><b q:x="1">t</b></a>`:         `prefix_use = "q"`,
			// The paper's constraint wants an element with an opening and a
			// closing tag around the attribute: a self-closing tag cannot
			// declare a prefix for itself.
			`<a xmlns:p="u" p:x="1"/>`: `none of the 1 <xml-tree> in start matches the match expression`,
		},
	},
	{
		grammar: "xml", constraint: "xml-no-redef.isla",
		valid:   []string{`<a x="1" y="2">t</a>`, `<a x="1"><b x="2"/></a>`, `<a/>`},
		invalid: map[string]string{`<a x="1" x="2">t</a>`: `n1 = "x"`, `<a x="1" y="2" x="3"/>`: `n2 = "x"`},
	},
	{
		grammar: "scriptsizec", constraint: "scriptsizec-def-use.isla",
		valid: []string{`int x;x = 1;`, `int x = 1;{int y = x;y = y + x;}`, `int a;if (a < 1) a = 2;`,
			`int a;{{a = 1;}}`, `;`},
		invalid: map[string]string{
			`x = 1;`:           `assignment = "x = 1"`,
			`int x;y = x;`:     `use = "y"`,
			`{int x;}x = 1;`:   `use = "x"`,
			`x = 1;int x;`:     `use = "x"`,
			`int x = x;`:       `use_ctx = "x"`,
			`int a;{int b;}b;`: `use_ctx = "b"`,
			`while (c < 1) ;`:  `use = "c"`,
		},
	},
	{
		grammar: "scriptsizec", constraint: "scriptsizec-no-redef.isla",
		valid:   []string{`int x;int y;`, `int x;{int x;}`, `{int x;}{int x;}`, `int x = 1;x = 2;`},
		invalid: map[string]string{`int x;int x;`: `n1 = "x"`, `{int y;int y = 1;}`: `n2 = "y"`},
	},
	{
		grammar: "csv", constraint: "csv-columns.isla",
		valid: []string{"a,b\r\nc,d\r\n", "a\r\nb\r\n", "x,y,z", "\"a,b\",c\r\n1,2", ",\r\n,", "one"},
		invalid: map[string]string{
			"a,b\r\nc\r\n":    "no candidate value of columns",
			"a\r\nb,c":        "no candidate value of columns",
			"a,b,c\r\nd,e":    "tried 3, 2",
			"a,b\r\nc,d\r\ne": "no candidate value of columns",
		},
	},
	{
		grammar: "rest", constraint: "rest-title.isla",
		valid: []string{"Title\n=====\n", "Hi\n------\n\nText here.\n", "A\n=\n\nB\n----\n"},
		invalid: map[string]string{
			"Title\n===\n":               `title_text = "Title"`,
			"Ok\n==\n\nLong title\n--\n": `underline = "--"`,
		},
	},
	{
		grammar: "rest", constraint: "rest-title-core.isla",
		valid: []string{"Title\n=====\n", "Hi\n------\n\nText here.\n"},
		invalid: map[string]string{
			"Title\n===\n": `titletxt = "Title"`,
		},
	},
	{
		grammar: "rest", constraint: "rest-references.isla",
		valid: []string{"See `foo`_.\n\n.. _foo: http://x.org\n", "Plain text.\n",
			".. _a: u\n\n`a`_ and `a`_ again.\n"},
		invalid: map[string]string{
			"See `foo`_.\n": `use = "foo"`,
			"See `foo`_.\n\n.. _foo: a\n\n.. _foo: b\n": `n1 = "foo"`,
			"- `x`_\n\n.. _y: z\n":                      `use = "x"`,
		},
	},
	{
		grammar: "rest", constraint: "rest-numbering.isla",
		valid: []string{"1. a\n2. b\n3. c\n", "1. one\n", "Text.\n\n1. a\n2. b\n\n1. c\n"},
		invalid: map[string]string{
			"1. a\n3. b\n":       `second = "3. b\n"`,
			"2. a\n3. b\n":       `enum_number = "2"`,
			"1. a\n2. b\n2. c\n": `second = "2. c\n"`,
		},
	},
}

func TestPaperConstraints(t *testing.T) {
	for _, tc := range paperCases {
		t.Run(tc.constraint, func(t *testing.T) {
			s := compile(t, tc.grammar, tc.constraint)
			for _, in := range tc.valid {
				r, err := s.Check([]byte(in))
				if err != nil {
					t.Errorf("%q: %v", in, err)
					continue
				}
				if !r.Valid {
					t.Errorf("%q: want valid, got %s", in, r)
				}
			}
			for in, want := range tc.invalid {
				r, err := s.Check([]byte(in))
				if err != nil {
					t.Errorf("%q: %v", in, err)
					continue
				}
				if r.Valid {
					t.Errorf("%q: want invalid, got valid", in)
					continue
				}
				if got := r.String(); !strings.Contains(got, want) {
					t.Errorf("%q: failure report lacks %q:\n%s", in, want, got)
				}
			}
		})
	}
}

// makeTar writes an archive with archive/tar.
func makeTar(t *testing.T, files ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := tar.NewWriter(&buf)
	for i := 0; i+1 < len(files); i += 2 {
		h := &tar.Header{Name: files[i], Mode: 0644, Size: int64(len(files[i+1])),
			ModTime: time.Unix(1700000000, 0), Typeflag: tar.TypeReg, Format: tar.FormatUSTAR}
		if err := w.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(files[i+1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// fixChecksum recomputes the checksum of the header at off.
func fixChecksum(b []byte, off int) {
	h := b[off : off+512]
	copy(h[148:156], "        ")
	sum := 0
	for _, c := range h {
		sum += int(c)
	}
	copy(h[148:156], fmt.Sprintf("%06o\x00 ", sum))
}

func TestTarChecksum(t *testing.T) {
	s := compile(t, "tar", "tar.isla", tarPredicates)
	one := makeTar(t, "hello.txt", "hello world\n")
	three := makeTar(t, "a.txt", "A", "dir/b.txt", strings.Repeat("b", 600), "c", "")
	for name, in := range map[string][]byte{"one entry": one, "three entries": three, "empty archive": makeTar(t)} {
		r, err := s.Check(in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !r.Valid {
			t.Errorf("%s: want valid, got %s", name, r)
		}
	}
	// The three-entry archive is ambiguous (later headers can be data of
	// earlier entries); tar_size singles out the right derivation.
	if r, _ := s.Check(three); r.Total < 2 {
		t.Errorf("three entries: want an ambiguous parse, got %d derivations", r.Total)
	}

	corrupt := func(f func(b []byte)) []byte {
		b := bytes.Clone(one)
		f(b)
		return b
	}
	for name, tc := range map[string]struct {
		in   []byte
		want string
	}{
		"checksum digit": {corrupt(func(b []byte) { b[150]++ }), "tar_checksum(header, checksum)"},
		"name byte":      {corrupt(func(b []byte) { b[0] = 'j' }), `header = "jello.txt`},
		"size field, checksum fixed": {corrupt(func(b []byte) {
			copy(b[124:136], "00000002000\x00")
			fixChecksum(b, 0)
		}), "tar_size(entry)"},
		"mode field, checksum fixed": {corrupt(func(b []byte) {
			copy(b[100:108], "\x00\x00\x00\x00\x00\x00\x00\x00")
			fixChecksum(b, 0)
		}), `file_mode = "\x00\x00\x00\x00\x00\x00\x00\x00"`},
	} {
		r, err := s.Check(tc.in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.Valid {
			t.Errorf("%s: want invalid", name)
			continue
		}
		if got := r.String(); !strings.Contains(got, tc.want) {
			t.Errorf("%s: failure report lacks %q:\n%s", name, tc.want, got)
		}
	}
}

// The simplified and the core balance constraints mean the same.
func TestXMLBalanceListingsAgree(t *testing.T) {
	core := compile(t, "xml", "xml-balance.isla")
	simple := compile(t, "xml", "xml-balance-simplified.isla")
	n := 400
	if testing.Short() {
		n = 100
	}
	valid := 0
	for i, in := range xmlInputs(t, 7, n) {
		a, err := core.Check(in)
		if err != nil {
			t.Fatal(err)
		}
		b, err := simple.Check(in)
		if err != nil {
			t.Fatal(err)
		}
		if a.Valid != b.Valid {
			t.Fatalf("input %d %q: Listing 2 says %v, Listing 1 says %v", i, in, a.Valid, b.Valid)
		}
		if a.Valid {
			valid++
		}
	}
	if valid == 0 || valid == 2*n {
		t.Errorf("want both valid and invalid inputs, got %d valid of %d", valid, 2*n)
	}
}

var _ = isla.Equal
