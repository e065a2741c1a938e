package calc_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/examples/calc"
	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

func TestEval(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want int64
		err  error
	}{
		{"1+2*3", 7, nil},
		{"(1+2)*3", 9, nil},
		{"7/2", 3, nil},
		{"-7%3", -1, nil},
		{"x*(y+z)", 2 * (3 + 4), nil},
		{"(y-z)*x", (3 - 4) * 2, nil},
		{"++x*x", 9, nil}, // x becomes 3 before the second read
		{"--y", 2, nil},
		{"++5", 6, nil},
		{"1++2", 3, nil}, // 1 + (+2): the binary + takes one character
		{"+-+1", -1, nil},
		{"007", 7, nil},
		{"9223372036854775807+1", -1 << 63, nil},
		{"1/(x-2)", 0, calc.ErrDivideByZero},
		{"1%0", 0, calc.ErrDivideByZero},
		{"9223372036854775808", 0, calc.ErrRange},
	} {
		got, err := calc.Eval(tc.src, calc.Env{"x": 2, "y": 3, "z": 4})
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("Eval(%q) = %d, %v; want %d, %v", tc.src, got, err, tc.want, tc.err)
		}
	}
}

func TestSyntaxErrors(t *testing.T) {
	for _, tc := range []struct {
		src    string
		offset int
	}{
		{"", 0},
		{"1+", 2},
		{"(1", 2},
		{"1)", 1},
		{"a", 0},
		{"1 + 2", 1},
	} {
		_, err := calc.Parse(tc.src)
		var se *calc.SyntaxError
		if !errors.As(err, &se) || se.Offset != tc.offset {
			t.Errorf("Parse(%q) = %v, want a syntax error at offset %d", tc.src, err, tc.offset)
		}
	}
}

func TestSimplify(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"x*(y+2)", "(x*y+x*2)"},
		{"(y-3)*x", "(y*x-3*x)"},
		{"2*(x+y+z)", "((2*x+2*y)+2*z)"},
		{"(x+y)*(z-x)", "((x*z+y*z)-(x*x+y*x))"},
		{"x*y+2", "x*y+2"},
		{"x/(y+2)", "x/(y+2)"},         // only products distribute
		{"++x*(y+2)", "++x*(y+2)"},     // not with side effects
		{"x*(y/z+2)", "(x*(y/z)+x*2)"}, // / does not associate with *
		{"-(x*(2-y))", "-((x*2-x*y))"}, // inside other operators too
		{"x%(y+2)*(3+z)", "(x%(y+2)*3+x%(y+2)*z)"},
		{"(1+2)*(3+4)", "21"}, // folding
		{"7-9", "7-9"},        // not folded: negative
		{"7/0", "7/0"},        // not folded: fails
		{"(x)*1+0-y/1", "x-y"},
		{"1*(0+x)", "x"},
		{"(x-y)*0+0*z", "0"},
		{"(x/y)*0", "(x/y)*0"}, // x/y may fail
		{"++x*0", "++x*0"},     // ++x has an effect
	} {
		e, err := calc.Parse(tc.src)
		if err != nil {
			t.Fatal(err)
		}
		if got := calc.Simplify(e).String(); got != tc.want {
			t.Errorf("Simplify(%s) = %s, want %s", tc.src, got, tc.want)
		}
	}
}

// TestSimplifyGrowth checks that a product of many sums does not blow up.
func TestSimplifyGrowth(t *testing.T) {
	src := "(x+1)"
	for range 40 {
		src += "*(x+1)"
	}
	e, err := calc.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	s := calc.Simplify(e)
	if n := len(s.String()); n > 100000 {
		t.Fatalf("Simplify grew %d bytes to %d", len(src), n)
	}
	checkSame(t, src, true)
}

func ExampleEval() {
	env := calc.Env{"x": 5}
	v, err := calc.Eval("++x*(x-2)", env)
	fmt.Println(v, err, env["x"])
	_, err = calc.Eval("1/(x-6)", env)
	fmt.Println(err)
	// Output:
	// 24 <nil> 6
	// calc: division by zero
}

func ExampleSimplify() {
	e, _ := calc.Parse("3*(x+2)")
	fmt.Println(calc.Simplify(e))
	// Output: (3*x+6)
}

