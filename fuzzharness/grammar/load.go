package grammar

import (
	"bytes"
	"os"
)

// Load reads a grammar file, in the notation or in the JSON form (see
// ParseAny).
func Load(path string) (*Grammar, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseAny(path, data)
}

// ParseAny parses src with ParseJSON if its first character other than
// white space is '{', and with Parse otherwise.
func ParseAny(filename string, src []byte) (*Grammar, error) {
	s := bytes.TrimPrefix(src, []byte("\uFEFF"))
	s = bytes.TrimLeft(s, " \t\r\n\f\v")
	if len(s) > 0 && s[0] == '{' {
		return ParseJSON(filename, src)
	}
	return Parse(filename, src)
}
