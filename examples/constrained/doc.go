// Package constrained holds the fuzz tests of kfuzz's constraint subjects
// beyond Scriptsize-C (examples/scriptc): XML whose opening and closing
// tags match (the ISLa constraint xml-balance, target encoding/xml), CSV
// whose records all have the same number of fields (csv-columns, target
// encoding/csv) and TAR archives with correct header checksums and sizes
// (tarpred's constraint, target archive/tar). Each subject has four fuzz
// tests that kfuzz eval harness compares at equal time: plain strings
// (FuzzXMLPlain), the grammar alone (FuzzXMLGrammar), the grammar with the
// constraint as a validity predicate, invalid inputs skipped
// (FuzzXMLSkip), and the grammar with the constraint repaired
// (FuzzXMLRepair, with fuzzharness.WithConstraint and a solver.Repairer).
//
// The package has no code of its own: the targets are the standard
// library's readers, whose statement coverage the evaluation measures.
package constrained
