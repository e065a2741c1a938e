package oracle

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"testing"
	"time"
)

func TestFuncPanicAndTimeout(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	o := Func(func(b []byte) bool {
		switch string(b) {
		case "panic":
			panic("boom")
		case "hang":
			<-block
		}
		return string(b) == "ok"
	}, Timeout(50*time.Millisecond))
	ctx := context.Background()
	for _, c := range []struct {
		in   string
		want bool
	}{{"ok", true}, {"no", false}, {"panic", false}, {"hang", false}} {
		got, err := o.Accept(ctx, []byte(c.in))
		if err != nil || got != c.want {
			t.Errorf("Accept(%q) = %v, %v; want %v, nil", c.in, got, err, c.want)
		}
	}
	s := o.Stats()
	if s.Queries != 4 || s.Accepted != 1 || s.Panics != 1 || s.Timeouts != 1 {
		t.Errorf("Stats = %+v; want 4 queries, 1 accepted, 1 panic, 1 timeout", s)
	}
}

func TestFuncNoTimeoutRecovers(t *testing.T) {
	o := Func(func(b []byte) bool { panic("x") }, Timeout(0))
	if ok, err := o.Accept(context.Background(), nil); ok || err != nil {
		t.Fatalf("Accept = %v, %v; want false, nil", ok, err)
	}
	if o.Stats().Panics != 1 {
		t.Fatalf("Panics = %d, want 1", o.Stats().Panics)
	}
}

func TestFuncContextDone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	o := Func(func([]byte) bool { return true })
	if _, err := o.Accept(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestCachedCountedAcceptAll(t *testing.T) {
	f := Func(func(b []byte) bool { return bytes.Count(b, []byte("a"))%2 == 0 }, Timeout(0))
	cnt := Counted(f)
	c := Cached(cnt)
	ins := [][]byte{[]byte("aa"), []byte("a"), []byte("aa"), []byte(""), []byte("a")}
	got, err := AcceptAll(context.Background(), c, ins)
	if err != nil {
		t.Fatal(err)
	}
	want := []bool{true, false, true, true, false}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("AcceptAll = %v, want %v", got, want)
		}
	}
	if q := cnt.Stats().Queries; q != 3 {
		t.Errorf("queries = %d, want 3 (distinct inputs)", q)
	}
	if h := c.Hits(); h != 2 {
		t.Errorf("hits = %d, want 2", h)
	}
	if ok, _ := c.Accept(context.Background(), []byte("aa")); !ok || c.Hits() != 3 || cnt.Stats().Queries != 3 {
		t.Errorf("Accept of a known input: ok=%v hits=%d queries=%d", ok, c.Hits(), cnt.Stats().Queries)
	}
	if s := cnt.Stats(); s.Accepted != 2 {
		t.Errorf("accepted = %d, want 2", s.Accepted)
	}
}

func TestAcceptAllParallelOrder(t *testing.T) {
	o := Func(func(b []byte) bool { return len(b)%3 == 0 })
	ins := make([][]byte, 200)
	for i := range ins {
		ins[i] = bytes.Repeat([]byte("x"), i)
	}
	got, err := AcceptAll(context.Background(), o, ins)
	if err != nil {
		t.Fatal(err)
	}
	for i, ok := range got {
		if ok != (i%3 == 0) {
			t.Fatalf("answer %d = %v", i, ok)
		}
	}
}

func TestCommand(t *testing.T) {
	if _, err := exec.LookPath("grep"); err != nil {
		t.Skip("no grep")
	}
	ctx := context.Background()
	for _, o := range []*CommandOracle{
		Command("grep", "-q", "^ab*$"),       // stdin
		Command("grep", "-q", "^ab*$", "{}"), // file
	} {
		for _, c := range []struct {
			in   string
			want bool
		}{{"abbb", true}, {"ba", false}} {
			got, err := o.Accept(ctx, []byte(c.in))
			if err != nil || got != c.want {
				t.Errorf("%v: Accept(%q) = %v, %v; want %v", o.Args, c.in, got, err, c.want)
			}
		}
	}
	if _, err := Command("/nonexistent/program").Accept(ctx, nil); err == nil {
		t.Error("a program that cannot start: no error")
	}
}

func TestCommandTimeout(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep")
	}
	o := Command("sleep", "5")
	o.Timeout = 100 * time.Millisecond
	ok, err := o.Accept(context.Background(), nil)
	if ok || err != nil || o.Stats().Timeouts != 1 {
		t.Fatalf("Accept = %v, %v, timeouts %d; want false, nil, 1", ok, err, o.Stats().Timeouts)
	}
}

func TestFuncAcceptBatchTimeout(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	o := Func(func(b []byte) bool {
		switch string(b) {
		case "hang":
			<-block
		case "panic":
			panic("boom")
		}
		return len(b) == 2
	}, Timeout(50*time.Millisecond))
	ins := [][]byte{[]byte("ab"), []byte("hang"), []byte("x"), []byte("panic"), []byte("hang"), []byte("cd")}
	for range 50 {
		ins = append(ins, []byte("ok"))
	}
	got, err := AcceptAll(context.Background(), o, ins)
	if err != nil {
		t.Fatal(err)
	}
	for i, in := range ins {
		if want := len(in) == 2; got[i] != want {
			t.Errorf("answer %d (%q) = %v, want %v", i, in, got[i], want)
		}
	}
	if s := o.Stats(); s.Timeouts != 2 || s.Panics != 1 || s.Queries != int64(len(ins)) {
		t.Errorf("Stats = %+v; want 2 timeouts, 1 panic, %d queries", s, len(ins))
	}
}
