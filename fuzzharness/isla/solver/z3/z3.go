// Package z3 gives the ISLa solver of package isla/solver the Z3 SMT solver:
// a Solver implements solver.SMTSolver with the cgo binding internal/z3.
//
// It is a package of its own so that packages isla and solver build without cgo. Built
// with CGO_ENABLED=0, New returns an error wrapping z3.ErrNoCgo, and the
// ISLa solver then solves in Go what it can and gives up on the rest.
//
//	z, err := z3.New()
//	...
//	defer z.Close()
//	s, err := solver.New(spec, solver.WithSMTSolver(z))
package z3

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
	libz3 "github.com/seed72891827/kfuzz/internal/z3"
)

// ErrNoZ3 is wrapped by the error New returns when Z3 is not available (a
// build without cgo).
var ErrNoZ3 = errors.New("z3: Z3 is not available in this build")

// A Solver answers solver.SMTQuery values with Z3. It is safe for concurrent
// use; queries run one at a time.
type Solver struct {
	mu sync.Mutex
	z  *libz3.Solver
}

var _ solver.SMTSolver = (*Solver)(nil)

// New returns a Solver with its own Z3 context.
func New() (*Solver, error) {
	z, err := libz3.NewSolver()
	if err != nil {
		if errors.Is(err, libz3.ErrNoCgo) {
			return nil, fmt.Errorf("%w: %v", ErrNoZ3, err)
		}
		return nil, err
	}
	return &Solver{z: z}, nil
}

// Close frees the Z3 context.
func (s *Solver) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.z.Close()
}

// Solve declares the query's variables as strings, asserts their regular
// expressions and the query's assertions in a scope of their own, and
// enumerates up to n models that differ in some variable. Z3 gives up at
// the context's deadline.
func (s *Solver) Solve(ctx context.Context, q *solver.SMTQuery, n int) ([]solver.SMTModel, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.z.Push(); err != nil {
		return nil, err
	}
	defer s.z.Pop()
	var terms []string
	names := make([]string, 0, len(q.Vars))
	for _, v := range q.Vars {
		if err := s.z.Declare(v.Name, libz3.String); err != nil {
			return nil, err
		}
		names = append(names, v.Name)
		if v.Regex != "" {
			terms = append(terms, fmt.Sprintf("(str.in_re %s %s)", v.Name, v.Regex))
		}
	}
	terms = append(terms, q.Assertions...)
	if err := s.z.Assert(terms...); err != nil {
		return nil, err
	}
	models, err := s.z.Models(ctx, n, names...)
	out := make([]solver.SMTModel, 0, len(models))
	for _, m := range models {
		sm := solver.SMTModel{}
		for _, name := range names {
			v, verr := m.StringValue(name)
			if verr != nil {
				return out, verr
			}
			sm[name] = v
		}
		out = append(out, sm)
	}
	return out, err
}
