//go:build !cgo

package z3

import "context"

// A Solver is a Z3 solver. This kfuzz was built without cgo, so there are
// none: [NewSolver] returns [ErrNoCgo], and so does every method.
type Solver struct{}

// NewSolver returns [ErrNoCgo]: this kfuzz was built without cgo.
func NewSolver() (*Solver, error) { return nil, ErrNoCgo }

// Close returns [ErrNoCgo].
func (s *Solver) Close() error { return ErrNoCgo }

// Declare returns [ErrNoCgo].
func (s *Solver) Declare(name string, sort Sort) error { return ErrNoCgo }

// Assert returns [ErrNoCgo].
func (s *Solver) Assert(terms ...string) error { return ErrNoCgo }

// Push returns [ErrNoCgo].
func (s *Solver) Push() error { return ErrNoCgo }

// Pop returns [ErrNoCgo].
func (s *Solver) Pop() error { return ErrNoCgo }

// Check returns Unknown and [ErrNoCgo].
func (s *Solver) Check(ctx context.Context) (Result, error) { return Unknown, ErrNoCgo }

// ReasonUnknown returns the message of [ErrNoCgo].
func (s *Solver) ReasonUnknown() string { return ErrNoCgo.Error() }

// Model returns [ErrNoCgo].
func (s *Solver) Model() (*Model, error) { return nil, ErrNoCgo }

// Models returns [ErrNoCgo].
func (s *Solver) Models(ctx context.Context, n int, over ...string) ([]*Model, error) {
	return nil, ErrNoCgo
}
