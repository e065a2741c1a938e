//go:build !unix

package grammar

import "time"

// processCPU is not available on this platform; benchmarks then report no
// CPU-time metrics.
func processCPU() time.Duration { return 0 }
