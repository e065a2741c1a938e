package grammar

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestTreeInReusesMemory checks that Forest.TreeIn builds the tree of
// Tree in a buffer's memory: trees built one after the other in the same
// buffer are Tree's, and once the buffer has grown the next tree allocates
// far less than Tree's does.
func TestTreeInReusesMemory(t *testing.T) {
	p := graphParser(t, MustCompile(MustBuiltin("json")))
	var buf TreeBuffer
	for _, in := range []string{`{"a": [1, 2, {"b": null}], "c": true}`, `[]`, `{"a": [1, 2, {"b": null}], "c": [false, 3]}`} {
		f, err := p.Parse([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		want := f.Tree()
		if got := f.TreeIn(&buf); !got.Equal(want) {
			t.Fatalf("%s: TreeIn:\n%s\nTree:\n%s", in, got.Outline(), want.Outline())
		}
	}
	f, err := p.Parse([]byte(`{"a": [1, 2, {"b": null}], "c": true}`))
	if err != nil {
		t.Fatal(err)
	}
	tree := testing.AllocsPerRun(20, func() { f.Tree() })
	in := testing.AllocsPerRun(20, func() { f.TreeIn(&buf) })
	if in > tree/4 {
		t.Errorf("TreeIn allocates %v times per tree, Tree %v", in, tree)
	}
}

// graphParser returns a parser for gr.
func graphParser(t testing.TB, gr *Graph) *Parser {
	t.Helper()
	p, err := NewParser(gr)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestParserRecycle checks that parses into the memory of recycled
// forests give the forests of a parser that recycles none (trees, counts,
// k-paths), on ambiguous and unambiguous grammars, and allocate less.
func TestParserRecycle(t *testing.T) {
	for _, name := range []string{"json", "expr", "scriptsizec", "xml"} {
		gr := MustCompile(MustBuiltin(name))
		recycling, fresh := graphParser(t, gr), graphParser(t, gr)
		pt, err := gr.PathTable(3)
		if err != nil {
			t.Fatal(err)
		}
		gen := NewGenerator(gr, 7)
		for i := range 100 {
			tr, err := gen.Generate()
			if err != nil {
				t.Fatal(err)
			}
			in := tr.Bytes()
			f, err := recycling.Parse(in)
			if err != nil {
				t.Fatal(err)
			}
			g, err := fresh.Parse(in)
			if err != nil {
				t.Fatal(err)
			}
			if !f.Tree().Equal(g.Tree()) || countOf(f) != countOf(g) || !pt.ForestPaths(f).equal(pt.ForestPaths(g)) {
				t.Fatalf("%s %d %q: the forest parsed after recycling differs", name, i, in)
			}
			recycling.Recycle(f)
		}
	}
	p := graphParser(t, MustCompile(MustBuiltin("json")))
	in := []byte(`{"a": [1, 2, {"b": null}], "c": [true, "x", 3.5e2]}`)
	bytesPer := func(recycle bool) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 100 {
			f, err := p.Parse(in)
			if err != nil {
				t.Fatal(err)
			}
			if recycle {
				p.Recycle(f)
			}
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / 100
	}
	bytesPer(true)
	if with, without := bytesPer(true), bytesPer(false); with > without/2 {
		t.Errorf("a parse allocates %d bytes after Recycle, %d without", with, without)
	}
}

// roundTripInputs is the number of generated inputs per built-in grammar
// that TestEarleyRoundTrip parses: KFUZZ_ROUNDTRIP if set (the full run
// uses 10000), otherwise 2000, or 200 with -short.
func roundTripInputs(t *testing.T) int {
	if s := os.Getenv("KFUZZ_ROUNDTRIP"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("KFUZZ_ROUNDTRIP=%q is not a positive number", s)
		}
		return n
	}
	if testing.Short() {
		return 200
	}
	return 2000
}

// TestEarleyRoundTrip parses inputs generated from every built-in grammar:
// each parses; where the input is unambiguous the parse tree is the
// generated tree and the forest's k-paths are the tree's; where it is
// ambiguous the generated tree is among the parse trees (if there are few)
// and its k-paths among the forest's.
func TestEarleyRoundTrip(t *testing.T) {
	n := roundTripInputs(t)
	for _, name := range BuiltinNames() {
		t.Run(name, func(t *testing.T) {
			gr := MustCompile(MustBuiltin(name))
			p, err := NewParser(gr)
			if err != nil {
				t.Fatal(err)
			}
			pt, err := gr.PathTable(4)
			if err != nil {
				t.Fatal(err)
			}
			gen := NewGenerator(gr, 42)
			var buf TreeBuffer
			ambiguous, failures := 0, 0
			for i := 0; i < n && failures < 5; i++ {
				tr, err := gen.Generate()
				if err != nil {
					t.Fatal(err)
				}
				in := tr.Bytes()
				fail := func(format string, args ...any) {
					t.Helper()
					failures++
					t.Errorf("input %d %q: "+format, append([]any{i, in}, args...)...)
				}
				f, err := p.Parse(in)
				if err != nil {
					fail("%v", err)
					continue
				}
				if err := p.Recognize(in); err != nil {
					fail("Recognize: %v", err)
				}
				got := f.Tree()
				if got.String() != string(in) {
					fail("the parse tree derives %q", got.String())
				}
				if err := checkTree(got); err != nil {
					fail("parse tree: %v", err)
				}
				if in := f.TreeIn(&buf); !in.Equal(got) {
					fail("TreeIn's tree differs from Tree's:\n%s\nTree:\n%s", in.Outline(), got.Outline())
				}
				fp := pt.ForestPaths(f)
				gp := pt.Paths(tr)
				if countOf(f) == 1 {
					if !got.Equal(tr) {
						fail("parse tree differs from the generated one:\n%s\ngenerated:\n%s", got.Outline(), tr.Outline())
					}
					if !fp.equal(gp) {
						fail("forest k-paths differ from the tree's")
					}
					continue
				}
				ambiguous++
				for _, id := range gp.IDs() {
					if !fp.Has(id) {
						fail("the forest lacks k-path %s of the generated tree", pt.Path(id).Format(gr))
						break
					}
				}
				if c := countOf(f); c <= 32 {
					trees := f.Trees(32)
					if len(trees) != int(c) {
						fail("Trees returned %d of %d trees", len(trees), c)
					}
					found := false
					union := pt.NewPathSet()
					for _, u := range trees {
						found = found || u.Equal(tr)
						pt.AddPaths(union, u)
					}
					if !found {
						fail("the generated tree is not among the %d parse trees", c)
					}
					if !union.equal(fp) {
						fail("forest k-paths differ from the union of the trees'")
					}
				}
			}
			t.Logf("%d inputs, %d ambiguous", n, ambiguous)
		})
	}
}

// TestForestPathsAmbiguous compares the k-paths of ambiguous forests with
// those of all their trees.
func TestForestPathsAmbiguous(t *testing.T) {
	tests := []struct {
		grammar, input string
	}{
		{`<e> ::= <e> "+" <e> | <e> "*" <e> | "(" <e> ")" | [0-9] ;`, "1+(2*3)+4*5"},
		{`<s> ::= <a> <b> | <b> <a> ; <a> ::= "x" | "" ; <b> ::= "x" | "" ;`, "x"},
		{`<s> ::= (<w> | <n>)* ; <w> ::= [a-z]+ ; <n> ::= [a-z0-9]+ ;`, "ab1c"},
		{`<s> ::= <x>{1,3} ; <x> ::= "a" | "aa" | <y> ; <y> ::= "a" "" ;`, "aaa"},
	}
	for _, tc := range tests {
		p := earleyParser(t, tc.grammar)
		f, err := p.Parse([]byte(tc.input))
		if err != nil {
			t.Fatal(err)
		}
		if countOf(f) < 2 || countOf(f) > 1000 {
			t.Fatalf("%s on %q: Count() = %d, want an ambiguous test", tc.grammar, tc.input, countOf(f))
		}
		trees := f.Trees(1000)
		if len(trees) != int(countOf(f)) {
			t.Fatalf("%s on %q: %d trees of %d", tc.grammar, tc.input, len(trees), countOf(f))
		}
		for k := 1; k <= 5; k++ {
			pt, err := p.Graph().PathTable(k)
			if err != nil {
				t.Fatal(err)
			}
			union := pt.NewPathSet()
			for _, u := range trees {
				pt.AddPaths(union, u)
			}
			if fp := pt.ForestPaths(f); !fp.equal(union) {
				t.Errorf("%s on %q, k=%d: forest paths %d, union of trees' %d", tc.grammar, tc.input, k, len(fp.IDs()), len(union.IDs()))
			}
			if ids := pt.ForestPathIDs(f); len(ids) != len(union.IDs()) {
				t.Errorf("ForestPathIDs returned %d IDs", len(ids))
			}
		}
	}
}

// TestForestPathsCyclic checks that k-paths of a cyclic forest terminate
// and include the paths that only trees with repeated cycles have.
func TestForestPathsCyclic(t *testing.T) {
	p := earleyParser(t, `<s> ::= <s> | "a" ;`)
	f, err := p.Parse([]byte("a"))
	if err != nil {
		t.Fatal(err)
	}
	gr := p.Graph()
	pt, err := gr.PathTable(4)
	if err != nil {
		t.Fatal(err)
	}
	fp := pt.ForestPaths(f)
	// <s> ::= <s> | "a": the only reference is the <s> inside the rule.
	var ref, lit int32 = -1, -1
	for _, n := range gr.Nodes {
		switch n.Kind {
		case KindRef:
			ref = int32(n.Sym)
		case KindLit:
			lit = int32(n.Sym)
		}
	}
	all := []KPath{{lit}, {ref}, {ref, lit}, {ref, ref}, {ref, ref, lit}, {ref, ref, ref}, {ref, ref, ref, lit}, {ref, ref, ref, ref}}
	for _, path := range all {
		id, ok := pt.ID(path)
		if !ok {
			t.Fatalf("no ID for %s", path.Format(gr))
		}
		if !fp.Has(id) {
			t.Errorf("forest lacks %s", path.Format(gr))
		}
	}
	if got := len(fp.IDs()); got != len(all) {
		t.Errorf("forest has %d paths, want %d", got, len(all))
	}
}

// TestForestLeoAmbiguous checks forests whose deterministic reduction
// paths (which Leo's optimization skips while parsing) end in ambiguous
// derivations: counts, trees and k-paths must all see the skipped items.
func TestForestLeoAmbiguous(t *testing.T) {
	p := earleyParser(t, `<s> ::= <l> "ac" ; <l> ::= <x> <l> | "" ; <x> ::= "ab" | "a" "b" ;`)
	const n = 10
	in := strings.Repeat("ab", n) + "ac"
	f, err := p.Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if countOf(f) != 1<<n {
		t.Fatalf("Count() = %d, want %d", countOf(f), 1<<n)
	}
	// The forest stays linear: one item per <l> and <x> over each span,
	// with two derivations for every <x>.
	if f.Size() > 12*len(in) {
		t.Errorf("forest size %d for %d bytes", f.Size(), len(in))
	}
	if c, inf := bruteCount(p.Graph(), p.Start(), in); c != 1<<n || inf {
		t.Fatalf("brute force: %d", c)
	}
	trees := f.Trees(2000)
	if len(trees) != 1<<n {
		t.Fatalf("Trees returned %d trees", len(trees))
	}
	pt, err := p.Graph().PathTable(3)
	if err != nil {
		t.Fatal(err)
	}
	union := pt.NewPathSet()
	seen := map[string]bool{}
	for i, tr := range trees {
		if tr.String() != in || checkTree(tr) != nil {
			t.Fatalf("tree %d is wrong", i)
		}
		var b strings.Builder
		tr.Format(&b, true)
		if seen[b.String()] {
			t.Fatalf("tree %d is a duplicate", i)
		}
		seen[b.String()] = true
		pt.AddPaths(union, tr)
	}
	if !pt.ForestPaths(f).equal(union) {
		t.Error("forest k-paths differ from the union of the trees'")
	}
}

// countOf returns the tree count of f, exact or not.
func countOf(f *Forest) uint64 {
	n, _ := f.Count()
	return n
}
