//go:build !linux

package cputime

import "time"

// startThreads reports that threads' clocks cannot be read here.
func (p *Process) startThreads() bool { return false }

// stopThreads is not called where startThreads reports false.
func (p *Process) stopThreads() (time.Duration, bool) { return 0, false }
