package isla_test

import (
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// namedPred is a semantic predicate with a given name.
type namedPred string

func (p namedPred) Name() string                { return string(p) }
func (namedPred) Params() []isla.Param          { return []isla.Param{isla.TreeParam} }
func (namedPred) Eval([]isla.Arg) (bool, error) { return true, nil }

// Compile reports errors against the grammar, with positions, before
// anything is evaluated.
func TestCompileErrors(t *testing.T) {
	xml := loadGraph(t, "xml")
	for _, tc := range []struct {
		src  string
		err  string
		opts []isla.Option
	}{
		{src: `forall <foo> x: true`, err: `c.isla:1:1: unknown nonterminal <foo>`},
		{src: `forall <id> i: forall <xml-tree> t in i: true`, err: `1:16: <xml-tree> cannot occur in <id> (the tree of i)`},
		{src: `forall <xml-tree> t="<{<idd> x}>": true`, err: `1:23: unknown nonterminal <idd> in match expression`},
		{src: `forall <id> t="{<xml-tree> x}": true`, err: `<xml-tree> cannot occur in <id>`},
		{src: `forall <xml-tree> t="{<id> x}{<id> x}": true`, err: `variable x bound twice`},
		{src: `forall <xml-tree> t="<{<id> a}><{<id> b}>": true`,
			err: `c.isla:1:21: match expression "<{<id> a}><{<id> b}>" can never match <xml-tree>`},
		{src: "true and\n  exists <xml-open-tag> t=\"<{<id> a}/>\" in start: true",
			err: `c.isla:2:27: match expression "<{<id> a}/>" can never match <xml-open-tag>`},
		{src: `<xml-tree>.<id> = "a"`, err: `1:12: <id> is never a direct child of <xml-tree>`},
		{src: `forall <id> i: str.len(i) = "a"`, err: `1:16: (= (str.len i) "a"): argument 2 is of sort String, argument 1 of sort Int`},
		{src: `forall <id> i: str.len(i)`, err: `formula (str.len i) is of sort Int, not Bool`},
		{src: `forall <id> i: str.at(i, "1") = "a"`, err: `argument 2 must be of sort Int, not String`},
		{src: `forall <id> i: str.in_re(i, "a")`, err: `argument 2 must be of sort RegLan, not String`},
		{src: `(= re.none re.none)`, err: `comparing regular expressions is not supported`},
		{src: `(and)`, err: `and needs at least 1 arguments`},
		{src: `(ite true 1 "a")`, err: `the branches of ite are of sorts Int and String`},
		{src: `(str.in_re "a" ((_ re.loop 1) re.allchar))`, err: `(_ re.loop) takes 2 indices and one argument`},
		{src: `(str.in_re "a" (re.loop re.allchar "1"))`, err: `the counts of re.loop must be of sort Int`},
		{src: `foo(start)`, err: `1:1: unknown predicate foo (known: after, before, consecutive, count,`},
		{src: `before(start)`, err: `before takes 2 arguments, not 1`},
		{src: `before("a", start)`, err: `argument 1 of before must be a variable bound to a tree`},
		{src: `exists int n: inside(n, start)`, err: `argument 1 of inside must be bound to a tree; n is a number`},
		{src: `count(start, "<nope>", 1)`, err: `count: "<nope>" is not a nonterminal of the grammar`},
		{src: `count(start, "<id>", "x")`, err: `argument 3 of count must be a number, not "x"`},
		{src: `level("XX", "<id>", start, start)`, err: `level: relation "XX" must be one of EQ, GE, LE, GT, LT`},
		{src: `level("EQ", "id", start, start)`, err: `level: "id" is not a nonterminal of the grammar`},
		{src: `nth(start, start, start)`, err: ``},
		{src: `const c: <nope>; true`, err: `1:1: the constant's type <nope> is not a nonterminal of the grammar`},
		{src: `before(start, start)`, opts: []isla.Option{isla.WithPredicates(namedPred("before"))},
			err: `predicate before: the name is taken by a built-in`},
		{src: `true`, opts: []isla.Option{isla.WithPredicates(namedPred("count"))},
			err: `predicate count: the name is taken by the built-in count`},
		{src: "forall <id> i:\n  (str.len(i) = 1 and\n   str.len(i) = true)", err: `c.isla:3:4: (= (str.len i) true): argument 2 is of sort Bool`},
	} {
		c, err := isla.Parse("c.isla", []byte(tc.src))
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		_, err = isla.Compile(c, xml, tc.opts...)
		if tc.err == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.src, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: no error, want %q", tc.src, tc.err)
			continue
		}
		if !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s:\n got %v\nwant %s", tc.src, err, tc.err)
		}
	}
}

// Every constraint of testdata compiles against its grammar.
func TestCompileTestdata(t *testing.T) {
	for _, tc := range []struct{ grammar, constraint string }{
		{"xml", "xml-balance.isla"}, {"xml", "xml-balance-simplified.isla"}, {"xml", "xml-namespace.isla"},
		{"xml", "xml-no-redef.isla"}, {"scriptsizec", "scriptsizec-def-use.isla"},
		{"scriptsizec", "scriptsizec-no-redef.isla"}, {"csv", "csv-columns.isla"},
		{"rest", "rest-title.isla"}, {"rest", "rest-title-core.isla"},
		{"rest", "rest-references.isla"}, {"rest", "rest-numbering.isla"},
	} {
		compile(t, tc.grammar, tc.constraint)
	}
	compile(t, "tar", "tar.isla", tarPredicates)
	if _, err := isla.Compile(loadConstraint(t, "tar.isla"), loadGraph(t, "tar")); err == nil ||
		!strings.Contains(err.Error(), "unknown predicate tar_checksum") {
		t.Errorf("tar.isla without its predicates: %v", err)
	}
}
