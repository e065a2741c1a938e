// Package crash holds a fuzz target with a seeded bug, for the test of
// .ci/ossfuzz-build: Check panics on an expression that divides by a
// literal zero.
package crash

import "strings"

// Check panics if s divides by the literal 0.
func Check(s string) {
	if strings.Contains(s, "/0") {
		panic("crash: a division by a literal zero in " + s)
	}
}
