package solver

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// A Limit is a bound of the solver that can stop it before it finds a
// solution.
type Limit uint8

// The solver's limits.
const (
	NoLimit         Limit = iota // no bound stopped it: the solver lacks a method
	LimitStates                  // MaxStates (and MaxRestartsPerSolution)
	LimitTime                    // the context's deadline
	LimitSize                    // MaxSize
	LimitBranches                // Branches
	LimitSMTTimeout              // SMTTimeout
	LimitAttempts                // the random values tried for the atoms' variables
	LimitItems                   // MaxItems, of the parses of solved texts
	// LimitReserve is the memory bound of the states the solver keeps
	// for more random samples of their atoms' values (16,384 tree nodes):
	// past it, it drops the costliest.
	LimitReserve
)

// String returns the name of the Option that sets the limit.
func (l Limit) String() string {
	switch l {
	case LimitStates:
		return "MaxStates"
	case LimitTime:
		return "the context's deadline"
	case LimitSize:
		return "MaxSize"
	case LimitBranches:
		return "Branches"
	case LimitSMTTimeout:
		return "SMTTimeout"
	case LimitAttempts:
		return "the random values tried per variable"
	case LimitItems:
		return "MaxItems"
	case LimitReserve:
		return "the bound of the states kept for more samples"
	}
	return "no limit"
}

// A GaveUpError is the error, wrapping ErrGaveUp, with which Next stops
// when it finds no further solution without a proof that there is none.
type GaveUpError struct {
	// Reason says what the solver could not do.
	Reason string
	// Part is the part of the constraint the solver could not satisfy, in
	// core ISLa, with its position in the constraint's source; "" if no
	// formula was left.
	Part string
	// Limit is the bound that stopped the solver; Value its setting.
	Limit Limit
	Value string
	// Flag, if set, is the command-line flag that raises Limit; the
	// command that maps its flags to the solver's options fills it in.
	Flag string
	// Predicate is the last error of a semantic predicate while solving,
	// with the predicate's position, which often says why no solution was
	// found (such as a tree of the wrong size for a checksum); "" if none.
	Predicate string
	// Err is the cause, if any, such as the context's error.
	Err error
}

// Error says why the solver gave up, on what, and how to raise the bound.
func (e *GaveUpError) Error() string {
	var b strings.Builder
	b.WriteString(ErrGaveUp.Error() + ": " + e.Reason)
	if e.Part != "" {
		b.WriteString("; unsatisfied: " + e.Part)
	}
	if e.Predicate != "" {
		b.WriteString("; last predicate error: " + e.Predicate)
	}
	if e.Limit != NoLimit {
		fmt.Fprintf(&b, "; stopped by %v", e.Limit)
		if e.Value != "" {
			b.WriteString(" (" + e.Value + ")")
		}
		if e.Flag != "" {
			b.WriteString(", raise it with " + e.Flag)
		}
	}
	return b.String()
}

// Unwrap returns ErrGaveUp and the cause, if any.
func (e *GaveUpError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrGaveUp, e.Err}
	}
	return []error{ErrGaveUp}
}

// predFailed records the error of a semantic predicate.
func (s *Solver) predFailed(n *isla.CompiledPred, err error) {
	s.predErr, s.predSrc = err, n.Src
}

// gaveUp returns the error for giving up, with the last error of a
// semantic predicate.
func (s *Solver) gaveUp(e GaveUpError) *GaveUpError {
	if s.predErr != nil {
		e.Predicate = s.predErr.Error()
		if p := s.predSrc.Position(); p.IsValid() {
			e.Predicate = p.String() + ": " + e.Predicate
		}
	}
	return &e
}

// maxPartLen bounds the text of GaveUpError.Part: a formula of thousands of
// conjuncts is cut.
const maxPartLen = 200

// partOf describes the formulas a state has left: the first, with its
// position, and how many more.
func partOf(st *state) string {
	if st == nil || len(st.forms) == 0 {
		return ""
	}
	src := isla.SourceOf(st.forms[0].n)
	text := isla.FormatFormula(src)
	if st.forms[0].neg {
		text = "not " + text
	}
	if len(text) > maxPartLen {
		n := maxPartLen
		for n > 0 && !utf8.RuneStart(text[n]) {
			n--
		}
		text = text[:n] + "..."
	}
	if p := src.Position(); p.IsValid() {
		text = p.String() + ": " + text
	}
	if n := len(st.forms) - 1; n > 0 {
		text += fmt.Sprintf(" (and %d more)", n)
	}
	return text
}
