package fuzzharness

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// builtinGraphs compiles every built-in grammar.
func builtinGraphs(t testing.TB) map[string]*grammar.Graph {
	t.Helper()
	graphs := map[string]*grammar.Graph{}
	for _, name := range grammar.BuiltinNames() {
		g, err := grammar.Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		gr, err := grammar.Compile(g)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		graphs[name] = gr
	}
	return graphs
}

func mustGraph(t testing.TB, src string) *grammar.Graph {
	t.Helper()
	g, err := grammar.Parse("test.bnf", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	gr, err := grammar.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	return gr
}

// checkBounds fails if the tree is incomplete or exceeds b.
func checkBounds(t *testing.T, tr *grammar.Tree, b Bounds) {
	t.Helper()
	if !tr.Complete() {
		t.Fatalf("tree of %q is incomplete", tr)
	}
	if d := tr.Depth(); d > b.MaxDepth {
		t.Fatalf("tree of %q has depth %d > %d", tr, d, b.MaxDepth)
	}
	if s := tr.Size(); s > b.MaxSize {
		t.Fatalf("tree of %q has size %d > %d", tr, s, b.MaxSize)
	}
	tr.Walk(func(u *grammar.Tree) bool {
		if u.Node.Kind == grammar.KindRepeat && len(u.Children) > u.Node.Min+b.MaxRepeat {
			t.Fatalf("tree of %q: %s repeats %d times, more than %d+%d", tr, u.Node, len(u.Children), u.Node.Min, b.MaxRepeat)
		}
		return true
	})
}

// checkWellFormed fails if the tree is not a derivation of its graph.
func checkWellFormed(t *testing.T, tr *grammar.Tree) {
	t.Helper()
	tr.Walk(func(u *grammar.Tree) bool {
		n := u.Node
		switch n.Kind {
		case grammar.KindLit:
			if u.Value != n.Lit {
				t.Fatalf("literal %s has value %q", n, u.Value)
			}
		case grammar.KindClass:
			var r rune
			if n.Class.Bytes {
				if len(u.Value) != 1 {
					t.Fatalf("byte class %s has value %q", n, u.Value)
				}
				r = rune(u.Value[0])
			} else {
				r = []rune(u.Value)[0]
				if string(r) != u.Value {
					t.Fatalf("class %s has value %q", n, u.Value)
				}
			}
			in := false
			for _, rg := range n.Class.Set() {
				in = in || (rg.Lo <= r && r <= rg.Hi)
			}
			if !in {
				t.Fatalf("class %s has value %q, not a member", n, u.Value)
			}
		case grammar.KindRef, grammar.KindSeq:
			if len(u.Children) != len(n.Children) {
				t.Fatalf("%s has %d children", n, len(u.Children))
			}
			for i, c := range u.Children {
				if c.Node != n.Children[i] {
					t.Fatalf("%s child %d is %s", n, i, c.Node)
				}
			}
		case grammar.KindAlt:
			if len(u.Children) != 1 {
				t.Fatalf("%s has %d children", n, len(u.Children))
			}
		case grammar.KindRepeat:
			if len(u.Children) < n.Min || (n.Max != grammar.Unbounded && len(u.Children) > n.Max) {
				t.Fatalf("%s has %d children", n, len(u.Children))
			}
		}
		return true
	})
}

func roundTrip(t *testing.T, c *Codec, tr *grammar.Tree) []byte {
	t.Helper()
	data, err := c.Encode(tr)
	if err != nil {
		t.Fatalf("Encode(%q): %v", tr, err)
	}
	in := c.Decode(data)
	if !in.Tree().Equal(tr) {
		t.Fatalf("Decode(Encode(t)) differs from t:\nt:\n%s\ngot:\n%s", tr.Outline(), in.Tree().Outline())
	}
	if in.String() != tr.String() || string(in.Bytes()) != tr.String() {
		t.Fatalf("Decode(Encode(t)).String() = %q, want %q", in.String(), tr.String())
	}
	if len(data) > 0 && data[len(data)-1] == 0 {
		t.Fatalf("Encode(%q) = %x ends in a zero byte", tr, data)
	}
	return data
}

// boundsVariants returns the default bounds for gr, tight bounds, and loose
// ones.
func boundsVariants(t testing.TB, gr *grammar.Graph) []Bounds {
	t.Helper()
	c, err := NewCodec(gr)
	if err != nil {
		t.Fatal(err)
	}
	d := c.Bounds()
	return []Bounds{
		d,
		{MaxDepth: gr.Root.MinDepth + 2, MaxSize: 2*gr.Root.MinSize + 40, MaxRepeat: 2},
		{MaxDepth: d.MaxDepth + 16, MaxSize: 10 * d.MaxSize, MaxRepeat: 40},
	}
}

func TestRoundTripGenerated(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 50
	}
	for name, gr := range builtinGraphs(t) {
		for _, b := range boundsVariants(t, gr) {
			c, err := NewCodec(gr, WithBounds(b))
			if err != nil {
				t.Fatalf("%s %+v: %v", name, b, err)
			}
			gen := grammar.NewGenerator(gr, 1)
			gen.MaxDepth, gen.MaxSize, gen.MaxRepeat = b.MaxDepth, b.MaxSize, b.MaxRepeat
			// n trees, or fewer if they are large.
			for i, nodes := 0, 0; i < n && nodes < 400*n; i++ {
				tr, err := gen.Generate()
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				roundTrip(t, c, tr)
				nodes += tr.Size()
			}
		}
	}
}

