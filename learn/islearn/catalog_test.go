package islearn

import (
	"errors"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

func TestDefaultCatalog(t *testing.T) {
	ps := DefaultCatalog()
	want := []string{"def-use-scoped", "def-use", "balance", "equal-children", "length-at-least",
		"equal-count", "exists-inside", "exists-string", "fixed-string", "exists-string-inside", "internet-checksum", "def-use-params"}
	if len(ps) != len(want) {
		t.Fatalf("%d patterns, want %d", len(ps), len(want))
	}
	for i, p := range ps {
		if p.Name != want[i] {
			t.Errorf("pattern %d is %s, want %s", i, p.Name, want[i])
		}
		if strings.Contains(p.Formula, "#") {
			t.Errorf("pattern %s keeps a comment: %q", p.Name, p.Formula)
		}
	}
	if got := strings.Join(ps[2].Placeholders, " "); got != "open elem close name" {
		t.Errorf("balance placeholders %q", got)
	}
}

func TestParseCatalogErrors(t *testing.T) {
	src := `# a catalog
forall <x> y: true
pattern a
where {x} child
pattern a
where {s} textof {string}
forall <{s}> x: x = "{string}"
pattern b
`
	_, err := ParseCatalog("c.isc", []byte(src))
	if err == nil {
		t.Fatal("no error")
	}
	want := []string{
		`c.isc:2:1: expected pattern NAME`,
		`c.isc:3:1: pattern a has no formula`,
		`c.isc:4:1: expected where {a} child|in|!=|<|sharestext|textof|textsof|notextof {b}`,
		`c.isc:5:1: pattern a defined twice`,
		`c.isc:5:1: pattern a: string placeholder {string} needs a where {string} textof {...} line`,
		`c.isc:6:1: textof relates a {string} placeholder to a nonterminal placeholder`,
		`c.isc:8:1: pattern b has no formula`,
	}
	var list grammar.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %T, want grammar.ErrorList", err)
	}
	var got []string
	for _, e := range list {
		got = append(got, e.Error())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestInstantiateFilters(t *testing.T) {
	p, err := ParseCatalog("c.isc", []byte("pattern p\nwhere {a} child {b}\nwhere {string} textof {a}\nexists <{b}> x: x.<{a}> = \"{string}\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	fs := &facts{
		present: []string{"a", "b", "c"},
		child:   map[[2]string]bool{{"a", "b"}: true, {"c", "b"}: true},
		texts:   map[string][]string{"a": {`q"1`}, "c": {"z"}},
	}
	var got []string
	instantiate(p[0], fs, func(s string) error { got = append(got, s); return nil })
	want := []string{`exists <b> x: x.<a> = "q\"1"`, `exists <b> x: x.<c> = "z"`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("instances:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
