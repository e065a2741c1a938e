//go:build !unix

package islatest

import "time"

// ProcessCPU is not available on this platform; benchmarks then report no
// CPU-time metrics.
func ProcessCPU() time.Duration { return 0 }
