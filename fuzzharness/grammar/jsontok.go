package grammar

import (
	"encoding/json"
	"unicode/utf8"
)

// jsonTokens is the part of *json.Decoder that the grammar reader uses.
type jsonTokens interface {
	Token() (json.Token, error)
	More() bool
	InputOffset() int64
}

// validTokens tokenizes a JSON text that json.Valid accepted, returning
// the same tokens as a json.Decoder with UseNumber, several times faster
// (the decoder checks syntax and decodes every string through reflection).
// It does not check syntax: invalid input goes to the decoder, whose errors
// the reader reports.
type validTokens struct {
	data []byte
	off  int
	str  string // data as a string, made on first use: strings without escapes are cut from it
}

// skipSpace skips white space and, like the decoder, the separators ','
// and ':', which its Token does not return.
func (t *validTokens) skipSpace() {
	for t.off < len(t.data) {
		switch t.data[t.off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			t.off++
		default:
			return
		}
	}
}

func (t *validTokens) More() bool {
	t.skipSpace()
	return t.off < len(t.data) && t.data[t.off] != ']' && t.data[t.off] != '}'
}

func (t *validTokens) InputOffset() int64 { return int64(t.off) }

func (t *validTokens) Token() (json.Token, error) {
	t.skipSpace()
	d := t.data
	start := t.off
	switch c := d[start]; c {
	case '{', '}', '[', ']':
		t.off++
		return json.Delim(c), nil
	case '"':
		esc := false
		i := start + 1
		for ; d[i] != '"'; i++ {
			if d[i] == '\\' {
				esc = true
				i++
			}
		}
		t.off = i + 1
		if raw := d[start+1 : i]; !esc && utf8.Valid(raw) {
			if t.str == "" {
				t.str = string(d)
			}
			return t.str[start+1 : i], nil
		}
		// Escapes and invalid UTF-8 (which the decoder replaces by U+FFFD)
		// are decoded as the decoder does.
		var s string
		if err := json.Unmarshal(d[start:t.off], &s); err != nil {
			return nil, err
		}
		return s, nil
	case 't':
		t.off += len("true")
		return true, nil
	case 'f':
		t.off += len("false")
		return false, nil
	case 'n':
		t.off += len("null")
		return nil, nil
	}
	i := start
	for i < len(d) && isJSONNumberByte(d[i]) {
		i++
	}
	t.off = i
	return json.Number(d[start:i]), nil
}

func isJSONNumberByte(c byte) bool {
	return '0' <= c && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}
