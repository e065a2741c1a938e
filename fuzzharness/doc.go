// Package fuzzharness makes Go's native fuzzing grammar-aware. A fuzz test
// wraps its target in a Harness with a grammar; go test -fuzz keeps mutating
// plain bytes, and the harness decodes every byte string into a derivation
// tree of the grammar, so the target only ever sees structured, valid
// inputs:
//
//	func FuzzCalc(f *testing.F) {
//		g := grammar.MustBuiltin("expr")
//		fuzzharness.New(f, g, fuzzharness.WithExamples("(x+1)*2")).
//			Fuzz(func(t *testing.T, in fuzzharness.Input) {
//				v, err := calc.Eval(in.String(), nil)
//				...
//			})
//	}
//
// The harness seeds the fuzzer with a k-path covering forest of the grammar
// (every k-path in some seed, WithKPathSeeds) and with parsed examples
// (WithExamples); go test adds the entries of testdata/fuzz/FuzzX as usual.
// All three modes of go test work unchanged: go test runs the seeds and
// testdata entries as regression tests, go test -fuzz=FuzzX fuzzes, and go
// test -run=FuzzX/NAME runs one entry. A validity predicate (WithValidity)
// can reject decoded inputs before the target runs; rejected inputs are
// skipped and counted (Harness.Stats). A constraint (WithConstraint) goes
// further and repairs the inputs that violate it (see Constraints below). When the target fails or panics, the
// harness logs the input, quoted, and its tree outline.
//
// # Decoding bytes into trees
//
// A Codec does the decoding. It walks the tree it builds in depth-first
// pre-order, left to right, and makes one decision wherever the grammar
// offers a choice: which alternative an alternation derives, how many times
// a quantifier repeats, which member a character class derives. Nodes
// without a choice (references, concatenations, literals, quantifiers with
// a fixed count, classes of one member) read nothing. Each decision reads
// the next w bytes of the input as a big-endian number v, where w is fixed
// for the graph node: the fewest bytes that can count its options (one byte
// for up to 256 options, two for up to 65536, three beyond). The option
// taken is v modulo the number of options:
//
//   - an alternation's option 0 is the alternative with the smallest
//     completion within the remaining depth (the one the shortest close-off
//     takes); options 1, 2, ... are the other alternatives in grammar order;
//   - a quantifier's option i repeats the element Min+i times, for i up to
//     MaxRepeat (and Max-Min);
//   - a class's option i is its i-th member in code point (byte) order.
//
// So a byte flip changes one decision only: decisions read fixed-size
// chunks at positions that depend only on the decisions before them, and as
// long as the changed decision keeps the tree's shape (a different digit,
// character or operator), every later decision reads the same bytes as
// before. Past the end of the input every decision reads zeros, which is
// the shortest close-off: alternatives with the smallest completion,
// quantifiers at their minimum, classes at their first member. Hence the
// empty input decodes to the smallest tree, and appending zeros to an input
// changes nothing.
//
// The chunk is one byte, and wide decisions take several, because the
// fuzzer mutates bytes: with one byte per ordinary decision, nearly every
// mutation of Go's fuzzer (flip, replace, insert, delete a byte) changes
// exactly one decision. A fixed width of three bytes for every decision,
// which the widest classes need, would triple every input and let most
// mutations hit bytes that mean nothing. Three bytes count 16,777,216
// options, more than the 1,112,064 Unicode scalar values, so every member of
// every class (for example [^"\\], all of Unicode but two characters) can be
// chosen, including any character of a parsed example; there is no
// limitation here.
//
// Decoding keeps TRIBBLE's bounds exactly as grammar.Generator does: a table
// of the least size of a subtree at each node within each remaining depth
// lets it commit, before every decision, the least size of everything still
// to derive. An alternative or a repetition count that would break
// MaxDepth or MaxSize is replaced by the shortest alternative or by the
// largest count that fits. Every byte string therefore decodes to a complete
// tree within the Bounds, and Codec.Encode inverts decoding: every complete
// tree within the bounds, whether generated, a k-path seed or parsed from an
// example, encodes to bytes that decode to exactly that tree.
//
// # Byte edits
//
// Grammar-aware inputs never reach the code that handles syntax errors.
// WithMaxEdits(m) lets the bytes after the last decision (the tail) edit
// the decoded text: the tail's first byte, modulo m+1, is the number of
// edits, and each edit reads four more bytes: its kind (the byte modulo 3:
// insert, delete, replace), a big-endian 16-bit position p scaled to the
// text (p*(n+1)>>16 for n bytes, so that the same bytes point to the same
// relative place in a longer or shorter text) and the byte to insert or
// write. The decisions keep their stable addresses, and the fuzzer's
// mutations of the tail explore inputs one or two edits away from the
// language. Input.Edited tells the target; Input.Tree is the tree before
// the edits. Encoded trees have no tail, and a tail of zeros edits nothing.
//
// WithInvalidShare(p) is the alternative for constraint-aware targets,
// whose point is a high rate of valid executions: the hash of the fuzzer's
// bytes picks a share p of the inputs, which reach the target with one
// near-valid mutation of their valid (decoded or repaired) text, made on
// its tree: a subtree deleted, duplicated, cut off or swapped with its
// sibling, or a byte deleted, duplicated or replaced. The rest stay valid,
// whatever the fuzzer does to the tail. Input.Edited tells the target
// here too, and Stats counts both kinds of edited inputs apart from the
// valid ones (Stats.Invalid).
//
// What bytes mean depends on the grammar (its rules, their order and the
// start symbol) and on the bounds: corpus entries decode to the same inputs
// only under the same grammar and bounds. Adding or reordering alternatives
// changes the meaning of stored entries.
//
// # Constraints
//
// A grammar cannot say that every variable is declared before it is used;
// a Constraint (WithConstraint) can. Package isla/solver provides one for
// ISLa constraints, solver.Repairer; fuzzharness defines only the
// interface, so the dependency points from the solver to fuzzharness's
// grammar package and fuzzharness needs neither the solver nor cgo:
//
//	spec, _ := isla.Compile(defUse, gr)
//	rep, _ := solver.NewRepairer(spec)
//	fuzzharness.NewGraph(f, gr, fuzzharness.WithConstraint(rep)).FuzzString(target)
//
// Every decoded tree is checked with Constraint.Valid. A tree that fails is
// repaired: Constraint.Repair gets it with a seed derived from the fuzzer's
// bytes (an FNV-1a hash of those the decoding read), so the same bytes
// always give the same input, and the fuzzer's mutations still decide the
// input wherever the constraint does not (solver.Repairer re-solves only the
// nodes the violations depend on, such as an undeclared identifier, and
// keeps the rest of the tree). The target gets the repaired input; an
// input that cannot be repaired is skipped with t.Skip. The seeds are repaired the same way before they are
// added (those that cannot be repaired are left out), and the constraint's
// Seeds, typically solver outputs, are added after them.
//
// A repair has a budget of CPU time (WithRepairBudget, default
// DefaultRepairBudget): an input whose repair takes longer is skipped and
// counted (Stats.OverBudget), so that one hard input never stalls a
// worker; solver.Repairer gets the budget and stops there. Time a worker
// waits for a core does not count, so the budget means the same on a
// loaded machine.
//
// The harness counts the inputs that were valid as decoded, repaired, and
// skipped (Stats; Stats.ValidRate is the share that reached the target with
// a valid input, Stats.ValidPerSecond their rate), records the
// distribution of the repairs' CPU times (Stats.RepairP50, RepairP99,
// RepairMax), and logs them when the fuzz test ends (go test -v). Under
// go test -fuzz the inputs run in worker processes: each worker writes its
// counts to a file in a directory under os.TempDir named after the
// coordinator's process id, at most every 200 milliseconds and when it
// ends, and the coordinator adds them up when fuzzing stops, removes the
// files, and logs the sum. Counts of the last moments of a worker that is
// killed rather than stopped may be missing. If KFUZZ_STATS (EnvStats)
// names a file, the final counts (the sum of the workers under go test
// -fuzz) are also written to it as JSON. The inputs counted exceed the
// executions that go test -fuzz reports: the baseline run of the corpus
// and the minimization of new inputs execute inputs too.
//
// # Measure mode
//
// Tools such as kfuzz cover need to run a fuzz test's own target over chosen
// inputs, inside the user's test binary, with coverage instrumentation added
// by an overlay. Environment variables (KFUZZ_INPUTS, KFUZZ_OUT,
// KFUZZ_TIMEOUT, KFUZZ_GRAMMAR_OUT, KFUZZ_MEASURE_TRACE) switch Fuzz into
// that mode: it then describes the harness (its grammar, start symbol,
// bounds and seed options) or runs the target once over each given input,
// in order, instead of seeding and fuzzing, and records each input's outcome
// (pass, fail, panic, skip, invalid, timeout, error). A panic is recovered
// and recorded, and the run goes on with the next input; an input that runs
// out of time ends the process with exit status 3. The variables, files and
// records are the contract between the harness and the tool, defined in
// the kfuzz module's internal/protocol package; fuzz tests need not know
// them. SetMeasureHook is the tool's entry point into the test binary.
//
// KFUZZ_SERVE switches Fuzz into the serve mode, in which the test process
// answers inputs one at a time for as long as the tool sends them: kfuzz
// uses it to make a fuzz target a membership oracle for grammar and
// constraint mining. The harness parses each input text with its grammar
// and runs the target over it in a subtest; the input is accepted only if
// it is in the grammar's language within the bounds, satisfies the
// constraint and the validity predicate (it is not repaired), and the
// target neither fails, panics nor calls t.Skip. So a target tells the tool
// that its parser rejected an input by calling t.Skip, as fuzz targets
// usually do for inputs they cannot use:
//
//	v, err := mylang.Parse(s)
//	if err != nil {
//		t.Skip("not valid:", err)
//	}
package fuzzharness
