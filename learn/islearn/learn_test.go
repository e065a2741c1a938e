package islearn

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
	"github.com/seed72891827/kfuzz/learn/oracle"
)

// subject builds the training and held-out sets of a built-in grammar and
// a reference constraint: valid inputs from the solver, invalid ones from
// the grammar generator that violate the reference.
func subject(t *testing.T, name, refFile string, nTrain, nHeld int) (g *grammar.Grammar, ref *isla.Spec, train, valid, invalid [][]byte) {
	t.Helper()
	g = grammar.MustBuiltin(name)
	gr := grammar.MustCompile(g)
	src, err := os.ReadFile("../../fuzzharness/isla/testdata/" + refFile)
	if err != nil {
		t.Fatal(err)
	}
	c, err := isla.Parse(refFile, src)
	if err != nil {
		t.Fatal(err)
	}
	ref, err = isla.Compile(c, gr)
	if err != nil {
		t.Fatal(err)
	}
	s, err := solver.New(ref, solver.Seed(7))
	if err != nil {
		t.Fatal(err)
	}
	trees, err := s.Solve(context.Background(), nTrain+nHeld)
	if err != nil {
		t.Fatal(err)
	}
	for i, tr := range trees {
		if i < nTrain {
			train = append(train, tr.Bytes())
		} else {
			valid = append(valid, tr.Bytes())
		}
	}
	gen := grammar.NewGenerator(gr, 11)
	for tries := 0; len(invalid) < nHeld && tries < 100*nHeld; tries++ {
		tr, err := gen.Generate()
		if err != nil {
			continue
		}
		r, err := ref.Check(tr.Bytes())
		if err == nil && !r.Valid {
			invalid = append(invalid, tr.Bytes())
		}
	}
	if len(invalid) < nHeld {
		t.Fatalf("only %d invalid held-out inputs", len(invalid))
	}
	return
}

// testRecover mines a constraint from 20 valid samples and checks that the
// best one accepts every valid and rejects every invalid held-out input.
func testRecover(t *testing.T, name, refFile string, wantPatterns ...string) {
	g, ref, train, valid, invalid := subject(t, name, refFile, 20, 20)
	start := time.Now()
	cands, err := Learn(context.Background(), g, train, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d candidates in %v", name, len(cands), time.Since(start))
	for i, c := range cands[:min(5, len(cands))] {
		t.Logf("  %d. %s recall %.2f rejection %.2f: %s", i+1, c.Pattern, c.Recall, c.Rejection, c.Formula)
	}
	if len(cands) == 0 {
		t.Fatal("no candidates")
	}
	best := cands[0]
	if !slices.Contains(wantPatterns, best.Pattern) {
		t.Errorf("best pattern %s, want one of %v", best.Pattern, wantPatterns)
	}
	c, err := isla.Parse("mined.isla", []byte(best.Formula))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := isla.Compile(c, ref.Graph())
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range valid {
		if r, err := spec.Check(in); err != nil || !r.Valid {
			t.Errorf("mined constraint rejects valid %q: %v %v", in, r, err)
		}
	}
	for _, in := range invalid {
		if r, err := spec.Check(in); err != nil || r.Valid {
			t.Errorf("mined constraint accepts invalid %q: %v", in, err)
		}
	}
}

func TestRecoverXMLBalance(t *testing.T) {
	testRecover(t, "xml", "xml-balance.isla", "balance")
}

func TestRecoverScriptsizeCDefUse(t *testing.T) {
	if testing.Short() {
		t.Skip("about 45 s: the solver's samples are long programs")
	}
	// The solver's samples have no blocks, so they cannot tell scoped from
	// unscoped def-use; both are right on the held-out set.
	testRecover(t, "scriptsizec", "scriptsizec-def-use.isla", "def-use", "def-use-scoped")
}

// A negative sample that uses a variable outside the block that declares it
// makes the scoped def-use constraint the best.
func TestDefUseScopeFromNegative(t *testing.T) {
	g := grammar.MustBuiltin("scriptsizec")
	pos := [][]byte{
		[]byte("int a;{int b;b = a;}a = 1;"),
		[]byte("int x = 1;while (x) {int y = x;x = y - 1;}"),
		[]byte("{int c;c = 2;}int c;c = 3;"),
	}
	neg := [][]byte{[]byte("{int x;}x = 1;"), []byte("x = 1;")}
	cands, err := Learn(context.Background(), g, pos, neg)
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) == 0 {
		t.Fatal("no candidates")
	}
	best := cands[0]
	t.Logf("best: %s", best.Formula)
	if best.Pattern != "def-use-scoped" || !strings.Contains(best.Formula, `"<block>"`) || best.Specificity != 1 || best.Recall != 1 {
		t.Errorf("best = %+v, want def-use-scoped over <block> with recall and specificity 1", best)
	}
}

