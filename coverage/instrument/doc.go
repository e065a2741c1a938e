// Package instrument rewrites the Go files of chosen packages so that they
// count their coverage, and builds the overlay through which the go command
// compiles the rewritten copies instead of the originals.
//
// The rewritten code counts every basic block, split exactly as go tool
// cover splits function bodies, and registers its counters and a
// description of its functions and blocks with package
// [github.com/seed72891827/kfuzz/coverage/rt]; package
// [github.com/seed72891827/kfuzz/coverage] reads them in the running
// binary. Counters are inserted on the line they count, each followed by a
// line directive that restores the original position, so that compiler
// errors, panics and stack traces name the original file, line and column.
// The user's files are never written.
//
// [BuildOverlay] selects packages by pattern as go list does, dependencies
// in the module cache included, and writes the overlay:
//
//	ov, err := instrument.BuildOverlay(ctx, instrument.Config{Dir: dir, Patterns: []string{"./..."}})
//	if err != nil {
//		return err
//	}
//	defer ov.Close()
//	// go test -overlay=<ov.File> -run='^FuzzX$' ./pkg
//
// The module in Dir must require github.com/seed72891827/kfuzz, whose
// package rt the instrumented code imports. Never add -cover: go test -cover
// reads the files on disk, not the overlay (golang/go#73802).
//
// # Standard-library packages
//
// Standard packages such as encoding/json, net/url or go/parser are
// instrumented in place (the overlay replaces their files in GOROOT/src),
// so the program runs the real package under its real name. They cannot
// import rt; instead each links a static description of itself into a list
// whose head is a variable that it and rt declare under one linker name
// with //go:linkname (see rt.StdList), so that the instrumented package
// adds no import but unsafe and binaries link whether or not they contain
// rt. The Go runtime (package runtime, the packages it imports, runtime/cgo
// and the sanitizers' packages) and the packages rt needs (sync/atomic,
// unsafe) are refused.
//
// [LoadTable] lists the functions and blocks of packages without building
// anything, and [ReadProfile] maps a cover profile onto them.
package instrument
