package scriptc_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/seed72891827/kfuzz/examples/scriptc"
)

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want map[string]int64
	}{
		{"int x = 1 + 2;", map[string]int64{"x": 3}},
		{"int x;int y = x < 1;", map[string]int64{"x": 0, "y": 1}},
		{"int i;int s;while (i < 5) {s = s + i;i = i + 1;}", map[string]int64{"i": 5, "s": 10}},
		{"int i = 9;do i = i - 1; while (0);", map[string]int64{"i": 8}},
		{"int a = 1;if (a < 0) a = 2; else if (a) a = 3; else a = 4;", map[string]int64{"a": 3}},
		{"int a;if (a) if (1) a = 5; else a = 6;", map[string]int64{"a": 0}}, // the else belongs to the inner if
		{"int a = 1;{int a = 7;a = a + 1;}a = a - 3;", map[string]int64{"a": -2}},
		{"int a;int b;a = b = 4;", map[string]int64{"a": 4, "b": 4}},
		{"int x = 10 - 3 - 2;", map[string]int64{"x": 5}}, // left-associative
		{"int x = 9223372036854775807 + 1;", map[string]int64{"x": -1 << 63}},
		{";;", map[string]int64{}},
	} {
		p, err := scriptc.Parse(tc.src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.src, err)
		}
		if err := p.Check(); err != nil {
			t.Fatalf("Check(%q): %v", tc.src, err)
		}
		r, err := p.Run(1000)
		if err != nil {
			t.Fatalf("Run(%q): %v", tc.src, err)
		}
		if fmt.Sprint(r.Globals) != fmt.Sprint(tc.want) {
			t.Errorf("Run(%q) = %v, want %v", tc.src, r.Globals, tc.want)
		}
	}
}

func TestCheckErrors(t *testing.T) {
	for _, tc := range []struct {
		src    string
		err    error
		name   string
		offset int
	}{
		{"x = 1;", scriptc.ErrUndeclared, "x", 0},
		{"int x = x;", scriptc.ErrUndeclared, "x", 8},
		{"int a;{int b;}b = a;", scriptc.ErrUndeclared, "b", 14},
		{"do {int k;} while (k);", scriptc.ErrUndeclared, "k", 19},
		{"int a;int a;", scriptc.ErrRedeclared, "a", 10},
		{"int a;{int a;int b;int b;}", scriptc.ErrRedeclared, "b", 23},
	} {
		p, err := scriptc.Parse(tc.src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.src, err)
		}
		err = p.Check()
		var se *scriptc.SemanticError
		if !errors.Is(err, tc.err) || !errors.As(err, &se) || se.Name != tc.name || se.Offset != tc.offset {
			t.Errorf("Check(%q) = %v, want %v for %s at offset %d", tc.src, err, tc.err, tc.name, tc.offset)
		}
		// Run finds the same error when the statement runs.
		if _, err := p.Run(1000); !errors.Is(err, tc.err) {
			t.Errorf("Run(%q) = %v, want %v", tc.src, err, tc.err)
		}
	}
}

func TestStepLimit(t *testing.T) {
	p, err := scriptc.Parse("int i;while (1) i = i + 1;")
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Run(100)
	if !errors.Is(err, scriptc.ErrStepLimit) || r.Steps != 101 {
		t.Fatalf("Run = %d steps, %v; want 101 steps and the step limit", r.Steps, err)
	}
}

func TestSyntaxErrors(t *testing.T) {
	for _, tc := range []struct {
		src    string
		offset int
	}{
		{"", 0},
		{"int;", 3},
		{"int x = ;", 8},
		{"x = (1;", 6},
		{"{int x;", 7},
		{"if x;", 3},
		{"do ; (x);", 5},
		{"while (1) int x;", 10},
		{"x = 1 ?", 6},
		{"x", 1},
	} {
		_, err := scriptc.Parse(tc.src)
		var se *scriptc.SyntaxError
		if !errors.As(err, &se) || se.Offset != tc.offset {
			t.Errorf("Parse(%q) = %v, want a syntax error at offset %d", tc.src, err, tc.offset)
		}
	}
	deep := ""
	for range scriptc.MaxNesting + 1 {
		deep += "("
	}
	if _, err := scriptc.Parse(deep); err == nil {
		t.Error("a program nested too deeply parses")
	}
}

func Example() {
	// 5! by repeated addition.
	p, err := scriptc.Parse("int n = 5;int f = 1;while (0 < n) {int g = f;int k = n;while (1 < k) {f = f + g;k = k - 1;}n = n - 1;}")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Check())
	r, err := p.Run(10000)
	fmt.Println(r.Globals["f"], r.Globals["n"], err)

	p, _ = scriptc.Parse("int a = 1;{int b = a;}a = b;")
	fmt.Println(p.Check())
	// Output:
	// <nil>
	// 120 0 <nil>
	// scriptc: offset 26: b: undeclared variable
}
