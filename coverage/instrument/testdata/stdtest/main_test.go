package stdtest

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestMain turns the garbage collector off: it empties sync.Pools (such as
// encoding/json's scanner pool) at moments that differ from run to run,
// and with them which inputs call the pools' New functions.
func TestMain(m *testing.M) {
	debug.SetGCPercent(-1)
	os.Exit(m.Run())
}
