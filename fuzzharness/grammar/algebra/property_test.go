package algebra

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// The grammars of the property tests: three unambiguous ones and expr,
// which is ambiguous ("x--y"), so that the tests also check that an input
// belongs to a specialized grammar exactly if one of its derivation trees
// satisfies the expression.
var propertyGrammars = []string{"json", "csv", "rest", "expr"}

// inputSize bounds the size of random inputs: expr inputs have
// exponentially many trees in the number of "--" and "++".
var inputSize = map[string]int{"json": 200, "csv": 200, "rest": 200, "expr": 40, "url": 200}

// maxTrees bounds the derivation trees of one input that the oracle looks
// at; inputs with more are skipped (and counted).
const maxTrees = 256

// randomPattern derives a small random tree from a random nonterminal of
// gr and turns some of its nonterminals into holes. It returns nil if the
// text is ambiguous or the derivation exceeds the small limits.
func randomPattern(a *Algebra, gr *grammar.Graph, rng *rand.Rand, name string) *Pattern {
	nts := gr.Nonterminals()
	for range 50 {
		nt := nts[rng.IntN(len(nts))]
		gen := grammar.NewGenerator(gr, rng.Uint64())
		gen.MaxSize = 12 + rng.IntN(30)
		gen.MaxRepeat = 2
		tr, err := gen.GenerateFrom(gr.RHS(nt))
		if err != nil {
			continue
		}
		var b strings.Builder
		holeP := rng.Float64() * 0.6
		var walk func(t *grammar.Tree)
		walk = func(t *grammar.Tree) {
			if t.Node.Kind == grammar.KindRef && rng.Float64() < holeP {
				b.WriteString("<" + t.Node.Name + ">")
				return
			}
			if len(t.Children) == 0 {
				b.WriteString(strings.NewReplacer(`\`, `\\`, `<`, `\<`).Replace(t.Value))
			}
			for _, c := range t.Children {
				walk(c)
			}
		}
		walk(tr)
		p, err := a.ParsePattern(name, nt, b.String())
		if err != nil {
			continue
		}
		return p
	}
	return nil
}

// randomExpr returns a random expression over the names.
func randomExpr(rng *rand.Rand, names []string, depth int) string {
	if depth == 0 || rng.IntN(3) == 0 {
		return names[rng.IntN(len(names))]
	}
	switch rng.IntN(3) {
	case 0:
		return "not " + randomExpr(rng, names, depth-1)
	case 1:
		return "(" + randomExpr(rng, names, depth-1) + " and " + randomExpr(rng, names, depth-1) + ")"
	}
	return "(" + randomExpr(rng, names, depth-1) + " or " + randomExpr(rng, names, depth-1) + ")"
}

// oracle tells, by the direct matcher, whether some derivation tree of w
// in the base grammar satisfies e; ok is false if w has too many trees.
type oracle struct {
	a      *Algebra
	parser *grammar.Parser
}

func newOracle(t testing.TB, a *Algebra) *oracle {
	return &oracle{a: a, parser: mustParser(t, a.Grammar())}
}

func (o *oracle) holds(t testing.TB, pats []*Pattern, e *Expr, w []byte) (holds, ok bool) {
	t.Helper()
	f, err := o.parser.Parse(w)
	if err != nil {
		t.Fatalf("base grammar rejects %q: %v", w, err)
	}
	if n, _ := f.Count(); f.Infinite() || n > maxTrees {
		return false, false
	}
	for _, tr := range f.Trees(maxTrees) {
		h, err := o.a.Holds(pats, e, tr)
		if err != nil {
			t.Fatalf("Holds(%s, %q): %v", e, w, err)
		}
		if h {
			return true, true
		}
	}
	return false, true
}

// generate returns n inputs derived from g with the seed.
func generate(t testing.TB, g *grammar.Grammar, seed uint64, n, maxSize int) [][]byte {
	t.Helper()
	gr, err := grammar.Compile(g)
	if err != nil {
		t.Fatalf("%v\n%s", err, g)
	}
	gen := grammar.NewGenerator(gr, seed)
	gen.MaxSize = max(maxSize, 4*gr.Root.MinSize)
	var out [][]byte
	for range n {
		tr, err := gen.Generate()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tr.Bytes())
	}
	return out
}

// TestDifferential checks, for random expressions of up to four random
// patterns over four built-in grammars, that the specialized grammar's
// Earley parser accepts an input exactly when the direct matcher says the
// expression holds on (one of) its derivation trees. The inputs are random
// inputs of the base grammar, of the specialized grammar and of the
// specialized grammar of the negated expression.
func TestDifferential(t *testing.T) {
	exprs, inputs := 40, 100
	if testing.Short() {
		exprs, inputs = 3, 15
	}
	for gi, name := range propertyGrammars {
		t.Run(name, func(t *testing.T) {
			g := grammar.MustBuiltin(name)
			a, err := New(g)
			if err != nil {
				t.Fatal(err)
			}
			gr := grammar.MustCompile(g)
			o := newOracle(t, a)
			rng := rand.New(rand.NewPCG(uint64(gi), 16))
			var yes, no, skipped, unsat int
			for i := 0; i < exprs; i++ {
				k := 1 + i%4
				var pats []*Pattern
				var names []string
				for j := range k {
					n := fmt.Sprintf("P%d", j)
					if p := randomPattern(a, gr, rng, n); p != nil {
						pats = append(pats, p)
						names = append(names, n)
					}
				}
				if len(pats) == 0 {
					t.Fatal("no pattern")
				}
				src := randomExpr(rng, names, 3)
				e, err := ParseExpr(src)
				if err != nil {
					t.Fatal(err)
				}
				ne := &Expr{op: opNot, x: e}
				var ws [][]byte
				ws = append(ws, generate(t, g, rng.Uint64(), inputs, inputSize[name])...)
				var ps []*grammar.Parser
				for _, x := range []*Expr{e, ne} {
					r, err := a.Specialize(pats, x, nil)
					var ue *UnsatisfiableError
					switch {
					case errors.As(err, &ue):
						unsat++
						ps = append(ps, nil)
						continue
					case err != nil:
						t.Fatalf("%s: %v", x, err)
					}
					ps = append(ps, mustParser(t, r.Grammar))
					ws = append(ws, generate(t, r.Grammar, rng.Uint64(), inputs, inputSize[name])...)
				}
				for _, w := range ws {
					// On an ambiguous grammar, an input can have a tree
					// that satisfies e and one that does not: it then
					// belongs to both specialized grammars.
					for j, x := range []*Expr{e, ne} {
						h, ok := o.holds(t, pats, x, w)
						if !ok {
							skipped++
							break
						}
						if j == 0 {
							if h {
								yes++
							} else {
								no++
							}
						}
						got := ps[j] != nil && ps[j].Recognize(w) == nil
						if got != h {
							t.Fatalf("%s on %q: specialized grammar accepts: %v, direct match: %v\npatterns: %v", x, w, got, h, pats)
						}
					}
				}
			}
			t.Logf("%d expressions: %d inputs satisfy, %d do not, %d skipped (more than %d trees); %d unsatisfiable",
				exprs, yes, no, skipped, maxTrees, unsat)
			if yes == 0 || no == 0 {
				t.Errorf("one-sided test: %d inputs satisfy, %d do not", yes, no)
			}
		})
	}
}
