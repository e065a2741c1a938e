package goexprcheck_test

import (
	"fmt"
	"go/parser"
	"math/rand/v2"
	"testing"

	goexprcheck "github.com/seed72891827/kfuzz/examples/goexpr"
	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// maxDepth bounds the trees of the fuzz test and of the tests below: an
// operand in parentheses is ten nonterminals deeper than the expression.
const maxDepth = 40

var exprGraph = grammar.MustCompile(goexprcheck.Grammar())

// generated returns n expressions of the grammar: a quarter made by the
// generator from the start symbol, a quarter from <FuncLit> (function
// literals, with statements), a quarter from <CompositeLit> and
// <Conversion> (which hold most types), and a quarter decoded from random
// bytes as the fuzzer's would be.
func generated(t *testing.T, n int, seed uint64) []string {
	t.Helper()
	gen := grammar.NewGenerator(exprGraph, seed)
	gen.MaxDepth = maxDepth
	codec, err := fuzzharness.NewCodec(exprGraph, fuzzharness.WithMaxDepth(maxDepth))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 3))
	out := make([]string, 0, n)
	for i := range n {
		var tree *grammar.Tree
		switch i % 4 {
		case 0:
			tree, err = gen.Generate()
		case 1:
			tree, err = gen.GenerateFrom(exprGraph.RHS("FuncLit"))
		case 2:
			tree, err = gen.GenerateFrom(exprGraph.RHS([]string{"CompositeLit", "Conversion"}[i/4%2]))
		case 3:
			data := make([]byte, rng.IntN(400))
			for j := range data {
				data[j] = byte(rng.Uint32())
			}
			tree = codec.Decode(data).Tree()
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tree.String())
	}
	return out
}

// TestGrammarAccepted checks that ParseExpr accepts 10,000 expressions that
// the grammar derives (see generated) and the 2-path covering forest.
func TestGrammarAccepted(t *testing.T) {
	if err := goexprcheck.Grammar().Check(); err != nil {
		t.Fatal(err)
	}
	inputs := generated(t, 10000, 1)
	seeds, err := fuzzharness.Seeds(exprGraph, harnessOptions...)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range seeds {
		inputs = append(inputs, s.String())
	}
	bad := 0
	for _, s := range inputs {
		if _, err := parser.ParseExpr(s); err != nil {
			if bad++; bad <= 30 {
				t.Errorf("ParseExpr(%q): %v", s, err)
			}
		}
	}
	if bad > 0 {
		t.Errorf("ParseExpr rejected %d of %d expressions", bad, len(inputs))
	}
}

// TestCheckGenerated runs Check over expressions of the grammar.
func TestCheckGenerated(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	bad := 0
	for _, s := range generated(t, n, 4) {
		if err := goexprcheck.Check(s); err != nil {
			if bad++; bad <= 10 {
				t.Errorf("Check(%q): %v", s, err)
			}
		}
	}
}

// harnessOptions configure the fuzz test: deeper trees than the default
// (an operand in parentheses is ten nonterminals below the expression), the
// 2-path covering forest and a few examples.
var harnessOptions = []fuzzharness.Option{
	fuzzharness.WithMaxDepth(maxDepth),
	fuzzharness.WithKPathSeeds(2),
	fuzzharness.WithExamples(
		"a.b[i:j:k](x, ys...) + -f(0x1p-2, 'a', \"\\u00e9\") * <-ch",
		"[]T{{1, 2}, {Key: 3}} == map[string]int{\"a\": 1}",
		"func(a, b int) (int, error) { if x := a; (x > b) { return x, nil }; for i := range xs { s += i }; return 0, err }",
		"x.(interface{ M() int; ~int | string }) != struct{ A, B int `tag` }{}",
		"func() { switch t := v.(type) { case int, []T: goto L; default: }; select { case x := <-ch: defer f(); } }",
		"`a\r\nb` + /*line f.go:10:5*/ x",
	),
}

// FuzzGoExpr checks go/parser and go/printer with expressions of the grammar.
func FuzzGoExpr(f *testing.F) {
	fuzzharness.NewGraph(f, exprGraph, harnessOptions...).FuzzString(func(t *testing.T, s string) {
		if err := goexprcheck.Check(s); err != nil {
			t.Fatalf("Check(%q): %v", s, err)
		}
	})
}

func ExampleCheck() {
	fmt.Println(goexprcheck.Check("f(x)[1:] + 0x_1p-2i*<-ch"))
	fmt.Println(goexprcheck.Check("a +"))
	// Output:
	// <nil>
	// 1:4: expected operand, found 'EOF'
}

func TestShape(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"0X1P-2", "0x1p-02", true},
		{"'a'", "'\\x61'", true},
		{"`a`", `"a"`, true},
		{"((x))", "(x)", true},
		{"func() { if (x) {} }", "func() { if x {} }", true},
		{"func((int)) {}", "func(int) {}", true},
		{"f(x...)", "f(x)", false},
		{"a + b*c", "(a + b) * c", false},
		{"x", "(x)", false},
		{"1", "1.0", false},
	} {
		shape := func(src string) string {
			x, err := parser.ParseExpr(src)
			if err != nil {
				t.Fatal(err)
			}
			s, err := goexprcheck.Shape(x)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		if same := shape(tc.a) == shape(tc.b); same != tc.same {
			t.Errorf("Shape(%s) == Shape(%s) is %v, want %v", tc.a, tc.b, same, tc.same)
		}
	}
}

func TestGrammarSource(t *testing.T) {
	g, err := grammar.Parse("goexpr.bnf", goexprcheck.GrammarSource())
	if err != nil {
		t.Fatal(err)
	}
	if g.String() != goexprcheck.Grammar().String() {
		t.Error("GrammarSource and Grammar differ")
	}
}
