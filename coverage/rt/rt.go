// Package rt is the registry that instrumented packages report their coverage
// counters to.
//
// Code rewritten by package coverage imports rt and calls [Register] once per
// package while the package is initialized. Everything else (reading,
// resetting and interpreting the counters) is done by package coverage; users
// should not need to import rt.
//
// Because instrumented code imports it, rt depends on nothing but
// sync/atomic, and packages that rt depends on cannot be instrumented.
package rt

import "sync/atomic"

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

// registry holds the registered packages. Registration copies the slice, so
// a slice once loaded is never modified.
var registry atomic.Pointer[[]*Package]

// Register records an instrumented package. The instrumented code calls it
// from a package-level variable initializer, so it runs before any init
// function of the package. The result is always true; it exists so that the
// call can initialize a variable.
func Register(format int, path string, counters []uint32, meta string) bool {
	p := &Package{Path: path, Counters: counters, Meta: meta}
	if format != Format {
		// Keep the package visible so that package coverage can
		// report the mismatch instead of silently ignoring it.
		p.Meta = ""
	}
	for {
		old := registry.Load()
		var pkgs []*Package
		if old != nil {
			pkgs = make([]*Package, len(*old), len(*old)+1)
			copy(pkgs, *old)
		}
		pkgs = append(pkgs, p)
		if registry.CompareAndSwap(old, &pkgs) {
			return true
		}
	}
}

// Packages returns the registered packages in registration order. The
// caller must not modify the returned slice.
func Packages() []*Package {
	if p := registry.Load(); p != nil {
		return *p
	}
	return nil
}