func TestRoundTripKPathTrees(t *testing.T) {
	for name, gr := range builtinGraphs(t) {
		c, err := NewCodec(gr)
		if err != nil {
			t.Fatal(err)
		}
		for k := 1; k <= 2; k++ {
			forest, err := gr.KPathTrees(k, nil)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, tr := range forest {
				roundTrip(t, c, tr)
			}
		}
	}
}

// TestRoundTripParsed parses generated inputs and checks that their trees
// encode and decode back to the same input.
func TestRoundTripParsed(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 40
	}
	for name, gr := range builtinGraphs(t) {
		c, err := NewCodec(gr)
		if err != nil {
			t.Fatal(err)
		}
		parser, err := grammar.NewParser(gr)
		if err != nil {
			t.Fatal(err)
		}
		gen := grammar.NewGenerator(gr, 3)
		b := c.Bounds()
		gen.MaxDepth, gen.MaxSize, gen.MaxRepeat = b.MaxDepth, b.MaxSize, b.MaxRepeat
		outside := 0
		for range n {
			want, err := gen.Generate()
			if err != nil {
				t.Fatal(err)
			}
			tr, err := c.Parse(want.String())
			var ee *EncodeError
			if errors.As(err, &ee) && ee.Bounds {
				// The generated tree is within the bounds, but of an
				// ambiguous input the parser may pick another derivation
				// that is not.
				if f, perr := parser.Parse(want.Bytes()); perr != nil || !f.Ambiguous() {
					t.Fatalf("%s: Parse(%q) of an unambiguous input: %v", name, want, err)
				}
				outside++
				continue
			}
			if err != nil {
				t.Fatalf("%s: Parse(%q): %v", name, want, err)
			}
			roundTrip(t, c, tr)
			if tr.String() != want.String() {
				t.Fatalf("%s: Parse(%q) derives %q", name, want, tr)
			}
		}
		if outside > n/4 {
			t.Errorf("%s: %d of %d ambiguous inputs parsed to trees outside the bounds", name, outside, n)
		} else if outside > 0 {
			t.Logf("%s: %d of %d ambiguous inputs parsed to trees outside the bounds", name, outside, n)
		}
	}
}

func TestParseErrors(t *testing.T) {
	c, err := NewCodec(exprGraph, WithMaxRepeat(2))
	if err != nil {
		t.Fatal(err)
	}
	var se *grammar.SyntaxError
	if _, err := c.Parse("1+"); !errors.As(err, &se) || se.Offset != 2 {
		t.Errorf("Parse(1+) = %v, want a syntax error at offset 2", err)
	}
	var ee *EncodeError
	if _, err := c.Parse("1234"); !errors.As(err, &ee) || !ee.Bounds || !strings.Contains(err.Error(), "raise the bounds") {
		t.Errorf("Parse(1234) with MaxRepeat 2 = %v, want a bounds error", err)
	}
	if tr, err := c.Parse("123"); err != nil || tr.String() != "123" {
		t.Errorf("Parse(123) = %v, %v", tr, err)
	}
}

