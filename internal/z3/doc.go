// Package z3 is a small binding to the Z3 SMT solver's C API (libz3).
//
// It is the only kfuzz package that uses cgo. Built without cgo
// (CGO_ENABLED=0), the package still compiles, but [NewSolver] returns
// [ErrNoCgo]. Built with cgo, it needs the Z3 headers and library (on
// Debian and Ubuntu: apt-get install libz3-dev); it is written against
// Z3 4.8.12.
//
// A [Solver] owns one Z3 context. Constants are declared with
// [Solver.Declare] and constraints are asserted as SMT-LIB 2 terms over them
// with [Solver.Assert]:
//
//	s, err := z3.NewSolver()
//	...
//	defer s.Close()
//	s.Declare("x", z3.String)
//	s.Assert(`(str.in_re x (re.+ (re.union (str.to_re "a") (str.to_re "b"))))`,
//		`(= (str.len x) 5)`)
//	res, err := s.Check(ctx)
//	m, err := s.Model()
//	x, err := m.StringValue("x")
//
// Z3 errors (syntax errors, sort errors, misuse) come back as *[Error]
// values carrying Z3's message; Z3's error handler is disabled, so an error
// never ends the process. [Solver.Check] maps the deadline of its context
// to a Z3 timeout and its cancellation to Z3_interrupt.
//
// # Concurrency
//
// A Z3 context must not be used by two threads at once. Each Solver has its
// own context and a mutex that serializes its methods, so sharing a Solver
// between goroutines is safe but runs one call at a time; for parallel
// solving, give each goroutine its own Solver. Solvers are independent:
// any number may be used at the same time.
//
// # Strings
//
// Z3 strings are sequences of Unicode code points no greater than
// U+2FFFF (Z3 4.8.12's limit); Go strings are sequences of bytes. This
// package maps between them so that every Go string survives the trip
// through Z3 unchanged: each rune of valid UTF-8 up to U+2FFFF becomes
// that code point, and every other byte b (a byte of invalid UTF-8, or of
// the UTF-8 encoding of a rune above U+2FFFF) becomes the code point
// U+DC00+b, as in Python's "surrogateescape". In the other direction, the
// code points U+DC80 to U+DCFF become the bytes 0x80 to 0xFF, and all
// other code points (including other surrogates) are written in UTF-8.
// [Quote] writes a Go string as an SMT-LIB string literal by this mapping,
// and string values in a [Model] are decoded by it. So str.len counts
// runes of valid UTF-8 text, and bytes of anything else.
package z3
