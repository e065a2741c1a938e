// Package rt is the registry that instrumented packages report their coverage
// counters to.
//
// Code rewritten by package coverage imports rt and calls [Register] once per
// package while the package is initialized. Everything else (reading,
// resetting and interpreting the counters) is done by package coverage; users
// should not need to import rt.
//
// Standard-library packages cannot import rt. An instrumented standard
// package instead links a description of itself into a list whose head is a
// variable that it and rt declare under one linker name (see [StdList]);
// [Packages] reads that list too.
//
// Because instrumented code imports it, rt depends on nothing but
// sync/atomic (and unsafe), and packages that rt depends on cannot be
// instrumented.
package rt

import (
	"sync/atomic"
	"unsafe"
)

// Format is the version of the metadata format that instrumented code passes
// to [Register]. Package coverage refuses metadata of other versions.
const Format = 1

// A Package is one instrumented package as registered.
type Package struct {
	// Path is the import path.
	Path string
	// Counters holds one counter per basic block. The instrumented code
	// increments them; they are never reallocated.
	Counters []uint32
	// Meta describes the functions and blocks behind the counters, in
	// the encoding written and read by package coverage.
	Meta string
}

// state is what the registry holds: the registered packages and the head of
// the standard-library list as far as it has been merged into them. A state
// once published is never modified.
type state struct {
	pkgs []*Package
	std  unsafe.Pointer // a *StdPackage
}

// registry is the current state. Its zero value is valid, so that
// registration works even before rt is initialized (package initialization
// order need not put rt first).
var registry atomic.Pointer[state]

// StdList is the linker name of the head of the list of instrumented
// standard-library packages, a variable of type unsafe.Pointer pointing to
// the first [StdPackage].
//
// Every instrumented standard package declares the variable with
//
//	//go:linkname head github.com/seed72891827/kfuzz/coverage/rt.stdList
//	var head unsafe.Pointer
//
// and so does rt. Each such declaration defines the same zero-filled
// symbol, and the linker keeps one of them, so the list exists whether or
// not rt is linked in. During its initialization an instrumented standard
// package sets its StdPackage's Next to the head and the head to the
// address of that StdPackage.
const StdList = "github.com/seed72891827/kfuzz/coverage/rt.stdList"

// stdList is the variable that StdList names; its one-argument linkname
// marks it as referenced from other packages.
//
//go:linkname stdList
var stdList unsafe.Pointer

// A StdPackage is an element of the list of instrumented standard-library
// packages (see [StdList]). The instrumented package declares a struct type
// with the same fields and statically initializes a variable of it. Format,
// Next and Path come first in every format; the other fields are those of
// [Format].
type StdPackage struct {
	Format   int
	Next     unsafe.Pointer // the next *StdPackage
	Path     string
	Counters []uint32
	Meta     string
}

// Register records an instrumented package. The instrumented code calls it
// from a package-level variable initializer, so it runs before any init
// function of the package. The result is always true; it exists so that the
// call can initialize a variable.
func Register(format int, path string, counters []uint32, meta string) bool {
	p := newPackage(format, path, counters, meta)
	for {
		old := registry.Load()
		next := &state{}
		if old != nil {
			next.pkgs = make([]*Package, len(old.pkgs), len(old.pkgs)+1)
			copy(next.pkgs, old.pkgs)
			next.std = old.std
		}
		next.pkgs = append(next.pkgs, p)
		if registry.CompareAndSwap(old, next) {
			return true
		}
	}
}

func newPackage(format int, path string, counters []uint32, meta string) *Package {
	p := &Package{Path: path, Counters: counters, Meta: meta}
	if format != Format {
		// Keep the package visible so that package coverage can
		// report the mismatch instead of silently ignoring it.
		p.Meta = ""
	}
	return p
}

// Packages returns the registered packages in registration order, followed
// by the instrumented standard-library packages in the order in which they
// were initialized. The caller must not modify the returned slice.
//
// Standard packages link themselves into their list during program
// initialization, without synchronization; Packages must not run
// concurrently with that (calls from main, tests and init functions are
// fine).
func Packages() []*Package {
	for {
		old := registry.Load()
		head := stdList
		if old == nil && head == nil {
			return nil
		}
		if old != nil && old.std == head {
			return old.pkgs
		}
		// Merge the standard packages added since the last call: they
		// precede the merged head in the list.
		next := &state{std: head}
		var merged unsafe.Pointer
		if old != nil {
			next.pkgs = append(next.pkgs, old.pkgs...)
			merged = old.std
		}
		var added []*Package
		for n := head; n != nil && n != merged; n = (*StdPackage)(n).Next {
			s := (*StdPackage)(n)
			if s.Format != Format {
				// The other fields may be laid out differently.
				added = append(added, newPackage(s.Format, s.Path, nil, ""))
				continue
			}
			added = append(added, newPackage(s.Format, s.Path, s.Counters, s.Meta))
		}
		for i := len(added) - 1; i >= 0; i-- {
			next.pkgs = append(next.pkgs, added[i])
		}
		if registry.CompareAndSwap(old, next) {
			return next.pkgs
		}
	}
}