func TestDecodeRandom(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 100
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for name, gr := range builtinGraphs(t) {
		for _, b := range boundsVariants(t, gr)[:2] {
			c, err := NewCodec(gr, WithBounds(b))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			parser, err := grammar.NewParser(gr)
			if err != nil {
				t.Fatal(err)
			}
			for i, nodes := 0, 0; i < n && nodes < 400*n; i++ {
				data := make([]byte, rng.IntN(2000))
				for i := range data {
					data[i] = byte(rng.Uint32())
				}
				in := c.Decode(data)
				nodes += in.Tree().Size()
				checkBounds(t, in.Tree(), b)
				checkWellFormed(t, in.Tree())
				if in.String() != in.Tree().String() {
					t.Fatalf("%s: String %q, tree derives %q", name, in.String(), in.Tree().String())
				}
				roundTrip(t, c, in.Tree())
				// Decoding the text alone makes the same decisions, and
				// the tree built later is the same.
				lazy := c.decodeText(data)
				if lazy.String() != in.String() || string(lazy.Bytes()) != in.String() || lazy.Used() != in.Used() || !lazy.Tree().Equal(in.Tree()) || lazy.Tree() != lazy.Tree() {
					t.Fatalf("%s: decodeText gives %q (used %d), Decode %q (used %d)", name, lazy, lazy.Used(), in, in.Used())
				}
				if err := parser.Recognize(in.Bytes()); err != nil {
					t.Fatalf("%s: the decoded input %q does not parse: %v", name, in, err)
				}
				// The bytes after Used do not matter.
				tail := make([]byte, in.Used(), in.Used()+3)
				copy(tail, data)
				tail = append(tail, 0xff, 0x17, 0x80)
				if again := c.Decode(tail); !again.Tree().Equal(in.Tree()) {
					t.Fatalf("%s: changing the bytes after Used changed %q to %q", name, in, again)
				}
			}
		}
	}
}

// TestShortestCloseOff checks that no bytes decode to the shortest tree and
// that running out of bytes closes the tree with the shortest completion.
func TestShortestCloseOff(t *testing.T) {
	for name, gr := range builtinGraphs(t) {
		c, err := NewCodec(gr)
		if err != nil {
			t.Fatal(err)
		}
		want := grammar.Shortest(gr.Root)
		if got := c.Decode(nil).Tree(); !got.Equal(want) {
			t.Errorf("%s: Decode(nil) = %q, want the shortest tree %q", name, got, want)
		}
		if data, err := c.Encode(want); err != nil || len(data) != 0 {
			t.Errorf("%s: Encode(shortest) = %x, %v; want no bytes", name, data, err)
		}
		if got := c.Decode([]byte{0, 0, 0, 0}).Tree(); !got.Equal(want) {
			t.Errorf("%s: Decode(zeros) = %q, want %q", name, got, want)
		}
	}
}

// TestStableAddressing checks that changing the byte of a decision that does
// not change the tree's shape changes that decision only.
func TestStableAddressing(t *testing.T) {
	gr := mustGraph(t, `<start> ::= <d> <d> <d> ; <d> ::= [0-9] ;`)
	c, err := NewCodec(gr)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Decode([]byte{1, 2, 3}).String(); got != "123" {
		t.Fatalf("Decode(1 2 3) = %q", got)
	}
	if got := c.Decode([]byte{1, 9, 3}).String(); got != "193" {
		t.Fatalf("Decode(1 9 3) = %q", got)
	}
	if got := c.Decode([]byte{1, 2}).String(); got != "120" {
		t.Fatalf("Decode(1 2) = %q, want the missing digit closed off as 0", got)
	}
	// Values wrap around the number of options.
	if got := c.Decode([]byte{11, 22, 33}).String(); got != "123" {
		t.Fatalf("Decode(11 22 33) = %q", got)
	}
}

