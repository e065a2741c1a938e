package mineeval_test

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/mineeval"
)

// fuzzGrammar returns the grammar named by the environment variable
// mineeval.GrammarEnv, or else the subject's reference grammar. kfuzz eval
// mine -cover runs the fuzz tests below once with each, for the same time,
// and compares the statement coverage of the parser.
func fuzzGrammar(f *testing.F, subject string) *grammar.Grammar {
	if path := os.Getenv(mineeval.GrammarEnv); path != "" {
		g, err := grammar.Load(path)
		if err != nil {
			f.Fatal(err)
		}
		return g
	}
	s, err := mineeval.Lookup(subject)
	if err != nil {
		f.Fatal(err)
	}
	g, err := s.Grammar()
	if err != nil {
		f.Fatal(err)
	}
	return g
}

// fuzzOptions are the harness options of both fuzz tests, whatever the
// grammar: the default seeds (the grammar's k-path covering forest) and up
// to two byte edits of each input, as the examples' grammar-aware fuzz tests
// use, so that a precise grammar reaches the parser's error handling too.
var fuzzOptions = []fuzzharness.Option{fuzzharness.WithMaxEdits(2)}

// FuzzURLGrammar drives net/url with inputs of a URL grammar (see
// fuzzGrammar). A URL that parses must print to text that parses again.
func FuzzURLGrammar(f *testing.F) {
	fuzzharness.New(f, fuzzGrammar(f, "url"), fuzzOptions...).FuzzString(func(t *testing.T, s string) {
		u, err := url.Parse(s)
		if err != nil {
			return
		}
		_, _, _ = u.Hostname(), u.Port(), u.EscapedPath()
		_, _ = u.Redacted(), u.RequestURI()
		_, _ = url.ParseQuery(u.RawQuery)
		_ = u.ResolveReference(&url.URL{Path: "../x"})
		if _, err := url.Parse(u.String()); err != nil {
			t.Fatalf("Parse(%q) succeeds, but not Parse of its String %q: %v", s, u.String(), err)
		}
	})
}

// FuzzJSONGrammar drives encoding/json with inputs of a JSON grammar (see
// fuzzGrammar). A valid document must decode, and encode back.
func FuzzJSONGrammar(f *testing.F) {
	fuzzharness.New(f, fuzzGrammar(f, "json"), fuzzOptions...).Fuzz(func(t *testing.T, in fuzzharness.Input) {
		b := in.Bytes()
		if !json.Valid(b) {
			return
		}
		// Numbers as json.Number: a valid number such as 1e400 does not
		// fit a float64.
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("Valid(%q), but Decode: %v", b, err)
		}
		if _, err := json.Marshal(v); err != nil {
			t.Fatalf("Marshal(Unmarshal(%q)): %v", b, err)
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, b); err != nil {
			t.Fatalf("Compact(%q): %v", b, err)
		}
		buf.Reset()
		if err := json.Indent(&buf, b, "", "  "); err != nil {
			t.Fatalf("Indent(%q): %v", b, err)
		}
	})
}
