package grammar

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// The built-in grammars, one file each, in the notation Parse reads. Every
// file starts with a comment naming its source and its deviations from it.
//
//go:embed builtin/*.bnf
var builtinFS embed.FS

const builtinDir = "builtin"

// BuiltinNames returns the names of the built-in grammars, sorted:
//
//   - csv: comma-separated values (RFC 4180)
//   - expr: arithmetic expressions, the grammar of TRIBBLE's Fig. 1
//   - json: JSON texts (RFC 8259)
//   - scriptsizec: ISLa's Scriptsize-C, Tiny-C with declarations
//   - tinyc: Marc Feeley's Tiny-C
//   - url: absolute URIs (RFC 3986), as far as net/url accepts them
//   - xml: XML documents, the grammar of ISLa's Fig. 1, tags not matched
func BuiltinNames() []string {
	entries, err := fs.ReadDir(builtinFS, builtinDir)
	if err != nil {
		// The directory is embedded at build time; it cannot be missing.
		panic("grammar: built-in grammars not embedded: " + err.Error())
	}
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".bnf"); ok && !e.IsDir() {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// BuiltinSource returns the source text of the named built-in grammar.
func BuiltinSource(name string) ([]byte, error) {
	if !slices.Contains(BuiltinNames(), name) {
		return nil, fmt.Errorf("grammar: no built-in grammar %q (known: %s)", name, strings.Join(BuiltinNames(), ", "))
	}
	return builtinFS.ReadFile(path.Join(builtinDir, name+".bnf"))
}

// Builtin returns the named built-in grammar (see BuiltinNames), freshly
// parsed: the caller may modify it. Positions in it name the file
// "builtin/NAME.bnf". The error for an unknown name lists the known ones.
func Builtin(name string) (*Grammar, error) {
	src, err := BuiltinSource(name)
	if err != nil {
		return nil, err
	}
	return Parse(path.Join(builtinDir, name+".bnf"), src)
}

// MustBuiltin is like Builtin but panics on error. It is meant for names
// known to exist, such as literal ones.
func MustBuiltin(name string) *Grammar {
	g, err := Builtin(name)
	if err != nil {
		panic(err)
	}
	return g
}
