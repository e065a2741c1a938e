package main

import (
	"os"
	"path/filepath"
	"testing"
)

// -non-vacuous on the four XML constraints of ISLa's formalizations together
// gives inputs with a prefixed tag and a prefixed attribute, each declared
// by an enclosing element (or the element itself), and every one of them
// passes the oracle of kfuzz eval isla -formal: encoding/xml, strict, plus
// the namespace and attribute checks. Before the solver inserted elements
// around existing ones, it found none.
func TestISLASolveXMLNamespacesNonVacuous(t *testing.T) {
	formal := filepath.Join("..", "..", "fuzzharness", "isla", "testdata", "formal")
	args := []string{"solve", "-grammar", filepath.Join(formal, "xml.bnf")}
	for _, f := range []string{"xml-wellformedness.isla", "xml-no-attr-redef.isla", "xml-attribute-namespace.isla", "xml-tag-namespace.isla"} {
		args = append(args, "-constraint", filepath.Join(formal, f))
	}
	dir := t.TempDir()
	args = append(args, "-n", "5", "-non-vacuous", "-z3=false", "-time", "2m", "-o", dir)
	if _, errOut, code := runISLA(t, args...); code != 0 {
		t.Fatalf("code %d, err %q", code, errOut)
	}
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 5 {
		t.Fatalf("%d inputs, want 5", len(files))
	}
	for _, f := range files {
		in, err := os.ReadFile(filepath.Join(dir, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := formalXMLOracle(in, nil); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
}
