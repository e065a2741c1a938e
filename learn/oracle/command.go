package oracle

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"time"
)

// FilePlaceholder is the text that Command replaces in its arguments by the
// name of a temporary file holding the input.
const FilePlaceholder = "{}"

// A CommandOracle is an Oracle that runs a program per query. See Command.
type CommandOracle struct {
	// Name and Args are the program and its arguments.
	Name string
	Args []string
	// Dir is the working directory of the program ("" for the current one).
	Dir string
	// Timeout is the longest one run may take (DefaultTimeout if zero); a
	// run that takes longer is killed and counts as a rejection.
	Timeout time.Duration

	queries, accepted, timeouts atomic.Int64
}

// Command returns an Oracle that runs the program name with args once per
// query and accepts the input when the program exits with status 0. Any
// other exit, including death by a signal or a timeout (see the Timeout
// field), is a rejection.
//
// The input is written to the program's standard input, unless an argument
// contains "{}" (FilePlaceholder): then the input is written to a fresh
// temporary file, "{}" in every argument is replaced by the file's name,
// standard input is empty, and the file is removed after the run.
//
// The program's output is discarded. An error is returned only when the
// program cannot be started, the temporary file cannot be written or the
// context is done.
func Command(name string, args ...string) *CommandOracle {
	return &CommandOracle{Name: name, Args: args}
}

// Accept implements Oracle.
func (c *CommandOracle) Accept(ctx context.Context, input []byte) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	args := c.Args
	var stdin = bytes.NewReader(input)
	if c.usesFile() {
		f, err := os.CreateTemp("", "kfuzz-oracle-*")
		if err != nil {
			return false, fmt.Errorf("oracle: %w", err)
		}
		defer os.Remove(f.Name())
		_, werr := f.Write(input)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return false, fmt.Errorf("oracle: %w", werr)
		}
		args = make([]string, len(c.Args))
		for i, a := range c.Args {
			args[i] = strings.ReplaceAll(a, FilePlaceholder, f.Name())
		}
		stdin = bytes.NewReader(nil)
	}
	cmd := exec.CommandContext(rctx, c.Name, args...)
	cmd.Dir = c.Dir
	cmd.Stdin = stdin
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return false, ctx.Err()
	case rctx.Err() != nil:
		c.timeouts.Add(1)
	case errors.As(err, &exit), errors.Is(err, exec.ErrWaitDelay):
	default:
		return false, fmt.Errorf("oracle: %w", err)
	}
	c.queries.Add(1)
	if err == nil {
		c.accepted.Add(1)
	}
	return err == nil, nil
}

func (c *CommandOracle) usesFile() bool {
	for _, a := range c.Args {
		if strings.Contains(a, FilePlaceholder) {
			return true
		}
	}
	return false
}

// Stats returns the runs so far (Queries, Accepted) and those killed after
// the timeout.
func (c *CommandOracle) Stats() Stats {
	return Stats{Queries: c.queries.Load(), Accepted: c.accepted.Load(), Timeouts: c.timeouts.Load()}
}
