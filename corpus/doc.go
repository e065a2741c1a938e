// Package corpus reads and writes the corpus files of Go's native fuzzing
// (testing.F and go test -fuzz).
//
// # File format
//
// A corpus file holds the arguments of one call of a fuzz target. Its first
// line is the header
//
//	go test fuzz v1
//
// and each following non-blank line holds one argument, in order, written as
// a Go conversion of a literal:
//
//	[]byte("\x00abc")
//	string("héllo")
//	bool(true)
//	byte('A')
//	rune('é')
//	int32(-1)
//	float64(0.5)
//	float64(+Inf)
//	float64(NaN)
//	math.Float64frombits(0x7ff8000000000001)
//	math.Float32frombits(0x7fc00001)
//	int(-5)
//	uint16(65535)
//
// The seventeen argument types that testing.F accepts can all be written:
// []byte, string, bool, byte, rune, float32, float64, int, int8, int16, int32,
// int64, uint, uint8, uint16, uint32 and uint64. Because byte is an alias of
// uint8 and rune of int32, a value of those types is always written as byte or
// rune (a rune that is not a valid Unicode code point as int32), exactly as
// go test does; both spellings are read. Strings and byte slices are quoted as
// by [strconv.Quote], so invalid UTF-8 round-trips byte for byte. Floats are
// written in the shortest form that reads back exactly; a NaN other than the
// one math.NaN returns is written bit for bit with math.Float32frombits or
// math.Float64frombits.
//
// [Marshal] produces the same bytes that go test writes for the same values,
// and [Unmarshal] accepts what go test accepts: each value line is tokenized
// as Go source, so integer literals may be hexadecimal, octal or binary, may
// contain underscores, and comments are ignored. A file that does not parse
// gives a [*SyntaxError] naming the file, line and column and what was
// expected there.
//
// # Directories
//
// go test reads the seed corpus of the fuzz test FuzzX of the package in
// directory pkg from pkg/testdata/fuzz/FuzzX ([TestdataDir]), and keeps the
// inputs that it generated while fuzzing in $GOCACHE/fuzz/<import path>/FuzzX
// ([CacheDir], [GoCache]). A file that go test writes is named by the first 16
// hexadecimal digits of the SHA-256 sum of its content ([FileName]), and go
// test runs it as the subtest FuzzX/<name>.
//
// [ReadDir] reads all entries of such a directory. [Add] and [Dir.Add] write a
// new entry under its content name: atomically, without ever replacing or
// changing an existing file, and not at all when an entry with the same
// values is already there.
package corpus
