package measure_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/internal/measure"
	"github.com/seed72891827/kfuzz/internal/protocol"
	"github.com/seed72891827/kfuzz/learn/oracle"
)

// Both Oracle and its batches satisfy learn/oracle's interfaces.
var _ oracle.BatchOracle = (*measure.Oracle)(nil)

// troubleOracle starts an oracle over a fuzz test of the package trouble
// of the third-party module, with the limit and options of cfg; it is
// closed when the test ends.
func troubleOracle(tb testing.TB, cfg measure.OracleConfig, target string) *measure.Oracle {
	tb.Helper()
	dir := thirdParty.get(tb)
	cfg.Config = measure.Config{Dir: dir, Package: "./trouble", Target: target, Env: goEnv(), Timeout: cfg.Timeout}
	o, err := measure.NewOracle(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { o.Close() })
	return o
}

// TestOracleTrouble asks FuzzTrouble about words that pass, fail, skip,
// panic, hang, exit the process and panic in another goroutine, and a text
// outside its grammar: only the passing words are accepted, every failure
// is reported with its input, and the queries after a hang or a crash are
// answered by a new process.
func TestOracleTrouble(t *testing.T) {
	var (
		mu       sync.Mutex
		failures = map[string]measure.Failure{}
	)
	o := troubleOracle(t, measure.OracleConfig{
		Config: measure.Config{Timeout: time.Second},
		Procs:  2,
		Report: func(f measure.Failure) {
			mu.Lock()
			failures[string(f.Input)] = f
			mu.Unlock()
		},
	}, "FuzzTrouble")
	if d := o.Description(); d.Target != "FuzzTrouble" || !strings.Contains(d.Grammar, "<word>") {
		t.Errorf("description %+v", d)
	}
	words := []string{"a", "panic", "b", "hang", "c", "exit", "d", "gopanic", "e", "fail", "skip", "123", "pool", ""}
	ins := make([][]byte, len(words))
	for i, w := range words {
		ins[i] = []byte(w)
	}
	ctx := context.Background()
	got, err := oracle.AcceptAll(ctx, o, ins)
	if err != nil {
		t.Fatal(err)
	}
	accept := map[string]bool{"a": true, "b": true, "c": true, "d": true, "e": true, "pool": true, "": true}
	for i, w := range words {
		if got[i] != accept[w] {
			t.Errorf("%q: accepted %v, want %v", w, got[i], accept[w])
		}
	}
	want := map[string]measure.Status{
		"panic": protocol.StatusPanic, "hang": protocol.StatusTimeout, "exit": measure.StatusCrash,
		"gopanic": measure.StatusCrash, "fail": protocol.StatusFail,
	}
	for w, st := range want {
		if f, ok := failures[w]; !ok || f.Status != st {
			t.Errorf("failure of %q: %+v, want status %s", w, f, st)
		}
	}
	if len(failures) != len(want) {
		t.Errorf("%d failures reported, want %d: %v", len(failures), len(want), failures)
	}
	if f := failures["panic"]; f.Message != "trouble on request" || !strings.Contains(f.Stack, "trouble.explode") {
		t.Errorf("panic: message %q, stack %q", f.Message, f.Stack)
	}
	if f := failures["exit"]; !strings.Contains(f.Message, "exit status 7") {
		t.Errorf("exit: %q", f.Message)
	}
	if f := failures["gopanic"]; !strings.Contains(f.Message, "trouble on request") {
		t.Errorf("gopanic: %q", f.Message)
	}
	st := o.Statuses()
	for s, n := range map[measure.Status]int64{
		protocol.StatusPass: 7, protocol.StatusSkip: 1, protocol.StatusError: 1, protocol.StatusFail: 1,
		protocol.StatusPanic: 1, protocol.StatusTimeout: 1, measure.StatusCrash: 2,
	} {
		if st[s] != n {
			t.Errorf("%d queries with status %s, want %d (all: %v)", st[s], s, n, st)
		}
	}
	if s := o.Stats(); s.Queries != int64(len(words)) || s.Accepted != 7 || s.Panics != 1 || s.Timeouts != 1 {
		t.Errorf("Stats = %+v", s)
	}
	// Up to two processes to begin with (NewOracle starts one, the second
	// worker of the batch may start the other), and one after each of hang,
	// exit and gopanic if its worker has inputs left; one worker at least
	// meets two of them, and has an input left after the first.
	if p := o.Processes(); p < 2 || p > 5 {
		t.Errorf("%d processes started, want 2 to 5", p)
	}
	// The oracle still answers after the trouble, one query at a time.
	for w, want := range map[string]bool{"z": true, "skip": false, "Z": false} {
		if ok, err := o.Accept(ctx, []byte(w)); err != nil || ok != want {
			t.Errorf("Accept(%q) = %v, %v; want %v", w, ok, err, want)
		}
	}
}

