//go:build !unix

package algebra

import "time"

var processStart = time.Now()

// cpuTime returns the time since the process started where CPU time is
// not available.
func cpuTime() time.Duration { return time.Since(processStart) }