// TestWideClass checks that every member of a class with more than 65536
// members can be encoded and that a decision reads three bytes.
func TestWideClass(t *testing.T) {
	gr := mustGraph(t, `<start> ::= [^a] "!" [ab] ;`)
	c, err := NewCodec(gr)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []rune{0, 'b', 0x7f, 0x80, 0xd7ff, 0xe000, 0xfffd, 0x10000, 0x10ffff} {
		s := string(r) + "!b"
		tr := c.Decode(nil).Tree()
		tr.Children[0].Value = string(r)
		tr.Children[2].Value = "b"
		data := roundTrip(t, c, tr)
		if len(data) != 4 {
			t.Errorf("%q encodes to %d bytes %x, want 3 for the class and 1 for [ab]", s, len(data), data)
		}
	}
	for _, bad := range []string{"a", "\xff", "ab", "\xed\xa0\x80"} {
		tr := c.Decode(nil).Tree()
		tr.Children[0].Value = bad
		var ee *EncodeError
		if _, err := c.Encode(tr); !errors.As(err, &ee) || ee.Bounds {
			t.Errorf("Encode with class value %q: %v, want a non-bounds EncodeError", bad, err)
		}
	}
}

func TestByteClass(t *testing.T) {
	gr := mustGraph(t, `<start> ::= [\x80-\xff] [^\x00\x80] ;`)
	c, err := NewCodec(gr)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Decode([]byte{0x7f, 0}).String(); got != "\xff\x01" {
		t.Fatalf("Decode = %q", got)
	}
	for _, tc := range []struct {
		data []byte
		want string
	}{
		{[]byte{3, 126}, "\x83\x7f"},
		{[]byte{3, 127}, "\x83\x81"},
		{[]byte{3, 253}, "\x83\xff"},
		{[]byte{3, 254}, "\x83\x01"},
	} {
		tr := c.Decode(tc.data).Tree()
		if tr.String() != tc.want {
			t.Errorf("Decode(%x) = %q, want %q", tc.data, tr, tc.want)
		}
		roundTrip(t, c, tr)
	}
}

