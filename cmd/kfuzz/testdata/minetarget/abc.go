// Package minetarget is a fuzz target for the tests of kfuzz mine with
// -fuzz: its parser accepts (ab)*c*, and it misbehaves on request.
package minetarget

import (
	"fmt"
	"time"
)

// Parse returns an error unless s is in (ab)*c*. It panics on "bcc" and
// hangs on "acc".
func Parse(s string) error {
	switch s {
	case "bcc":
		panic("bcc on request")
	case "acc":
		time.Sleep(time.Hour)
	}
	i := 0
	for i+1 < len(s) && s[i] == 'a' && s[i+1] == 'b' {
		i += 2
	}
	for i < len(s) && s[i] == 'c' {
		i++
	}
	if i < len(s) {
		return fmt.Errorf("offset %d: unexpected %q", i, s[i])
	}
	return nil
}
