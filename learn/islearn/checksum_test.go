package islearn

import (
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// internet_checksum accepts an ICMP echo request with its right checksum,
// in hexadecimal, and rejects it with one bit of the checksum flipped.
func TestInternetChecksum(t *testing.T) {
	g, err := grammar.Parse("icmp.bnf", []byte(`
<start> ::= <msg> ;
<msg> ::= <byte> <byte> <checksum> <byte>* ;
<checksum> ::= <byte> <byte> ;
<byte> ::= [0-9a-f] [0-9a-f] " " ;
`))
	if err != nil {
		t.Fatal(err)
	}
	c, err := isla.Parse("c.isla", []byte("forall <msg> m: exists <checksum> s in m: internet_checksum(m, s)"))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := isla.Compile(c, grammar.MustCompile(g), isla.WithPredicates(InternetChecksum))
	if err != nil {
		t.Fatal(err)
	}
	// 08 00 | sum | 00 01 00 02 61: the words 0800 0001 0002 6100 sum to
	// 6903, whose complement is 96fc.
	for in, want := range map[string]bool{
		"08 00 96 fc 00 01 00 02 61 ": true,
		"08 00 96 fd 00 01 00 02 61 ": false,
		"08 00 96 fc 00 01 00 02 62 ": false,
	} {
		r, err := spec.Check([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if r.Valid != want {
			t.Errorf("%q: valid %v, want %v", in, r.Valid, want)
		}
	}
}
