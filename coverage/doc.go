// Package coverage measures which functions and blocks of Go code each input
// covers, inside the process that runs the code.
//
// Go's own coverage gives one profile per process (go test -coverprofile),
// and runtime/coverage cannot reset counters in go test -cover binaries. So
// kfuzz instruments code itself: package
// [github.com/seed72891827/kfuzz/coverage/instrument] rewrites the Go files
// of chosen packages into copies that count every basic block (split as go
// tool cover splits them, so profiles agree with Go's) and has the go
// command build them through its -overlay flag:
//
//	ov, err := instrument.BuildOverlay(ctx, instrument.Config{Dir: dir, Patterns: []string{"./..."}})
//	...
//	defer ov.Close()
//	// go test -overlay=<ov.File> -run='^FuzzX$' ./pkg
//
// This package reads the counters in the instrumented binary; it depends
// on neither go/parser nor the go command, so that test binaries linking it
// stay small.
//
// # Measuring
//
// [Current] returns the counters of the instrumented packages linked in,
// and [Process.Measure] the coverage of one run:
//
//	p, err := coverage.Current()
//	if err != nil {
//		return err // coverage.ErrNotInstrumented: built without the overlay
//	}
//	res, err := p.Measure(func() { target(input) })
//	res.Funcs // the functions entered, a *FuncSet
//	res.Counts.Hits(fn) // how often function fn was entered
//
// Functions are named as the runtime names them ("import/path.F",
// "import/path.(*T).M", "import/path.F.func1"); a [Table] lists them with
// their blocks, and a [FuncSet] is a bitset over a table's functions.
//
// Standard-library packages can be instrumented and measured like any
// other ("encoding/json.(*decodeState).object"), except the Go runtime;
// see package instrument.
//
// # Profiles
//
// [Counts.WriteProfile] writes counts as a Go cover profile for go tool cover
// -func and -html. Package [github.com/seed72891827/kfuzz/coverage/profile]
// maps profiles, such as go test -coverprofile writes, onto functions by
// their extents.
//
// # Dependencies
//
// Package coverage imports only the standard library and packages of kfuzz
// below it (rt and an internal metadata codec), so that a file that kfuzz
// adds to a user's test package may import it without adding lines to the
// user's go.sum.
package coverage
