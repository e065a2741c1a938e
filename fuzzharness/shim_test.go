package fuzzharness_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// shimF and shimT behave like the F and T of go-118-fuzz-build's testing
// package, which a libFuzzer build puts in place of the standard ones: Add
// and Fatal do nothing, Fuzz calls the function once with its own *T and
// the input's bytes, and T's Skip, Error and Fatal panic.
type shimF struct {
	data  []byte
	t     *shimT
	added int
}

func (f *shimF) Add(args ...any)   { f.added++ }
func (f *shimF) Fatal(args ...any) {}
func (f *shimF) Name() string      { return "libFuzzer" }
func (f *shimF) Fuzz(ff any) {
	fn := reflect.ValueOf(ff)
	if fn.Type().NumIn() != 2 || fn.Type().In(1) != reflect.TypeFor[[]byte]() {
		panic(fmt.Sprintf("shimF: unsupported target %s", fn.Type()))
	}
	fn.Call([]reflect.Value{reflect.ValueOf(f.t), reflect.ValueOf(f.data)})
}

type shimT struct{ log []string }

func (t *shimT) Log(args ...any)                { t.log = append(t.log, fmt.Sprint(args...)) }
func (t *shimT) Skip(args ...any)               { panic("GO-FUZZ-BUILD-PANIC") }
func (t *shimT) Fatalf(format string, a ...any) { panic(fmt.Sprintf(format, a...)) }

var shimGrammar = grammar.MustBuiltin("expr")

// sumData decodes to "x+x" (see ExampleNew).
var sumData = []byte{0x01}

func TestShimFuzzString(t *testing.T) {
	c, err := fuzzharness.NewCodec(grammar.MustCompile(shimGrammar))
	if err != nil {
		t.Fatal(err)
	}
	want := c.Decode(sumData).String()
	f := &shimF{data: sumData, t: &shimT{}}
	var got string
	var gotT *shimT
	fuzzharness.New(f, shimGrammar).FuzzString(func(t *shimT, s string) { gotT, got = t, s })
	if got != want || gotT != f.t {
		t.Errorf("the target got (%p, %q), want (%p, %q)", gotT, got, f.t, want)
	}
}

func TestShimFuzzInput(t *testing.T) {
	f := &shimF{data: sumData, t: &shimT{}}
	var got fuzzharness.Input
	fuzzharness.New(f, shimGrammar).Fuzz(func(t *shimT, in fuzzharness.Input) { got = in })
	if got.Tree() == nil || got.String() != got.Tree().String() || got.String() == "" {
		t.Errorf("the target got %q with tree %v", got.String(), got.Tree())
	}
}

func TestShimTargetPanicReported(t *testing.T) {
	f := &shimF{data: sumData, t: &shimT{}}
	h := fuzzharness.New(f, shimGrammar)
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("recovered %v, want the target's panic again", r)
			}
		}()
		h.FuzzString(func(t *shimT, s string) { t.Fatalf("boom") })
	}()
	if len(f.t.log) != 1 || !strings.Contains(f.t.log[0], "the target panicked on this input") {
		t.Errorf("the harness logged %q, want the failing input described", f.t.log)
	}
}

func TestShimErrorsPanicWhenFatalReturns(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(f *shimF)
		want string
	}{
		{"nil grammar", func(f *shimF) { fuzzharness.New(f, nil) }, "fuzzharness: nil grammar"},
		{"not a func", func(f *shimF) { fuzzharness.New(f, shimGrammar).Fuzz(42) }, "the target is int, want a func(t *testing.T, fuzzharness.Input)"},
		{"wrong arg", func(f *shimF) { fuzzharness.New(f, shimGrammar).Fuzz(func(t *shimT, s string) {}) },
			"the target is a func(*fuzzharness_test.shimT, string), want a func(t *testing.T, fuzzharness.Input)"},
		{"T without Log", func(f *shimF) { fuzzharness.New(f, shimGrammar).FuzzString(func(t *strings.Builder, s string) {}) },
			"the target is a func(*strings.Builder, string), want a func(t *testing.T, string)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if s, ok := r.(string); !ok || !strings.Contains(s, tc.want) {
					t.Errorf("panic %v, want one containing %q", r, tc.want)
				}
			}()
			tc.run(&shimF{data: sumData, t: &shimT{}})
		})
	}
}

// FuzzStdTypes checks that the standard types still work as before, with
// both kinds of target.
func FuzzStdTypes(f *testing.F) {
	h := fuzzharness.New(f, shimGrammar, fuzzharness.WithKPathSeeds(0), fuzzharness.WithExamples("x+x"))
	h.FuzzString(func(t *testing.T, s string) {
		if s == "" {
			t.Error("empty input")
		}
	})
}

// stringTarget is a named type of target function.
type stringTarget func(t *testing.T, s string)

// FuzzNamedTarget checks that a target of a named func type is accepted:
// it takes the reflective path.
func FuzzNamedTarget(f *testing.F) {
	var called bool
	f.Cleanup(func() {
		if !called {
			f.Error("the target was not called")
		}
	})
	h := fuzzharness.New(f, shimGrammar, fuzzharness.WithKPathSeeds(0), fuzzharness.WithExamples("x+x"))
	h.FuzzString(stringTarget(func(t *testing.T, s string) {
		called = true
		if s == "" {
			t.Error("empty input")
		}
	}))
}
