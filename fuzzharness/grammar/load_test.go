package grammar

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
)

func TestParseAnyAndLoad(t *testing.T) {
	for _, src := range []string{`{"<a>": ["x"]}`, " \n\t{\"<a>\": [\"x\"]}", "\uFEFF{\"<a>\": [\"x\"]}", `<a> ::= "x" ;`, "\uFEFF<a> ::= \"x\""} {
		g, err := ParseAny("f", []byte(src))
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if !EqualExpr(g.Rules[0].Expr, xLit("x")) || g.Start != "a" {
			t.Errorf("%q: got %s", src, g)
		}
	}
	// The error says which form was tried.
	if _, err := ParseAny("f", []byte(` {"<a>": 1}`)); err == nil || !strings.Contains(err.Error(), "expected an array of expansions") {
		t.Errorf("JSON error: %v", err)
	}
	if _, err := ParseAny("f", []byte(`<a> = "x"`)); err == nil || !strings.Contains(err.Error(), "expected '::='") {
		t.Errorf("notation error: %v", err)
	}
	if _, err := Load("testdata/no-such-file.bnf"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load of a missing file: %v", err)
	}
}