// MinRecall admits a constraint that rejects some positive samples.
func TestMinRecall(t *testing.T) {
	g := grammar.MustBuiltin("xml")
	pos := [][]byte{[]byte("<a><b>x</b></a>"), []byte("<p>q<r>s</r></p>"), []byte("<c>d</c>"), []byte("<e>f</g>")}
	has := func(cands []Candidate) (Candidate, bool) {
		for _, c := range cands {
			if c.Pattern == "balance" {
				return c, true
			}
		}
		return Candidate{}, false
	}
	cands, err := Learn(context.Background(), g, pos, nil, Generated(0))
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := has(cands); ok {
		t.Errorf("balance mined with recall 1 from a sample it rejects: %+v", c)
	}
	cands, err = Learn(context.Background(), g, pos, nil, Generated(0), MinRecall(0.75))
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := has(cands); !ok || c.Recall != 0.75 || c.Specificity != -1 {
		t.Errorf("MinRecall(0.75): balance %+v, found %v", c, ok)
	}
}

func TestLearnErrors(t *testing.T) {
	g := grammar.MustBuiltin("xml")
	if _, err := Learn(context.Background(), g, nil, nil); err == nil {
		t.Error("no error without positive samples")
	}
	_, err := Learn(context.Background(), g, [][]byte{[]byte("<a>x</a>"), []byte("<a")}, nil)
	if err == nil || !strings.Contains(err.Error(), "positive sample 2: ") {
		t.Errorf("unparsable sample: %v", err)
	}
	_, err = Learn(context.Background(), g, [][]byte{[]byte("<a>x</a>")}, nil, MaxCandidates(3))
	if err == nil || !strings.Contains(err.Error(), "-max-candidates") {
		t.Errorf("MaxCandidates(3): %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Learn(ctx, g, [][]byte{[]byte("<a>x</a>")}, nil); err != context.Canceled {
		t.Errorf("canceled context: %v", err)
	}
}

// When no single candidate rejects every negative sample, the conjunction
// of candidates that together reject them all comes first.
func TestConjunction(t *testing.T) {
	g := grammar.MustBuiltin("xml")
	pos := [][]byte{[]byte("<a>x</a>"), []byte("<b><c>x</c></b>")}
	neg := [][]byte{[]byte("<a>x</b>"), []byte("<a>y</a>")}
	cands, err := Learn(context.Background(), g, pos, neg, Generated(0))
	if err != nil {
		t.Fatal(err)
	}
	best := cands[0]
	if !strings.Contains(best.Pattern, "balance") || !strings.Contains(best.Pattern, "-string") ||
		best.Recall != 1 || best.Specificity != 1 {
		t.Fatalf("best = %+v, want a conjunction of balance and a string pattern with recall and specificity 1", best)
	}
	for _, c := range cands[1:] {
		if c.Specificity == 1 {
			t.Errorf("single candidate %s rejects both negatives: the conjunction is not needed", c.Formula)
		}
	}
	c, err := isla.Parse("conj.isla", []byte(best.Formula))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := isla.Compile(c, grammar.MustCompile(g))
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range pos {
		if r, err := spec.Check(in); err != nil || !r.Valid {
			t.Errorf("conjunction rejects %q", in)
		}
	}
	for _, in := range neg {
		if r, err := spec.Check(in); err != nil || r.Valid {
			t.Errorf("conjunction accepts %q", in)
		}
	}
	t.Logf("%s: %s", best.Pattern, best.Formula)
}

// An oracle labels generated and mutated inputs: without negative samples
// given, its rejections make the constraint that edges are undirected the
// most specific one.
func TestOracleNegatives(t *testing.T) {
	g, err := grammar.Parse("edges.bnf", []byte(`
<start> ::= <edge> ( "; " <edge> )* ;
<edge> ::= <node> " " <op> " " <node> ;
<op> ::= "--" | "->" ;
<node> ::= [a-c] ;
`))
	if err != nil {
		t.Fatal(err)
	}
	pos := [][]byte{[]byte("a -- b"), []byte("b -- c; a -- a")}
	o := oracle.Func(func(b []byte) bool { return !strings.Contains(string(b), "->") })
	cands, err := Learn(context.Background(), g, pos, nil, WithOracle(o, 50), Mutations(20), Generated(0))
	if err != nil {
		t.Fatal(err)
	}
	best := cands[0]
	if best.Formula != `forall <op> x: x = "--"` || best.Specificity != 1 || best.Recall != 1 {
		t.Errorf("best = %+v, want forall <op> x: x = \"--\" with recall and specificity 1", best)
	}
	if _, err := Learn(context.Background(), g, pos, nil, WithOracle(o, 0), Mutations(5), Generated(0)); err != nil {
		t.Errorf("mutations only: %v", err)
	}
}

// A disjunction of constraints that each hold on some samples only.
func TestDisjunction(t *testing.T) {
	g, err := grammar.Parse("graphs.bnf", []byte(`
<start> ::= <kind> " {" <edge>* " }" ;
<kind> ::= "graph" | "digraph" ;
<edge> ::= " " <node> " " <op> " " <node> ";" ;
<op> ::= "--" | "->" ;
<node> ::= [a-c] ;
`))
	if err != nil {
		t.Fatal(err)
	}
	pos := [][]byte{[]byte("graph { a -- b; b -- c; }"), []byte("digraph { a -> b; }"), []byte("graph { }"), []byte("digraph { c -> a; a -> a; }")}
	neg := [][]byte{[]byte("graph { a -> b; }"), []byte("digraph { a -- b; }"), []byte("graph { a -- b; c -> a; }")}
	cands, err := Learn(context.Background(), g, pos, neg, Generated(0))
	if err != nil {
		t.Fatal(err)
	}
	if cands[0].Specificity == 1 {
		t.Fatalf("without disjunctions, %s rejects every negative sample", cands[0].Formula)
	}
	cands, err = Learn(context.Background(), g, pos, neg, Generated(0), MaxDisjunction(2))
	if err != nil {
		t.Fatal(err)
	}
	best := cands[0]
	t.Logf("%s: %s", best.Pattern, best.Formula)
	if best.Recall != 1 || best.Specificity != 1 || !strings.Contains(best.Pattern, "|") {
		t.Errorf("best = %+v, want a disjunction with recall and specificity 1", best)
	}
}

// The k-path-aware mutation keeps, of several mutants, one that adds
// k-paths the samples lack.
func TestMutateNewPaths(t *testing.T) {
	g, err := grammar.Parse("e.bnf", []byte(`
<start> ::= <edge> ( "; " <edge> )* ;
<edge> ::= <node> " " <op> " " <node> ;
<op> ::= "--" | "->" ;
<node> ::= [a-c] | "(" <start> ")" ;
`))
	if err != nil {
		t.Fatal(err)
	}
	gr := grammar.MustCompile(g)
	p, err := grammar.NewParser(gr)
	if err != nil {
		t.Fatal(err)
	}
	f, err := p.Parse([]byte("a -- b"))
	if err != nil {
		t.Fatal(err)
	}
	tree := f.Trees(1)[0]
	pt, err := gr.PathTable(mutationK)
	if err != nil {
		t.Fatal(err)
	}
	covered := pt.Paths(tree)
	before := len(covered.IDs())
	gn := grammar.NewGenerator(gr, 1)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10 {
		if m := mutateNew(tree, gn, rng, pt, covered); m == nil {
			t.Fatal("no mutant")
		} else if _, err := p.Parse(m.Bytes()); err != nil {
			t.Fatalf("mutant %q outside the language: %v", m, err)
		}
	}
	if after := len(covered.IDs()); after <= before {
		t.Errorf("10 mutants added no k-path (%d before, %d after)", before, after)
	}
	if tree.String() != "a -- b" {
		t.Errorf("the sample's tree changed: %q", tree)
	}
}
