package fuzzharness

import (
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// tb is what the harness uses of the t that a fuzz target takes: a
// *testing.T, or the *T of the libFuzzer shim of go-118-fuzz-build.
type tb interface {
	Log(args ...any)
	Skip(args ...any)
}

var (
	inputType  = reflect.TypeFor[Input]()
	stringType = reflect.TypeFor[string]()
	stdTType   = reflect.TypeFor[*testing.T]()
	tbType     = reflect.TypeFor[tb]()
	bytesType  = reflect.TypeFor[[]byte]()
)

// A target is the function that Fuzz or FuzzString was given.
type target struct {
	t    reflect.Type            // the type of its first parameter
	call func(tb, Input)         // calls it
	std  func(*testing.T, Input) // calls it, if t is *testing.T; else nil
}

// newTarget checks that fn is a func(T, arg) whose T has the methods of tb
// and returns it as a target; arg is Input or string.
func newTarget(fn any, arg reflect.Type) (*target, error) {
	switch fn := fn.(type) {
	case func(*testing.T, Input):
		return &target{t: stdTType, call: func(t tb, in Input) { fn(t.(*testing.T), in) }, std: fn}, nil
	case func(*testing.T, string):
		std := func(t *testing.T, in Input) { fn(t, in.String()) }
		return &target{t: stdTType, call: func(t tb, in Input) { fn(t.(*testing.T), in.String()) }, std: std}, nil
	}
	v := reflect.ValueOf(fn)
	want := fmt.Sprintf("func(t *testing.T, %s)", arg)
	if fn == nil || v.Kind() != reflect.Func {
		return nil, fmt.Errorf("fuzzharness: the target is %T, want a %s", fn, want)
	}
	ft := v.Type()
	if ft.NumIn() != 2 || ft.NumOut() != 0 || ft.IsVariadic() || ft.In(1) != arg || !ft.In(0).Implements(tbType) {
		return nil, fmt.Errorf("fuzzharness: the target is a %s, want a %s (or with the fuzz test's own T)", ft, want)
	}
	call := func(t tb, in Input) {
		a := reflect.ValueOf(in)
		if arg == stringType {
			a = reflect.ValueOf(in.String())
		}
		v.Call([]reflect.Value{reflect.ValueOf(t), a})
	}
	tg := &target{t: ft.In(0), call: call}
	if tg.t == stdTType { // a named func type, say
		tg.std = func(t *testing.T, in Input) { call(t, in) }
	}
	return tg, nil
}

// fuzzFunc returns the function to pass to f.Fuzz: a func(T, []byte) with
// the target's T, which calls body.
func (tg *target) fuzzFunc(body func(tb, []byte)) any {
	if tg.t == stdTType {
		return func(t *testing.T, data []byte) { body(t, data) }
	}
	ft := reflect.FuncOf([]reflect.Type{tg.t, bytesType}, nil, false)
	return reflect.MakeFunc(ft, func(args []reflect.Value) []reflect.Value {
		body(args[0].Interface().(tb), args[1].Bytes())
		return nil
	}).Interface()
}

// A libFuzzer binary built by go-118-fuzz-build runs the fuzz test function
// anew for every input, so New would compile the grammar and build the
// codec every time. In such a binary (libFuzzer is true), the harness keeps
// the compiled graphs and codecs of the process instead; the fuzz test
// function is expected to pass the same grammar every time, as fuzz tests
// do.
var cache struct {
	mu     sync.Mutex
	graphs map[*grammar.Grammar]*grammar.Graph
	codecs map[codecKey]*Codec
}

type codecKey struct {
	gr *grammar.Graph
	b  Bounds
}

// compileCached compiles g, reusing the graph of an earlier call with g in
// a libFuzzer binary.
func compileCached(g *grammar.Grammar) (*grammar.Graph, error) {
	if !libFuzzer {
		return grammar.Compile(g)
	}
	cache.mu.Lock()
	defer cache.mu.Unlock()
	if gr, ok := cache.graphs[g]; ok {
		return gr, nil
	}
	gr, err := grammar.Compile(g)
	if err != nil {
		return nil, err
	}
	if cache.graphs == nil {
		cache.graphs = map[*grammar.Grammar]*grammar.Graph{}
	}
	cache.graphs[g] = gr
	return gr, nil
}

// newCodecCached is newCodec, reusing the codec of an earlier call with the
// same graph and bounds in a libFuzzer binary.
func newCodecCached(gr *grammar.Graph, b Bounds) (*Codec, error) {
	if !libFuzzer {
		return newCodec(gr, b)
	}
	cache.mu.Lock()
	defer cache.mu.Unlock()
	k := codecKey{gr, b}
	if c, ok := cache.codecs[k]; ok {
		return c, nil
	}
	c, err := newCodec(gr, b)
	if err != nil {
		return nil, err
	}
	if cache.codecs == nil {
		cache.codecs = map[codecKey]*Codec{}
	}
	cache.codecs[k] = c
	return c, nil
}
