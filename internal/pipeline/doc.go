// Package pipeline is the end-to-end work of the kfuzz commands learn, seed,
// predict, select and demo, kept out of the command so that it stays thin and
// can be tested without it.
//
// A Session holds a fuzz test built for measurement (package
// internal/measure) together with its Harness: the grammar the fuzz test
// registers with fuzzharness, the codec of its corpus entries and a parser.
// Session.Learn generates training inputs from the grammar (random trees and
// the harness's k-path seeds), adds the corpus entries in testdata/fuzz,
// measures the functions each input covers, learns a model with package learn
// and evaluates it on a fresh test set. Session.Seeds generates inputs aimed at
// one function from a model, measures which really reach it, and WriteSeeds
// adds those to a corpus directory.
//
// A ModelFile is a learned model with what a later command needs to use it
// without building the fuzz test again: the harness's description (grammar,
// bounds, seeds) and the package. Predict and Select work on a ModelFile and
// input files alone.
package pipeline
