package grammar

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// jsonValidDifferences lists the corpus files on which encoding/json.Valid
// and RFC 8259 (and with it the json grammar) disagree, and why. Files
// named y_* are JSON texts by RFC 8259, n_* are not.
var jsonValidDifferences = map[string]string{
	"y_deep_array_10001.json": "json.Valid stops at 10000 levels of nesting; RFC 8259 (section 9) lets a parser limit nesting but the language has no limit",

	// RFC 8259 section 8.1: JSON text exchanged between systems is UTF-8;
	// the grammar's <unescaped> is a rune class, which matches only
	// well-formed UTF-8. json.Valid does not check UTF-8 in strings (Unmarshal
	// turns bad bytes into U+FFFD).
	"n_string_invalid_utf8_ff.json":           "json.Valid accepts the byte 0xFF in a string",
	"n_string_invalid_utf8_continuation.json": "json.Valid accepts a lone continuation byte in a string",
	"n_string_overlong_nul.json":              "json.Valid accepts an overlong encoding in a string",
	"n_string_overlong_slash.json":            "json.Valid accepts an overlong encoding in a string",
	"n_string_encoded_surrogate.json":         "json.Valid accepts a UTF-8 encoded surrogate half in a string",
	"n_string_truncated_utf8.json":            "json.Valid accepts a truncated UTF-8 sequence in a string",
	"n_string_above_max_codepoint.json":       "json.Valid accepts a 4-byte sequence above U+10FFFF in a string",
}

// TestEarleyJSONConformance parses a conformance corpus with the built-in
// json grammar and compares the verdicts with RFC 8259 (the file names) and
// with encoding/json.Valid. Lone surrogate escapes such as "\ud800" are
// valid for both: RFC 8259 section 8.2 allows them (with unpredictable
// meaning) and json.Valid checks escapes only for form.
func TestEarleyJSONConformance(t *testing.T) {
	files, err := filepath.Glob("testdata/parse-json/*.json")
	if err != nil || len(files) < 100 {
		t.Fatalf("corpus: %d files, %v", len(files), err)
	}
	gr := MustCompile(MustBuiltin("json"))
	p, err := NewParser(gr)
	if err != nil {
		t.Fatal(err)
	}
	pt, err := gr.PathTable(3)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, file := range files {
		name := filepath.Base(file)
		seen[name] = true
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		valid := strings.HasPrefix(name, "y_")
		if !valid && !strings.HasPrefix(name, "n_") {
			t.Errorf("%s: name must start with y_ or n_", name)
			continue
		}
		f, err := p.Parse(data)
		if got := err == nil; got != valid {
			t.Errorf("%s: the json grammar accepts: %v, want %v (%v)", name, got, valid, err)
		}
		if rerr := p.Recognize(data); (rerr == nil) != (err == nil) {
			t.Errorf("%s: Recognize and Parse disagree: %v, %v", name, rerr, err)
		}
		if err == nil {
			// Deeply nested documents too: nothing here recurses per level.
			tr := f.Tree()
			if countOf(f) != 1 {
				t.Errorf("%s: %d parses; the json grammar is unambiguous", name, countOf(f))
			}
			if tr.String() != string(data) || checkTree(tr) != nil {
				t.Errorf("%s: the parse tree is wrong", name)
			}
			if !pt.ForestPaths(f).equal(pt.Paths(tr)) {
				t.Errorf("%s: forest k-paths differ from the tree's", name)
			}
		}
		if err != nil && !valid && !strings.Contains(err.Error(), "unexpected") {
			t.Errorf("%s: error %q does not say what was unexpected", name, err)
		}
		why, differs := jsonValidDifferences[name]
		if got := json.Valid(data); differs {
			if got == valid {
				t.Errorf("%s: json.Valid now agrees with RFC 8259; drop the explanation %q", name, why)
			}
		} else if got != valid {
			t.Errorf("%s: json.Valid says %v, RFC 8259 %v, and no explanation is listed", name, got, valid)
		}
	}
	for name := range jsonValidDifferences {
		if !seen[name] {
			t.Errorf("explained difference %s is not in the corpus", name)
		}
	}
}

// TestEarleyJSONGenerated checks the json grammar against json.Valid on
// generated documents and on their one-byte corruptions.
func TestEarleyJSONGenerated(t *testing.T) {
	gr := MustCompile(MustBuiltin("json"))
	p, err := NewParser(gr)
	if err != nil {
		t.Fatal(err)
	}
	gen := NewGenerator(gr, 7)
	n := 500
	if testing.Short() {
		n = 100
	}
	for i := 0; i < n; i++ {
		tr, err := gen.Generate()
		if err != nil {
			t.Fatal(err)
		}
		in := tr.Bytes()
		if !json.Valid(in) {
			t.Fatalf("generated %q is not valid JSON", in)
		}
		// Corrupt one byte with a structural character, a letter or a
		// byte that is not UTF-8.
		for k, c := range []byte{',', ']', '}', '"', ':', 'x', '0', ' ', 0xff, '\\'} {
			pos := (i*31 + k*17) % len(in)
			bad := append([]byte(nil), in...)
			bad[pos] = c
			got := p.Recognize(bad) == nil
			if !utf8.Valid(bad) {
				// json.Valid does not check UTF-8; the grammar must reject.
				if got {
					t.Errorf("%q: the json grammar accepts invalid UTF-8", bad)
				}
				continue
			}
			if want := json.Valid(bad); got != want {
				t.Errorf("%q: json grammar %v, json.Valid %v", bad, got, want)
			}
		}
	}
}
