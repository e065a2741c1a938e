// Package measure runs a fuzz test's own target over chosen inputs with
// coverage instrumentation and reports, for each input, its outcome and the
// functions it covered. It is the engine of the kfuzz commands cover, learn
// and seed.
//
// The fuzz test must run its target through fuzzharness (see ErrNotHarness).
// Build instruments the packages to measure (package
// [github.com/seed72891827/kfuzz/coverage/instrument]) and builds the fuzz
// test's package once with go test -c and an overlay, which also adds a file
// to the test package:
//
//	<package dir>/zz_kfuzz_measure_test.go (package <name>_test, never written to disk)
//
// That file is fixed (package glue holds it). Its init function passes
// fuzzharness.SetMeasureHook a hook that takes the coverage counters before
// and after every input (taking a counter resets it) and hands the non-zero
// ones to the harness, which writes them with the input's record
// (protocol.Counters). The file imports only fuzzharness and coverage, so
// that it builds in any module that requires kfuzz for fuzzharness.
//
// Build keeps the binary and the instrumented packages' descriptions in a
// cache across runs (kfuzz/measure in os.UserCacheDir(); see CacheEnv to
// move it or turn it off), keyed by a hash of everything that goes into
// the build: the files of all packages the test binary is built from, the
// build flags, the go environment, go.mod and go.sum, and the kfuzz
// executable. A hit spares the instrumenting and go test -c, which with an
// empty go build cache means compiling the standard library. Entries appear
// whole (a directory renamed into place), so concurrent builds do not see
// each other's partial work; the cache is kept under 1 GiB by removing the
// least recently used entries.
//
// Run then starts the test binary in the package directory with the
// environment variables of the measure mode (package internal/protocol):
// the harness reads the inputs, runs the target once over each, recovering
// panics, and writes one record per input. Run maps the counters onto the
// functions of the instrumented packages:
//
//	r, err := measure.Build(ctx, measure.Config{Dir: "examples/calc", Target: "FuzzCalc"})
//	...
//	defer r.Close()
//	rep, err := r.Run(ctx, []measure.Input{{ID: "a", Text: "x*(y+1)"}})
//	rep.Results[0].Funcs // e.g. {.../calc.Parse, .../calc.(*simplifier).distribute, ...}
//
// Inputs come as text (parsed with the harness's grammar) or as data for the
// harness's codec (corpus entries); SeedInputs, CorpusInputs and FileInputs
// make them from the harness's seeds, corpus directories and files.
//
// An input that runs longer than Config.Timeout is reported with status
// timeout; the harness then ends the process, and Run starts a new one for
// the inputs after it. An input during which the process dies (a fatal error,
// os.Exit, a panic in another goroutine) is reported with StatusCrash: the
// harness writes the index of every input before it runs (protocol.EnvTrace),
// so Run knows which input was running. Such inputs have no coverage.
//
// What runs outside any input (package initialization and the fuzz test's
// setup before its first input) is reported in Report.Outside, so that
// Report.Total equals what go test -coverprofile counts over the same
// inputs, block by block (in coverage.ModeCount).
package measure
