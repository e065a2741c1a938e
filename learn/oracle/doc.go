// Package oracle holds the membership oracle that grammar miners query: a
// function that tells whether the program under test accepts an input.
//
// An Oracle answers Accept(ctx, input) with true (the input is valid), false
// (it is rejected) or an error. The error is for failures of the
// infrastructure only, such as a command that cannot be started or a done
// context; an input the program rejects, crashes on or hangs on is false,
// never an error.
//
// Three oracles are provided. Func runs a Go function in-process, millions of
// times faster than a process per query; a panic counts as a rejection, and
// so does a call that exceeds the per-call timeout. Command runs a program per
// query and accepts on exit status 0; the input goes to its standard input,
// or to a temporary file whose name replaces "{}" in its arguments.
//
// Wrappers add what every miner needs: Cached remembers answers by input,
// Counted counts queries, acceptances and the time spent, and AcceptAll
// answers a batch of inputs on all cores, in the order given.
package oracle
