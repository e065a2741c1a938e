//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package cputime

import "time"

// threadTime reports that there is no thread CPU clock.
func threadTime() (time.Duration, bool) { return 0, false }

// ProcessTotal reports that there is no process CPU clock.
func ProcessTotal() (time.Duration, bool) { return 0, false }
