package semvercheck

import (
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// versions derives version-like strings: a "v" or not, one to three
// numbers, with or without leading zeros, a prerelease and build metadata.
const versions = `
<version> ::= "v"? <num> ("." <num> ("." <num> <pre>? <build>?)?)? ;
<num> ::= [0-9]+ ;
<pre> ::= "-" <ident> ("." <ident>)* ;
<build> ::= "+" <ident> ("." <ident>)* ;
<ident> ::= [0-9A-Za-z-]* ;
`

func FuzzSemver(f *testing.F) {
	if err := Check("v1.2.3"); err != nil { // setup, outside any input
		f.Fatal(err)
	}
	g, err := grammar.Parse("versions", []byte(versions))
	if err != nil {
		f.Fatal(err)
	}
	fuzzharness.New(f, g, fuzzharness.WithExamples("v1.2.3-rc.1+build.5", "v0.0.1")).
		FuzzString(func(t *testing.T, s string) {
			if err := Check(s); err != nil {
				t.Fatal(err)
			}
		})
}
