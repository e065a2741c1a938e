package grammar

import (
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"
)

// FuzzEarley parses arbitrary inputs with arbitrary grammars written in the
// notation: the parser must not panic or hang (MaxItems bounds the work),
// Parse and Recognize must agree, forests must yield valid trees of the
// input, and on short inputs with small grammars everything must agree with
// brute-force counting.
func FuzzEarley(f *testing.F) {
	for _, name := range BuiltinNames() {
		src, err := BuiltinSource(name)
		if err != nil {
			f.Fatal(err)
		}
		tr, err := NewGenerator(MustCompile(MustBuiltin(name)), 1).Generate()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src), tr.Bytes())
	}
	f.Add(`<s> ::= <s> <s> | "a" | "" ;`, []byte("aaa"))
	f.Add(`<s> ::= <s> | "a" | <s> "" ;`, []byte("a"))
	f.Add(`<s> ::= <l> "ac" ; <l> ::= "ab" <l> | "" ;`, []byte("ababac"))
	f.Add(`<s> ::= [^x]{2,3} [\x80-\xff]? ;`, []byte("é\xff"))
	f.Add(`<s> ::= ("" | "a"){0,3} ("a" | "aa")* ;`, []byte("aaaa"))
	f.Fuzz(func(t *testing.T, grammar string, input []byte) {
		p := fuzzParser(grammar, input)
		if p == nil {
			return
		}
		gr := p.Graph()
		pt, err := gr.PathTable(2)
		if err != nil {
			return
		}
		if len(input) <= 6 && len(gr.Nodes) <= 60 {
			if err := compareBrute(p, pt, string(input)); err != nil {
				t.Fatalf("%q: %v", input, err)
			}
			return
		}
		forest, err := p.Parse(input)
		rerr := p.Recognize(input)
		if errors.Is(err, ErrItemLimit) || errors.Is(rerr, ErrItemLimit) {
			return
		}
		if (err == nil) != (rerr == nil) {
			t.Fatalf("Parse error %v, Recognize error %v", err, rerr)
		}
		var se *SyntaxError
		switch {
		case errors.As(err, &se):
			if se.Offset < 0 || se.Offset > len(input) || se.Line < 1 || se.Col < 1 || se.Col > se.Offset+1 {
				t.Fatalf("bad position in %v (offset %d)", se, se.Offset)
			}
			return
		case err != nil:
			t.Fatalf("unexpected error %v", err)
		}
		if countOf(forest) == 0 {
			t.Fatal("Count() = 0 for an accepted input")
		}
		for i, tr := range forest.Trees(3) {
			if tr.String() != string(input) {
				t.Fatalf("tree %d derives %q", i, tr.String())
			}
			if err := checkTree(tr); err != nil {
				t.Fatalf("tree %d: %v", i, err)
			}
		}
		if countOf(forest) == 1 && !pt.ForestPaths(forest).equal(pt.Paths(forest.Tree())) {
			t.Fatal("forest k-paths differ from the tree's")
		}
		// A parse into a recycled forest's memory gives the same forest,
		// and the trees taken from the recycled one stay intact.
		first, count := forest.Tree(), countOf(forest)
		outline := first.Outline()
		p.Recycle(forest)
		again, err := p.Parse(input)
		if err != nil {
			t.Fatalf("parse after Recycle: %v", err)
		}
		if countOf(again) != count {
			t.Fatalf("Count() = %d after Recycle, %d before", countOf(again), count)
		}
		var buf TreeBuffer
		if in := again.TreeIn(&buf); !in.Equal(first) {
			t.Fatalf("TreeIn after Recycle:\n%s\nbefore:\n%s", in.Outline(), outline)
		}
		if first.Outline() != outline {
			t.Fatal("a tree taken from a recycled forest changed")
		}
	})
}

// fuzzParser returns a parser of grammar source src with an item limit
// for fuzzing, or nil if the grammar or input is too large or the grammar
// does not compile.
func fuzzParser(src string, input []byte) *Parser {
	if len(src) > 2000 || len(input) > 300 {
		return nil
	}
	gr := fuzzGraph(src)
	if gr == nil {
		return nil
	}
	p, err := NewParser(gr, MaxItems(1<<17))
	if err != nil {
		return nil // the grammar is too large once quantifiers are expanded
	}
	return p
}

// fuzzGraph returns the graph of grammar source src, or nil if it does not
// compile.
func fuzzGraph(src string) *Graph {
	g, err := Parse("fuzz.bnf", []byte(src))
	if err != nil {
		return nil
	}
	gr, err := Compile(g)
	if err != nil {
		return nil
	}
	return gr
}

// FuzzEarleyJSON checks the json grammar against encoding/json.Valid on
// arbitrary bytes. They differ only where json.Valid does not check UTF-8
// and where it limits nesting (see jsonValidDifferences).
func FuzzEarleyJSON(f *testing.F) {
	f.Add([]byte(`{"a":[1,2.5e-3,"x\u00e9",true,null]}`))
	f.Add([]byte(`[1,]`))
	f.Add([]byte("\"\xff\""))
	f.Add([]byte(` -0.0E+1 `))
	p, err := NewParser(MustCompile(MustBuiltin("json")))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		got := p.Recognize(in) == nil
		if !utf8.Valid(in) {
			if got {
				t.Fatalf("%q: the json grammar accepts invalid UTF-8", in)
			}
			return
		}
		if want := json.Valid(in); got != want && !(got && depth(in) > 10000) {
			t.Fatalf("%q: json grammar %v, json.Valid %v", in, got, want)
		}
	})
}

// depth returns the deepest nesting of brackets in in, ignoring strings.
func depth(in []byte) int {
	d, most, str, esc := 0, 0, false, false
	for _, c := range in {
		switch {
		case esc:
			esc = false
		case str && c == '\\':
			esc = true
		case c == '"':
			str = !str
		case !str && (c == '[' || c == '{'):
			d++
			most = max(most, d)
		case !str && (c == ']' || c == '}'):
			d--
		}
	}
	return most
}
