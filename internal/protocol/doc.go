// Package protocol is the contract between a fuzz test's harness running in
// its test binary (package fuzzharness, in measure mode) and the tool that
// runs the binary to measure it (package internal/measure, and kfuzz corpus
// describing a harness). Both sides import it; nothing else about the
// exchange is implicit.
//
// The tool starts the test binary with -test.run='^FuzzX$' and these
// environment variables; all files are JSON lines (one JSON value per line,
// blank lines ignored):
//
//   - EnvGrammarOut names a file to which the harness appends its
//     Description. Unless EnvInputs is set too, the fuzz test is then
//     skipped.
//   - EnvInputs names a file of InputRecord lines (see WriteInputs), or a
//     corpus directory of go test fuzz v1 files holding one []byte (data) or
//     string (text) each. The harness then runs the target once over each
//     input, in order, instead of fuzzing.
//   - EnvOut names a file to which the harness appends one Record per input.
//   - EnvTimeout limits each input, in time.ParseDuration syntax (default
//     DefaultTimeout). An input that runs out of time is recorded with
//     StatusTimeout, and the process exits with TimeoutExitCode; the tool
//     starts it again with the inputs after that one.
//   - EnvTrace names a file to which the harness appends the index of every
//     input (one decimal number per line, unbuffered) right before the
//     target runs, so that the tool can name the input during which the
//     process died without a record (see ReadTrace).
//   - EnvServe switches the harness into the serve mode, which answers
//     inputs one at a time for as long as the tool sends them: its value is
//     the number of an open file descriptor (3 when the tool passes one extra
//     file). The harness reads InputRecord lines from its standard input,
//     each holding an input text in Text, or in Data for a text that is not
//     valid UTF-8 (which a JSON string cannot carry; the serve mode never
//     decodes fuzzer bytes), and writes to that descriptor first its Description,
//     then one Record per input, in order, each line as soon as the input
//     has run; it ends when its standard input ends. The text is parsed with
//     the harness's grammar (StatusError if it is not in the language or
//     does not fit the bounds); an input that violates the constraint or the
//     validity predicate is StatusInvalid (it is not repaired). Each input
//     runs in a subtest of its own, so that t.Fatal and t.Skip end only that
//     input; panics in the target are recovered and recorded. No Hook is
//     called. The tool kills a process that does not answer in time; as a
//     backstop for when the tool is gone, the harness exits with
//     TimeoutExitCode when an input runs longer than EnvTimeout.
//
// A Hook set in the test binary is called around every input. The kfuzz
// measuring tool sets one from a file it adds to the fuzz test's package;
// that file lives in the user's module, which may not import internal
// packages of kfuzz, so it passes the hook to fuzzharness.SetMeasureHook.
// Whatever the hook's End returns becomes the record's Extra; the tool's
// hook returns Counters.
package protocol
