// Package solver generates inputs that satisfy ISLa constraints and
// repairs inputs that violate them. It works on constraints compiled by
// package isla (isla.Spec) and follows the ISLa solver of Steinhöfel and
// Zeller ("Input Invariants", ESEC/FSE 2022, section 4 and the appendix).
//
// A Solver (New) produces complete derivation trees that satisfy the
// constraint, one after the other (Solver.Next, Solver.Solve); every
// solution is checked with the validator of package isla before it is
// returned. A Repairer (NewRepairer) turns a tree that violates the
// constraint into one that satisfies it, keeping as much of the tree as it
// can: it re-solves only the nodes the failing quantifier instances bind.
// A Repairer implements the Constraint interface of package fuzzharness,
// which makes a fuzz test constraint-aware.
//
// Both take the same functional options (Option): the seed of the random
// choices (Seed; the same seed, spec and options give the same solutions
// in the same order), the state budget (MaxStates, RestartEvery,
// StallFactor), the size of the subtrees the solver derives (MaxSize), the
// Earley items of the parses of the texts it solves for (MaxItems), the
// weights of its cost function (CostWeights), and an SMT solver for the
// SMT-LIB atoms it cannot solve in Go (WithSMTSolver; package
// isla/solver/z3 provides Z3, which needs cgo).
//
// Semantic predicates take part in solving through the interfaces of
// package isla: a NumSolver computes the values of a numeric argument, and
// a TreeSolver sets the text of the nodes it writes (such as a checksum
// field).
package solver
