//go:build unix

package islatest

import (
	"syscall"
	"time"
)

// ProcessCPU returns the CPU time (user + system) the process has used, so
// that benchmarks can report throughput per CPU second on a loaded machine.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
