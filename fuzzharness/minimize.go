package fuzzharness

import (
	"flag"
	"fmt"
	"strconv"
	"sync"
)

// minimizeLimit is how many executions go test -fuzz may spend minimizing
// one input by default when the harness checks its inputs (WithConstraint,
// WithValidity). go test's own default is 60 seconds of minimization per
// input, with a number of executions quadratic in the input's length; when
// an execution costs a repair or a validity check (hundreds of
// microseconds) and the fuzzer's inputs are long (a tape archive's are
// kilobytes), the coordinator spent whole runs minimizing the first inputs
// that found new coverage and hardly fuzzed. With 1000 executions, a 7 KB
// TAR input still took 1 to 5 s to minimize.
const minimizeLimit = 200

// minimizeFlag is the test binary's flag behind go test's -fuzzminimizetime.
const minimizeFlag = "test.fuzzminimizetime"

// minimizeLimitOf returns the minimization limit of the options in
// executions, or 0 for go test's default.
func (c *config) minimizeLimitOf() int {
	if c.constraint != nil || c.valid != nil {
		return minimizeLimit
	}
	return 0
}

// minimizeDefault records, once, whether the command line set a flag
// set's minimization flag and the flag's value before any harness set it.
type minimizeDefault struct {
	once  sync.Once
	given bool
	value string
}

// commandLineMinimize is minimizeDefault of flag.CommandLine.
var commandLineMinimize minimizeDefault

// set sets the minimization flag of fs to n executions, or back to its
// value at the start if n is 0, unless the command line gave it (or fs
// has no such flag: the binary is not a go test binary). It runs before
// every f.Fuzz of a fuzzed harness, so that one fuzz test's limit does not
// carry over to the next one in the same process.
func (m *minimizeDefault) set(fs *flag.FlagSet, n int) error {
	f := fs.Lookup(minimizeFlag)
	if f == nil {
		return nil
	}
	m.once.Do(func() {
		fs.Visit(func(g *flag.Flag) { m.given = m.given || g.Name == minimizeFlag })
		m.value = f.Value.String()
	})
	if m.given {
		return nil
	}
	v := m.value
	if n > 0 {
		v = strconv.Itoa(n) + "x"
	}
	if err := fs.Set(minimizeFlag, v); err != nil {
		return fmt.Errorf("fuzzharness: -%s=%s: %w", minimizeFlag, v, err)
	}
	return nil
}
