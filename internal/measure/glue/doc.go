// Package glue holds the file that package measure adds to a fuzz test's
// package (as zz_kfuzz_measure_test.go, through the go command's overlay)
// to hand the coverage of every input to the harness. Measure embeds the
// source of glue.go and only changes its package clause; nothing imports
// this package, which exists so that the file is compiled and vetted with
// the rest of kfuzz.
//
// The file lives in the user's module, which may import only exported
// packages of kfuzz: it calls fuzzharness.SetMeasureHook and the coverage
// runtime (package coverage), whose imports are the standard library and
// kfuzz only, so that the user's go.sum needs no line beyond those of kfuzz.
// Its identifiers begin with zzKfuzz and its imports are renamed, so that
// they do not clash with the package's own.
//
// Before each input the hook runs the garbage collector twice, which empties
// every sync.Pool: otherwise whether an input calls a pool's New function
// (encoding/json's scanner pool, for one) depends on when the collector last
// ran, and the same inputs would cover different functions from run to run.
// It then takes the counters (reading a counter sets it to zero): those that
// ran since the previous input's end, and after the input those of the input
// itself, and returns both as the record's protocol.Counters.
package glue
