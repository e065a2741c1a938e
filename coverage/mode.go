package coverage

// A Mode selects how instrumented code updates its counters. Set, count
// and atomic are the modes of go test -covermode.
type Mode string

const (
	// ModeHits counts how often each function is entered and records
	// whether each other block ran (its counter is 0 or 1 after a run).
	// It gives the same function sets and hit counts as ModeCount but
	// costs less in tight loops. It is the default.
	ModeHits Mode = "hits"
	// ModeSet records whether each block ran (counters are 0 or 1).
	ModeSet Mode = "set"
	// ModeCount counts how often each block ran, like
	// go test -covermode=count.
	ModeCount Mode = "count"
	// ModeAtomic counts like ModeCount with atomic increments, so that
	// code that runs blocks in several goroutines is free of data races
	// (needed under -race).
	ModeAtomic Mode = "atomic"
)

// Valid reports whether m is one of the modes above.
func (m Mode) Valid() bool {
	return m == ModeHits || m == ModeSet || m == ModeCount || m == ModeAtomic
}