// checkSame is the property the fuzz targets test: an expression prints back
// exactly, and it has the same value (or fails the same way) before and
// after Simplify, and after printing and parsing the simplified form. If
// inLanguage is set, src comes from the grammar and must parse.
func checkSame(t *testing.T, src string, inLanguage bool) {
	t.Helper()
	e, err := calc.Parse(src)
	if err != nil {
		if inLanguage && !errors.Is(err, calc.ErrRange) {
			t.Fatalf("Parse(%q): %v", src, err)
		}
		return
	}
	if s := e.String(); s != src {
		t.Fatalf("Parse(%q).String() = %q", src, s)
	}
	env := func() calc.Env { return calc.Env{"x": 7, "y": -3, "z": 1 << 40} }
	want, wantErr := calc.EvalExpr(e, env())
	simple := calc.Simplify(e)
	got, err := calc.EvalExpr(simple, env())
	if got != want || (err == nil) != (wantErr == nil) {
		t.Fatalf("%s = %d, %v but simplified %s = %d, %v", src, want, wantErr, simple, got, err)
	}
	if wantErr != nil && want != 0 {
		t.Fatalf("%s = %d, %v: a failed evaluation must be 0", src, want, wantErr)
	}
	printed := simple.String()
	again, err := calc.Parse(printed)
	if err != nil {
		t.Fatalf("the simplified form %q of %q does not parse: %v", printed, src, err)
	}
	if got, err = calc.EvalExpr(again, env()); got != want || (err == nil) != (wantErr == nil) {
		t.Fatalf("%s = %d, %v but its simplified form %s parses to %d, %v", src, want, wantErr, printed, got, err)
	}
}

// exprGrammar is the grammar of the fuzz targets.
var exprGrammar = grammar.MustBuiltin("expr")

// harnessOptions configure both fuzz targets' seeds: the 2-path covering
// forest of the grammar and a few examples.
var harnessOptions = []fuzzharness.Option{
	fuzzharness.WithExamples("1+2*3", "(x-1)/y%3", "--z+-x"),
}

// fuzzOptions are FuzzCalc's: its seeds, and two byte edits.
var fuzzOptions = append([]fuzzharness.Option{fuzzharness.WithMaxEdits(2)}, harnessOptions...)

// FuzzCalc fuzzes the calculator with inputs of the expr grammar, and with
// inputs up to two byte edits away from them (fuzzharness WithMaxEdits), so
// that the parser's syntax errors are reached too. Every unedited input must
// parse.
func FuzzCalc(f *testing.F) {
	fuzzharness.New(f, exprGrammar, fuzzOptions...).Fuzz(func(t *testing.T, in fuzzharness.Input) {
		checkSame(t, in.String(), !in.Edited())
	})
}

// FuzzCalcPlain fuzzes the calculator with plain strings, seeded with the
// same inputs as FuzzCalc. It is the baseline for kfuzz eval harness.
func FuzzCalcPlain(f *testing.F) {
	seeds, err := fuzzharness.Seeds(grammar.MustCompile(exprGrammar), harnessOptions...)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range seeds {
		f.Add(s.String())
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkSame(t, s, false)
	})
}

// TestCorpusEntries pins what the stored corpus entries decode to: if the
// grammar or the decoding changes, stored entries change meaning, and this
// test says so. Entries added later (by kfuzz seed or go test -fuzz) must
// hold one value of the harness's encoding; their meaning is not pinned.
func TestCorpusEntries(t *testing.T) {
	checkEntries(t, "testdata/fuzz/FuzzCalc", exprGrammar, fuzzOptions, map[string]string{
		"265416b1ffdb2b2f": "(x+1)*(y-2)",
		"806a25b8019eb39a": "++x/--y%3",
		"99938e9e7123496f": "++(x)+x",          // found by FuzzCalc in an earlier Simplify
		"d42226b398a390ae": "00000++++++(x/0)", // found by FuzzCalc: values of failed evaluations differed
	})
}

func checkEntries(t *testing.T, dir string, g *grammar.Grammar, opts []fuzzharness.Option, want map[string]string) {
	t.Helper()
	c, err := fuzzharness.NewCodec(grammar.MustCompile(g), opts...)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := corpus.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, e := range entries {
		if len(e.Values) != 1 {
			t.Errorf("%s holds %d values, want one []byte", e.Path, len(e.Values))
			continue
		}
		data, ok := e.Values[0].([]byte)
		if !ok {
			t.Errorf("%s holds a %T, want a []byte", e.Path, e.Values[0])
			continue
		}
		pinned, isPinned := want[e.Name]
		if !isPinned {
			continue
		}
		found++
		if got := c.Decode(data).String(); got != pinned {
			t.Errorf("%s decodes to %q, want %q", e.Path, got, pinned)
		}
	}
	if found != len(want) {
		t.Errorf("%s has %d of the %d pinned entries", dir, found, len(want))
	}
}
