// Package trouble misbehaves on request, to test how kfuzz reports inputs
// that panic, hang or crash the test process.
package trouble

import (
	"errors"
	"os"
	"sync"
	"time"
)

// Do does what s says: "panic" panics, "hang" sleeps for an hour, "exit"
// exits the process, "gopanic" panics in another goroutine, "fail" returns
// an error, "pool" takes a buffer from a sync.Pool and puts it back, and
// anything else returns nil.
func Do(s string) error {
	switch s {
	case "pool":
		b := buffers.Get().(*[]byte)
		buffers.Put(b)
	case "panic":
		explode()
	case "hang":
		time.Sleep(time.Hour)
	case "exit":
		os.Exit(7)
	case "gopanic":
		go explode()
		time.Sleep(time.Hour)
	case "fail":
		return errors.New("failed on request")
	}
	return nil
}

func explode() { panic("trouble on request") }

// buffers is a pool whose New function, newBuffer, runs when the pool is
// empty: after the garbage collector emptied it, or the first time.
var buffers = sync.Pool{New: newBuffer}

func newBuffer() any {
	b := make([]byte, 64)
	return &b
}
