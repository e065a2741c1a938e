// Package trouble misbehaves on request, to test how kfuzz reports inputs
// that panic, hang or crash the test process.
package trouble

import (
	"errors"
	"os"
	"time"
)

// Do does what s says: "panic" panics, "hang" sleeps for an hour, "exit"
// exits the process, "gopanic" panics in another goroutine, "fail" returns
// an error, and anything else returns nil.
func Do(s string) error {
	switch s {
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
