//go:build !gofuzz_libfuzzer

package fuzzharness

// libFuzzer tells whether this is a libFuzzer binary: go-118-fuzz-build
// builds with the tag gofuzz_libfuzzer.
const libFuzzer = false
