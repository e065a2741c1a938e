package fuzzharness

import (
	"flag"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// TestMinimizeLimitOf checks the limit: minimizeLimit when the harness
// checks its inputs, go test's own otherwise.
func TestMinimizeLimitOf(t *testing.T) {
	valid := func(*grammar.Tree) bool { return true }
	for _, c := range []struct {
		name string
		opts []Option
		want int
	}{
		{"no check", nil, 0},
		{"constraint", []Option{WithConstraint(noY{})}, minimizeLimit},
		{"validity", []Option{WithValidity(valid)}, minimizeLimit},
	} {
		cfg := newConfig(c.opts)
		if got := cfg.minimizeLimitOf(); got != c.want {
			t.Errorf("%s: limit %d, want %d", c.name, got, c.want)
		}
	}
}

// stringFlag is a flag.Value holding a string.
type stringFlag struct{ s string }

func (v *stringFlag) String() string     { return v.s }
func (v *stringFlag) Set(s string) error { v.s = s; return nil }

// TestMinimizeFlag checks that the harness sets the minimization flag to
// its limit, restores the flag's first value for a limit of 0, and leaves
// a flag given on the command line alone.
func TestMinimizeFlag(t *testing.T) {
	newSet := func(args ...string) (*flag.FlagSet, *stringFlag) {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		v := &stringFlag{"1m0s"}
		fs.Var(v, minimizeFlag, "")
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		return fs, v
	}
	fs, v := newSet()
	var m minimizeDefault
	for _, c := range []struct {
		n    int
		want string
	}{{1000, "1000x"}, {0, "1m0s"}, {7, "7x"}, {0, "1m0s"}} {
		if err := m.set(fs, c.n); err != nil || v.s != c.want {
			t.Errorf("limit %d: flag %q (%v), want %q", c.n, v.s, err, c.want)
		}
	}
	fs, v = newSet("-" + minimizeFlag + "=5s")
	var given minimizeDefault
	if err := given.set(fs, 1000); err != nil || v.s != "5s" {
		t.Errorf("a flag given as 5s becomes %q (%v), want it left as it was", v.s, err)
	}
	var none minimizeDefault
	if err := none.set(flag.NewFlagSet("other", flag.ContinueOnError), 1000); err != nil {
		t.Errorf("a flag set without the flag: %v", err)
	}
}
