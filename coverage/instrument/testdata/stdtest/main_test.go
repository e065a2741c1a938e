package stdtest

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
)

// TestMain turns the garbage collector off: it empties sync.Pools (such as
// encoding/json's scanner pool) at moments that differ from run to run,
// and with them which inputs call the pools' New functions. It also runs
// everything on one P: a value a pool holds is in the private slot of the
// P that put it, which no other P can take, so a goroutine that moved to
// another P between Put and Get would call New again (CI saw
// encoding/json's newScanner count 2 in one run and 1 in the other).
func TestMain(m *testing.M) {
	debug.SetGCPercent(-1)
	runtime.GOMAXPROCS(1)
	os.Exit(m.Run())
}
