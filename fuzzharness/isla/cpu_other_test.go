//go:build !unix

package isla_test

import "time"

// processCPU is not available on this platform; benchmarks then report no
// CPU-time metrics.
func processCPU() time.Duration { return 0 }