// TestOracleCalc asks the calculator's fuzz target, whose harness parses
// with its expression grammar.
func TestOracleCalc(t *testing.T) {
	skipShort(t)
	o, err := measure.NewOracle(context.Background(), measure.OracleConfig{
		Config: measure.Config{Dir: "../../examples/calc", Target: "FuzzCalc", Env: goEnv()},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	for in, want := range map[string]bool{"x*(y+1)": true, "++x/--y%3": true, "x*": false, "(1": false, "": false, "1 + 2": false} {
		if ok, err := o.Accept(context.Background(), []byte(in)); err != nil || ok != want {
			t.Errorf("Accept(%q) = %v, %v; want %v", in, ok, err, want)
		}
	}
}

// TestOracleBytes checks that inputs that are not valid UTF-8 reach the
// target byte for byte.
func TestOracleBytes(t *testing.T) {
	o := troubleOracle(t, measure.OracleConfig{}, "FuzzInvalidUTF8")
	for in, want := range map[string]bool{"\xff": true, "a\x80b": true, "\u00ff": false, "ab": false, "": false} {
		if ok, err := o.Accept(context.Background(), []byte(in)); err != nil || ok != want {
			t.Errorf("Accept(%q) = %v, %v; want %v", in, ok, err, want)
		}
	}
}

// TestOracleRecycle replaces the test processes every 7 queries, in the
// middle of batches whose inputs run ahead of the answers.
func TestOracleRecycle(t *testing.T) {
	defer measure.SetRecycleAfter(7)()
	o := troubleOracle(t, measure.OracleConfig{Procs: 2}, "FuzzTrouble")
	ins := make([][]byte, 100)
	for i := range ins {
		ins[i] = []byte(strings.Repeat("ab", i%5))
		if i%3 == 0 {
			ins[i] = append(ins[i], '1') // not a word
		}
	}
	got, err := oracle.AcceptAll(context.Background(), o, ins)
	if err != nil {
		t.Fatal(err)
	}
	for i, ok := range got {
		if ok != (i%3 != 0) {
			t.Errorf("%q: accepted %v", ins[i], ok)
		}
	}
	// Each process answers 7 inputs; the one NewOracle started may answer
	// fewer before it is replaced, or none.
	if p := o.Processes(); p < 100/7 || p > 100/7+3 {
		t.Errorf("%d processes for 100 queries, 7 each", p)
	}
}

func TestOracleNotHarness(t *testing.T) {
	dir := thirdParty.get(t)
	_, err := measure.NewOracle(context.Background(), measure.OracleConfig{
		Config: measure.Config{Dir: dir, Package: "./trouble", Target: "FuzzPlain", Env: goEnv()},
	})
	if !errors.Is(err, measure.ErrNotHarness) {
		t.Errorf("NewOracle: %v; want ErrNotHarness", err)
	}
}

func TestOracleCanceled(t *testing.T) {
	o := troubleOracle(t, measure.OracleConfig{Procs: 1}, "FuzzTrouble")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := o.Accept(ctx, []byte("hang")); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Accept(hang) with a context that ends: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Accept returned after %v", d)
	}
	if ok, err := o.Accept(context.Background(), []byte("a")); !ok || err != nil {
		t.Errorf("Accept(a) afterwards = %v, %v", ok, err)
	}
}

// NewOracle makes examples/calc's fuzz test FuzzCalc a membership oracle:
// an input is accepted when the harness's expression grammar derives it and
// the target passes.
func ExampleNewOracle() {
	o, err := measure.NewOracle(context.Background(), measure.OracleConfig{
		Config: measure.Config{Dir: "../../examples/calc", Target: "FuzzCalc"},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer o.Close()
	ins := [][]byte{[]byte("x*(y+1)"), []byte("x*("), []byte("++x/--y%3")}
	oks, err := oracle.AcceptAll(context.Background(), o, ins)
	if err != nil {
		log.Fatal(err)
	}
	for i, in := range ins {
		fmt.Printf("%q %v\n", in, oks[i])
	}
	fmt.Println(o.Statuses())
	// Output:
	// "x*(y+1)" true
	// "x*(" false
	// "++x/--y%3" true
	// map[error:1 pass:2]
}
