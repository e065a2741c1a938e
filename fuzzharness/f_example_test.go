package fuzzharness_test

import (
	"fmt"
	"reflect"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// oneInput is an F that runs the fuzz target once, on fixed bytes, with its
// own T, as go-118-fuzz-build's libFuzzer binaries do for every input.
type oneInput struct{ data []byte }

func (f oneInput) Add(args ...any)   {}
func (f oneInput) Fatal(args ...any) { panic(fmt.Sprint(args...)) }
func (f oneInput) Fuzz(ff any) {
	reflect.ValueOf(ff).Call([]reflect.Value{reflect.ValueOf(&myT{}), reflect.ValueOf(f.data)})
}

// myT is the T of oneInput's targets: a target's T needs Log and Skip.
type myT struct{}

func (t *myT) Log(args ...any)  { fmt.Println(args...) }
func (t *myT) Skip(args ...any) { panic("skip") }

// A harness works with any F that has the methods of F, such as *testing.F
// or the *F that go-118-fuzz-build uses in libFuzzer binaries, and with
// targets whose first parameter is the T that goes with that F.
func ExampleF() {
	g := grammar.MustBuiltin("expr")
	fuzzharness.New(oneInput{data: []byte{0x01}}, g).FuzzString(func(t *myT, s string) {
		fmt.Printf("the target got %q\n", s)
	})
	// Output:
	// the target got "x+x"
}
