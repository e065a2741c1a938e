// Package pipeline is the end-to-end work of the kfuzz commands cover, learn,
// seed, predict, select and demo, kept out of the commands so that they stay
// thin and can be tested without them. It is the one caller of
// internal/measure: the commands reach measurement through it.
//
// Cover builds a fuzz test with coverage instrumentation and reports the
// functions each input covers; DescribeCorpusDir asks the fuzz test of a
// corpus directory for its grammar.
//
// A Session holds a fuzz test built for measurement (package
// internal/measure) together with its Harness: the grammar the fuzz test
// registers with fuzzharness, the codec of its corpus entries and a parser.
// Session.Learn generates training inputs from the grammar (random trees and
// the harness's k-path seeds), adds the corpus entries in testdata/fuzz,
// measures the functions each input covers, learns a model with package learn
// and evaluates it on a fresh test set. Session.Seeds generates inputs aimed at
// one function from a model, measures which really reach it, and WriteSeeds
// adds those to a corpus directory. The steps a session exports
// (RandomInputs, Measure, TargetOptions, Step and Advance) let other work,
// such as the evaluation in internal/evallearn, run on the same session.
//
// A ModelFile is a learned model with what a later command needs to use it
// without building the fuzz test again: the harness's description (grammar,
// bounds, seeds) and the package. Predict and Select work on a ModelFile and
// input files alone; ChangedFuncs finds the functions of a model that a diff
// changes (with internal/changes).
//
// RunDemo runs the whole pipeline on a copy of the calc example in a module
// of its own (WriteCalcModule, OpenCalc). The reports of a learned model are
// written by internal/report.
package pipeline