func TestBoundsHold(t *testing.T) {
	gr := mustGraph(t, `<start> ::= "(" <start> ")" | <start> "+" <start> | "x" | [a-z]{2,} ;`)
	for _, b := range []Bounds{{0, 10, 0, 0}, {1, 5, 1, 0}, {3, 30, 5, 0}, {10, 100, 100, 0}} {
		c, err := NewCodec(gr, WithBounds(b))
		if err != nil {
			t.Fatalf("%+v: %v", b, err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for range 2000 {
			data := make([]byte, rng.IntN(100))
			for i := range data {
				data[i] = byte(rng.Uint32())
			}
			in := c.Decode(data)
			checkBounds(t, in.Tree(), b)
			roundTrip(t, c, in.Tree())
		}
	}
}

func TestEncodeErrors(t *testing.T) {
	gr := mustGraph(t, `<start> ::= "(" <start> ")" | <x> ; <x> ::= "x"+ ;`)
	c, err := NewCodec(gr, WithMaxDepth(3), WithMaxRepeat(2), WithMaxSize(100))
	if err != nil {
		t.Fatal(err)
	}
	big, err := NewCodec(gr, WithMaxDepth(10), WithMaxRepeat(10), WithMaxSize(1000))
	if err != nil {
		t.Fatal(err)
	}
	// A tree built by the bigger codec: deep and with many repetitions.
	deep := big.Decode([]byte{1, 1, 1, 1, 0, 0}).Tree()
	long := big.Decode([]byte{0, 5}).Tree()
	if deep.Depth() <= 3 || !strings.Contains(long.String(), "xxxx") {
		t.Fatalf("test trees %q (depth %d) and %q not as intended", deep, deep.Depth(), long)
	}
	for _, tc := range []struct {
		tree *grammar.Tree
		want string
	}{
		{deep, "MaxDepth 3"},
		{long, "MaxRepeat 2"},
		{grammar.NewOpen(gr.Root), "open"},
		{&grammar.Tree{Node: gr.Nodes[1]}, "not rooted"},
	} {
		_, err := c.Encode(tc.tree)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Encode(%q) = %v, want an error about %q", tc.tree, err, tc.want)
		}
	}
	var ee *EncodeError
	if _, err := c.Encode(long); !errors.As(err, &ee) || !ee.Bounds || ee.Offset != 0 {
		t.Errorf("Encode(long) error %#v, want a bounds error at offset 0", err)
	}
	// Another graph's tree.
	other := mustGraph(t, `<start> ::= "(" <start> ")" | <x> ; <x> ::= "x"+ ;`)
	oc, _ := NewCodec(other)
	if _, err := c.Encode(oc.Decode(nil).Tree()); err == nil {
		t.Error("Encode accepted a tree of another graph")
	}
	if _, err := c.Encode(nil); err == nil {
		t.Error("Encode(nil) succeeded")
	}
}

func TestNewCodecErrors(t *testing.T) {
	gr := mustGraph(t, `<start> ::= "(" <a> ")" ; <a> ::= <b> <b> <b> ; <b> ::= "b" ;`)
	for _, tc := range []struct {
		opts []Option
		want string
	}{
		{[]Option{WithMaxDepth(1)}, "no tree within MaxDepth 1"},
		{[]Option{WithMaxSize(10)}, "has 11 nodes, more than MaxSize 10"},
		{[]Option{WithMaxDepth(-1)}, "negative"},
		{[]Option{WithMaxRepeat(-1)}, "negative"},
		{[]Option{WithMaxSize(0)}, "at least 1"},
	} {
		if _, err := NewCodec(gr, tc.opts...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewCodec: %v, want error containing %q", err, tc.want)
		}
	}
	if _, err := NewCodec(gr, WithMaxDepth(2), WithMaxSize(11)); err != nil {
		t.Errorf("NewCodec with exactly enough room: %v", err)
	}
	if _, err := NewCodec(nil); err == nil {
		t.Error("NewCodec(nil) succeeded")
	}
}

// FuzzDecode checks the codec on arbitrary bytes for the json and expr
// grammars, with the default bounds and with tight ones: the input is a
// complete tree within the bounds, in the language, and encodes back to
// bytes that decode to the same tree.
func FuzzDecode(f *testing.F) {
	type subject struct {
		c      *Codec
		b      Bounds
		parser *grammar.Parser
	}
	var subjects []subject
	for _, name := range []string{"json", "expr"} {
		gr := grammar.MustCompile(grammar.MustBuiltin(name))
		parser, err := grammar.NewParser(gr)
		if err != nil {
			f.Fatal(err)
		}
		for _, b := range []Bounds{{DefaultMaxDepth, DefaultMaxSize, DefaultMaxRepeat, 0}, {5, 40, 2, 0}} {
			c, err := NewCodec(gr, WithBounds(b))
			if err != nil {
				f.Fatal(err)
			}
			subjects = append(subjects, subject{c, b, parser})
		}
	}
	// With byte edits, the tree is the one without them, and the text is at
	// most two edits from the tree's.
	plain := subjects[0].c
	edits, err := NewCodec(plain.graph, WithBounds(plain.bounds), WithMaxEdits(2))
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte{})
	f.Add([]byte{0x01, 0x00, 0x00, 0x06, 0x00, 0x07})
	f.Add([]byte("\xff\xfe\x80\x00\x17{\"a\":[1,2]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, ref := edits.Decode(data), plain.Decode(data)
		if !in.Tree().Equal(ref.Tree()) || in.Original() != ref.String() {
			t.Fatalf("with edits: tree %s, original %q; without: %q", in.Tree(), in.Original(), ref)
		}
		if d := len(in.String()) - len(ref.String()); d < -2 || d > 2 || in.Edited() == (in.String() == ref.String()) {
			t.Fatalf("with edits %q (edited %v), without %q", in, in.Edited(), ref)
		}
		if lazy := edits.decodeText(data); lazy.String() != in.String() || lazy.Edited() != in.Edited() {
			t.Fatalf("decodeText = %q, Decode = %q", lazy, in)
		}
		for _, s := range subjects {
			in := s.c.Decode(data)
			checkBounds(t, in.Tree(), s.b)
			checkWellFormed(t, in.Tree())
			roundTrip(t, s.c, in.Tree())
			if lazy := s.c.decodeText(data); lazy.String() != in.String() {
				t.Fatalf("decodeText = %q, Decode = %q", lazy, in)
			}
			if err := s.parser.Recognize(in.Bytes()); err != nil {
				t.Fatalf("%q does not parse: %v", in, err)
			}
		}
	})
}
