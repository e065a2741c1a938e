// Package layers holds the test of kfuzz's import layering and no code.
//
// Every package of the module belongs to a layer, and imports only packages
// of its own or a lower layer:
//
//	0    leaf utilities without kfuzz imports: internal/z3, internal/gocmd,
//	     internal/atomicfile, coverage/rt
//	1    fuzzharness/grammar and the packages below it
//	2    fuzzharness/isla, the ISLa language and checker
//	2.5  fuzzharness/isla/solver and the packages below it
//	3    fuzzharness, internal/protocol, corpus, coverage and below
//	4    learn and below
//	5    internal/... (orchestration, reports, evaluation)
//	6    cmd/...
//
// The packages under examples/ may import any package, and no other package
// may import them. Besides the layers, learn must not import
// coverage/instrument: it depends on grammars and on coverage's result
// types only.
//
// The table of layers is data in layers_test.go; go test fails, naming
// each offending import, when a package imports a package of a higher layer
// or a package has no layer. Only the imports of non-test files count.
package layers
