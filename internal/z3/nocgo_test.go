//go:build !cgo

package z3

import (
	"context"
	"errors"
	"testing"
)

func TestNoCgo(t *testing.T) {
	s, err := NewSolver()
	if s != nil || !errors.Is(err, ErrNoCgo) {
		t.Fatalf("NewSolver() = %v, %v; want nil, ErrNoCgo", s, err)
	}
	if want := "z3: kfuzz was built without cgo; rebuild with CGO_ENABLED=1 and libz3-dev installed"; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
	// A nil *Solver, as NewSolver returns, fails the same way everywhere.
	for name, err := range map[string]error{
		"Close": s.Close(), "Declare": s.Declare("x", Int), "Assert": s.Assert("true"),
		"Push": s.Push(), "Pop": s.Pop(),
	} {
		if !errors.Is(err, ErrNoCgo) {
			t.Errorf("%s = %v, want ErrNoCgo", name, err)
		}
	}
	if r, err := s.Check(context.Background()); r != Unknown || !errors.Is(err, ErrNoCgo) {
		t.Errorf("Check = %v, %v", r, err)
	}
	if _, err := s.Model(); !errors.Is(err, ErrNoCgo) {
		t.Errorf("Model = %v", err)
	}
	if _, err := s.Models(context.Background(), 1); !errors.Is(err, ErrNoCgo) {
		t.Errorf("Models = %v", err)
	}
	if s.ReasonUnknown() != ErrNoCgo.Error() {
		t.Errorf("ReasonUnknown = %q", s.ReasonUnknown())
	}
}
