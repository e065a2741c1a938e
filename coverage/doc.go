// Package coverage measures which functions and blocks of Go code each input
// covers, inside the process that runs the code.
//
// Go's own coverage gives one profile per process (go test -coverprofile),
// and runtime/coverage cannot reset counters in go test -cover binaries. So
// this package instruments code itself: it rewrites the Go files of chosen
// packages with go/ast into copies that count every basic block (split as go
// tool cover splits them, so profiles agree with Go's) and has the go
// command build the copies through its -overlay flag. The user's files are
// never modified, and line directives in the copies keep every position the
// compiler and the runtime report (panics, stack traces, compiler errors)
// that of the original.
//
// # Building
//
// [BuildOverlay] selects packages by pattern as go list does, dependencies
// in the module cache included, instruments them and writes the overlay:
//
//	ov, err := coverage.BuildOverlay(ctx, coverage.Config{Dir: dir, Patterns: []string{"./..."}})
//	...
//	defer ov.Close()
//	// go test -overlay=<ov.File> -run='^FuzzX$' ./pkg
//
// The module in Dir must require github.com/seed72891827/kfuzz, because
// instrumented code registers its counters with package
// [github.com/seed72891827/kfuzz/coverage/rt]. Never add -cover: go test
// -cover reads the files on disk, not the overlay (golang/go#73802).
//
// # Measuring
//
// In the instrumented binary, [Current] returns the counters of the
// instrumented packages linked in, and [Process.Measure] the coverage of one
// run:
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
// # Profiles
//
// [Counts.WriteProfile] writes counts as a Go cover profile for go tool cover
// -func and -html. [Table.ImportProfiles] and [ReadProfile] map profiles,
// such as go test -coverprofile writes, onto functions by their extents.
package coverage
